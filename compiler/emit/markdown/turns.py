"""Markdown turns: a procedure's turns on its page, the state, the turn and the ending."""

from __future__ import annotations

from ...core.ir import (
    Carried,
    Turns,
)
from ...core.viewkit import (
    View,
)
from ...front.model import System
from ...lang import expr
from ..literals import md
from .math import display_parts
from .math_text import let_view
from .reads import (
    Reads,
)
from .steps import (
    Say,
    name_words,
)

__all__ = ["turns_view"]


def _math(system: System, name: str, node: expr.Node, reads: Reads) -> str:
    value = display_parts(node, rounding=system.rounding, field=reads.latex)[0]
    shown = display_parts(expr.Name(name, 0, 0), rounding=system.rounding)[0]
    return f"{shown} = {value}"


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f", kept within {low} to {high}"
    if low is not None:
        return f", never below {low}"
    return "" if high is None else f", never above {high}"


def _kind(value: Carried) -> str:
    """A carried value's type as the page says it: int, bool, list of int."""
    return f"list of {value.items}" if value.type == "list" else value.type


def turns_view(system: System, turns: Turns, reads: Reads) -> View:
    """The words and math of the state, the turn and the ending."""
    words = Say.of(system.rounding, reads).condition(turns.until.node)
    state = [
        {
            "math": _math(system, v.name, v.start.node, reads),
            "text": f"{name_words(v.name)} ({_kind(v)}{_bounds(v.lo, v.hi)})",
            "description": md(v.description) if v.description else None,
        }
        for v in turns.state
    ]
    most = (
        f"or after {turns.most} turns, whichever comes first"
        if turns.most is not None
        else "(the rules are proved to end: from every state the turns can "
        "reach, the ending can be reached)"
    )
    return {
        "carried": state,
        "lets": [let_view(system, b, reads) for b in turns.binds],
        "sets": [
            {"math": _math(system, s.name, s.written.node, reads)} for s in turns.sets
        ],
        "until": words,
        "most": most,
        "turns": name_words(turns.counter),
        "clamped": any(
            v.type == "int" and (v.lo, v.hi) != (None, None) for v in turns.state
        ),
    }
