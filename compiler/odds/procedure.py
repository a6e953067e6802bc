"""Procedure odds: the chances of fields of a procedure's answer, together, in any target's syntax."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from ..emit.odds import (
    Syntax,
    run_code,
)
from ..emit.turns_code import (
    Target,
    odds_cases,
    turns_odds,
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

__all__ = ["answer_cases", "column", "odds_body", "places", "procedure_plan"]


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


def odds_body(
    unit: Unit,
    decl: Procedure,
    syntax: Syntax,
    target: Callable[[str], Target],
    part: Callable[[Part], str],
    chain: Callable[[Sequence[str]], str],
    fields: Sequence[str],
) -> str:
    """The chances of ``fields`` of ``decl``'s answer together (the engine's
    distribution over tuples of them): where it takes turns, the absorbing
    chain the runtime solves (``chain``: its call; ``target``: how the target
    writes the turns, by the counter's name; ``part``: a value's code); else
    the plan of its bound names and its cases."""
    at = places(unit, decl, fields)
    if decl.turns is not None:
        found = []
        for place in at:
            cases = odds_cases(decl.body, place)
            assert cases is not None  # the lowering gives odds to cases alone
            found.append(cases)
        deep = None if decl.depth is None else decl.depth.node
        return turns_odds(
            decl.turns, found, syntax, target(decl.turns.counter), part, chain, deep
        )
    depth = None if decl.depth is None else syntax.emit(decl.depth.node)
    return run_code(procedure_plan(decl, at), syntax, depth)


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
