"""Markdown emitter: a lowered rule's own part of its reference page."""

from __future__ import annotations

from collections.abc import Callable

from .. import expr
from ..core.ir import Const, Function, New, Record, RollOn, Table, Unit
from ..expr_math import display_parts
from ..expr_types import Binary, walk
from ..literals import code, md, md_cell
from ..model import System
from ..runtime.dice import Dice
from ..viewkit import (
    Reads,
    View,
    api,
    cell_md,
    column_type,
    dice_stats,
    inputs,
    label_type,
)
from .math_text import ROUNDING, let_view, range_text
from .python import type_name

TEMPLATE = "core/unit.md.j2"


def view(system: System, unit: Unit, common: View) -> View:
    """The page's own part (``core/unit.md.j2``) of the rule ``unit`` lowers, and
    its programmer's section, added to the ``common`` view of every rule page."""
    main = unit.main
    if isinstance(main, Function):
        return _function(system, main, common)
    if isinstance(main, Table):
        record = unit.record(main.record)
        rolls = [d.dice for d in unit.decls if isinstance(d, RollOn)]
        return common | {
            "blocks": [_table(main, record), *_dice_block(main, rolls)],
            "api": api(
                common,
                _call_line(main),
                fields=_fields(record, md),
                fields_title="Fields of each row",
            ),
            "template": TEMPLATE,
        }
    fields = (
        []
        if isinstance(main.type, str)
        else _fields(unit.record(main.type.name), md_cell)
    )
    return common | {
        "blocks": [_shown(main)],
        "api": api(common, _value_line(main), fields=fields, fields_title="Its fields"),
        "template": TEMPLATE,
    }


def _shown(const: Const) -> View:
    """A value as the reference shows it: dice with their figures, a record as a
    list of its fields' values."""
    if isinstance(const.value, New):
        return {
            "is": "Figures",
            "rows": [
                [md_cell(c.title), cell_md(c, v), md_cell(c.description or "")]
                for c, v in const.value.fields
            ],
        }
    if isinstance(const.value, Dice):
        return {"is": "Dice", "dice": [dice_stats(const.value)]}
    raise TypeError(f"no reference view of a {const.type!r} constant")


def _table(table: Table, record: Record) -> View:
    return {
        "is": "Table",
        "ordered": table.key.ordered,
        "key_title": md(table.key_title),
        "labels": ", ".join(md(m.label) for m in table.key.members),
        "headers": [
            md_cell(table.key_title),
            *(md_cell(c.title) for c in record.fields),
        ],
        "rows": [
            [md_cell(label), *(cell_md(c, v) for c, v in row.fields)]
            for label, row in table.rows
        ],
        "meanings": [
            f"**{md(c.title)}**: {md(c.description)}"
            for c in record.fields
            if c.description
        ],
    }


def _dice_block(table: Table, rolls: list[Dice]) -> list[View]:
    """The dice in a table's cells, column by column, then any it is rolled with."""
    columns = len(table.rows[0][1].fields) if table.rows else 0
    dice = list(
        dict.fromkeys(
            cell
            for index in range(columns)
            for _, row in table.rows
            if isinstance(cell := row.fields[index][1], Dice)
        )
    )
    dice += [d for d in rolls if d not in dice]
    return [{"is": "TableDice", "dice": [dice_stats(d) for d in dice]}] if dice else []


def _call_line(table: Table) -> str:
    signature = code(
        f"{table.name}({table.param}: {label_type(table.key)}) -> {table.record}"
    )
    members = ", ".join(
        f"{code(m.name)} {code(repr(m.label))}" for m in table.key.members
    )
    ladder = ", an ordered ladder (lowest first; comparisons follow it)"
    return (
        f"Call: {signature}. Key: {code(table.key.name)}"
        f"{ladder if table.key.ordered else ''}: {members}."
    )


def _value_line(const: Const) -> str:
    line = f"Value: {code(f'{const.name}: {type_name(const.type)}')}"
    if const.aliases:
        line += ", also exported as " + ", ".join(code(a) for a in const.aliases)
    return line + "."


def _fields(record: Record, text: Callable[[str], str]) -> list[View]:
    """A record's fields, for a programmer's section (titles and descriptions
    written by ``text``: ``md``, or ``md_cell`` for one line each)."""
    return [
        {
            "name": code(c.name),
            "title": text(c.title),
            "type": code(column_type(c)),
            "description": text(c.description or ""),
        }
        for c in record.fields
    ]


def _function(system: System, decl: Function, common: View) -> View:
    """A function as its page says it: what it takes, the names it binds, its
    answer in math, the answer's range, and what it reads."""
    interval = decl.answer.interval
    reads = Reads(system)
    args = ", ".join(
        f"{p.name}: {p.enum.name if p.enum else p.type}"
        + (f" = {p.default!r}" if p.has_default else "")
        for p in decl.params
    )
    nodes = [c.node for c in decl.expressions]
    rolls = any(expr.dice_in(n) is not None for n in nodes)
    rng = (", rng" if args else "rng") if rolls else ""
    math, where = display_parts(
        decl.answer.node, rounding=system.rounding, field=reads.latex
    )
    divides = any(
        isinstance(n, Binary) and n.op == "//" for t in nodes for n in walk(t)
    )
    block = {
        "is": "Function",
        "math": math,
        "where": where,
        "lets": [let_view(system, b, reads) for b in decl.binds],
        "unit": md(decl.unit) if decl.unit else None,
        "range": range_text(interval.lo, interval.hi) if interval else "",
        "unbounded": md(decl.unbounded_because) if decl.unbounded_because else None,
        "inputs": inputs(decl.params),
        "reads": reads.links(nodes, decl.rule_id.rpartition(".")[2]),
        "calls_rolling": reads.rolled(nodes),
        "rounding": ROUNDING[system.rounding] if divides else None,
    }
    return common | {
        "blocks": [block],
        "api": api(
            common,
            f"Call: {code(f'{decl.name}({args}{rng}) -> int')}.",
            params=decl.params,
        ),
        "template": TEMPLATE,
    }
