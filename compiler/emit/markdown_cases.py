"""Markdown cases: a procedure whose body is tests tried in order, each ending it, as a table of cases."""

from __future__ import annotations

from collections.abc import Sequence

from .. import expr
from ..core.ir import (
    If,
    Label,
    Make,
    Part,
    Present,
    Procedure,
    Read,
    Refuse,
    Return,
    Stmt,
    Unit,
    Written,
)
from ..expr_math import to_latex
from ..expr_words import to_words, value_words
from ..literals import code, md, md_cell
from ..model import Column, System
from ..viewkit import Reads, View, inputs
from .math_text import let_view

Case = tuple[expr.Checked | None, Return | Refuse]


def cases_of(body: Sequence[Stmt]) -> list[Case] | None:
    """The cases of a body written as a table of cases: tests tried in order,
    each leading to one answer or refusal, then the answer or refusal where
    none holds (None where the body is not of that shape)."""
    found: list[Case] = []
    for index, stmt in enumerate(body):
        last = index == len(body) - 1
        if last and isinstance(stmt, Return | Refuse):
            found.append((None, stmt))
        elif (
            not last
            and isinstance(stmt, If)
            and not isinstance(stmt.test, Present)
            and not stmt.otherwise
            and len(stmt.then) == 1
            and isinstance(stmt.then[0], Return | Refuse)
        ):
            found.append((stmt.test, stmt.then[0]))
        else:
            return None
    return found or None


def columns_of(unit: Unit, decl: Procedure) -> list[Column]:
    """What one answer of ``decl`` is made of: its record's fields, a value for
    each of its keys, or its one value (none for whole numbers)."""
    if isinstance(decl.item, str):
        return list(unit.record(decl.item).fields)
    if not isinstance(decl.item, Column):
        return []
    if decl.keys is None:
        return [decl.item]
    return [
        Column(
            m.label,
            decl.item.type,
            decl.item.nullable,
            decl.item.null_label,
            decl.item.signed,
            decl.item.unit,
            m.label,
            None,
            decl.item.enum,
        )
        for m in decl.keys.members
    ]


def cases_block(system: System, unit: Unit, decl: Procedure, cases: list[Case]) -> View:
    """The block of the page that shows ``cases``: how the table is read, the
    table (a row a case, or where the answer has many parts a column a case),
    what each part means, and the rules it reads."""
    reads = Reads(system)
    rounding = system.rounding
    columns = columns_of(unit, decl)

    def words(node: expr.Node) -> str:
        return to_words(
            node, rounding=rounding, field=reads.words, latex_field=reads.latex
        )

    def show(value: Part, column: Column) -> str:
        if isinstance(value, Written):
            if value.value is None:
                return md_cell(column.null_label)
            if isinstance(value.value, bool):
                return "yes" if value.value else "no"
            return md_cell(str(value.value))
        if isinstance(value, Label):
            return md_cell(value.label)
        if isinstance(value, Read):
            return code(f"{value.name}.{value.field}")
        if value.type == "int":
            return (
                "$" + to_latex(value.node, rounding=rounding, field=reads.latex) + "$"
            )
        if value.type == "bool":
            return words(value.node)
        return value_words(
            value.node, rounding=rounding, field=reads.words, latex_field=reads.latex
        )

    def answer(stmt: Return | Refuse, index: int) -> str:
        if isinstance(stmt, Refuse):
            return "refused: " + md_cell(stmt.message)
        parts = stmt.value.values if isinstance(stmt.value, Make) else (stmt.value,)
        return show(parts[index], columns[index])

    def when(test: expr.Checked | None) -> str:
        return "otherwise" if test is None else words(test.node)

    wide = len(columns) > 6
    if wide:  # one row per part of the answer, one column per case
        headers = [
            md_cell("Key" if decl.keys is not None else "Answer"),
            *(when(test) for test, _ in cases),
        ]
        rows = [
            [md_cell(c.title), *(answer(stmt, index) for _, stmt in cases)]
            for index, c in enumerate(columns)
        ]
    else:
        headers = ["When", *(md_cell(c.title) for c in columns)]
        rows = [
            [when(test), *(answer(stmt, index) for index in range(len(columns)))]
            for test, stmt in cases
        ]
    nodes = [c.node for c in decl.expressions]
    return {
        "is": "Cases",
        "inputs": inputs(decl.params),
        "lets": [let_view(system, b, reads) for b in decl.binds],
        "policy": (
            "Each column is a case, tried from left to right; the first whose "
            "condition holds gives the answer:"
            if wide
            else "The first row whose condition holds gives the answer:"
        ),
        "headers": headers,
        "rows": rows,
        "meanings": [
            f"**{md(c.title)}**: {md(c.description)}" for c in columns if c.description
        ],
        "reads": reads.links(nodes, decl.rule_id.rpartition(".")[2]),
        "calls_rolling": reads.rolled(nodes),
    }
