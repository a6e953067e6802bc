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
``1 - tail``. A cut die that a pool drops leaves the value known. The cut is
per die: each value listed is the chance of that value with no die cut, so
the chances listed over ``1 - tail`` are the odds of dice whose explosions
stop by the depth (each die rolled again while it would be cut).

Its building blocks (``rulebook._dice_weights``) are shared with the odds
engine of the rules (``rulebook._odds``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from math import comb
from typing import ClassVar

from . import _dice_spec as spec
from ._dice_keep import keep_chains, keep_chains_shape, unique, unique_shape
from ._dice_tree_odds import part_of, span_of
from ._dice_weights import (
    MAX_WORK,
    Shape,
    Weights,
    chain_cost,
    chain_levels,
    chain_weights,
    face_weights,
    plus_cost,
    plus_shape,
    shape_of,
)
from ._support import MAX_ENTRIES, count_sums, shown, spend, weighed
from .dice_terms import DiceSum, Number, Pool, Term, Value
from .errors import RuleInputError

__all__ = [
    "DEPTH",
    "MAX_DEPTH",
    "MAX_WORK",
    "Odds",
    "counted_odds",
    "counted_work",
    "odds",
    "odds_work",
]

_HINT = ": use fewer dice, sides or explosion depth"

DEPTH = spec.DEPTH
"""How many more dice an explosion is followed to, unless told."""
MAX_DEPTH = spec.MAX_DEPTH
"""The most dice deep an explosion is followed to (a limit of the runtime)."""


class Odds(Value):
    """The exact chance of each value (ascending), and the ``tail``: the chance
    that an explosion cut off at the depth leaves the value unknown."""

    __slots__ = ("chances", "tail")
    FIELDS: ClassVar[tuple[str, ...]] = ("chances", "tail")

    chances: dict[Number, Fraction]
    tail: Fraction

    def __init__(
        self,
        chances: Mapping[int, Fraction] | Mapping[Number, Fraction],
        tail: Fraction,
    ) -> None:
        found: dict[Number, Fraction] = dict(sorted(chances.items()))
        object.__setattr__(self, "chances", found)
        object.__setattr__(self, "tail", tail)

    def __hash__(self) -> int:
        return hash((tuple(self.chances.items()), self.tail))

    @property
    def min(self) -> Number:
        """The smallest value known."""
        return next(iter(self.chances))

    @property
    def max(self) -> Number:
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

    Raises ``RuleInputError`` for a ``depth`` outside 0..MAX_DEPTH, for odds
    whose working out would pass ``MAX_WORK`` steps (``odds_work``, worked out
    before any of it) and for odds of more than ``MAX_ENTRIES`` values.
    """
    work = odds_work(dice, depth)
    if work > MAX_WORK:
        raise RuleInputError(_budget(work))
    spend(work, _HINT)
    total = part_of(dice, depth, _pool)
    chances = {v: Fraction(w, total.denom) for v, w in total.weights.items()}
    return Odds(chances, Fraction(total.top, total.denom))


def _budget(work: int) -> str:
    """The refusal of exact odds that take ``work`` steps, past ``MAX_WORK``:
    the budget named (the JavaScript runtime's words too)."""
    return (
        f"the exact odds take {work:,} steps to work out, past the work budget "
        f"of exact odds, {MAX_WORK:,} steps (a limit of the runtime, not of the "
        f"rules){_HINT}"
    )


def odds_work(dice: DiceSum, depth: int = DEPTH) -> int:
    """The steps ``odds(dice, depth)`` takes (each weighed by the size of the
    numbers it works on), worked out from the dice alone before any of the
    work: no fewer than it takes. ``odds`` refuses past ``MAX_WORK``.

    Raises ``RuleInputError`` for a ``depth`` outside 0..MAX_DEPTH.
    """
    if not isinstance(dice, DiceSum):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"dice must be a DiceSum, not {shown(dice)}")
    if type(depth) is not int or not 0 <= depth <= MAX_DEPTH:
        raise RuleInputError(
            f"depth must be an int in 0..{MAX_DEPTH}, not {shown(depth)}"
        )
    return span_of(dice, depth, _pool_shape)[1]


def counted_odds(pool: Pool, depth: int = DEPTH) -> Odds:
    """The odds of one pool alone as the rules' success pools list them: a
    pool that counts with ``!``, every face that explodes meeting its target,
    lists each count up to ``depth`` with its whole chance (a die cut at the
    depth has more), the larger counts its tail; any other pool as ``odds``.

    Raises ``RuleInputError`` as ``odds`` does."""
    work = counted_work(pool, depth)
    below = _whole_below(pool, depth)
    if work > MAX_WORK:
        raise RuleInputError(_budget(work))
    spend(work, _HINT)
    if below is None:  # a lone pool's weights are its sum's (as odds gives them)
        found = _pool(pool, depth)
        if len(found.weights) > MAX_ENTRIES:
            raise RuleInputError(
                f"{pool} has more than {MAX_ENTRIES:,} values "
                "(a limit of the runtime, not of the rules)"
            )
    else:
        die = chain_weights(pool, depth, _scorer(pool, True)).below(below)
        found = _power(die, pool.count, False, below).mapped(
            lambda v: v * pool.multiplier
        )
    chances: dict[Number, Fraction] = {
        v: Fraction(w, found.denom) for v, w in found.weights.items()
    }
    return Odds(chances, Fraction(found.top, found.denom))


def counted_work(pool: Pool, depth: int = DEPTH) -> int:
    """The steps of ``counted_odds(pool, depth)``, known before the work."""
    if not isinstance(pool, Pool):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"pool must be a Pool, not {shown(pool)}")
    below = _whole_below(pool, depth)
    if below is None:
        return odds_work(DiceSum((Term(1, pool),)), depth)
    return _counted_shape(pool, depth, below)[1]


