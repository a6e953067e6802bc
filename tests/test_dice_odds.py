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

import math
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
from rulesc.runtime.dice_odds import MAX_WORK, Odds, odds, odds_work
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import (
    COMPARISONS,
    KEEPS,
    AnyOf,
    Compare,
    DiceSum,
    Number,
    Pool,
    Term,
)
from rulesc.runtime.dice_tree import Binary, Call, CallName, Group, Labeled
from rulesc.runtime.dice_tree import Test as Compared
from rulesc.runtime.errors import RuleInputError


def _icepool_die(pool: Pool) -> Any:
    faces = pool.shown_faces  # (min and max applied; a listed face weighs as often)
    die = icepool.Die(list(faces))
    if pool.reroll is not None and not all(map(pool.reroll.meets, faces)):
        meets = pool.reroll.meets  # (rerolling every face once changes nothing)
        die = die.reroll(meets, depth=1 if pool.reroll_once else "inf")
    return die


def _score(pool: Pool) -> Callable[[int], int]:
    """A die's score: its value, or 1 where it meets the target less 1 where
    it meets the failure."""
    target, failure = pool.target, pool.failure
    if target is None:
        return lambda v: v
    return lambda v: (
        int(target.meets(v)) - int(failure is not None and failure.meets(v))
    )


def _then(
    hit: Callable[[int], int], explodes: Callable[[int], bool], inner: Any
) -> Callable[[int], Any]:
    """A die's hit, and at a face that explodes the chain after it."""
    return lambda f: hit(f) + (inner if explodes(f) else 0)


def _chain(pool: Pool, depth: int, sentinel: int, hit: Callable[[int], int]) -> Any:
    """One die with the dice its ``!`` or ``!p`` adds, each scored on its own
    by ``hit`` (a die an explosion adds, by ``!p``, at its face less 1), a
    chain cut at the depth holding ``sentinel``."""
    die, explodes = _icepool_die(pool), pool.explodes
    less = 1 if pool.explode == "!p" else 0

    def later(f: int) -> int:
        return hit(f - less)

    chain = die.map(lambda f: later(f) + (sentinel if explodes(f) else 0))
    for _ in range(depth - 1):
        chain = die.map(_then(later, explodes, chain))
    if not depth:
        return die.map(lambda f: hit(f) + (sentinel if explodes(f) else 0))
    return die.map(_then(hit, explodes, chain))


def _unique(pool: Pool) -> Any:
    """icepool's die of the sorted faces of ``count`` unique dice: each die
    rerolled while it shows a face an earlier die shows."""
    dice: Any = icepool.Die([()])
    for _ in range(pool.count):
        dice = dice.map(
            lambda t: (
                _icepool_die(pool)
                .reroll(list(t), depth="inf")
                .map(lambda f: tuple(sorted((*t, f))))
            )
        )
    return dice


def _chain_dice(pool: Pool, depth: int, sentinel: int) -> Any:
    """icepool's die of the tuple of dice one die of ``pool`` and its
    explosion roll (``!p``: each added die less 1), cut at the depth: (sentinel,)."""
    die, explodes = _icepool_die(pool), pool.explodes
    less = 1 if pool.explode == "!p" else 0
    levels = 1 if pool.explode == "!o" else depth

    def then(inner: Any, off: int) -> Callable[[int], Any]:
        def step(f: int) -> Any:
            if not explodes(f):
                return (f - off,)
            return inner.map(lambda t: t if t == (sentinel,) else (f - off, *t))

        return step

    if pool.explode == "!o":  # (the die it adds never explodes)
        chain: Any = die.map(lambda f: (f,))
    else:
        chain = die.map(lambda f: (sentinel,) if explodes(f) else (f - less,))
    for _ in range(levels - 1):
        chain = die.map(then(chain, less))
    if not levels:  # (depth 0: a die that explodes is cut)
        return die.map(lambda f: (sentinel,) if explodes(f) else (f,))
    return die.map(then(chain, 0))


def _icepool_kept(pool: Pool, depth: int, sentinel: int) -> Any:
    """A pool that keeps among all its dice (unique, or explosions' too)."""
    score = _score(pool)
    drop, n = pool.keep in ("dh", "dl"), pool.keep_count
    high = pool.keep in ("kh", "dh")

    def value(*chains: tuple[int, ...]) -> int:
        dice = [v for chain in chains for v in chain]
        if sentinel in dice:
            return sentinel
        ranked = sorted(dice, reverse=high)
        counted = ranked if pool.keep is None else ranked[n:] if drop else ranked[:n]
        return sum(score(v) for v in counted) * pool.multiplier

    if pool.unique:
        return _unique(pool).map(lambda t: value(t))
    chain = _chain_dice(pool, depth, sentinel)
    return icepool.map(value, *[chain] * pool.count)


