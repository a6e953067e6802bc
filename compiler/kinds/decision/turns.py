"""A repeating decision's turns, at build time: which state values a reading of them follows.

The proof that the turns end, and the check that an odds field can be
followed, read only the state the ending (or the odds' answer) reads,
directly or through the turn: ``followed``, as the core follows it. The loop
itself and its odds as an absorbing chain are the core's (``compiler/core/turns.py`` and
``compiler/emit/turns_code.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.turns import followed as core_followed
from ...kinds.decision.lower import turns_of
from ...kinds.decision.model import DecisionRule, Repeat, StateValue
from ...lang import expr

__all__ = ["answer_nodes", "followed", "relevant"]


def relevant(rule: DecisionRule) -> tuple[list[StateValue], list[str]]:
    """The state values the odds follow (those the ending or the odds' answer
    read, directly or through the turn) and the turn's names they need."""
    repeat = rule.repeat
    assert repeat is not None and rule.odds is not None
    return followed(repeat, [repeat.until.node, *answer_nodes(rule)])


def followed(
    repeat: Repeat, reads: Sequence[expr.Node]
) -> tuple[list[StateValue], list[str]]:
    """The state values ``reads`` follow from, directly or through the turn
    (in the state's order), and the turn's names they need (in order): as
    the core follows the turns the decision lowers to."""
    carried, needed = core_followed(turns_of(repeat), reads)
    names = {v.name for v in carried}
    return [v for v in repeat.state if v.name in names], needed


def answer_nodes(rule: DecisionRule) -> list[expr.Node]:
    """The cases' conditions and the expressions of the fields the odds are of."""
    found: list[expr.Node] = []
    for case in rule.cases:
        if case.when is not None:
            found.append(case.when.node)
        for field in rule.odds_of:
            kind, item = dict(case.values or ()).get(field, ("", None))
            if kind == "expr" and item is not None:
                found.append(item.node)
    return found
