"""Declared types: a value's type as the rules write it (a field, a parameter, a list's items, a state value), read and checked once for every kind.

A type is ``int`` (``min``, ``max``), ``bool``, ``text``, ``choice`` (``enum``,
with ``members`` to define it there), ``list`` (``items``: one of those or
``record``, ``min_items`` and ``max_items``; an int item's ``min`` and ``max``,
a choice item's ``enum``, a record item's ``record``), ``record`` (``record``:
a record type the rules declare, by its class) or ``state`` (``state``: a
state with fields, by its class). ``Declared`` holds it as a ``Column`` of the
model, with the set of labels it names; ``field`` is how expressions see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..lang import expr
from ..lang.records import as_labels
from .model import (
    Column,
    EnumType,
)

if TYPE_CHECKING:
    from ..common.diagnostics import Path
    from .loader import SourceFile


class SystemBuilder(Protocol):
    """What reading a type asks of the system's builder (``semantics``)."""

    def err(
        self,
        src: SourceFile,
        path: Path,
        message: str,
        hint: str | None = None,
        *,
        key: bool = False,
    ) -> None: ...

    def enum(
        self,
        src: SourceFile,
        path: Path,
        class_name: str,
        members: list[dict[str, str]],
        ordered: bool,
    ) -> EnumType: ...

    def find_enum(self, src: SourceFile, path: Path, name: str) -> EnumType | None: ...

    def record_type(
        self,
        src: SourceFile,
        path: Path,
        name: str,
        *,
        state: bool = False,
        declared: bool = False,
    ) -> expr.RecordType | None: ...


__all__ = ["ITEMS", "VALUES", "Declared", "as_choice", "declared", "field_of"]

VALUES = ("int", "bool", "text", "choice", "list", "record", "state")
ITEMS = ("int", "bool", "text", "choice", "record")
# The keys each type takes besides ``type`` (and its column's own).
_KEYS = {
    "int": ("min", "max"),
    "choice": ("enum", "members"),
    "list": (
        "items",
        "min_items",
        "max_items",
        "min",
        "max",
        "enum",
        "members",
        "record",
    ),
    "record": ("record",),
    "state": ("state",),
}
_TYPED = (
    "min",
    "max",
    "enum",
    "members",
    "items",
    "record",
    "state",
    "min_items",
    "max_items",
)


@dataclass(frozen=True, slots=True)
class Declared:
    """A value's type as declared: its column, and the set of labels it (or
    its items) are of."""

    column: Column
    enum: EnumType | None

    @property
    def field(self) -> expr.Field:
        return field_of(self.column, self.enum)


def field_of(column: Column, enum: EnumType | None) -> expr.Field:
    """A declared type as the expression checker sees it."""
    labels = tuple(m.label for m in enum.members) if enum is not None else ()
    enum_name = enum.name if enum is not None else column.enum
    if column.type == "list":
        return expr.Field(
            "list",
            False,
            column.lo,
            column.hi,
            labels,
            enum_name,
            items=column.items,
            length=expr.Interval(column.min_items, column.max_items),
            record=column.record,
        )
    kind = (
        "choice" if enum_name is not None and column.type == "choice" else column.type
    )
    if kind == "range":  # not read by expressions
        kind = "int"
    return expr.Field(
        kind,
        column.nullable,
        column.lo if kind == "int" else None,
        column.hi if kind == "int" else None,
        labels,
        enum_name,
        record=column.record,
    )


