"""JavaScript emitter: a lowered rule's part of its system's module and types."""

from __future__ import annotations

from ..core.ir import Const, New, Record, Type, Unit, Value
from ..js_kit import View, doc, js, record_literal, record_view
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
        d.name: record_view(d.name, d.fields, _doc_text(d.doc))
        for d in unit.decls
        if isinstance(d, Record)
    }
    shapes = {name: record["shape"] for name, record in records.items()}
    decls: list[View] = [
        {"is": "record", "record": records[decl.name]}
        if isinstance(decl, Record)
        else _const(decl, shapes)
        for decl in unit.decls
    ]
    return {"decls": decls}


def _const(decl: Const, shapes: dict[str, str]) -> View:
    what = "dice" if decl.type == "dice" else "value"
    return {
        "is": "const",
        "name": decl.name,
        "type": _type(decl.type),
        "value": _value(decl.value, shapes),
        "doc": doc(_doc_text(decl.doc)),
        "aliases": [
            {"name": camel(a), "doc": doc(f"The same {what} as {decl.name}.")}
            for a in decl.aliases
        ],
    }


def _value(value: Value, shapes: dict[str, str]) -> str:
    if isinstance(value, New):
        return record_literal(
            shapes[value.record], [(c.name, js(v)) for c, v in value.fields], ""
        )
    return js(value)


def _type(t: Type) -> str:
    return t.name if not isinstance(t, str) else _PRIM[t]


def _doc_text(text: str) -> str:
    return text.replace("``", "`")
