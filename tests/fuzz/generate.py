"""Fuzz generation: documents that follow the schemas of schema/, from a seed.

Each node is made from the keywords that apply to it (``Schemas.effective``):
required keys always, optional ones now and then, enums and consts, types,
bounds and patterns. Text and numbers are drawn from what the real rules files
hold under the same key (so a formula gets a formula, a reference names a rule
that exists), from the schema's ``examples``, or from a list of awkward values.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path

import yaml

from .schemas import Json, Schemas, Shape, type_of

ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = (ROOT / "rules", ROOT / "tests" / "cookbook", ROOT / "tests" / "values")
AWKWARD_TEXT = (
    "",
    " ",
    "x",
    "None",
    "True",
    "__proto__",
    "constructor",
    "then",
    "class",
    "import",
    "self",
    "0",
    "-1",
    "1d0",
    "0d6",
    "3d",
    "d6",
    "2d6x",
    "999999d999999",
    "1 // 0",
    "max()",
    "x if y",
    "a..b",
    "é",
    "\u202e",
    "\x1b[2J",
    "line\nbreak",
    "tab\there",
    "{x}",
    "${x}",
    "{{ x }}",
    "*/",
    "`",
    "<script>",
    '"',
    "'",
    "\\",
    "😀",
)
AWKWARD_INT = (0, 1, -1, 2, 7, 100, 2**31, -(2**31), 2**53 + 1, 10**15)


def seed_documents() -> list[tuple[str, Json]]:
    """The real rules files (rules/, the cookbook and tests/values) by name, as data."""
    found = []
    for folder in SEED_DIRS:
        for path in sorted(folder.glob("*/*.yaml")):  # not a package.yaml
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                found.append((path.name, data))
    return found


class Vocabulary:
    """What the real rules files hold, by the key it is under."""

    def __init__(self, documents: list[tuple[str, Json]]) -> None:
        self.text: dict[str, list[str]] = defaultdict(list)
        self.ints: dict[str, list[int]] = defaultdict(list)
        self.values: dict[str, list[Json]] = defaultdict(list)
        self.all_text: list[str] = []
        for _, doc in documents:
            self._walk(doc, "")
        self.all_text = sorted(set(self.all_text))
        self.text = {k: sorted(set(v)) for k, v in self.text.items()}

    def _walk(self, node: Json, key: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                self.values[k].append(v)
                self._walk(v, k)
        elif isinstance(node, list):
            for v in node:
                self._walk(v, key)
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            self.ints[key].append(node)
        elif isinstance(node, str) and len(node) <= 200:
            self.text[key].append(node)
            self.all_text.append(node)


class Generator:
    """Documents that follow the schemas, drawn with ``rng``."""

    def __init__(self, schemas: Schemas, vocabulary: Vocabulary, rng: random.Random):
        self.schemas = schemas
        self.vocab = vocabulary
        self.rng = rng

    def make(self, schema: Json, key: str = "", depth: int = 0) -> Json:
        shape = self.schemas.effective(schema, rng=self.rng)
        return self.of_shape(shape, key, depth)

    def of_shape(self, shape: Shape, key: str, depth: int) -> Json:
        rng = self.rng
        if shape.const:
            return shape.const[0]
        if shape.enum:
            return rng.choice(shape.enum)
        if shape.examples and rng.random() < 0.2:
            return rng.choice(shape.examples)
        types = shape.types or (
            ["object"] if shape.properties else ["string", "integer", "boolean"]
        )
        if key in self.vocab.values and rng.random() < 0.3:
            fitting = [v for v in self.vocab.values[key] if type_of(v) in types]
            if fitting:
                return rng.choice(fitting)
        kind = rng.choice(types)
        if kind == "object":
            return self._object(shape, depth)
        if kind == "array":
            return self._array(shape, key, depth)
        if kind == "string":
            return self.text(shape, key)
        if kind in ("integer", "number"):
            return self.integer(shape, key)
        if kind == "boolean":
            return rng.random() < 0.5
        return None

    def _object(self, shape: Shape, depth: int) -> dict[str, Json]:
        rng = self.rng
        out: dict[str, Json] = {}
        chance = 0.5 if depth < 6 else 0.1
        for name, sub in shape.properties.items():
            if name in shape.forbidden:
                continue
            if name in shape.required or rng.random() < chance:
                out[name] = self.make(sub, name, depth + 1)
        for name in shape.required - set(out):
            out[name] = self.make({}, name, depth + 1)
        if isinstance(shape.additional, dict) and depth < 8:
            room = shape.bounds.get("maxProperties", 3)
            for _ in range(rng.randint(0, min(3, room))):
                name = self.text(self.schemas.effective(shape.names or {}), "")
                out[name] = self.make(shape.additional, name, depth + 1)
        return out

    def _array(self, shape: Shape, key: str, depth: int) -> list[Json]:
        low = shape.bounds.get("minItems", 0)
        high = min(shape.bounds.get("maxItems", low + 3), low + (3 if depth < 6 else 1))
        count = self.rng.randint(low, max(low, high))
        out = []
        for at in range(count):
            sub = shape.prefix[at] if at < len(shape.prefix) else shape.items
            out.append(self.make(sub if sub is not None else {}, key, depth + 1))
        return out

    def text(self, shape: Shape, key: str) -> str:
        rng = self.rng
        if shape.examples and rng.random() < 0.3:
            pool = [e for e in shape.examples if isinstance(e, str)]
        elif rng.random() < 0.7:
            pool = self.vocab.text.get(key) or self.vocab.all_text
        elif rng.random() < 0.8:
            pool = self.vocab.all_text
        else:
            pool = list(AWKWARD_TEXT)
        low = shape.bounds.get("minLength", 0)
        high = shape.bounds.get("maxLength", 10**6)
        pattern = re.compile(shape.pattern) if shape.pattern else None
        fitting = [
            t
            for t in pool
            if low <= len(t) <= high and (pattern is None or pattern.search(t))
        ]
        if not fitting and pattern is not None:
            fitting = [t for t in self.vocab.all_text if pattern.search(t)]
        return rng.choice(fitting or pool or ["x"])

    def integer(self, shape: Shape, key: str) -> int:
        rng = self.rng
        low = shape.bounds.get("minimum")
        high = shape.bounds.get("maximum")
        seen = self.vocab.ints.get(key, [])
        roll = rng.random()
        if seen and roll < 0.5:
            value = rng.choice(seen)
        elif roll < 0.8:
            start = low if low is not None else -3
            value = rng.randint(start, max(start, 12))
        else:
            value = rng.choice(AWKWARD_INT)
        if low is not None:
            value = max(value, low)
        if high is not None:
            value = min(value, high)
        return value
