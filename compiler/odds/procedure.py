"""Procedure odds: the plan of the chances of fields of a procedure's answer, together (``compiler/emit/procedure_odds.py`` prints it)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.ir import (
    If,
    Label,
    Make,
    Part,
    Procedure,
    Refuse,
    Return,
    Stmt,
    Unit,
    Written,
)
from ..front.model import Column
from ..lang.nodes import (
    Checked,
    Node,
)
from .plan import (
    Case,
    Literal,
    Plan,
    Refusal,
    plan,
)

__all__ = ["answer_cases", "column", "places", "procedure_plan"]


def places(unit: Unit, decl: Procedure, fields: Sequence[str]) -> list[int]:
    """Where each of ``fields`` stands in what the procedure makes (0 for
    its one value)."""
    if not isinstance(decl.item, str):
        return [0 for _ in fields]
    names = [c.name for c in unit.record(decl.item).fields]
    return [names.index(f) for f in fields]


def column(unit: Unit, decl: Procedure, name: str) -> Column:
    """The column of a part of a procedure's answer (its one value, or a field)."""
    if isinstance(decl.item, str):
        return next(c for c in unit.record(decl.item).fields if c.name == name)
    assert isinstance(decl.item, Column)
    return decl.item


def procedure_plan(decl: Procedure, at: Sequence[int]) -> Plan:
    """The odds plan of the parts ``at`` of a procedure's answer (one without
    turns): its bound names, the guards among them, then its cases (the
    build's bound of its work follows the same plan)."""
    binds = [(b.name, b.checked.node) for b in decl.binds]
    guards = [stmt for _, stmt in decl.guards]
    answers = [
        answer_cases(guards, place) + answer_cases(decl.body, place) for place in at
    ]
    tests = [(before, _test(stmt)) for before, stmt in decl.guards]
    return plan(binds, answers, tests)


def _test(stmt: If) -> Node:
    assert isinstance(stmt.test, Checked)
    return stmt.test.node


def answer_cases(body: Sequence[Stmt], at: int) -> tuple[Case, ...]:
    """The cases of a body of tests each ending it (then the answer where
    none holds), as each test with the value at ``at`` of its answer, or its
    refusal."""
    found: list[Case] = []
    for stmt in body:
        test = None
        end: Stmt = stmt
        if isinstance(stmt, If):
            assert isinstance(stmt.test, Checked)
            (end,) = stmt.then
            test = stmt.test.node
        if isinstance(end, Refuse):
            found.append((test, Refusal(end.message)))
            continue
        assert isinstance(end, Return)
        made = end.value
        value = made.values[at] if isinstance(made, Make) else made
        found.append((test, _value(value)))
    return tuple(found)


def _value(part: Part) -> Node | Literal:
    if isinstance(part, Label | Written):
        return Literal(part)
    assert isinstance(part, Checked)
    return part.node
