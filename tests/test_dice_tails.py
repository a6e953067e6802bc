"""Exact tails: an explosion is cut per die at the depth, whatever the pool is added to.

``odds(dice, depth).chances`` lists the chance of each value with no die cut
(a die that would roll more than ``depth`` more dice leaves the value
unknown: ``tail``). So ``chances / (1 - tail)`` are the odds of dice each
rolled again while it would be cut: in icepool, each die exploded with
``explode(depth=depth, end=S)`` (S a sentinel added to every chain cut
there), then ``reroll`` of the outcomes holding S, then pooled. (icepool's
own ``end=icepool.Reroll`` is another cut: it rerolls only the last die of
a chain until it stops, which keeps the chains' weights up to it as they
were.) A counting pool scores each die of a chain on its own before adding.

The issue's case: ``4d10!>=10>=8`` added to a die listed chances that were
neither true nor the cut, and ``40d10!=10>=8`` cut the whole pool at
``depth + 1`` successes (a 79% tail at depth 10); both are exact now.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import odds
from rulesc.runtime.dice_terms import Compare, DiceSum, Pool, Term
from rulesc.runtime.errors import RuleInputError

SENTINEL = 10**6


def _chain(pool: Pool, depth: int, sentinel: int) -> Any:
    """One die of ``pool`` with the dice its explosion adds, each scored on
    its own (its face, or 1 where it meets the target), the chains cut at
    ``depth`` holding ``sentinel``."""
    die = icepool.Die(list(pool.faces))
    target, explodes = pool.target, pool.explodes
    if pool.explode is None:
        return die if target is None else die.map(lambda f: int(target.meets(f)))
    booms = [f for f in pool.faces if explodes(f)]
    if target is None and depth:  # icepool's own explode
        return die.explode(booms, depth=depth, end=sentinel)

    def score(f: int) -> int:
        return f if target is None else int(target.meets(f))

    chain = die.map(lambda f: score(f) + (sentinel if explodes(f) else 0))
    for _ in range(depth):
        chain = die.map(_then(score, explodes, chain))
    return chain


def _then(score: Any, explodes: Any, inner: Any) -> Any:
    """A die's score, and at a face that explodes the chain after it."""
    return lambda f: score(f) + (inner if explodes(f) else 0)


def _icepool(dice: DiceSum, depth: int, *, cut: bool) -> dict[int, Fraction]:
    """The chances of each value with no die cut (``cut``: each die's chain
    rerolled while it is cut, so no die is)."""
    total: Any = icepool.Die([0])
    for i, term in enumerate(dice.terms):
        part: Any = term.value
        if isinstance(part, Pool):
            sentinel = SENTINEL ** (i + 1)  # (no two terms' cancel)
            chain = _chain(part, depth, sentinel)
            if cut:
                chain = chain.reroll(lambda v, s=sentinel: v >= s // 2, depth="inf")
            part = chain.pool(part.count).sum()
        total = total + part if term.sign > 0 else total - part
    denominator = total.denominator()
    return {
        v: Fraction(q, denominator) for v, q in total.items() if abs(v) < SENTINEL // 2
    }


def _check(dice: DiceSum, depth: int) -> None:
    ours = odds(dice, depth)
    assert ours.chances == _icepool(dice, depth, cut=False), str(dice)
    assert sum(ours.chances.values()) + ours.tail == 1
    if ours.tail != 1:
        scaled = {v: p / (1 - ours.tail) for v, p in ours.chances.items()}
        assert scaled == _icepool(dice, depth, cut=True), str(dice)


@st.composite
def exploding(draw: st.DrawFn) -> Pool:
    """A small pool that explodes with ``!`` (or, at times, not), counting or summing."""
    sides = draw(st.integers(2, 8))
    options: dict[str, Any] = {"explode": "!" if draw(st.integers(0, 3)) else None}
    if draw(st.booleans()):
        options["explode_at"] = Compare(">=", draw(st.integers(2, sides)))
    if draw(st.integers(0, 3)):
        options["target"] = Compare(
            draw(st.sampled_from((">=", "<=", "="))), draw(st.integers(1, sides))
        )
    try:
        return Pool(draw(st.integers(1, 4)), sides, **options)
    except RuleInputError:
        return Pool(draw(st.integers(1, 4)), sides, explode="!")


@st.composite
def sums(draw: st.DrawFn) -> DiceSum:
    terms = [Term(1, draw(exploding()))]
    for _ in range(draw(st.integers(0, 2))):
        value = draw(st.one_of(exploding(), st.integers(0, 6)))
        terms.append(Term(draw(st.sampled_from((1, -1))), value))
    return DiceSum(tuple(terms))


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(sums(), st.integers(0, 3))
def test_the_cut_is_per_die_whatever_the_pool_is_added_to(
    dice: DiceSum, depth: int
) -> None:
    _check(dice, depth)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("4d10!>=10>=8+1d6", 2),
        ("4d10!>=10>=8-1d6+3", 0),
        ("3d6!>=5>=5+2d4!>=4", 1),
        ("40d10!=10>=8", 10),
    ],
)
def test_the_issue_s_counting_pools_are_exact_to_the_cut(text: str, depth: int) -> None:
    _check(parse_notation(text), depth)


def test_forty_exploding_d10s_count_past_the_depth() -> None:
    """Every count of 40 dice is listed, each with its chance with no die
    cut; the tail is the chance that some die explodes 11 times running."""
    found = odds(parse_notation("40d10!=10>=8"), 10)
    assert found.tail == 1 - (1 - Fraction(1, 10**11)) ** 40
    assert found.max > 40
    mean = sum((v * p for v, p in found.chances.items()), Fraction(0))
    assert abs(mean / (1 - found.tail) - Fraction(40, 3)) < Fraction(1, 10**6)