def _counted_shape(pool: Pool, depth: int, below: int) -> tuple[Shape, int]:
    odds_work(DiceSum((Term(1, pool),)), depth)  # (its checks of the arguments)
    die, cost, _ = _die_shape(pool, depth, _scorer(pool, True))
    hi = min(die.hi, below - 1)
    die = die._replace(hi=hi, size=max(min(die.size, hi - die.lo + 1), 0))
    shape, more = _power_shape(die, pool.count, False, below)
    return _times(shape, pool.multiplier), cost + more


def _whole_below(pool: Pool, depth: int) -> int | None:
    """For a pool that counts with ``!``, every face that explodes meeting
    the target: the least count a die cut at the depth has (so each count
    below it is known whole); else None."""
    target = pool.target
    if target is None or pool.explode != "!":
        return None
    faces = [f for f in pool.final_faces() if pool.explodes(f)]
    if not faces or not all(target.meets(f) for f in faces):
        return None
    return depth + 1


def _pool(pool: Pool, depth: int) -> Weights:
    times: Callable[[int], int] = lambda v: v * pool.multiplier  # noqa: E731
    if pool.unique:
        return unique(pool, _scorer(pool, True)).mapped(times)
    if pool.keep is not None and pool.explode in ("!", "!p", "!o"):
        return keep_chains(pool, depth, _scorer(pool, True)).mapped(times)
    target = pool.target
    plain = pool.explode is None  # an exploding die is never added up as plain
    if target is None or pool.explode in ("!", "!p", "!o"):
        # each die scored on its own: its face, or whether it meets the target
        die = chain_weights(pool, depth, _scorer(pool, True))
        if pool.keep is None:
            powered = _power(die, pool.count, plain)
            return powered.mapped(lambda v: v * pool.multiplier)
    else:  # a die's value is its chain's sum; a count scores it after
        die = chain_weights(pool, depth, _scorer(pool, False))
    score: Callable[[int], int] = _scorer(pool, True)
    if pool.keep is None:
        counted = die.mapped(score)
        return _power(counted, pool.count, plain).mapped(lambda v: v * pool.multiplier)
    highest = pool.keep in ("kh", "dl")
    kept = _keep(die, pool.count, pool.kept, highest, score)
    return kept.mapped(lambda v: v * pool.multiplier)


