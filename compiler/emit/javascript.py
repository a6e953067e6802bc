"""JavaScript emitter: a lowered rule's part of its system's module and types."""

from __future__ import annotations

from ..core.ir import Const, Enum, New, Record, RollOn, Table, Type, Unit, Value
from ..js_kit import (
    View,
    doc,
    enum_view,
    js,
    member,
    record_literal,
    record_view,
)
from ..js_naming import camel

TEMPLATES = ("core/unit.js.j2", "core/unit.d.ts.j2")

_PRIM = {
    "int": "number",
    "bool": "boolean",
    "text": "string",
    "dice": "$dice.Dice",
    "range": "readonly [number, number]",
}


def view(unit: Unit) -> View:
    """What ``core/unit.js.j2`` and ``core/unit.d.ts.j2`` print."""
    records = {
        d.name: record_view(d.name, d.fields, _record_doc(d))
        for d in unit.decls
        if isinstance(d, Record)
    }
    shapes = {name: record["shape"] for name, record in records.items()}
    decls: list[View] = []
    for decl in unit.decls:
        if isinstance(decl, Enum):
            decls.append({"is": "Enum", "enum": enum_view(decl.enum, _text(decl.doc))})
        elif isinstance(decl, Record):
            decls.append({"is": "Record", "record": records[decl.name]})
        elif isinstance(decl, Table):
            decls.append(_table(decl, shapes))
        elif isinstance(decl, RollOn):
            decls.append(_roll_on(decl))
        else:
            decls.append(_const(decl, shapes))
    return {"decls": decls}


def _record_doc(decl: Record) -> str:
    if decl.row_of is None:
        return _text(decl.doc)
    return f"A row of `{camel(decl.row_of)}`. {_text(decl.doc)}"


def _const(decl: Const, shapes: dict[str, str]) -> View:
    what = "dice" if decl.type == "dice" else "value"
    return {
        "is": "Const",
        "name": decl.name,
        "type": _type(decl.type),
        "value": _value(decl.value, shapes, ""),
        "doc": doc(_text(decl.doc)),
        "aliases": [
            {"name": camel(a), "doc": doc(f"The same {what} as {decl.name}.")}
            for a in decl.aliases
        ],
    }


def _table(decl: Table, shapes: dict[str, str]) -> View:
    return {
        "is": "Table",
        "function": camel(decl.name),
        "param": camel(decl.param),
        "enum": decl.key.name,
        "record": decl.record,
        "rows_name": decl.rows_name,
        "rows": [
            {"key": member(decl.key, label), "value": _value(row, shapes, "  ")}
            for label, row in decl.rows
        ],
        "doc": doc(
            f"{_text(decl.doc)} Throws RuleInputError for a label the table does "
            "not have."
        ),
    }


def _roll_on(decl: RollOn) -> View:
    return {
        "is": "RollOn",
        "function": camel(decl.name),
        "enum": decl.key.name,
        "dice_name": decl.dice_name,
        "dice": js(decl.dice),
        "entries_name": decl.entries_name,
        "entries": [
            {"roll": js(roll), "member": member(decl.key, label)}
            for roll, label in decl.entries
        ],
        "doc": doc(_text(decl.doc)),
    }


def _value(value: Value, shapes: dict[str, str], indent: str) -> str:
    if isinstance(value, New):
        return record_literal(
            shapes[value.record], [(c.name, js(v)) for c, v in value.fields], indent
        )
    return js(value)


def _type(t: Type) -> str:
    return t.name if not isinstance(t, str) else _PRIM[t]


def _text(text: str) -> str:
    """A core doc in JavaScript's markup (inline code in single backticks)."""
    return text.replace("``", "`")
