"""Exact odds of dice notation: against icepool, and against every roll enumerated.

icepool (an independent dice library) works the same expression out its own
way: rerolls with ``Die.reroll``, explosions with ``Die.explode`` (or, where
each die a ``!`` adds counts on its own, a die mapped onto the next one),
keeping with ``Pool.highest``/``lowest``. A die cut off at the depth is given a
sentinel value (10**6, 10**9, ... one per term, so two never cancel), so the
odds of a value icepool and ours both know are compared exactly, and the
chance of a sentinel in the total is our ``tail``. Small pools without ``!`` are
also checked by rolling every sequence of faces through ``roll`` itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulesc.runtime.dice import DiceSyntaxError
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import Odds, odds
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import (
    COMPARISONS,
    KEEPS,
    Compare,
    DiceSum,
    Pool,
    Term,
)
from rulesc.runtime.errors import RuleInputError


def _icepool_die(pool: Pool) -> Any:
    die = icepool.Die(list(pool.faces))
    if pool.reroll is not None and not all(map(pool.reroll.meets, pool.faces)):
        meets = pool.reroll.meets  # (rerolling every face once changes nothing)
        die = die.reroll(meets, depth=1 if pool.reroll_once else "inf")
    return die


def _then(
    hit: Callable[[int], int], explodes: Callable[[int], bool], inner: Any
) -> Callable[[int], Any]:
    """A die's hit, and at a face that explodes the chain after it."""
    return lambda f: hit(f) + (inner if explodes(f) else 0)


def _icepool_pool(pool: Pool, depth: int, sentinel: int) -> Any:
    die = _icepool_die(pool)
    explodes = pool.explodes
    target = pool.target
    if target is not None and pool.explode in ("!", "!o"):
        # each die the explosion adds counts on its own
        def hit(f: int) -> int:
            return 1 if target.meets(f) else 0

        if pool.explode == "!o":
            chain = die.map(lambda f: hit(f) + (die.map(hit) if explodes(f) else 0))
        else:
            chain = die.map(lambda f: hit(f) + (sentinel if explodes(f) else 0))
            for _ in range(depth):
                chain = die.map(_then(hit, explodes, chain))
        hits = chain.pool(pool.count).sum()
        booms = [f for f in pool.final_faces() if explodes(f)]
        if pool.explode == "!" and booms and all(map(target.meets, booms)):
            # a count a die cut off could reach is unknown: ours lists only those below
            hits = hits.map(lambda v: sentinel if v > depth else v)
        return hits * pool.multiplier
    if pool.explode == "!o":  # (icepool's explode fails on a one-sided die)
        chain = die.map(_then(lambda f: f, explodes, die))
    elif pool.explode is not None and depth == 0:  # icepool's depth 0 is no explosion
        chain = die.map(lambda f: f + sentinel if explodes(f) else f)
    elif pool.explode is not None:
        booms = [f for f in pool.faces if explodes(f)]
        chain = die.explode(booms, depth=depth, end=sentinel)
    else:
        chain = die
    dice = chain.pool(pool.count)
    if pool.keep is not None:
        highest = pool.keep in ("kh", "dl")
        dice = dice.highest(pool.kept) if highest else dice.lowest(pool.kept)
    if target is None:
        return dice.sum() * pool.multiplier

    def counted(values: tuple[int, ...]) -> int:
        if any(v >= sentinel // 2 for v in values):  # (a cut die: sentinel + its face)
            return sentinel
        return sum(1 for v in values if target.meets(v))

    return dice.expand().map(counted) * pool.multiplier


def icepool_odds(dice: DiceSum, depth: int) -> Odds:
    total: Any = icepool.Die([0])
    for i, term in enumerate(dice.terms):
        sentinel = 10 ** (6 + 3 * i)
        part = (
            _icepool_pool(term.value, depth, sentinel)
            if isinstance(term.value, Pool)
            else term.value
        )
        total = total + part if term.sign > 0 else total - part
    denominator = total.denominator()
    chances: dict[int, Fraction] = {}
    tail = Fraction(0)
    for outcome, quantity in total.items():
        share = Fraction(quantity, denominator)
        if abs(outcome) >= 10**6 // 2:
            tail += share
        else:
            chances[outcome] = share
    return Odds(chances, tail)


# -- expressions --------------------------------------------------------------------


@st.composite
def pools(draw: st.DrawFn, small: bool = False) -> Pool:
    fudge = draw(st.booleans()) if not small else False
    sides = 3 if fudge else draw(st.integers(1, 4 if small else 10))
    count = draw(st.integers(1, 3 if small else 5))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["reroll"] = Compare(
            draw(st.sampled_from(COMPARISONS)), draw(st.integers(-1, sides))
        )
        options["reroll_once"] = small or draw(st.booleans())  # enumerable
    explodes = ["!o"] if small else ["!!", "!o", "!"]  # (!p: the odds part adds it)
    if draw(st.booleans()):
        options["explode"] = draw(st.sampled_from(explodes))
        if draw(st.booleans()):
            options["explode_at"] = Compare(
                draw(st.sampled_from(COMPARISONS)), draw(st.integers(-1, sides + 1))
            )
    if draw(st.booleans()) and options.get("explode") in (None, "!!"):
        options["keep"] = keep = draw(st.sampled_from(KEEPS))
        high = count if keep in ("kh", "kl") else count - 1
        if high < 1:
            del options["keep"]
        else:
            options["keep_count"] = draw(st.integers(1, high))
    if draw(st.booleans()):
        options["target"] = Compare(
            draw(st.sampled_from(COMPARISONS)), draw(st.integers(-1, sides + 2))
        )
    options["multiplier"] = draw(st.sampled_from((1, 1, 2, 3)))
    try:
        return Pool(count, sides, fudge=fudge, **options)
    except RuleInputError:
        return Pool(count, sides, fudge=fudge)


@st.composite
def sums(draw: st.DrawFn, small: bool = False) -> DiceSum:
    terms = [Term(draw(st.sampled_from((1, 1, -1))), draw(pools(small)))]
    for _ in range(draw(st.integers(0, 1 if small else 2))):
        value = draw(st.one_of(pools(small), st.integers(0, 20)))
        terms.append(Term(draw(st.sampled_from((1, -1))), value))
    return DiceSum(tuple(terms))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(sums(), st.integers(0, 3))
def test_odds_agree_with_icepool(dice: DiceSum, depth: int) -> None:
    ours = odds(dice, depth)
    assert ours == icepool_odds(dice, depth), str(dice)
    assert sum(ours.chances.values()) + ours.tail == 1
    text = str(dice)  # the notation reads back (> and < written as >= and <=)
    try:
        assert str(parse_notation(text)) == text
    except (
        DiceSyntaxError
    ) as error:  # (a target no face meets: the notation refuses it)
        assert "no face of" in error.message


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("4d6dl1", Fraction(15869, 1296)),
        ("4d6kh3", Fraction(15869, 1296)),
        ("d20", Fraction(21, 2)),
        ("d%", Fraction(101, 2)),
        ("4dF", Fraction(0)),
        ("2d20kl1", Fraction(287, 40)),
        ("6d6>=5", Fraction(2)),
        ("2d6x10+5", Fraction(75)),
    ],
)
def test_the_issues_examples(text: str, mean: Fraction) -> None:
    dice = parse_notation(text)
    found = odds(dice)
    assert found.mean == mean
    assert found == icepool_odds(dice, 10)


