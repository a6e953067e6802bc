"""Odds of a rule's answer: the sources and answers generated ``<function>_odds`` code hands the engine.

A generated ``<function>_odds`` works its rule out over chances instead of
rolls, as a plan of the engine (``rulebook._plan``): its sources are the
chances of its dice and of the rules it calls, each independent of the
others once the values it reads are known. A dice total's chances come from
``rulebook.dice_odds`` (``total``); a pool read only through folds (counts,
sums, the highest...) is worked out over the multiset of its outcomes
(``dice`` and ``item`` make its groups, ``pool`` its chances:
``rulebook._multiset``); a pool read as a list, its kept dice as a multiset
(``kept``, ``results``); a call of another rule that rolls is what its odds
function answers (``called``); a roll of a dice value its distribution
(``rolled``); a comprehension whose body or test rolls, its lists item by
item (``each``). No roll is enumerated.

An explosion is followed ``depth`` dice deep; the chance of the rolls cut off
there is the ``tail`` of the answer, and the chances of the answers known sum
to ``1 - tail``. The answer is one value's chances (``chances``), each
field's own (``by_field``), or the chances of the fields together (``joint``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Never

from ._dist import Dist, answer, marginal, weighed_dist
from ._multiset import Fold, Group, die_outcomes, element, group, multiset
from ._plan import Step, each, let, run, source
from ._support import MAX_ENTRIES, spend, weighed
from .dice import Dice
from .dice_odds import DEPTH, counted_odds
from .dice_terms import Pool
from .errors import RuleInputError
from .odds import Chances, OddsByField

__all__ = [
    "Dist",
    "Step",
    "answer",
    "by_field",
    "called",
    "chances",
    "const",
    "dice",
    "each",
    "item",
    "joint",
    "kept",
    "let",
    "pool",
    "refused",
    "results",
    "rolled",
    "run",
    "source",
    "total",
    "unread",
]

Make = Callable[[int, int], Pool]


def const(value: object) -> Dist:
    """A value known for certain (a source not rolled where its guard fails)."""
    return Dist({value: 1}, 0, 1)


def total(make: Make, count: int, sides: int, depth: int = DEPTH) -> Dist:
    """A dice term's total: ``make(count, sides)``'s; no dice total 0."""
    if not count:
        return Dist({0: 1}, 0, 1)
    chances = counted_odds(make(count, sides), depth)
    return weighed_dist(chances.chances.items(), chances.tail)


def kept(make: Make, count: int, sides: int, depth: int = DEPTH) -> Dist:
    """The dice a pool keeps (a sorted tuple): a pool read as a list."""
    if not count:
        return Dist({(): 1}, 0, 1)
    return results(make(count, sides), depth)


def unread(make: Make, count: int, sides: int, depth: int = DEPTH) -> Dist:
    """A pool whose dice nothing reads: only its chance of being known (an
    explosion cut off at the depth leaves its dice unknown)."""
    if not count:
        return Dist({(): 1}, 0, 1)
    made = make(count, sides)
    die = die_outcomes(made, depth)
    known = sum(die.weights.values())
    everything = die.denom**made.count
    return Dist({(): known**made.count}, everything - known**made.count, everything)


def dice(make: Make, count: int, sides: int, depth: int = DEPTH) -> Group:
    """A pool's dice as a group of a multiset (no dice: an empty group)."""
    if not count:
        return Group({}, 0, 1, 0)
    return group(make(count, sides), depth)


def item(part: Dist) -> Group:
    """One item of a list, of the chances ``part`` (a dice total)."""
    return element(part)


def pool(groups: Sequence[Group], folds: Sequence[Fold]) -> Dist:
    """The chances of the folds' values over the dice of ``groups``."""
    return multiset(groups, folds)


def rolled(dice: Dice) -> Dist:
    """A roll of a dice value (``roll(d)``): its exact distribution."""
    return weighed_dist(dice.distribution().items(), Fraction(0))


def called(chances: Chances[Any]) -> Dist:
    """The chances another rule's odds function answers (a call of a rule that
    rolls), as a source: its dice are its own, independent of the caller's."""
    return weighed_dist(chances.items(), chances.tail)


def refused(text: str) -> Never:
    """A case that refuses, reached: the odds refuse as the rule does."""
    raise RuleInputError(text)


def chances(part: Dist) -> Chances[Any]:
    """The chances of the one value a run answers, answers ascending."""
    return answer(marginal(part, 0))


def by_field(part: Dist, names: Sequence[str]) -> OddsByField:
    """Each field's own chances, from the fields a run answers together."""
    return OddsByField(
        (name, answer(marginal(part, at))) for at, name in enumerate(names)
    )


def joint(part: Dist) -> Chances[Any]:
    """The chances of the fields together, each answer a tuple of them."""
    return answer(part)


def results(pool: Pool, depth: int) -> Dist:
    """The dice ``pool`` keeps, lowest first: a dynamic programme over the dice
    one at a time, a state being the multiset kept so far (the dice a keep
    drops are dropped as they go: they can never be kept again)."""
    die = die_outcomes(pool, depth)
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
