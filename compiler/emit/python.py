"""Python emitter: a lowered rule's part of its system's module."""

from __future__ import annotations

from ..core.ir import Const, New, Record, Type, Unit, Value
from ..literals import docstring, py
from ..viewkit import Import, View, column_type

TEMPLATE = "core/unit.py.j2"

_PRIM = {
    "int": "int",
    "bool": "bool",
    "text": "str",
    "dice": "Dice",
    "range": "tuple[int, int]",
}


def value_text(value: Value) -> str:
    """A value as a Python expression (a record by its constructor)."""
    if isinstance(value, New):
        args = ", ".join(f"{c.name}={value_text(v)}" for c, v in value.fields)
        return f"{value.record}({args})"
    return py(value)


def view(unit: Unit) -> View:
    """What ``core/unit.py.j2`` prints: each declaration, the module's imports
    it needs and the names it exports."""
    items: list[View] = []
    imports: set[Import] = set()
    exports: list[str] = []
    for decl in unit.decls:
        if isinstance(decl, Record):
            items.append(_record(decl))
            imports |= {("rulebook.json", "Record"), ("typing", "ClassVar")}
            if any(c.type == "dice" for c in decl.fields):
                imports.add(("rulebook.dice", "Dice"))
            exports.append(decl.name)
        else:
            items.append(_const(decl))
            imports.add(("typing", "Final"))
            if decl.type == "dice":
                imports.add(("rulebook.dice", "Dice"))
            exports += [decl.name, *decl.aliases]
    return {
        "decls": items,
        "imports": sorted(imports),
        "exports": exports,
        "template": TEMPLATE,
    }


def _record(decl: Record) -> View:
    return {
        "is": "record",
        "name": decl.name,
        "doc": docstring(decl.doc, "    "),
        "fields": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in decl.fields
        ],
    }


def _const(decl: Const) -> View:
    return {
        "is": "const",
        "name": decl.name,
        "type": type_name(decl.type),
        "value": value_text(decl.value),
        "doc": docstring(decl.doc),
        "aliases": list(decl.aliases),
    }


def type_name(t: Type) -> str:
    """A core type as a Python annotation."""
    return _PRIM[t] if isinstance(t, str) else t.name
