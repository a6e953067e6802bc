"""Odds of a rule's answer (the engine): exact chances built from the chances of its dice.

A generated ``<function>_odds`` works its rule's expression out over chances
instead of rolls. Each dice term is independent of every other (an expression
rolls each term it reaches once), so the chances of a part of the expression
come from the chances of its parts: ``apply`` combines independent parts value
by value (as a convolution does), ``bind`` follows a condition into the branch
it takes (a mixture), and the dice terms come from ``rulebook.dice_odds`` (a
total) or from ``results`` (the dice a pool keeps, as a multiset: the functions
of a pool's results do not depend on their order); a call of another rule that
rolls is what its odds function answers (``called``). No roll is enumerated: a
part's chances are kept per distinct value.

An explosion is followed ``depth`` dice deep; the chance of the rolls cut off
there is the ``tail`` of the answer, and the chances of the answers known sum
to ``1 - tail``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from fractions import Fraction
from itertools import product
from math import lcm, prod
from typing import Any, cast

from ._dice_weights import chain_cost, chain_weights, chains, face_weights
from ._support import MAX_ENTRIES, spend, weighed
from .dice import Dice
from .dice_odds import DEPTH
from .dice_odds import odds as total_odds
from .dice_terms import DiceSum, Pool, Term
from .errors import RuleInputError
from .odds import Chances

__all__ = [
    "Dist",
    "answer",
    "apply",
    "bind",
    "called",
    "const",
    "dice",
    "group",
    "refuse",
    "repeated",
    "rolled",
]


class Dist:
    """Chances of a part of an expression as whole ``weights`` over ``denom``;
    ``cut``: the weight of the rolls an explosion's depth cut off."""

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


def const(value: object) -> Dist:
    """A value known for certain."""
    return Dist({_key(value): 1}, 0, 1)


def apply(how: Callable[..., object], *parts: Dist) -> Dist:
    """The chances of ``how`` of independent parts' values."""
    denom = prod(p.denom for p in parts)
    spend(weighed(prod(len(p.weights) for p in parts), denom.bit_length()))
    found: dict[Any, int] = {}
    for combo in product(*(p.weights.items() for p in parts)):
        value = _key(how(*(v for v, _ in combo)))
        found[value] = found.get(value, 0) + prod(w for _, w in combo)
    known = prod(p.denom - p.cut for p in parts)
    return Dist(found, denom - known, denom)


