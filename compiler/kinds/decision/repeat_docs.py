"""A repeating decision on its page: the state, the turn, the ending, then the cases."""

from __future__ import annotations

from ... import expr
from ...emit.math_text import let_view
from ...expr_math import display_parts
from ...expr_words import to_words
from ...kinds.decision.model import TURNS, DecisionRule, StateValue
from ...literals import code, md
from ...model import System
from ...viewkit import Reads, View

__all__ = ["repeat_docs", "repeat_nodes"]


def repeat_nodes(rule: DecisionRule) -> list[expr.Node]:
    """The expressions of the state and the turn, in order."""
    repeat = rule.repeat
    assert repeat is not None
    return [
        *(v.start.node for v in rule.state),
        *(let.checked.node for let in repeat.lets),
        *(s.checked.node for s in repeat.sets),
        repeat.until.node,
    ]


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


def _kind(value: StateValue) -> str:
    """A state value's type as the page says it: int, bool, list of int."""
    return f"list of {value.items}" if value.type == "list" else value.type


def repeat_docs(system: System, rule: DecisionRule, reads: Reads) -> View:
    """The words and math of the state, the turn and the ending."""
    repeat = rule.repeat
    assert repeat is not None
    words = to_words(
        repeat.until.node,
        rounding=system.rounding,
        field=reads.words,
        latex_field=reads.latex,
    )
    state = [
        {
            "math": _math(system, v.name, v.start.node, reads),
            "text": f"{code(v.name)} ({_kind(v)}{_bounds(v.min, v.max)})",
            "description": md(v.description) if v.description else None,
        }
        for v in rule.state
    ]
    most = (
        f"or after {repeat.max_turns} turns, whichever comes first"
        if repeat.max_turns is not None
        else "(the rules are proved to end: from every state the turns can "
        "reach, the ending can be reached)"
    )
    return {
        "state": state,
        "lets": [let_view(system, let, reads) for let in repeat.lets],
        "sets": [
            {"math": _math(system, s.name, s.checked.node, reads)} for s in repeat.sets
        ],
        "until": words,
        "most": most,
        "turns": code(TURNS),
        "clamped": any(
            v.type == "int" and (v.min, v.max) != (None, None) for v in rule.state
        ),
    }