def _pool_shape(pool: Pool, depth: int) -> tuple[Shape, int]:
    """The shape of ``_pool(pool, depth)`` and the steps it takes, known
    before it is worked out (as ``_pool`` goes, step by step)."""
    if pool.unique:
        shape, work = unique_shape(pool, _scorer(pool, True))
        return _times(shape, pool.multiplier), work
    if pool.keep is not None and pool.explode in ("!", "!p", "!o"):
        shape, work = keep_chains_shape(pool, depth, _scorer(pool, True))
        return _times(shape, pool.multiplier), work
    target = pool.target
    plain = pool.explode is None
    if target is None or pool.explode in ("!", "!p", "!o"):
        score = _scorer(pool, True)
        die, cost, known = _die_shape(pool, depth, score)
        if pool.keep is None:
            shape, more = _power_shape(die, pool.count, plain)
            return _times(shape, pool.multiplier), cost + more
    else:
        die, cost, known = _die_shape(pool, depth, _scorer(pool, False))
    score = _scorer(pool, True)
    if pool.keep is None:
        counted = die if known is None else shape_of(known.mapped(score))
        if target is not None and known is None:  # -1, 0 or 1 for each die
            low = -1 if pool.failure is not None else 0
            counted = Shape(low, 1, min(die.size, 1 - low + 1), die.denom)
        shape, more = _power_shape(counted, pool.count, plain)
        return _times(shape, pool.multiplier), cost + more
    highest = pool.keep in ("kh", "dl")
    if known is not None:  # the outcomes in the order taken, each scored
        scores = [score(v) for v in sorted(known.weights, reverse=highest)]
        outcomes, spans = len(scores), _spans(scores)
    else:  # each prefix's scores span at most all of them
        cut = pool.explode in ("!", "!!", "!p")
        outcomes = die.size + (1 if cut else 0)  # the tail
        span = (2 if pool.failure else 1) if target is not None else die.hi - die.lo
        spans = max(outcomes - 1, 0) * span
    keep, after = pool.kept, pool.count + 1
    # a state of ``placed`` dice (fewer than ``keep``) sums the scores of the
    # outcomes taken so far: at most placed x their span + 1 states, each
    # trying up to count - placed + 1 more dice
    first = keep * (keep - 1) // 2  # the sum of placed
    second = (keep - 1) * keep * (2 * keep - 1) // 6  # of its square
    steps = (after * first - second) * spans + (after * keep - first) * outcomes
    denom = die.denom**pool.count
    more = weighed(steps, denom.bit_length())
    low, high = (die.lo, die.hi) if target is None else (-bool(pool.failure), 1)
    lo, hi = keep * low, keep * high
    return _times(Shape(lo, hi, hi - lo + 1, denom), pool.multiplier), cost + more


def _spans(scores: list[int]) -> int:
    """The sum over the outcomes, in order, of how far apart the scores of
    those before it lie."""
    total, low, high = 0, None, None
    for value in scores:
        if low is not None and high is not None:
            total += high - low
        low = value if low is None else min(low, value)
        high = value if high is None else max(high, value)
    return total


def _die_shape(
    pool: Pool, depth: int, score: Callable[[int], int]
) -> tuple[Shape, int, Weights | None]:
    """The shape of ``chain_weights(pool, depth, score)`` and its steps: an
    exploding die's from its faces (its chains are not worked out), any other
    die's from its weights themselves (then given too: they cost its faces)."""
    cost = chain_cost(pool, depth, score)
    face = face_weights(pool)
    faces = list(face.weights)
    boom = [score(f) for f in faces if pool.explodes(f)]
    if pool.explode is None or not boom:
        weights = chain_weights(pool, depth, score)
        return shape_of(weights), cost, weights
    stop = [score(f) for f in faces if not pool.explodes(f)]
    every = [score(f) for f in faces]
    if pool.explode == "!o":
        lo = min([*stop, min(boom) + min(every)])
        hi = max([*stop, max(boom) + max(every)])
        size = min(len(stop) + len(boom) * len(every), hi - lo + 1)
        return Shape(lo, hi, size, face.denom**2), cost, None
    denom = face.denom ** (depth + 1)
    if not stop:
        return Shape(0, 0, 0, denom), cost, None
    lo = min(stop) + min(0, depth * min(boom))
    hi = max(stop) + max(0, depth * max(boom))
    if pool.explode == "!p" and depth:  # a die an explosion adds counts its face less 1
        later = [score(f - 1) for f in faces]
        lo = min(lo, min(boom) + min(later) + min(0, (depth - 1) * min(later)))
        hi = max(hi, max(boom) + max(later) + max(0, (depth - 1) * max(later)))
    size = min(sum(chain_levels(pool, depth, score)) * len(stop), hi - lo + 1)
    return Shape(lo, hi, size, denom), cost, None