def _icepool_pool(pool: Pool, depth: int, sentinel: int) -> Any:
    if pool.unique or (pool.keep and pool.explode in ("!", "!p", "!o")):
        return _icepool_kept(pool, depth, sentinel)
    die = _icepool_die(pool)
    explodes = pool.explodes
    target = pool.target
    score = _score(pool)
    if pool.explode == "!p" or (target is not None and pool.explode in ("!", "!o")):
        # each die the explosion adds counts on its own
        if pool.explode == "!o":
            chain = die.map(lambda f: score(f) + (die.map(score) if explodes(f) else 0))
        else:
            chain = _chain(pool, depth, sentinel, score)
        return chain.pool(pool.count).sum() * pool.multiplier
    if pool.explode == "!o":  # (icepool's explode fails on a one-sided die)
        chain = die.map(_then(lambda f: f, explodes, die))
    elif pool.explode is not None and depth == 0:  # icepool's depth 0 is no explosion
        chain = die.map(lambda f: f + sentinel if explodes(f) else f)
    elif pool.explode is not None:
        booms = [f for f in pool.shown_faces if explodes(f)]
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
        return sum(score(v) for v in values)

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
def conditions(draw: st.DrawFn, sides: int, several: bool = True) -> Any:
    """A comparison of a face, or (``several``: as rerolls are written) any of two."""
    compare = st.builds(Compare, st.sampled_from(COMPARISONS), st.integers(-1, sides))
    if not several or draw(st.integers(0, 2)):
        return draw(compare)
    return AnyOf((draw(compare), draw(compare)))


@st.composite
def pools(draw: st.DrawFn, small: bool = False, more: bool = False) -> Pool:
    """A pool; ``more``: with issue 41's options too (min/max, any of several
    conditions, ``!p``, failures)."""
    fudge = draw(st.booleans()) if not small else False
    sides = 3 if fudge else draw(st.integers(1, 4 if small else 10))
    count = draw(st.integers(1, 3 if small else 5))
    options: dict[str, Any] = {}
    # a face below the minimum or above the maximum counts as it
    if more and not draw(st.integers(0, 3)):
        options["minimum" if draw(st.booleans()) else "maximum"] = draw(
            st.integers(0, sides)
        )
    if draw(st.booleans()):
        options["reroll"] = (
            draw(conditions(sides))
            if more
            else Compare(
                draw(st.sampled_from(COMPARISONS)), draw(st.integers(-1, sides))
            )
        )
        options["reroll_once"] = small or draw(st.booleans())  # enumerable
    explodes = ["!o"] if small else ["!!", "!o", "!", *(["!p"] if more else [])]
    if draw(st.booleans()):
        options["explode"] = draw(st.sampled_from(explodes))
        if draw(st.booleans()):
            options["explode_at"] = Compare(
                draw(st.sampled_from(COMPARISONS)), draw(st.integers(-1, sides + 1))
            )
    if more and not small and draw(st.integers(0, 3)) == 0 and not options:
        options["unique"] = True
        count = min(count, sides)
    if draw(st.booleans()) and (more or options.get("explode") in (None, "!!")):
        if options.get("explode") in ("!", "!p", "!o"):  # (icepool's check: few dice)
            count, sides = min(count, 3), min(sides, 6)
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
        if more and draw(st.booleans()):
            options["failure"] = draw(conditions(sides, several=False))
    options["multiplier"] = draw(st.sampled_from((1, 1, 2, 3)))
    try:
        return Pool(count, sides, fudge=fudge, **options)
    except RuleInputError:
        return Pool(count, sides, fudge=fudge)


@st.composite
def sums(draw: st.DrawFn, small: bool = False, more: bool = False) -> DiceSum:
    terms = [Term(draw(st.sampled_from((1, 1, -1))), draw(pools(small, more)))]
    for _ in range(draw(st.integers(0, 1 if small else 2))):
        value = draw(st.one_of(pools(small, more), st.integers(0, 20)))
        terms.append(Term(draw(st.sampled_from((1, -1))), value))
    return DiceSum(tuple(terms))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(sums(more=True), st.integers(0, 3))
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