def test_an_unbounded_explosion_has_a_tail_that_shrinks_with_depth() -> None:
    dice = parse_notation("1d6!")
    shallow, deep = odds(dice, 2), odds(dice, 10)
    assert shallow.tail == Fraction(1, 6**3)
    assert deep.tail == Fraction(1, 6**11)
    assert shallow.mean is None
    assert shallow.chances[8] == deep.chances[8] == Fraction(1, 36)
    assert odds(parse_notation("1d6!o")).tail == 0


@pytest.mark.parametrize("text", ["4d6kh3", "10d10kh3", "20d6dl5", "30d10kl10"])
def test_keeping_is_fast(text: str) -> None:
    started = time.perf_counter()
    found = odds(parse_notation(text))
    assert time.perf_counter() - started < 1.0, text
    assert sum(found.chances.values()) == 1


# -- every roll enumerated ----------------------------------------------------------


class _Branch(RuleInputError):
    """The path of faces so far has run out (a RuleInputError, so draw passes it on)."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__("more faces")
        self.low, self.high = low, high


class _Path:
    def __init__(self, faces: list[int]) -> None:
        self.faces, self.used = faces, 0
        self.chance = Fraction(1)

    def randint(self, a: int, b: int, /) -> int:
        if self.used == len(self.faces):
            raise _Branch(a, b)
        self.used += 1
        self.chance /= b - a + 1
        return self.faces[self.used - 1]


def enumerated(dice: DiceSum) -> dict[int, Fraction]:
    """The chance of each total, from every sequence of faces ``roll`` asks for."""
    found: dict[int, Fraction] = {}
    pending: list[list[int]] = [[]]
    while pending:
        faces = pending.pop()
        path = _Path(faces)
        try:
            total = roll(dice, path).total
        except _Branch as more:
            pending += [[*faces, f] for f in range(more.low, more.high + 1)]
            continue
        assert isinstance(total, int)  # a sum of pools and whole numbers
        found[total] = found.get(total, Fraction(0)) + path.chance
    return dict(sorted(found.items()))


def _paths(dice: DiceSum) -> int:
    """How many sequences of faces rolling ``dice`` can take, at most."""
    found = 1
    for pool in dice.pools:
        draws = (2 if pool.reroll else 1) * (2 if pool.explode else 1)
        found *= len(pool.faces) ** (draws * pool.count)
    return found


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(sums(small=True))
def test_odds_agree_with_every_roll(dice: DiceSum) -> None:
    assume(_paths(dice) <= 5000)
    ours = odds(dice)
    assert ours.tail == 0
    assert ours.chances == enumerated(dice), str(dice)
