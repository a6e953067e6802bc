"""Dice odds: the exact distribution of a ``DiceSum``, by convolution and dynamic programming.

No roll is enumerated. One die's chances come from its faces, rerolls and
explosion; a pool that keeps all its dice is their convolution; a pool that
keeps its highest or lowest dice is a dynamic programme over the die's
outcomes in order (how many dice show each outcome, and the sum of those kept
so far), as icepool does; a pool that counts is the same over whether each
die meets the target; a sum convolves its terms.

An exploding die is followed to ``depth`` more dice: a die that would roll
more is cut off there, above every value it could show otherwise. Where a cut
die counts in the value (kept, counted or summed), the value is unknown: its
chance is the ``tail`` of the answer, the chances of the values known sum to
``1 - tail``. A cut die that a pool drops leaves the value known. A pool that
counts, where every face that explodes meets the target, lists only the
counts a cut die could not reach (each below ``depth + 1``), each with its
whole chance: the larger counts are in the tail.

Its building blocks (``rulebook._dice_weights``) are shared with the odds
engine of the rules (``rulebook._odds``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import comb
from typing import ClassVar

from ._dice_weights import MAX_WORK, Budget, Weights, chain_weights
from ._support import MAX_ENTRIES, count_sums, shown
from .dice_terms import DiceSum, Pool, Value
from .errors import RuleInputError

__all__ = ["DEPTH", "MAX_DEPTH", "MAX_WORK", "Odds", "odds"]

DEPTH = 10
"""How many more dice an explosion is followed to, unless told."""
MAX_DEPTH = 100
"""The most dice deep an explosion is followed to (a limit of the runtime)."""


class Odds(Value):
    """The exact chance of each value (ascending), and the ``tail``: the chance
    that an explosion cut off at the depth leaves the value unknown."""

    __slots__ = ("chances", "tail")
    FIELDS: ClassVar[tuple[str, ...]] = ("chances", "tail")

    chances: dict[int, Fraction]
    tail: Fraction

    def __init__(self, chances: dict[int, Fraction], tail: Fraction) -> None:
        object.__setattr__(self, "chances", dict(sorted(chances.items())))
        object.__setattr__(self, "tail", tail)

    def __hash__(self) -> int:
        return hash((tuple(self.chances.items()), self.tail))

    @property
    def min(self) -> int:
        """The smallest value known."""
        return next(iter(self.chances))

    @property
    def max(self) -> int:
        """The largest value known."""
        return next(reversed(self.chances))

    @property
    def mean(self) -> Fraction | None:
        """The exact mean, or None when there is a tail."""
        if self.tail:
            return None
        return sum((v * p for v, p in self.chances.items()), Fraction(0))

    @property
    def variance(self) -> Fraction | None:
        """The exact variance, or None when there is a tail."""
        mean = self.mean
        if mean is None:
            return None
        return sum(((v - mean) ** 2 * p for v, p in self.chances.items()), Fraction(0))


def odds(dice: DiceSum, depth: int = DEPTH) -> Odds:
    """The exact odds of ``dice``, explosions followed ``depth`` dice deep.

    Raises ``RuleInputError`` for a ``depth`` outside 0..MAX_DEPTH and for odds
    whose working out would pass ``MAX_WORK`` steps or ``MAX_ENTRIES`` values.
    """
    if not isinstance(dice, DiceSum):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"dice must be a DiceSum, not {shown(dice)}")
    if type(depth) is not int or not 0 <= depth <= MAX_DEPTH:
        raise RuleInputError(
            f"depth must be an int in 0..{MAX_DEPTH}, not {shown(depth)}"
        )
    budget = Budget()
    total = Weights({0: 1}, 0, 1)
    for term in dice.terms:
        if isinstance(term.value, Pool):
            part = _pool(term.value, depth, budget)
            if term.sign < 0:
                part = part.mapped(int.__neg__)
        else:
            part = Weights({term.sign * term.value: 1}, 0, 1)
        total = total.plus(part, budget)
        if len(total.weights) > MAX_ENTRIES:
            raise RuleInputError(
                f"{dice} has more than {MAX_ENTRIES:,} values "
                "(a limit of the runtime, not of the rules)"
            )
    chances = {v: Fraction(w, total.denom) for v, w in sorted(total.weights.items())}
    return Odds(chances, Fraction(total.top, total.denom))


def _pool(pool: Pool, depth: int, budget: Budget) -> Weights:
    target = pool.target
    if target is None or pool.explode in ("!", "!o"):
        # each die scored on its own: its face, or whether it meets the target
        die = chain_weights(pool, depth, _scorer(pool, True))
        if pool.keep is None:
            below = _exact_below(pool, depth)
            if below is not None:
                die = die.below(below)
            powered = _power(die, pool.count, budget, below)
            return powered.mapped(lambda v: v * pool.multiplier)
    else:  # a die's value is its chain's sum; a count scores it after
        die = chain_weights(pool, depth, _scorer(pool, False))
    score: Callable[[int], int] = _scorer(pool, True)
    if pool.keep is None:
        counted = die.mapped(score)
        return _power(counted, pool.count, budget).mapped(lambda v: v * pool.multiplier)
    highest = pool.keep in ("kh", "dl")
    kept = _keep(die, pool.count, pool.kept, highest, score, budget)
    return kept.mapped(lambda v: v * pool.multiplier)


def _exact_below(pool: Pool, depth: int) -> int | None:
    """For a pool that counts with ``!``: the least count a die cut off at
    the depth has (every face that explodes meets the target), so that each
    count below it is known whole; else None."""
    target = pool.target
    if target is None or pool.explode != "!":
        return None
    faces = [f for f in pool.final_faces() if pool.explodes(f)]
    if not faces or not all(target.meets(f) for f in faces):
        return None
    return depth + 1


def _scorer(pool: Pool, per_face: bool) -> Callable[[int], int]:
    target = pool.target
    if target is None or not per_face:
        return lambda v: v
    return lambda v: 1 if target.meets(v) else 0


def _power(
    die: Weights, count: int, budget: Budget, below: int | None = None
) -> Weights:
    """``count`` dice added up (by squaring: about log2(count) convolutions;
    a plain die by a sliding window instead, as ``rulebook.dice`` does); with
    ``below``, the sums from ``below`` on left unknown (no die is negative)."""
    if _plain(die):
        return _window(die, count, budget)
    result = Weights({0: 1}, 0, 1)
    square = die
    while count:
        if count & 1:
            result = result.plus(square, budget, below)
        count >>= 1
        if count:
            square = square.plus(square, budget, below)
    return result


def _plain(die: Weights) -> bool:
    """Whether ``die`` is equally likely to show each of a run of whole numbers."""
    weights = set(die.weights.values())
    return (
        not die.top
        and len(weights) == 1
        and len(die.weights) == (max(die.weights) - min(die.weights) + 1)
    )


def _window(die: Weights, count: int, budget: Budget) -> Weights:
    """``count`` plain dice added up, by the runtime's sliding window."""
    low, sides = min(die.weights), len(die.weights)
    # the window's work: every die adds its sides to the sums so far
    budget.spend(count * (sides + 1) + (sides - 1) * count * (count - 1) // 2)
    ways = count_sums(count, sides)
    weight = next(iter(die.weights.values()))
    found = {count * low + i: n * weight**count for i, n in enumerate(ways)}
    return Weights(found, 0, die.denom**count)


def _keep(
    die: Weights,
    count: int,
    keep: int,
    highest: bool,
    score: Callable[[int], int],
    budget: Budget,
) -> Weights:
    """The sum of ``score`` over the ``keep`` highest (or lowest) of ``count`` dice.

    The outcomes are taken from the best down (the cut-off ones first when
    keeping the highest, last when keeping the lowest); a state is how many
    dice show the outcomes taken so far and the score of those kept. Once
    ``keep`` dice are placed the rest only have to show lower outcomes, so
    their weight is a power, not more states."""
    ranked = sorted(die.weights.items(), reverse=highest)
    order: list[tuple[int | None, int]] = list(ranked)
    outcomes: Iterable[tuple[int | None, int]]
    if die.top:
        outcomes = [(None, die.top), *order] if highest else [*order, (None, die.top)]
    else:
        outcomes = order
    rest = die.denom
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    done: dict[int, int] = {}
    tail = 0
    for value, weight in outcomes:
        rest -= weight  # the weight of the outcomes still to come
        powers = [weight**t for t in range(count + 1)]
        budget.spend(len(states) * (count + 1))
        after: dict[tuple[int, int], int] = {}
        for (placed, sofar), ways in states.items():
            left = count - placed
            for t in range(left + 1):
                more = ways * comb(left, t) * powers[t]
                kept = min(t, keep - placed)
                if value is None and kept:
                    tail += more * rest ** (left - t)
                    continue
                total = sofar + (kept * score(value) if value is not None else 0)
                if placed + t >= keep:
                    done[total] = done.get(total, 0) + more * rest ** (left - t)
                else:
                    after[placed + t, total] = after.get((placed + t, total), 0) + more
        states = after
    return Weights(done, tail, die.denom**count)