def enumerated(dice: DiceSum) -> dict[Number, Fraction]:
    """The chance of each total, from every sequence of faces ``roll`` asks for."""
    found: dict[Number, Fraction] = {}
    pending: list[list[int]] = [[]]
    while pending:
        faces = pending.pop()
        path = _Path(faces)
        try:
            total = roll(dice, path).total
        except _Branch as more:
            pending += [[*faces, f] for f in range(more.low, more.high + 1)]
            continue
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
@given(sums(small=True, more=True))
def test_odds_agree_with_every_roll(dice: DiceSum) -> None:
    assume(_paths(dice) <= 5000)
    ours = odds(dice)
    assert ours.tail == 0
    assert ours.chances == enumerated(dice), str(dice)


# -- the tree: products, calls, tests, groups, labels -------------------------------


def _icepool_node(node: object) -> Any:
    """icepool's die of a tree node (no explosion cut: no sentinel), by
    ``icepool.map`` over exact Fractions for every arithmetic step."""
    if isinstance(node, Pool):
        return _icepool_pool(node, 0, 10**6)
    if isinstance(node, int | Fraction):
        return icepool.Die([node])
    if isinstance(node, DiceSum):
        total: Any = icepool.Die([0])
        for term in node.terms:
            part = _icepool_node(term.value)
            total = icepool.map(lambda x, y, s=term.sign: x + s * y, total, part)
        return total
    if isinstance(node, Labeled):
        return _icepool_node(node.node)
    if isinstance(node, Binary | Compared):
        how = _ICEPOOL_BINARY.get(getattr(node, "op", "")) or node.holds  # type: ignore[union-attr]
        left, right = _icepool_node(node.left), _icepool_node(node.right)
        return icepool.map(lambda x, y: _whole(how(x, y)), left, right)
    if isinstance(node, Call):
        parts = [_icepool_node(a) for a in node.args]
        return icepool.map(lambda *xs: _whole(_ICEPOOL_CALLS[node.name](*xs)), *parts)
    assert isinstance(node, Group)
    return _icepool_group(node)


def _whole(value: Any) -> Any:
    return Fraction(value) if not isinstance(value, bool) else int(value)


CALL_NAMES: tuple[CallName, ...] = ("floor", "ceil", "round", "abs", "max", "min")
_ICEPOOL_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "*": lambda x, y: Fraction(x) * y,
    "/": lambda x, y: Fraction(x) / y,
}
_ICEPOOL_CALLS: dict[str, Callable[..., Any]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": lambda x: math.floor(Fraction(x) + Fraction(1, 2)),
    "abs": abs,
    "max": max,
    "min": min,
}


def _icepool_group(group: Group) -> Any:
    items = [_icepool_node(i) for i in group.items]
    target, failure = group.target, group.failure

    def score(v: Any) -> Any:
        if target is None:
            return v
        return int(target.meets(v)) - int(failure is not None and failure.meets(v))

    n = len(items)
    keep = {"kh": group.keep_count, "kl": group.keep_count}.get(group.keep or "", n)
    if group.keep in ("dh", "dl"):
        keep = max(n - group.keep_count, 0)
    highest = group.keep in ("kh", "dl")

    def kept(*values: Any) -> Any:
        ranked = sorted(values, reverse=highest)[: min(keep, n)]
        return sum((score(v) for v in ranked), Fraction(0))

    return icepool.map(kept, *items)


def _chances(die: Any) -> dict[Any, Fraction]:
    denominator = die.denominator()
    return {v: Fraction(q, denominator) for v, q in die.items() if q}