def bind(part: Dist, then: Callable[[Any], Dist]) -> Dist:
    """The chances of ``then(value)``'s answer, for each value ``part`` takes:
    what follows a condition, or a count or sides rolled."""
    branches = [(w, then(v)) for v, w in part.weights.items()]
    common = lcm(*(b.denom for _, b in branches)) if branches else 1
    steps = sum(len(b.weights) for _, b in branches)
    spend(weighed(steps, (part.denom * common).bit_length()))
    found: dict[Any, int] = {}
    cut = part.cut * common
    for weight, branch in branches:
        scale = weight * (common // branch.denom)
        for value, w in branch.weights.items():
            found[value] = found.get(value, 0) + scale * w
        cut += scale * branch.cut
    return Dist(found, cut, part.denom * common)


def group(part: Dist, key: Callable[[Any], object]) -> Dist:
    """``part``'s chances, its values with the same ``key`` as one (the first of
    them standing for all): what the rest reads of it only through ``key``."""
    found: dict[Any, int] = {}
    standing: dict[object, Any] = {}
    for value, w in part.weights.items():
        one = standing.setdefault(key(value), value)
        found[one] = found.get(one, 0) + w
    return Dist(found, part.cut, part.denom)


def repeated(part: Dist, face: int) -> Dist:
    """A count's chances as lists of that many ``face``: the dice of a pool
    that the rest reads only through how many of them meet a target, worked
    out as that count (a total, not a multiset of dice)."""
    return Dist({(face,) * v: w for v, w in part.weights.items()}, part.cut, part.denom)


def refuse(message: str) -> Dist:
    """A guard's refusal where the odds reach it (it reads no rolled value:
    the call is refused as the function refuses it)."""
    raise RuleInputError(message)


def dice(
    make: Callable[[int, int], Pool],
    count: Dist,
    sides: Dist,
    listed: bool,
    depth: int = DEPTH,
) -> Dist:
    """One dice term: ``make(count, sides)``'s total, or with ``listed`` the
    dice it keeps (a sorted tuple); no dice (a count of 0) total 0."""

    def rolled(n: int, s: int) -> Dist:
        if not n:
            return const(() if listed else 0)
        pool = make(n, s)
        return results(pool, depth) if listed else _total(pool, depth)

    return bind(count, lambda n: bind(sides, lambda s: rolled(n, s)))


def rolled(dice: Dice) -> Dist:
    """A roll of a dice value (``roll(d)``): its exact distribution."""
    return _weighed(dice.distribution().items(), Fraction(0))


def called(chances: Chances[Any]) -> Dist:
    """The chances another rule's odds function answers (a call of a rule that
    rolls), as a part of the caller's: its dice are its own, independent of
    the caller's."""
    return _weighed(chances.items(), chances.tail)


def answer(part: Dist) -> Chances[Any]:
    """The chances as exact fractions, answers ascending."""
    chances = [
        (v, Fraction(w, part.denom))
        for v, w in sorted(part.weights.items(), key=lambda item: _rank(item[0]))
    ]
    return Chances(chances, Fraction(part.cut, part.denom))


def results(pool: Pool, depth: int) -> Dist:
    """The dice ``pool`` keeps, lowest first: a dynamic programme over the dice
    one at a time, a state being the multiset kept so far (the dice a keep
    drops are dropped as they go: they can never be kept again)."""
    die = _die(pool, depth)
    keep = pool.kept if pool.keep is not None else None
    highest = pool.keep in ("kh", "dl")
    states: dict[tuple[int, ...], int] = {(): 1}
    denom = 1
    for _ in range(pool.count):
        width = len(next(iter(states))) + 1  # each merge copies a state's dice
        denom *= die.denom
        spend(weighed(len(states) * len(die.weights) * width, denom.bit_length()))
        after: dict[tuple[int, ...], int] = {}
        for state, ways in states.items():
            for shown, w in die.weights.items():
                merged = tuple(sorted(state + shown))
                if keep is not None:
                    # the highest: all while fewer than ``keep`` (no index from the end)
                    cut = max(len(merged) - keep, 0) if highest else 0
                    merged = merged[cut : cut + keep]
                after[merged] = after.get(merged, 0) + ways * w
        if len(after) > MAX_ENTRIES:
            raise RuleInputError(
                f"{pool} keeps more than {MAX_ENTRIES:,} sets of dice "
                "(a limit of the runtime, not of the rules)"
            )
        states = after
    denom = die.denom**pool.count
    return Dist(dict(states), denom - (die.denom - die.cut) ** pool.count, denom)


def _die(pool: Pool, depth: int) -> Dist:
    """One die of ``pool`` as the dice it adds to the list (sorted): one, or
    with ``!`` and ``!o`` the die and the dice its explosion adds."""
    if pool.explode is None:  # its faces (numbers, or a die's symbols)
        spend(chain_cost(pool, depth, _same))
        face = face_weights(pool)
        return Dist({(v,): w for v, w in face.weights.items()}, 0, face.denom)
    if pool.explode not in ("!", "!o"):
        spend(chain_cost(pool, depth, _same))
        chain = chain_weights(pool, depth, _same)
        return Dist({(v,): w for v, w in chain.weights.items()}, chain.top, chain.denom)
    spend(chain_cost(pool, depth, None))
    empty: tuple[int, ...] = ()
    found, cut, denom = chains(
        pool, depth, empty, lambda shown, f: tuple(sorted((*shown, f)))
    )
    return Dist(found, cut, denom)


def _total(pool: Pool, depth: int) -> Dist:
    chances = total_odds(DiceSum((Term(1, pool),)), depth)
    return _weighed(chances.chances.items(), chances.tail)


def _weighed(chances: Iterable[tuple[Any, Fraction]], tail: Fraction) -> Dist:
    """Chances as exact fractions (and the ``tail`` an explosion left), as whole
    weights over their common denominator."""
    pairs = list(chances)
    denom = lcm(tail.denominator, *(p.denominator for _, p in pairs))
    weights = {_key(v): p.numerator * (denom // p.denominator) for v, p in pairs}
    cut = tail.numerator * (denom // tail.denominator)
    return Dist(weights, cut, denom)


def _key(value: object) -> object:
    """A value as a key of the chances: a list as a tuple."""
    if isinstance(value, list):
        return tuple(_key(v) for v in cast("list[object]", value))
    return value


def _rank(value: object) -> tuple[int, Any]:
    """Answers in order: null first, then flags and numbers, then the labels of
    an enum in its members' order (not alphabetically), then text."""
    if value is None:
        return (0, 0)
    if isinstance(value, Enum):
        return (2, list(type(value)).index(value))
    if isinstance(value, str):
        return (3, value)
    return (1, value)


def _same(value: int) -> int:
    return value
