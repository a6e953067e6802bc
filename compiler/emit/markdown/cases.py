"""Markdown cases: a procedure whose body is tests tried in order, each ending it, as a table of cases."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.ir import (
    Bind,
    Emit,
    If,
    Label,
    Make,
    Part,
    Present,
    Procedure,
    Read,
    Recorded,
    Refuse,
    Return,
    Stmt,
    Unit,
    Written,
)
from ...core.viewkit import (
    View,
)
from ...front.model import (
    Column,
    System,
)
from ...lang import expr
from ...lang.naming import words_of
from ...runtime.dice import Dice
from ..literals import (
    md,
    md_cell,
)
from ..viewkit import (
    inputs,
)
from .math import (
    to_latex,
)
from .math_text import let_view
from .reads import (
    Reads,
)
from .steps import (
    Say,
    name_words,
)
from .turns import turns_view

Case = tuple[expr.Checked | None, Return | Emit | Refuse]


def cases_of(body: Sequence[Stmt], collects: bool) -> list[Case] | None:
    """The cases of a body written as a table of cases (None where the body
    is not of that shape): tests tried in order, each leading to one answer
    or refusal, then the answer or refusal where none holds; or, where the
    procedure ``collects`` a list, tests each leading to an item added (or a
    refusal), any of them without a test. (Cases proved exclusive may all be
    tested.)"""
    ends = (Emit, Refuse) if collects else (Return, Refuse)
    found: list[Case] = []
    for index, stmt in enumerate(body):
        last = index == len(body) - 1
        if (last or collects) and isinstance(stmt, ends):
            found.append((None, stmt))
        elif (
            isinstance(stmt, If)
            and not isinstance(stmt.test, Present)
            and not stmt.otherwise
            and len(stmt.then) == 1
            and isinstance(stmt.then[0], ends)
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

    say = Say.of(rounding, reads)

    def show(value: Part, column: Column) -> str:
        if isinstance(value, Written):
            if value.value is None:
                return md_cell(column.null_label)
            if isinstance(value.value, bool):
                return "yes" if value.value else "no"
            if isinstance(value.value, Dice) and value.value.unit:
                return md_cell(f"{value.value} {value.value.unit}")
            return md_cell(str(value.value))
        if isinstance(value, Label):
            return md_cell(value.label)
        if isinstance(value, Read):
            return f"the {md_cell(words_of(value.field))} of {name_words(value.name)}"
        if isinstance(value, Recorded):
            return "the events recorded"
        if value.type == "int":
            return (
                "$" + to_latex(value.node, rounding=rounding, field=reads.latex) + "$"
            )
        if value.type == "bool":
            return say.condition(value.node)
        return say.value(value.node)

    def answer(stmt: Return | Emit | Refuse, index: int) -> str:
        if isinstance(stmt, Refuse):
            return "refused: " + md_cell(stmt.message)
        made = stmt.value if isinstance(stmt, Return) else stmt.values
        parts = made.values if isinstance(made, Make) else made
        if not isinstance(parts, tuple):
            parts = (parts,)
        return show(parts[index], columns[index])

    def when(test: expr.Checked | None) -> str:
        return "otherwise" if test is None else say.condition(test.node)

    def guard(stmt: If) -> str:
        """A guard among the names, as a sentence."""
        assert isinstance(stmt.test, expr.Checked)
        (end,) = stmt.then
        test = say.condition(stmt.test.node)
        if isinstance(end, Refuse):
            return f"If {test}, the call is refused: {md(end.message)}"
        assert isinstance(end, Return | Emit)
        given = [
            f"{md_cell(c.title)} {answer(end, index)}"
            for index, c in enumerate(columns)
        ]
        return f"If {test}, the answer is {', '.join(given)}, and no name after is worked out."

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
    if decl.turns is not None:  # its new values as written (kept ones are read)
        nodes += [s.written.node for s in decl.turns.sets]
    return {
        "is": "Cases",
        "repeat": turns_view(system, decl.turns, reads) if decl.turns else None,
        "inputs": inputs(decl.params),
        "lets": [
            let_view(system, step, reads)
            if isinstance(step, Bind)
            else {"guard": guard(step)}
            for step in decl.prelude()
        ],
        "policy": _policy(decl, wide),
        "headers": headers,
        "rows": rows,
        "meanings": [
            f"**{md(c.title)}**: {md(c.description)}" for c in columns if c.description
        ],
        "reads": reads.links(nodes, decl.rule_id.rpartition(".")[2]),
        "calls_rolling": reads.rolled(nodes),
    }


def _policy(decl: Procedure, wide: bool) -> str:
    """How the table of cases is read: every case that holds adds to the list,
    exactly one holds (at most one, with the last answering where none does),
    or the first that holds answers."""
    if decl.answer is not None:
        return (
            "Each column is a case; every case whose condition holds adds its "
            "answer, from left to right, to the list:"
            if wide
            else "Every row whose condition holds adds its answer to the list, "
            "in this order:"
        )
    if decl.exclusive and isinstance(decl.body[-1], If):  # proved to answer every call
        return (
            "Each column is a case; exactly one condition holds, and that case "
            "gives the answer:"
            if wide
            else "Exactly one row's condition holds, and that row gives the answer:"
        )
    if decl.exclusive:  # the last case answers where no other holds
        return (
            "Each column is a case; at most one condition holds, and that case "
            "gives the answer (the last where none holds):"
            if wide
            else "At most one row's condition holds, and that row gives the answer "
            "(the last where none holds):"
        )
    return (
        "Each column is a case, tried from left to right; the first whose "
        "condition holds gives the answer:"
        if wide
        else "The first row whose condition holds gives the answer:"
    )
