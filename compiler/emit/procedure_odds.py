"""Procedure odds code: the chances of fields of a procedure's answer, together, in any target's syntax."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.ir import (
    Part,
    Procedure,
    Unit,
)
from ..odds.procedure import (
    places,
    procedure_plan,
)
from .odds import (
    Syntax,
    run_code,
)
from .turns_code import (
    Target,
    odds_cases,
    turns_odds,
)


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
