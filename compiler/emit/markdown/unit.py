"""Markdown emitter: a lowered rule's own part of its reference page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...core.ir import (
    Block,
    Const,
    Function,
    Grid,
    Listed,
    New,
    Procedure,
    Prose,
    RangeTable,
    Record,
    RollOn,
    RunShown,
    Scalar,
    Span,
    State,
    Table,
    Timeline,
    Unit,
)
from ...core.viewkit import (
    View,
    bounds,
    duration,
    rng_at,
)
from ...front.model import System
from ...lang.naming import words_of
from ...lang.nodes import (
    Binary,
    Call,
    walk,
)
from ...lang.py_names import (
    RNG,
    pyattr,
    pyname,
    rules_name,
)
from ...runtime.dice import Dice
from ..literals import (
    code,
    md,
    md_cell,
)
from ..python.procedure import answer_type
from ..python.unit import type_name
from ..viewkit import (
    api,
    cell_md,
    column_type,
    dice_stats,
    inputs,
    label_type,
    param_view,
    reader_name,
    rule_link,
    signature,
)
from .cases import (
    cases_block,
    cases_of,
    columns_of,
)
from .math import (
    display_parts,
)
from .math_text import (
    HALF_UP,
    ROUNDING,
    let_view,
    range_text,
)
from .reads import (
    Reads,
)
from .state import state_page
from .steps import (
    Say,
    name_words,
    steps,
)
from .words import label_words

TEMPLATE = "core/unit.md.j2"


def view(system: System, unit: Unit, common: View) -> View:
    """The page's own part (``core/unit.md.j2``) of the rule ``unit`` lowers, and
    its programmer's section, added to the ``common`` view of every rule page."""
    main = unit.main
    if isinstance(main, Function):
        return _function(system, main, common)
    if isinstance(main, RangeTable):
        return _range_table(main, common)
    if isinstance(main, Procedure):
        return _procedure(system, unit, main, common)
    if isinstance(main, Timeline):
        return _timeline(system, unit, main, common)
    if isinstance(main, State):
        return state_page(
            unit,
            main,
            common,
            [_block(system, b) for b in unit.page or ()],
            Say.of(system.rounding, Reads(system)),
        )
    if isinstance(main, Record):  # a record type: its fields
        return common | {
            "blocks": [_block(system, b) for b in unit.page or ()],
            "api": api(
                common,
                f"Class: {code(pyname(main.name))}.",
                fields=_fields(main, md_cell),
                fields_title="Its fields",
            ),
            "template": TEMPLATE,
        }
    if isinstance(main, Table):
        records = {d.name: d for d in unit.decls if isinstance(d, Record)}
        record = records.get(main.answers)
        if unit.page is not None:
            blocks = [_block(system, b) for b in unit.page]
        else:
            assert record is not None
            rolls = [d.dice for d in unit.decls if isinstance(d, RollOn)]
            blocks = [_table(main, record), *_dice_block(main, rolls)]
        return common | {
            "blocks": blocks,
            "api": api(
                common,
                _call_line(main),
                fields=_fields(record, md) if record else [],
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
    if const.type in ("faces", "symbol_faces") and isinstance(const.value, tuple):
        faces = list(const.value)
        return {
            "is": "Faces",
            "sides": len(faces),
            "rows": [[str(k), _face_md(face)] for k, face in enumerate(faces, 1)],
        }
    raise TypeError(f"no reference view of a {const.type!r} constant")


def _face_md(face: object) -> str:
    """A die's face as its page shows it: a number, its symbols, or blank."""
    if isinstance(face, tuple):
        return md_cell(", ".join(face)) if face else "blank"
    return md_cell(str(face))


def _table(table: Table, record: Record) -> View:
    """A table of records as its page shows it, one row a key."""
    rows = [(label, row) for label, row in table.rows if isinstance(row, New)]
    return {
        "is": "Table",
        "ordered": table.key.ordered,
        "key_title": md(table.key_title),
        "labels": ", ".join(md(label_words(m.label)) for m in table.key.members),
        "headers": [
            md_cell(table.key_title),
            *(md_cell(c.title) for c in record.fields),
        ],
        "rows": [
            [md_cell(label_words(label)), *(cell_md(c, v) for c, v in row.fields)]
            for label, row in rows
        ],
        "meanings": [
            f"**{md(c.title)}**: {md(c.description)}"
            for c in record.fields
            if c.description
        ],
    }


def _dice_block(table: Table, rolls: list[Dice]) -> list[View]:
    """The dice in a table's cells, column by column, then any it is rolled with."""
    rows = [row for _, row in table.rows if isinstance(row, New)]
    columns = len(rows[0].fields) if rows else 0
    dice = list(
        dict.fromkeys(
            cell
            for index in range(columns)
            for row in rows
            if isinstance(cell := row.fields[index][1], Dice)
        )
    )
    dice += [d for d in rolls if d not in dice]
    return [{"is": "TableDice", "dice": [dice_stats(d) for d in dice]}] if dice else []


def _call_line(table: Table) -> str:
    answers = table.answers + (" | None" if table.absent else "")
    signature = code(
        f"{table.name}({table.param}: {label_type(table.key)}) -> {answers}"
    )
    members = ", ".join(
        f"{code(m.name)} {code(repr(m.label))}" for m in table.key.members
    )
    ladder = ", an ordered ladder (lowest first; comparisons follow it)"
    return (
        f"Call: {signature}. Key: {code(table.key.name)}"
        f"{ladder if table.key.ordered else ''}: {members}."
        + (f" It answers None {md(table.absent)}." if table.absent else "")
    )


def _block(system: System, block: Block, common: View | None = None) -> View:
    """A part of a page a lowering wrote: a paragraph, a list, a table, dice,
    or the first worked example's run."""
    if isinstance(block, Prose):
        return {"is": "Prose", "text": _inline(system, block.text)}
    if isinstance(block, Listed):
        return {
            "is": "Listed",
            "entries": [_inline(system, item) for item in block.items],
            "numbered": block.numbered,
        }
    if isinstance(block, RunShown):
        return _run_shown(block, common or {})
    if isinstance(block, Grid):
        return {
            "is": "Grid",
            "headers": [md_cell(h) for h in block.headers],
            "rows": [
                [
                    md_cell(c) if isinstance(c, str) else cell_md(c.column, c.value)
                    for c in row
                ]
                for row in block.rows
            ],
        }
    return {
        "is": "DiceShown",
        "lead": md(block.lead),
        "dice": [dice_stats(d) for d in block.dice],
    }


def _field_names(item: object) -> tuple[str, ...]:
    """The fields of a record of the runtime (a light one is a named tuple)."""
    cls: Any = type(item)
    names: tuple[str, ...] = getattr(cls, "FIELDS", None) or cls._fields
    return names


def _figure(value: object) -> str:
    """A figure of a run's event in words (yes/no, a label in words)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return label_words(str(getattr(value, "value", value)))


def _run_shown(block: RunShown, common: View) -> View:
    """The first worked example's run: a row for each item of its list."""
    answer = common.get("first_answer")
    first = common.get("first_example")
    if answer is None or first is None:
        return {"is": "Prose", "text": ""}
    rows = []
    time, which = pyattr(block.time), pyattr(block.which)  # as Python spells them
    for item in getattr(answer, pyattr(block.field)):
        figures = [
            f"{words_of(rules_name(name, 'record'))} {_figure(getattr(item, name))}"
            for name in _field_names(item)
            if name not in (time, which) and getattr(item, name) is not None
        ]
        rows.append(
            [
                duration(getattr(item, time), block.units, block.singular),
                md_cell(label_words(str(getattr(item, which)))),
                md_cell(", ".join(figures)),
            ]
        )
    return {"is": "RunShown", **first, "example": first["name"], "rows": rows}


_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*")
_INLINE = re.compile(r"``(.+?)``|\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]")


def _inline(system: System, text: str) -> str:
    """Core doc text as Markdown: plain text escaped, ``code`` as code (a
    name, ``some_name``, in italic words as a parameter reads), and a
    reference to a function (or a rule, by its id) as a link to the rule's
    page."""
    rules = {r.id: r for r in system.rules} | Reads(system).functions
    out: list[str] = []
    at = 0
    for found in _INLINE.finditer(text):
        out.append(_plain(text[at : found.start()]))
        if found.group(1) is not None:  # a name reads as words, other code as code
            inner = found.group(1)
            named = _IDENTIFIER.fullmatch(inner)
            out.append(f"*{md(words_of(inner))}*" if named else code(inner))
        else:
            rule = rules.get(found.group(2))
            out.append(rule_link(rule) if rule else code(found.group(2)))
        at = found.end()
    out.append(_plain(text[at:]))
    return "".join(out)


def _plain(text: str) -> str:
    """Plain text between code and links, escaped, its spaces at either end kept."""
    core = text.strip()
    if not core:
        return " " if text else ""
    return (
        (" " if text[0].isspace() else "")
        + md(core)
        + (" " if text[-1].isspace() else "")
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
            "name": code(pyattr(c.name)),
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
    rolls = decl.rolls
    parts = [
        f"{pyname(p.name)}: {pyname(p.enum.name) if p.enum else p.type}"
        + (f" = {p.default!r}" if p.has_default else "")
        for p in decl.params
    ]
    if rolls:
        parts.insert(rng_at(decl.params), RNG)
    args = ", ".join(parts)
    nodes = [c.node for c in decl.expressions]
    math, where = display_parts(
        decl.answer.node, rounding=system.rounding, field=reads.latex
    )
    seen = [n for t in nodes for n in walk(t)]
    divides = any(isinstance(n, Binary) and n.op == "//" for n in seen)
    halves = any(isinstance(n, Call) and n.func == "round" and not n.rule for n in seen)
    notes = [ROUNDING[system.rounding]] * divides + [HALF_UP] * halves
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
        "rounding": " ".join(notes) or None,
    }
    return common | {
        "blocks": [block],
        "api": api(
            common,
            f"Call: {code(f'{pyname(decl.name)}({args}) -> int')}.",
            params=decl.params,
        ),
        "template": TEMPLATE,
    }


def _range_table(decl: RangeTable, common: View) -> View:
    """A range table as its page shows it: how a row is found, the rows, and
    the dice in them."""
    p = decl.param
    answer = pyname(decl.record) if decl.record else ""
    if decl.mapping is not None:
        answer = f"dict[{pyname(decl.mapping.name)}, str]"
    below = (
        f"{reader_name(p)} below {decl.rows[0].lo} gives no answer."
        if decl.below == "none" and decl.rows[0].lo > (p.min or 0)
        else ""
    )
    dice = list(
        dict.fromkeys(
            c for span in decl.rows for c in _cells(span) if isinstance(c, Dice)
        )
    )
    signature = code(
        f"{pyname(decl.name)}({pyname(p.name)}: int) -> {answer}"
        + (" | None" if decl.below == "none" else "")
    )
    block = {
        "is": "RangeTable",
        "param_title": md(decl.param_title),
        "allowed": bounds(p.min, p.max),
        "below": below,
        "covers": code(str(decl.covers)) if decl.covers else None,
        "headers": [
            md_cell(decl.param_title),
            *(md_cell(c.title) for c in decl.columns),
        ],
        "rows": [
            [
                md_cell(_span_text(span) + (f" ({span.label})" if span.label else "")),
                *(
                    cell_md(c, v)
                    for c, v in zip(decl.columns, _cells(span), strict=True)
                ),
            ]
            for span in decl.rows
        ],
    }
    dice_block = {"is": "TableDice", "dice": [dice_stats(d) for d in dice]}
    return common | {
        "blocks": [block, *([dice_block] if dice else [])],
        "api": api(common, f"Call: {signature}. Allowed: {bounds(p.min, p.max)}."),
        "template": TEMPLATE,
    }


def _cells(span: Span) -> tuple[Scalar | New, ...]:
    """A row's values, one per column."""
    if isinstance(span.value, New):
        return tuple(v for _, v in span.value.fields)
    return span.value.values


def _span_text(span: Span) -> str:
    if span.hi is None:
        return f"{span.lo}+"
    return str(span.lo) if span.lo == span.hi else f"{span.lo}-{span.hi}"


def _timeline(system: System, unit: Unit, decl: Timeline, common: View) -> View:
    """A timeline as its page says it: what the lowering wrote of it (its
    handlers are the rules' steps in its words)."""
    blocks = [_block(system, b, common) for b in unit.page or ()]
    if decl.params:
        blocks.insert(0, {"is": "Inputs", "inputs": inputs(decl.params)})
    params = signature(
        [param_view(p, decl.rule_id) for p in decl.params], decl.params, True
    )
    call = f"{pyname(decl.name)}({params}) -> {pyname(decl.result)}"
    return common | {
        "blocks": blocks,
        "api": api(
            common,
            f"Call: {code(call)}: every event, in time order, and the totals "
            f"below. {md(decl.answer_doc)}",
            params=decl.params,
            fields=_fields(unit.record(decl.result), md),
        ),
        "template": TEMPLATE,
    }


def _procedure(system: System, unit: Unit, decl: Procedure, common: View) -> View:
    """A procedure as its page says it: what the lowering wrote of it, then
    what it takes and its steps (or its table of cases), each expression as
    the rules write it."""
    blocks = [_block(system, b, common) for b in unit.page or ()]
    fields = tuple(columns_of(unit, decl))
    say = Say.of(system.rounding, Reads(system))
    cases = cases_of(decl.body, decl.answer is not None)
    if cases is not None:
        blocks.append(cases_block(system, unit, decl, cases))
    else:
        blocks.append(
            {
                "is": "Steps",
                "answer": name_words(decl.answer) if decl.answer is not None else None,
                "inputs": inputs(decl.params),
                "steps": [
                    f"- {name_words(b.name)} is {say.checked(b.checked)}."
                    for b in decl.binds
                ]
                + steps(decl.body, decl.answer, fields, "", say),
            }
        )
    params = signature(
        [param_view(p, decl.rule_id) for p in decl.params], decl.params, decl.rolls
    )
    call = f"{pyname(decl.name)}({params}) -> {answer_type(decl)}"
    said = f" {md(decl.answer_doc)}" if decl.answer_doc else ""
    return common | {
        "blocks": blocks,
        "api": api(
            common,
            f"Call: {code(call)}.{said}",
            params=decl.params,
            fields=_fields(unit.record(decl.item), md)
            if isinstance(decl.item, str)
            else [],
        ),
        "template": TEMPLATE,
    }