def declared(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    *,
    owned: list[EnumType],
    allowed: tuple[str, ...] = VALUES,
    title: str | None = None,
) -> Declared | None:
    """The type ``raw`` declares at ``path`` (its ``name``, ``title``,
    ``description``, ``nullable`` and display keys as a column has them), a
    set of labels it defines added to ``owned``; None where it is wrong
    (every mistake reported, each at its key)."""
    kind = raw["type"]
    if kind not in allowed:
        shown = ", ".join(allowed)
        b.err(src, (*path, "type"), f"a {kind} cannot be here", f"types here: {shown}")
        return None
    ok = _keys(b, src, path, raw, kind)
    items = raw.get("items") if kind == "list" else None
    if kind == "list" and items is None:
        b.err(
            src,
            (*path, "type"),
            "a list needs 'items', its elements' type",
            "items: int",
        )
        return None
    if kind == "list" and raw.get("nullable"):
        hint = "remove 'nullable' (a list with no elements has a length of 0)"
        b.err(src, (*path, "nullable"), "a list is never null", hint)
        ok = False
    value = items or kind
    ok = _bounds(b, src, path, raw) and ok
    enum = _enum(b, src, path, raw, value, owned)
    record = _record(b, src, path, raw, value)
    if not ok or (value == "choice" and enum is None):
        return None
    if value in ("record", "state") and record is None:
        return None
    column = Column(
        name=raw.get("name", ""),
        type=kind,
        nullable=bool(raw.get("nullable", False)),
        null_label=raw.get("null_label", "—"),
        signed=raw.get("signed", False),
        unit=raw.get("unit"),
        title=title or raw.get("title") or raw.get("name", ""),
        description=raw.get("description"),
        enum=enum.name if enum is not None else None,
        items=items,
        record=record,
        lo=raw.get("min"),
        hi=raw.get("max"),
        min_items=raw.get("min_items", 0),
        max_items=raw.get("max_items"),
    )
    return Declared(column, enum)


def _keys(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any], kind: str
) -> bool:
    """Whether ``raw`` has only the keys its type takes (else each reported)."""
    takes = set(_KEYS.get(kind, ()))
    ok = True
    for key in _TYPED:
        if key in raw and key not in takes:
            b.err(
                src,
                (*path, key),
                f"a {kind} has no {key!r}",
                f"remove '{key}'",
                key=True,
            )
            ok = False
    return ok


def _bounds(b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]) -> bool:
    """Whether the least of each pair of bounds is at most the most."""
    ok = True
    for low, high in (("min", "max"), ("min_items", "max_items")):
        lo, hi = raw.get(low), raw.get(high)
        if lo is not None and hi is not None and lo > hi:
            b.err(src, (*path, low), f"{low} {lo} is above {high} {hi}")
            ok = False
    bounded = raw.get("min") is not None or raw.get("max") is not None
    if bounded and raw["type"] == "list" and raw.get("items") != "int":
        key = "min" if "min" in raw else "max"
        b.err(src, (*path, key), "only whole numbers have a min and a max", key=True)
        ok = False
    return ok


def _enum(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    value: str,
    owned: list[EnumType],
) -> EnumType | None:
    """The set of labels a choice (or a list of them) is of."""
    if value != "choice":
        if raw["type"] == "list" and ("enum" in raw or "members" in raw):
            key = "enum" if "enum" in raw else "members"
            b.err(src, (*path, key), "only a list of choices has an enum", key=True)
        return None
    if "enum" not in raw:
        b.err(src, path, "a choice needs 'enum' (with 'members' to define it here)")
        return None
    if "members" in raw:
        enum = b.enum(src, path, raw["enum"], raw["members"], False)
        owned.append(enum)
        return enum
    return b.find_enum(src, (*path, "enum"), raw["enum"])


def _record(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any], value: str
) -> str | None:
    """The record type (or state class) a value (or a list's items) is of,
    found among the rules (built first where it is declared later)."""
    if value not in ("record", "state"):
        if raw["type"] == "list" and "record" in raw:
            b.err(
                src, (*path, "record"), "only a list of records has a record", key=True
            )
        return None
    key = "state" if value == "state" else "record"
    if key not in raw:
        b.err(src, path, f"a {value} needs '{key}', its class", f"{key}: ClassName")
        return None
    found = b.record_type(
        src, (*path, key), raw[key], state=value == "state", declared=True
    )
    return None if found is None else found.name


def as_choice(checked: expr.Checked, enum: EnumType) -> expr.Checked | None:
    """A text expression whose every possible answer is a label of ``enum``,
    read as a choice of it (``"half" if two_handed else "covered"``); else None."""
    return as_labels(checked, enum.name, tuple(m.label for m in enum.members))
