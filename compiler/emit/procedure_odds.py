"""Procedure odds: the body of a procedure's odds function, in any target's syntax."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.ir import If, Make, Part, Procedure, Refuse, Return, Unit
from ..expr_odds import Guard, Syntax, bind_lets
from ..expr_types import Checked, StrLit
from .turns_code import Target, odds_cases, turns_odds

__all__ = ["odds_body"]


def odds_body(
    unit: Unit,
    decl: Procedure,
    syntax: Syntax,
    target: Callable[[str], Target],
    part: Callable[[Part], str],
    chain: Callable[[Sequence[str]], str],
    called: str,
) -> str:
    """The chances of the part of ``decl``'s answer that has odds: where it
    takes turns, the absorbing chain the runtime solves (``chain``: its call;
    ``target``: how the target writes the turns, by the counter's name;
    ``part``: a value's code); else each bound name followed, in order, into
    ``called`` (the private function's call, reading that part)."""
    at, _ = unit.odds_part(decl)
    if decl.turns is not None:
        cases = odds_cases(decl.body, at)
        assert cases is not None  # the lowering gives odds to cases alone
        return turns_odds(
            decl.turns, cases, syntax, target(decl.turns.counter), part, chain
        )
    binds = [(b.name, b.checked.node) for b in decl.binds]
    reads = [c.node for c in decl.odds_reads(at)]
    depth = None if decl.depth is None else syntax.emit(decl.depth.node)
    guards = [_guard(n, stmt, at, syntax, part) for n, stmt in decl.guards]
    called = syntax.call("const", [called])
    return bind_lets(binds, syntax, called, reads, depth, guards)


def _guard(
    before: int, stmt: If, at: int, syntax: Syntax, part: Callable[[Part], str]
) -> Guard:
    """A guard among the names, as the odds try it: its answer's part ``at``
    known for certain, or its refusal."""
    assert isinstance(stmt.test, Checked)
    (end,) = stmt.then
    if isinstance(end, Refuse):
        message = syntax.emit(StrLit(end.message, 0, 0))
        refused = syntax.call("refuse", [message])
        return Guard(before, stmt.test.node, refused, (stmt.test.node,))
    assert isinstance(end, Return)
    value = end.value.values[at] if isinstance(end.value, Make) else end.value
    reads = (value.node,) if isinstance(value, Checked) else ()
    then = syntax.call("const", [part(value)])
    return Guard(before, stmt.test.node, then, (stmt.test.node, *reads))
