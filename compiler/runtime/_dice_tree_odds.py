"""Dice odds of a tree: the exact chances of sums, products, calls, groups, tests and labels over pools.

Every part of a dice expression is independent of the others (each pool
appears once), so a node's chances come from its children's: a sum convolves
its terms, ``*`` ``/`` ``max`` ``min`` and a comparison of totals combine two
parts pair by pair over their values, ``floor`` ``ceil`` ``round`` ``abs``
map one part's values, a label is its node. A group sums its items; one that
counts (a target) sums each item's score (1 where its total meets the
target, less 1 where it meets the failure); one that keeps or drops item
totals is a dynamic programme over the items, its states the sorted totals
kept so far. A value is an int, or a ``Fraction`` when not whole.

A part's chances are whole weights over a denominator; ``top`` is the weight
of the outcomes a cut explosion leaves unknown (the tail): any part unknown
leaves the node over it unknown. ``span_of`` works out, before any of it,
what a node's chances look like and the steps they take (``dice_odds``
refuses past its budget); the pools' own are handed in by ``dice_odds``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import NamedTuple, cast

from ._dice_weights import Shape, Weights
from ._support import MAX_ENTRIES, weighed
from .dice_terms import Condition, DiceSum, Number, Pool, Term, number
from .dice_tree import Binary, Call, Group, Labeled, Test
from .errors import RuleInputError

__all__ = ["Part", "Span", "part_of", "span_of"]

PoolOdds = Callable[[Pool, int], Weights]
PoolShape = Callable[[Pool, int], tuple[Shape, int]]
How = Callable[[Number, Number], Number]


class Part:
    """A node's chances: whole ``weights`` over ``denom``; ``top``: the tail's weight."""

    __slots__ = ("denom", "top", "weights")

    def __init__(self, weights: dict[Number, int], top: int, denom: int) -> None:
        self.weights = {v: w for v, w in weights.items() if w}
        self.top = top
        self.denom = denom

    def mapped(self, how: Callable[[Number], Number]) -> Part:
        """Each value mapped by ``how`` (the tail stays)."""
        found: dict[Number, int] = {}
        for v, w in self.weights.items():
            key = how(v)
            found[key] = found.get(key, 0) + w
        return Part(found, self.top, self.denom)


class Span(NamedTuple):
    """What is known of a part's chances before they are worked out: its
    lowest and highest values (None: not known), at most how many values it
    has, the denominator of its weights, and whether every value is whole."""

    lo: Number | None
    hi: Number | None
    size: int
    denom: int
    whole: bool

    def most(self, size: int) -> int:
        """``size`` or fewer: whole values between ``lo`` and ``hi`` are no more than the run."""
        if self.whole and self.lo is not None and self.hi is not None:
            return max(min(size, int(self.hi - self.lo) + 1), 0)
        return size


def _too_many(node: object) -> RuleInputError:
    return RuleInputError(
        f"{node} has more than {MAX_ENTRIES:,} values "
        "(a limit of the runtime, not of the rules)"
    )


def _pair(a: Part, b: Part, how: How) -> Part:
    """The chances of ``how(x, y)`` of two independent parts (a tail in
    either is the result's)."""
    found: dict[Number, int] = {}
    for x, wx in a.weights.items():
        for y, wy in b.weights.items():
            value = how(x, y)
            found[value] = found.get(value, 0) + wx * wy
    denom = a.denom * b.denom
    return Part(found, denom - sum(found.values()), denom)


def _pair_cost(a: Span, b: Span) -> int:
    """The steps of ``_pair`` of parts of these spans."""
    return weighed(a.size * b.size, max(a.denom, b.denom).bit_length())


def _add(x: Number, y: Number) -> Number:
    return x + y if type(x) is int and type(y) is int else number(x + y)


def _times(x: Number, y: Number) -> Number:
    return x * y if type(x) is int and type(y) is int else number(x * y)


def _over(x: Number, y: Number) -> Number:
    return number(Fraction(x) / y)


def _abs(x: Number) -> Number:
    return -x if x < 0 else x


def _max(x: Number, y: Number) -> Number:
    return max(x, y)


def _min(x: Number, y: Number) -> Number:
    return min(x, y)


def _round(x: Number) -> Number:
    """Half up, as Roll20, rpg-dice-roller and JavaScript's ``Math.round``."""
    return math.floor(x + Fraction(1, 2))


_MAPS: dict[str, Callable[[Number], Number]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": _round,
    "abs": _abs,
}
_FOLDS: dict[str, How] = {"max": _max, "min": _min}
_ONE = Part({0: 1}, 0, 1)


# -- the chances --------------------------------------------------------------------


def part_of(node: object, depth: int, pool: PoolOdds) -> Part:
    """The chances of ``node`` (any node of a dice expression), explosions
    followed ``depth`` dice deep, each pool's by ``pool``."""
    if isinstance(node, Pool):
        weights = pool(node, depth)
        known: dict[Number, int] = {v: w for v, w in weights.weights.items()}
        return Part(known, weights.top, weights.denom)
    if isinstance(node, int | Fraction):
        return Part({number(node): 1}, 0, 1)
    if isinstance(node, DiceSum):
        return _sum(node, [_term(t, depth, pool) for t in node.terms])
    if isinstance(node, Labeled):
        return part_of(node.node, depth, pool)
    if isinstance(node, Binary):
        left, right = part_of(node.left, depth, pool), part_of(node.right, depth, pool)
        if node.op == "*":
            return _checked(node, _pair(left, right, _times))
        if 0 in right.weights:
            raise RuleInputError(f"{node}: division by zero (the divisor can be 0)")
        return _checked(node, _pair(left, right, _over))
    if isinstance(node, Call):
        parts = [part_of(a, depth, pool) for a in node.args]
        if node.name in _MAPS:
            return parts[0].mapped(_MAPS[node.name])
        folded = parts[0]
        for part in parts[1:]:
            folded = _checked(node, _pair(folded, part, _FOLDS[node.name]))
        return folded
    if isinstance(node, Test):
        left, right = part_of(node.left, depth, pool), part_of(node.right, depth, pool)
        return _pair(left, right, lambda x, y: 1 if node.holds(x, y) else 0)
    if isinstance(node, Group):
        return _group(node, [part_of(i, depth, pool) for i in node.items])
    raise RuleInputError(f"not a node of a dice expression: {node!r}")


def _term(term: Term, depth: int, pool: PoolOdds) -> Part:
    part = part_of(term.value, depth, pool)
    return part if term.sign > 0 else part.mapped(lambda v: -v)


def _checked(node: object, part: Part) -> Part:
    if len(part.weights) > MAX_ENTRIES:
        raise _too_many(node)
    return part


def _sum(node: object, parts: list[Part]) -> Part:
    total = _ONE
    for part in parts:
        total = _checked(node, _pair(total, part, _add))
    return total


def _score(
    target: Condition | None, failure: Condition | None
) -> Callable[[Number], Number]:
    """An item total's score: itself, or with a target 1 where it meets the
    target, less 1 where it meets the failure."""
    if target is None:
        return lambda v: v
    meets = cast(
        "Callable[[Number], bool]", target.meets
    )  # (a total may be a fraction)
    fails = None if failure is None else cast("Callable[[Number], bool]", failure.meets)
    return lambda v: int(meets(v)) - int(fails is not None and fails(v))


def _group(group: Group, items: list[Part]) -> Part:
    score = _score(group.target, group.failure)
    kept = _kept(group)
    if kept >= len(items):
        return _sum(group, [item.mapped(score) for item in items])
    highest = group.keep in ("kh", "dl")
    states: dict[tuple[Number, ...], int] = {(): 1}
    denom = 1
    for item in items:
        states = _keep_step(states, item, kept, highest)
        if len(states) > MAX_ENTRIES:
            raise _too_many(group)
        denom *= item.denom
    found: dict[Number, int] = {}
    for state, weight in states.items():
        value = number(sum((score(v) for v in state), Fraction(0)))
        found[value] = found.get(value, 0) + weight
    return Part(found, denom - sum(found.values()), denom)


def _kept(group: Group) -> int:
    """How many item totals the group keeps (all, without ``keep``)."""
    n = len(group.items)
    if group.keep in ("kh", "kl"):
        return min(group.keep_count, n)
    if group.keep in ("dh", "dl"):
        return max(n - group.keep_count, 0)
    return n


def _keep_step(
    states: dict[tuple[Number, ...], int], item: Part, kept: int, highest: bool
) -> dict[tuple[Number, ...], int]:
    """One more item: each state (the best ``kept`` totals so far, best
    first) with each of the item's totals, the best ``kept`` of them kept."""
    after: dict[tuple[Number, ...], int] = {}
    for state, weight in states.items():
        for value, w in item.weights.items():
            new = sorted((*state, value), reverse=highest)[:kept]
            key = tuple(new)
            after[key] = after.get(key, 0) + weight * w
    return after


# -- what it costs, worked out before it -------------------------------------------


def span_of(node: object, depth: int, pool: PoolShape) -> tuple[Span, int]:
    """The span of ``part_of(node, depth, ...)`` and the steps it takes, from
    the tree alone (each pool's by ``pool``): no fewer than it takes."""
    if isinstance(node, Pool):
        shape, cost = pool(node, depth)
        return Span(shape.lo, shape.hi, shape.size, shape.denom, True), cost
    if isinstance(node, int | Fraction):
        value = number(node)
        return Span(value, value, 1, 1, type(value) is int), 0
    if isinstance(node, DiceSum):
        return _sum_span([_term_span(t, depth, pool) for t in node.terms])
    if isinstance(node, Labeled):
        return span_of(node.node, depth, pool)
    children = (
        [span_of(c, depth, pool) for c in node.children()]
        if isinstance(node, Binary | Call | Test | Group)
        else None
    )
    if children is None:
        raise RuleInputError(f"not a node of a dice expression: {node!r}")
    cost = sum(c for _, c in children)
    spans = [s for s, _ in children]
    span, more = _branch_span(node, spans)
    return span, cost + more


def _term_span(term: Term, depth: int, pool: PoolShape) -> tuple[Span, int]:
    span, cost = span_of(term.value, depth, pool)
    if term.sign < 0:
        lo = None if span.hi is None else -span.hi
        hi = None if span.lo is None else -span.lo
        span = span._replace(lo=lo, hi=hi)
    return span, cost


def _plus(a: Span, b: Span) -> Span:
    lo: Number | None = None
    hi: Number | None = None
    if a.lo is not None and a.hi is not None and b.lo is not None and b.hi is not None:
        lo, hi = _add(a.lo, b.lo), _add(a.hi, b.hi)
    whole = a.whole and b.whole
    span = Span(lo, hi, a.size * b.size, a.denom * b.denom, whole)
    return span._replace(size=span.most(span.size))


def _sum_span(terms: list[tuple[Span, int]]) -> tuple[Span, int]:
    total, work = Span(0, 0, 1, 1, True), 0
    for span, cost in terms:
        work += cost + _pair_cost(total, span)
        total = _plus(total, span)
    return total, work


def _corners(a: Span, b: Span, how: How) -> tuple[Number | None, Number | None]:
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return None, None
    found = [how(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(found), max(found)


def _branch_span(node: object, spans: list[Span]) -> tuple[Span, int]:
    """The span of a Binary, Call, Test or Group of children of ``spans``,
    and the steps it takes on top of theirs."""
    if isinstance(node, Group):
        return _group_span(node, spans)
    first = spans[0]
    if isinstance(node, Call) and node.name in _MAPS:
        how = _MAPS[node.name]
        lo = None if first.lo is None else how(first.lo)
        hi = None if first.hi is None else how(first.hi)
        if node.name == "abs" and first.lo is not None and first.hi is not None:
            low, high = first.lo, first.hi
            lo = 0 if low < 0 < high else min(_abs(low), _abs(high))
            hi = max(_abs(low), _abs(high))
        span = Span(lo, hi, first.size, first.denom, node.name != "abs" or first.whole)
        return span._replace(size=span.most(span.size)), first.size
    total, work = first, 0
    for span in spans[1:]:
        work += _pair_cost(total, span)
        total = _combined(node, total, span)
    return total, work


def _combined(node: object, a: Span, b: Span) -> Span:
    """The span of one pairwise step of a Binary, a max/min Call or a Test."""
    denom, size = a.denom * b.denom, a.size * b.size
    if isinstance(node, Test):
        return Span(0, 1, min(size, 2), denom, True)
    if isinstance(node, Call):  # max, min: a value of either side
        lo, hi = _corners(a, b, _FOLDS[node.name])
        span = Span(lo, hi, min(size, a.size + b.size), denom, a.whole and b.whole)
        return span._replace(size=span.most(span.size))
    assert isinstance(node, Binary)
    if node.op == "*":
        lo, hi = _corners(a, b, _times)
        span = Span(lo, hi, size, denom, a.whole and b.whole)
        return span._replace(size=span.most(size))
    signed = b.lo is not None and b.hi is not None and (b.lo > 0 or b.hi < 0)
    lo, hi = _corners(a, b, _over) if signed else (None, None)
    return Span(lo, hi, size, denom, False)


def _group_span(group: Group, spans: list[Span]) -> tuple[Span, int]:
    kept = _kept(group)
    if group.target is not None:
        low = -1 if group.failure is not None else 0
        scored = [Span(low, 1, min(s.size, 2 - low), s.denom, True) for s in spans]
        work = sum(s.size for s in spans)
    else:
        scored, work = spans, 0
    if kept >= len(spans):
        total, more = _sum_span([(s, 0) for s in scored])
        return total, work + more
    states, distinct, denom = 1, 0, 1
    for i, span in enumerate(spans, 1):
        denom *= span.denom
        work += weighed(states * span.size, denom.bit_length())
        distinct += span.size
        top = min(kept, i)
        states = min(states * span.size, comb(distinct + top - 1, top))
    work += states  # each state scored
    if group.target is None:
        whole = all(s.whole for s in spans)
        lo, hi = _kept_range(spans, kept, group.keep in ("kh", "dl"))
        span = Span(lo, hi, states, denom, whole)
    else:
        low = -1 if group.failure is not None else 0
        span = Span(low * kept, kept, states, denom, True)
    return span._replace(size=span.most(states)), work


def _kept_range(
    spans: list[Span], kept: int, highest: bool
) -> tuple[Number | None, Number | None]:
    """The least and most sums of ``kept`` item totals of these spans (None: not known)."""
    lows = [s.lo for s in spans if s.lo is not None]
    highs = [s.hi for s in spans if s.hi is not None]
    if len(lows) < len(spans) or len(highs) < len(spans):
        return None, None
    lows.sort(reverse=highest)
    highs.sort(reverse=highest)
    return (
        number(sum(lows[:kept], Fraction(0))),
        number(sum(highs[:kept], Fraction(0))),
    )
