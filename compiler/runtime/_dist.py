"""Distributions of the odds engine: chances as whole weights over a denominator, and answers in order.

A ``Dist`` is what every part of the engine hands on: a source's chances (a
dice total, a pool's folds, another rule's odds), an environment of values
still needed, a turn's next state. Its weights are whole numbers over
``denom``; ``cut`` is the weight of the rolls an explosion's depth (or a
repeat's) cut off, whose value is unknown: the ``tail`` of the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from fractions import Fraction
from math import lcm
from typing import Any, cast

from ._support import MAX_ENTRIES
from .errors import RuleInputError
from .odds import Chances

__all__ = ["Dist", "answer", "key_of", "marginal", "rank", "weighed_dist"]


class Dist:
    """Chances as whole ``weights`` over ``denom``; ``cut``: the weight of the
    rolls an explosion's depth cut off."""

    __slots__ = ("cut", "denom", "weights")

    def __init__(self, weights: dict[Any, int], cut: int, denom: int) -> None:
        if len(weights) > MAX_ENTRIES:
            raise RuleInputError(
                f"the odds have more than {MAX_ENTRIES:,} values "
                "(a limit of the runtime, not of the rules)"
            )
        self.weights = {v: w for v, w in weights.items() if w}
        self.cut = cut
        self.denom = denom


def key_of(value: object) -> object:
    """A value as a key of the chances: a list as a tuple."""
    if isinstance(value, list):
        return tuple(key_of(v) for v in cast("list[object]", value))
    return value


def rank(value: object) -> tuple[int, Any]:
    """Answers in order: null first, then flags and numbers, then the labels of
    an enum in its members' order (not alphabetically), then text; tuples
    (joint answers, the dice a pool keeps) item by item."""
    if value is None:
        return (0, 0)
    if isinstance(value, Enum):
        return (2, list(type(value)).index(value))
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, tuple):
        return (4, tuple(rank(item) for item in cast("tuple[object, ...]", value)))
    return (1, value)


def answer(part: Dist) -> Chances[Any]:
    """The chances as exact fractions, answers ascending."""
    chances = [
        (v, Fraction(w, part.denom))
        for v, w in sorted(part.weights.items(), key=lambda item: rank(item[0]))
    ]
    return Chances(chances, Fraction(part.cut, part.denom))


def marginal(part: Dist, at: int) -> Dist:
    """The chances of item ``at`` of a distribution over tuples (a field of
    the fields an engine's run answers)."""
    found: dict[Any, int] = {}
    for value, w in part.weights.items():
        one = value[at]
        found[one] = found.get(one, 0) + w
    return Dist(found, part.cut, part.denom)


def weighed_dist(chances: Iterable[tuple[Any, Fraction]], tail: Fraction) -> Dist:
    """Chances as exact fractions (and the ``tail`` an explosion left), as whole
    weights over their common denominator."""
    pairs = list(chances)
    denom = lcm(tail.denominator, *(p.denominator for _, p in pairs))
    weights = {key_of(v): p.numerator * (denom // p.denominator) for v, p in pairs}
    cut = tail.numerator * (denom // tail.denominator)
    return Dist(weights, cut, denom)
