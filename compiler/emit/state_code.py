"""State code: what every target's emitter of a state shares (its fields in words, clamps, the names read)."""

from __future__ import annotations

from collections.abc import Iterable, Set

from .. import expr
from ..core.ir import Field, State


def field_text(field: Field) -> str:
    """What a field holds, in words: its type and limits."""
    if field.type == "bool":
        return "a flag"
    if field.lo is None and field.hi is None:
        return "a whole number"
    if field.hi is None:
        return f"a whole number, {field.lo} or more"
    if field.lo is None:
        return f"a whole number, at most {field.hi}"
    return f"a whole number from {field.lo} to {field.hi}"


def clamped(code: str, field: Field, lo: str, hi: str, low: str, high: str) -> str:
    """``code`` held within the field's limits (``lo``/``hi``: the language's
    max and min functions, ``low``/``high``: the limits' literals)."""
    if field.hi is not None:
        code = f"{hi}({code}, {high})"
    if field.lo is not None:
        code = f"{lo}({code}, {low})"
    return code


def reads(
    state: State, nodes: Iterable[expr.Node], hidden: Set[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """The fields and the derived properties the expressions ``nodes`` read
    (but the names ``hidden``: a method's parameters, which hide them)."""
    used = set[str]().union(*(expr.names_used(n) for n in nodes)) - hidden
    fields = [f.name for f in state.fields if f.name in used]
    derived = [d.name for d in state.derived if d.name in used]
    return fields, derived
