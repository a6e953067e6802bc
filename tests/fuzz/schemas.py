"""Fuzz schemas: the JSON Schemas of schema/ as the fuzzer walks them.

Every schema the validator uses (``compiler.front.schemas.resources``: the
hand-written ones and those composed from the registered kinds), with each
``$ref`` made absolute (``file#pointer``), and ``effective``: the keywords that
apply at one node, its references, ``allOf``, ``if``/``then`` and ``oneOf``
merged, so a generator or a mutation can ask "what may go here?" without
knowing any kind.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from rulesc.front.schemas import (
    SCHEMA_DIR,
    resources,
)

RULES_FILE = "rules.schema.json"
SYSTEM_FILE = "system.schema.json"
Json = Any


def _absolute(node: Json, base: str) -> Json:
    if isinstance(node, dict):
        out: dict[str, Json] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                target, _, pointer = value.partition("#")
                out[key] = f"{target or base}#{pointer}"
            elif key in ("properties", "$defs") and isinstance(value, dict):
                out[key] = {k: _absolute(v, base) for k, v in value.items()}
            elif key in ("const", "enum", "examples", "default"):
                out[key] = value
            else:
                out[key] = _absolute(value, base)
        return out
    if isinstance(node, list):
        return [_absolute(v, base) for v in node]
    return node


@dataclass
class Shape:
    """The keywords that apply at one node, merged."""

    types: list[str] = field(default_factory=list)
    properties: dict[str, Json] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    forbidden: set[str] = field(default_factory=set)
    additional: Json = True  # a schema, or False
    names: Json = None  # propertyNames
    items: Json = None
    prefix: list[Json] = field(default_factory=list)
    const: list[Json] = field(default_factory=list)  # [value] when there is one
    enum: list[Json] | None = None
    examples: list[Json] = field(default_factory=list)
    bounds: dict[str, int] = field(default_factory=dict)  # minimum, maxItems...
    pattern: str | None = None


_BOUNDS = (
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "maxProperties",
)


class Schemas:
    """Every schema of schema/, by file name, its references made absolute."""

    def __init__(self) -> None:
        self.files = {
            name: _absolute(schema, name)
            for name, schema in resources(SCHEMA_DIR).items()
        }

    def resolve(self, ref: str) -> Json:
        name, _, pointer = ref.partition("#")
        node = self.files[name]
        for part in filter(None, pointer.split("/")):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def root(self, name: str) -> Json:
        return self.files[name]

    def effective(
        self, schema: Json, value: Json = None, rng: random.Random | None = None
    ) -> Shape:
        """The shape at a node: ``value`` (when given) picks the branches of
        ``if`` and ``oneOf`` it matches; ``rng`` picks them otherwise."""
        shape = Shape()
        self._merge(shape, schema, value, rng, 0)
        return shape

    def _merge(
        self,
        shape: Shape,
        schema: Json,
        value: Json,
        rng: random.Random | None,
        depth: int,
    ) -> None:
        if not isinstance(schema, dict) or depth > 20:
            return
        if "$ref" in schema:
            self._merge(shape, self.resolve(schema["$ref"]), value, rng, depth + 1)
        kind = schema.get("type")
        if kind is not None:
            kinds = [kind] if isinstance(kind, str) else list(kind)
            shape.types = [t for t in shape.types if t in kinds] or kinds
        for name, sub in schema.get("properties", {}).items():
            shape.properties[name] = (
                {"allOf": [shape.properties[name], sub]}
                if name in shape.properties
                else sub
            )
        shape.required |= set(schema.get("required", ()))
        if "additionalProperties" in schema:
            shape.additional = schema["additionalProperties"]
        if schema.get("unevaluatedProperties") is False and shape.additional is True:
            shape.additional = False
        if "propertyNames" in schema:
            shape.names = schema["propertyNames"]
        if "items" in schema:
            shape.items = schema["items"]
        if "prefixItems" in schema:
            shape.prefix = list(schema["prefixItems"])
        if "const" in schema:
            shape.const = [schema["const"]]
        if "enum" in schema:
            shape.enum = list(schema["enum"])
        shape.examples += schema.get("examples", [])
        for bound in _BOUNDS:
            if bound in schema:
                shape.bounds[bound] = schema[bound]
        if "pattern" in schema:
            shape.pattern = schema["pattern"]
        if "not" in schema:
            shape.forbidden |= set(schema["not"].get("required", ()))
        subs = schema.get("allOf", ())
        conditional = [s for s in subs if "if" in s]
        if value is None and conditional:  # generating: one of the ifs holds
            conditional = [(rng or random.Random(0)).choice(conditional)]
        for sub in subs:
            if "if" not in sub:
                self._merge(shape, sub, value, rng, depth + 1)
            elif sub in conditional and self._holds(sub["if"], value):
                self._merge(shape, sub["if"], value, rng, depth + 1)
                self._merge(shape, sub.get("then"), value, rng, depth + 1)
        branches = schema.get("oneOf") or schema.get("anyOf")
        if branches:
            self._merge(
                shape, self._branch(branches, value, rng), value, rng, depth + 1
            )

    def _holds(self, cond: Json, value: Json) -> bool:
        """Whether an ``if`` holds of ``value`` (by its consts and required
        keys); of no value yet, it is made to."""
        if value is None:
            return True
        if not isinstance(value, dict):
            return False
        if any(k not in value for k in cond.get("required", ())):
            return False
        for name, sub in cond.get("properties", {}).items():
            if name in value and "const" in sub and value[name] != sub["const"]:
                return False
        return True

    def _branch(
        self, branches: list[Json], value: Json, rng: random.Random | None
    ) -> Json:
        if value is not None:
            for branch in branches:
                if self._fits(branch, value):
                    return branch
        return (rng or random.Random(0)).choice(branches)

    def _fits(self, branch: Json, value: Json) -> bool:
        shape = Shape()
        self._merge(shape, branch, value, None, 0)
        kind = _type_of(value)
        number = kind == "integer" and "number" in shape.types
        if shape.types and kind not in shape.types and not number:
            return False
        if isinstance(value, dict):
            return shape.required <= set(value) and not shape.forbidden & set(value)
        if shape.enum is not None:
            return value in shape.enum
        return True

    def kinds(self) -> list[str]:
        """The rule kinds the rules file's schema lists."""
        items = self.root(RULES_FILE)["properties"]["rules"]["items"]
        return list(items["properties"]["kind"]["enum"])


def _type_of(value: Json) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def type_of(value: Json) -> str:
    """The JSON Schema type of a value."""
    return _type_of(value)


def clone(value: Json) -> Json:
    return copy.deepcopy(value)