@st.composite
def leaves(draw: st.DrawFn) -> Any:
    """A small pool (no explosion cut), a whole number or a fraction."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.integers(-3, 4))
    if kind == 1:
        return Fraction(draw(st.integers(-5, 5)), draw(st.integers(1, 4)))
    pool = draw(pools(small=True))
    return pool if pool.count * len(pool.faces) <= 12 else Pool(1, 4)


@st.composite
def nodes(draw: st.DrawFn, height: int = 2) -> Any:
    if height == 0 or draw(st.integers(0, 2)) == 0:
        return draw(leaves())
    kind = draw(st.sampled_from(("sum", "*", "/", "call", "test", "group", "label")))
    a, b = draw(nodes(height - 1)), draw(nodes(height - 1))
    if kind == "sum":
        return DiceSum((Term(1, a), Term(draw(st.sampled_from((1, -1))), b)))
    if kind in ("*", "/"):
        return Binary("*" if kind == "*" else "/", a, b)
    if kind == "call":
        name = draw(st.sampled_from(CALL_NAMES))
        return Call(name, (a,) if name in ("floor", "ceil", "round", "abs") else (a, b))
    if kind == "test":
        return Compared(draw(st.sampled_from(COMPARISONS)), a, b)
    if kind == "label":
        return Labeled(a, "x y")
    items = (a, b, *draw(st.lists(leaves(), max_size=1)))
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["keep"] = draw(st.sampled_from(KEEPS))
        options["keep_count"] = draw(st.integers(1, len(items)))
    if draw(st.booleans()):
        options["target"] = Compare(
            draw(st.sampled_from((">=", "<=", "="))), draw(st.integers(-1, 4))
        )
        if draw(st.booleans()):
            options["failure"] = Compare("<=", draw(st.integers(-2, 1)))
    return Group(items, **options)


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(nodes())
def test_the_odds_of_a_tree_agree_with_icepool(node: Any) -> None:
    dice = node if isinstance(node, DiceSum) else DiceSum((Term(1, node),))
    try:
        ours = odds(dice)
    except RuleInputError as refused:
        assert "division by zero" in str(refused), str(dice)
        return
    assert ours.tail == 0
    assert ours.chances == _chances(_icepool_node(dice)), str(dice)
    assert all(type(v) is int or v.denominator > 1 for v in ours.chances)


def test_a_divisor_that_can_be_zero_is_refused() -> None:
    with pytest.raises(RuleInputError, match="division by zero"):
        odds(
            DiceSum(
                (Term(1, Binary("/", 6, DiceSum((Term(1, Pool(1, 4)), Term(-1, 2))))),)
            )
        )


def test_a_tree_with_an_explosion_keeps_its_tail() -> None:
    """A cut die anywhere under a node leaves the node unknown."""
    dice = DiceSum((Term(1, Binary("*", Pool(1, 6, explode="!"), 2)),))
    shallow = odds(dice, 2)
    assert shallow.tail == Fraction(1, 6**3)
    assert shallow.chances[2 * 8] == Fraction(1, 36)


@pytest.mark.parametrize(("count", "sides"), [(101, 6), (200, 10), (1, 1001)])
def test_no_cap_on_count_or_sides(count: int, sides: int) -> None:
    """No fixed cap: as large as the work budget allows, answered at once,
    exact (its mean and variance those of ``count`` independent dice)."""
    started = time.perf_counter()
    found = odds(DiceSum((Term(1, Pool(count, sides)),)))
    assert time.perf_counter() - started < 1.0
    assert (found.min, found.max) == (count, count * sides)
    assert found.chances[count] == Fraction(1, sides**count)
    assert found.mean == Fraction(count * (sides + 1), 2)
    assert found.variance == Fraction(count * (sides**2 - 1), 12)


def test_a_thousand_dice_are_within_the_budget() -> None:
    assert odds_work(DiceSum((Term(1, Pool(1000, 6)),))) <= MAX_WORK


@pytest.mark.parametrize(
    "pool",
    [
        Pool(2, 6, explode="!", keep="kh", keep_count=1),
        Pool(4, 6, explode="!", keep="dl", keep_count=1),
        Pool(3, 6, explode="!p", keep="kh", keep_count=2),
        Pool(3, 4, explode="!o", keep="dh", keep_count=1, target=Compare(">=", 3)),
        Pool(4, 6, unique=True, keep="kh", keep_count=3),
        Pool(5, 10, unique=True, keep="dl", keep_count=2, target=Compare(">=", 6)),
        Pool(3, 6, unique=True, listed=(1, 1, 2, 3, 3, 3)),  # faces that weigh unlike
        Pool(
            2,
            6,
            unique=True,
            fudge=True,
            listed=(-1, 0, 0, 0, 0, 1),
            keep="kl",
            keep_count=1,
        ),
    ],
    ids=str,
)
def test_keeping_among_all_the_dice_agrees_with_icepool(pool: Pool) -> None:
    """Keep after an explosion keeps among all the pool's dice, the ones
    explosions add too; unique dice are a set of distinct faces."""
    dice = DiceSum((Term(1, pool), Term(-1, 2)))
    for depth in (0, 2):
        assert odds(dice, depth) == icepool_odds(dice, depth), str(dice)


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(nodes())
def test_the_odds_of_a_tree_agree_with_every_roll(node: Any) -> None:
    """Each value of a tree as often as ``roll`` gives it, over every sequence of faces."""
    dice = node if isinstance(node, DiceSum) else DiceSum((Term(1, node),))
    assume(_paths(dice) <= 3000)
    try:
        ours = odds(dice)
    except RuleInputError as refused:  # (a divisor that can be 0)
        assert "division by zero" in str(refused)
        return
    assert ours.chances == enumerated(dice), str(dice)
