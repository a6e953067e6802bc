"""Fuzz mutations: one change to a document, guided by the schema at the node.

A node's schema (``schema_at``) says what may go there: a mutation makes a new
value from it (a fresh, valid-looking subtree), or breaks it on purpose: a
required key dropped, a value of the wrong type, an unknown or misspelt key, a
number at or past its bounds, an item (and so its name) duplicated, a name
replaced by another name of the document, a rule of another kind.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .generate import AWKWARD_INT, AWKWARD_TEXT, Generator
from .schemas import Json, Schemas, clone, type_of

Path = tuple[str | int, ...]
WRONG_TYPES: tuple[Json, ...] = ({}, [], "x", 0, -1, True, None, 1.5, [[]], {"x": 1})


def nodes(doc: Json, path: Path = ()) -> Iterator[tuple[Path, Json]]:
    """Every node of ``doc`` with its path, the root first."""
    yield path, doc
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from nodes(value, (*path, key))
    elif isinstance(doc, list):
        for at, value in enumerate(doc):
            yield from nodes(value, (*path, at))


def schema_at(schemas: Schemas, root: Json, doc: Json, path: Path) -> Json:
    """The schema of the node at ``path`` (``{}`` where none applies)."""
    schema, node = root, doc
    for step in path:
        shape = schemas.effective(schema, value=node)
        if isinstance(step, str):
            sub = shape.properties.get(step)
            if sub is None:
                sub = shape.additional if isinstance(shape.additional, dict) else {}
            node = node[step] if isinstance(node, dict) else None
        else:
            sub = shape.prefix[step] if step < len(shape.prefix) else shape.items
            node = node[step] if isinstance(node, list) else None
        schema = sub if sub is not None else {}
    return schema


def _set(doc: Json, path: Path, value: Json) -> Json:
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


class Mutator:
    """One random mutation of a document at a time."""

    def __init__(self, schemas: Schemas, generator: Generator, rng: random.Random):
        self.schemas = schemas
        self.gen = generator
        self.rng = rng
        self.ways: list[Callable[[Json, Json], Json]] = [
            self.regenerate,
            self.regenerate,
            self.drop_key,
            self.wrong_type,
            self.unknown_key,
            self.boundary,
            self.duplicate_item,
            self.rename,
            self.rename,
            self.other_kind,
            self.transplant,
        ]

    def mutate(self, root: Json, doc: Json) -> Json:
        return self.rng.choice(self.ways)(root, clone(doc))

    def _pick(self, doc: Json, want: Callable[[Json], bool]) -> Path | None:
        found = [p for p, node in nodes(doc) if want(node)]
        return self.rng.choice(found) if found else None

    def regenerate(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda _: True) or ()
        if not path:
            return doc
        key = next((s for s in reversed(path) if isinstance(s, str)), "")
        fresh = self.gen.make(schema_at(self.schemas, root, doc, path), key, 4)
        return _set(doc, path, fresh)

    def drop_key(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda n: isinstance(n, dict) and bool(n))
        if path is None:
            return doc
        node = doc
        for step in path:
            node = node[step]
        required = self.schemas.effective(
            schema_at(self.schemas, root, doc, path), value=node
        ).required
        keys = [k for k in node if k in required] or list(node)
        del node[self.rng.choice(keys)]
        return doc

    def wrong_type(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda _: True) or ()
        return _set(doc, path, clone(self.rng.choice(WRONG_TYPES)))

    def unknown_key(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda n: isinstance(n, dict))
        if path is None:
            return doc
        node = doc
        for step in path:
            node = node[step]
        keys = list(node)
        if keys and self.rng.random() < 0.6:
            key = self.rng.choice(keys)
            cut = self.rng.randrange(len(key)) if key else 0
            name = key[:cut] + key[cut + 1 :] or "x"  # a misspelling
        else:
            name = self.rng.choice(
                ["zz_unknown", "kind", "id", "name", "Id", "__proto__"]
            )
        node[name] = self.gen.make({}, name, 6)
        return doc

    def boundary(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda n: type(n) in (int, str))
        if path is None:
            return doc
        shape = self.schemas.effective(schema_at(self.schemas, root, doc, path))
        node = doc
        for step in path:
            node = node[step]
        if isinstance(node, int):
            near = [
                shape.bounds[b] + d
                for b in ("minimum", "maximum")
                if b in shape.bounds
                for d in (-1, 0, 1)
            ]
            value: Json = self.rng.choice(
                near + list(AWKWARD_INT) + [-node, node * 1000]
            )
        else:
            high = shape.bounds.get("maxLength", 200)
            value = self.rng.choice(
                [
                    "",
                    "x" * (high + 1),
                    node * 3,
                    *AWKWARD_TEXT,
                    node.upper(),
                    node + " ",
                ]
            )
        return _set(doc, path, value)

    def duplicate_item(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda n: isinstance(n, list) and bool(n))
        if path is None:
            return doc
        node = doc
        for step in path:
            node = node[step]
        node.insert(self.rng.randint(0, len(node)), clone(self.rng.choice(node)))
        return doc

    def rename(self, root: Json, doc: Json) -> Json:
        names = sorted(
            {n for _, n in nodes(doc) if isinstance(n, str) and n.isidentifier()}
        )
        path = self._pick(doc, lambda n: isinstance(n, str))
        if path is None or not names:
            return doc
        return _set(doc, path, self.rng.choice(names))

    def other_kind(self, root: Json, doc: Json) -> Json:
        path = self._pick(doc, lambda n: isinstance(n, dict) and "kind" in n)
        if path is None:
            return doc
        node = doc
        for step in path:
            node = node[step]
        node["kind"] = self.rng.choice(self.schemas.kinds())
        return doc

    def transplant(self, root: Json, doc: Json) -> Json:
        """A subtree copied over another of the same key (or of the same type)."""
        found = list(nodes(doc))
        path, node = self.rng.choice(found)
        if not path:
            return doc
        alike = [
            q
            for q, other in found
            if q
            and q != path
            and (q[-1] == path[-1] or type_of(other) == type_of(node))
        ]
        if not alike:
            return doc
        source = self.rng.choice(alike)
        value = doc
        for step in source:
            value = value[step]
        return _set(doc, path, clone(value))