def _power_shape(
    die: Shape, count: int, plain: bool, below: int | None = None
) -> tuple[Shape, int]:
    """The shape of ``_power`` of ``count`` dice of ``die``'s shape, and its steps."""
    if plain and die.plain:
        sides = die.size
        denom = die.denom**count
        steps = count * (sides + 1) + (sides - 1) * count * (count - 1) // 2
        cost = weighed(steps, denom.bit_length(), products=False)
        size = count * (sides - 1) + 1
        return Shape(count * die.lo, count * die.hi, size, denom), cost
    result, square, cost = Shape(0, 0, 1, 1), die, 0
    while count:
        if count & 1:
            cost += plus_cost(result, square)
            result = plus_shape(result, square, below)
        count >>= 1
        if count:
            cost += plus_cost(square, square)
            square = plus_shape(square, square, below)
    return result, cost


def _times(shape: Shape, multiplier: int) -> Shape:
    """A shape's values each times ``multiplier`` (at least 1)."""
    return shape._replace(lo=shape.lo * multiplier, hi=shape.hi * multiplier)


def _scorer(pool: Pool, per_face: bool) -> Callable[[int], int]:
    """A die's score: its value, or with a target 1 where it meets the target,
    less 1 where it meets the failure."""
    target, failure = pool.target, pool.failure
    if target is None or not per_face:
        return lambda v: v
    if failure is None:
        return lambda v: 1 if target.meets(v) else 0
    return lambda v: int(target.meets(v)) - int(failure.meets(v))


def _power(die: Weights, count: int, plain: bool, below: int | None = None) -> Weights:
    """``count`` dice added up (by squaring: about log2(count) convolutions;
    a plain die by a sliding window instead, as ``rulebook.dice`` does); with
    ``below``, the sums from ``below`` on left unknown (no die is negative)."""
    if plain and _plain(die):
        return _window(die, count)
    result = Weights({0: 1}, 0, 1)
    square = die
    while count:
        if count & 1:
            result = result.plus(square, below)
        count >>= 1
        if count:
            square = square.plus(square, below)
    return result


def _plain(die: Weights) -> bool:
    """Whether ``die`` is equally likely to show each of a run of whole numbers."""
    weights = set(die.weights.values())
    return (
        not die.top
        and len(weights) == 1
        and len(die.weights) == (max(die.weights) - min(die.weights) + 1)
    )


def _window(die: Weights, count: int) -> Weights:
    """``count`` plain dice added up, by the runtime's sliding window (its
    work: every die adds its sides to the sums so far)."""
    low, sides = min(die.weights), len(die.weights)
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
    ways_of: dict[int, list[int]] = {}  # comb(left, t) for each t, by left
    for value, weight in outcomes:
        rest -= weight  # the weight of the outcomes still to come
        powers = [weight**t for t in range(count + 1)]
        later = [rest**t for t in range(count + 1)]
        after: dict[tuple[int, int], int] = {}
        for (placed, sofar), ways in states.items():
            left = count - placed
            choose = ways_of.get(left)
            if choose is None:
                choose = ways_of[left] = [comb(left, t) for t in range(left + 1)]
            for t in range(left + 1):
                more = ways * choose[t] * powers[t]
                kept = min(t, keep - placed)
                if value is None and kept:
                    tail += more * later[left - t]
                    continue
                total = sofar + (kept * score(value) if value is not None else 0)
                if placed + t >= keep:
                    done[total] = done.get(total, 0) + more * later[left - t]
                else:
                    after[placed + t, total] = after.get((placed + t, total), 0) + more
        states = after
    return Weights(done, tail, die.denom**count)
