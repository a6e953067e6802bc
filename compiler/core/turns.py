"""Core turns: what a procedure's turns carry forward for a given reading of them."""

from __future__ import annotations

from collections.abc import Sequence

from ..lang import expr
from .ir import Carried, Turns

__all__ = ["followed"]


def followed(
    turns: Turns, reads: Sequence[expr.Node]
) -> tuple[list[Carried], list[str]]:
    """The carried values ``reads`` follow from, directly or through the turn
    (in the state's order), and the turn's names they need (in order)."""
    wanted: set[str] = set()
    for read in reads:
        wanted |= expr.names_used(read)
    sets = {s.name: s.value.node for s in turns.sets}
    binds = {b.name: b.checked.node for b in turns.binds}
    todo = list(wanted)
    while todo:
        name = todo.pop()
        node = sets[name] if name in sets else binds.get(name)
        for used in expr.names_used(node) if node is not None else ():
            if used not in wanted:
                wanted.add(used)
                todo.append(used)
    state = [v for v in turns.state if v.name in wanted]
    return state, [b.name for b in turns.binds if b.name in wanted]
