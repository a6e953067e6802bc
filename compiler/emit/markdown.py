"""Markdown emitter: a lowered rule's own part of its reference page."""

from __future__ import annotations

from ..core.ir import Const, New, Record, Unit
from ..literals import code, md_cell
from ..runtime.dice import Dice
from ..viewkit import View, api, cell_md, column_type, dice_stats
from .python import type_name

TEMPLATE = "core/unit.md.j2"


def view(unit: Unit, common: View) -> View:
    """The page's own part (``core/unit.md.j2``) of the rule ``unit`` lowers, and
    its programmer's section, added to the ``common`` view of every rule page."""
    main = unit.main
    blocks = [_shown(main)]
    return common | {
        "blocks": blocks,
        "api": api(
            common,
            _value_line(main),
            fields=_fields(unit, main),
            fields_title="Its fields",
        ),
        "template": TEMPLATE,
    }


def _shown(const: Const) -> View:
    """A value as the reference shows it: dice with their figures, a record as a
    table of its fields."""
    if isinstance(const.value, New):
        return {
            "is": "figures",
            "rows": [
                [md_cell(c.title), cell_md(c, v), md_cell(c.description or "")]
                for c, v in const.value.fields
            ],
        }
    if isinstance(const.value, Dice):
        return {"is": "dice", "dice": [dice_stats(const.value)]}
    raise TypeError(f"no reference view of a {const.type!r} constant")


def _value_line(const: Const) -> str:
    line = f"Value: {code(f'{const.name}: {type_name(const.type)}')}"
    if const.aliases:
        line += ", also exported as " + ", ".join(code(a) for a in const.aliases)
    return line + "."


def _fields(unit: Unit, const: Const) -> list[View]:
    """The fields of a record the constant is, for its programmer's section."""
    if isinstance(const.type, str):
        return []
    record: Record = unit.record(const.type.name)
    return [
        {
            "name": code(c.name),
            "title": md_cell(c.title),
            "type": code(column_type(c)),
            "description": md_cell(c.description or ""),
        }
        for c in record.fields
    ]
