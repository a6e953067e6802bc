"""rulebook.dice: the Dice value type, its exact distribution, parsing and rolling."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulebook.dice import Dice, DiceSyntaxError, Scripted, parse_dice
from rulebook.errors import RuleInputError

# -- helpers --------------------------------------------------------------------


def _untyped(value: object) -> Any:
    """Pass a deliberately wrong argument past the type checker."""
    return cast(Any, value)


class RecordingRng:
    """A fake RNG: records every randint call and answers from a fixed list."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int, /) -> int:
        self.calls.append((a, b))
        return self.answers.pop(0)


def _brute_force(dice: Dice) -> dict[int, Fraction]:
    """The distribution by enumerating every outcome of every die."""
    faces = range(1, dice.sides + 1)
    counts: Counter[int] = Counter()
    outcomes = 0
    for roll in itertools.product(faces, repeat=dice.count):
        counts[sum(roll) * dice.multiplier + dice.modifier] += 1
        outcomes += 1
    return {value: Fraction(n, outcomes) for value, n in sorted(counts.items())}


SAMPLE_DICE: list[Dice] = [
    Dice(1, 6),
    Dice(2, 6),
    Dice(3, 6),
    Dice(3, 4),
    Dice(2, 2),
    Dice(3, 2),
    Dice(3, 3),
    Dice(2, 10, modifier=10),
    Dice(2, 6, multiplier=10),
    Dice(1, 4, modifier=-1),
    Dice(4, 5, modifier=-3, multiplier=2),
    Dice(1, 1),
    Dice(0, 0, modifier=7),
    Dice(0, 0),
]


# -- the value type -------------------------------------------------------------


def test_dice_fields_and_defaults() -> None:
    names = list(Dice.FIELDS)
    assert names == ["count", "sides", "modifier", "multiplier", "unit"]
    d = Dice(2, 6)
    assert (d.count, d.sides, d.modifier, d.multiplier, d.unit) == (2, 6, 0, 1, None)
    e = Dice(2, 10, modifier=10, multiplier=3, unit="minutes")
    assert (e.count, e.sides, e.modifier, e.multiplier, e.unit) == (
        2,
        10,
        10,
        3,
        "minutes",
    )
    assert Dice(2, 6, unit="hours") != Dice(2, 6, unit="minutes")
    assert Dice(2, 6) == Dice(2, 6, 0, 1, None)
    assert hash(Dice(2, 6)) == hash(Dice(2, 6))


def test_dice_is_frozen_with_slots() -> None:
    d = Dice(2, 6)
    assert hasattr(Dice, "__slots__")
    assert not hasattr(d, "__dict__")
    for name in d.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(d, name, 3)
    assert d.count == 2


@pytest.mark.parametrize(
    ("dice", "lo", "hi", "mean"),
    [
        (Dice(1, 6), 1, 6, Fraction(7, 2)),
        (Dice(3, 4), 3, 12, Fraction(15, 2)),
        (Dice(2, 10, modifier=10), 12, 30, Fraction(21)),
        (Dice(2, 6, multiplier=10), 20, 120, Fraction(70)),
        (Dice(1, 4, modifier=-1), 0, 3, Fraction(3, 2)),
        (Dice(2, 2), 2, 4, Fraction(3)),
        (Dice(3, 3), 3, 9, Fraction(6)),
        (Dice(0, 0, modifier=1), 1, 1, Fraction(1)),
        (Dice(0, 0, modifier=-4), -4, -4, Fraction(-4)),
        (Dice(2, 3, modifier=1, multiplier=2), 5, 13, Fraction(9)),
    ],
)
def test_min_max_mean(dice: Dice, lo: int, hi: int, mean: Fraction) -> None:
    assert dice.min == lo
    assert dice.max == hi
    assert isinstance(dice.mean, Fraction)
    assert dice.mean == mean


@pytest.mark.parametrize("dice", SAMPLE_DICE, ids=str)
def test_distribution_is_exact(dice: Dice) -> None:
    dist = dice.distribution()
    assert all(type(k) is int for k in dist)
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert sum(dist.values()) == 1
    keys = list(dist)
    assert keys == sorted(keys)
    assert keys[0] == dice.min
    assert keys[-1] == dice.max
    step = dice.multiplier if dice.count else 1
    assert keys == list(range(dice.min, dice.max + 1, step))
    assert sum(k * p for k, p in dist.items()) == dice.mean
    assert dist == _brute_force(dice)


def test_distribution_known_values() -> None:
    two_d6 = Dice(2, 6).distribution()
    assert two_d6[7] == Fraction(1, 6)
    assert two_d6[2] == two_d6[12] == Fraction(1, 36)
    three_d6 = Dice(3, 6).distribution()
    assert three_d6[10] == three_d6[11] == Fraction(27, 216)
    assert three_d6[3] == Fraction(1, 216)
    assert Dice(2, 6, multiplier=10).distribution()[70] == Fraction(1, 6)
    assert Dice(0, 0, modifier=1).distribution() == {1: Fraction(1)}
    assert Dice(1, 4, modifier=-1).distribution() == {
        v: Fraction(1, 4) for v in range(4)
    }


def test_distribution_is_a_fresh_dict() -> None:
    d = Dice(2, 4)
    first = d.distribution()
    first[99] = Fraction(1)
    first.pop(2)
    assert d.distribution() == _brute_force(d)


@pytest.mark.parametrize(
    ("dice", "text"),
    [
        (Dice(2, 10, modifier=10), "2d10+10"),
        (Dice(2, 6, multiplier=10), "2d6x10"),
        (Dice(0, 0, modifier=1), "1"),
        (Dice(0, 0), "0"),
        (Dice(0, 0, modifier=-3), "-3"),
        (Dice(1, 4, modifier=-1), "1d4-1"),
        (Dice(3, 6), "3d6"),
        (Dice(2, 6, modifier=-5, multiplier=10), "2d6x10-5"),
        (Dice(1, 20, modifier=1, unit="hours"), "1d20+1"),
    ],
)
def test_str_is_canonical(dice: Dice, text: str) -> None:
    assert str(dice) == text
    assert parse_dice(text, dice.unit) == dice


@pytest.mark.parametrize(
    "kwargs",
    [
        {"count": -1, "sides": 6},
        {"count": 2, "sides": 0},
        {"count": 2, "sides": -6},
        {"count": 0, "sides": 6},
        {"count": 0, "sides": 0, "multiplier": 2},
        {"count": 2, "sides": 6, "multiplier": 0},
        {"count": 2, "sides": 6, "multiplier": -1},
        {"count": True, "sides": 6},
        {"count": 2, "sides": True},
        {"count": 2, "sides": 6, "modifier": True},
        {"count": 2, "sides": 6, "multiplier": True},
        {"count": 2.0, "sides": 6},
        {"count": 2, "sides": 6.0},
        {"count": 2, "sides": 6, "modifier": 1.5},
        {"count": "2", "sides": 6},
        {"count": None, "sides": 6},
    ],
    ids=repr,
)
def test_dice_construction_validates(kwargs: dict[str, object]) -> None:
    with pytest.raises(RuleInputError):
        Dice(**_untyped(kwargs))


# -- parse_dice -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d6", Dice(1, 6)),
        ("3d6", Dice(3, 6)),
        ("2d10+10", Dice(2, 10, modifier=10)),
        ("1d4-1", Dice(1, 4, modifier=-1)),
        ("2d6x10", Dice(2, 6, multiplier=10)),
        ("2d6x10+5", Dice(2, 6, modifier=5, multiplier=10)),
        ("2d6x10-5", Dice(2, 6, modifier=-5, multiplier=10)),
        ("10d100", Dice(10, 100)),
        ("1", Dice(0, 0, modifier=1)),
        ("0", Dice(0, 0)),
        ("-2", Dice(0, 0, modifier=-2)),
        ("25", Dice(0, 0, modifier=25)),
    ],
)
def test_parse_dice_accepts(text: str, expected: Dice) -> None:
    assert parse_dice(text) == expected
    assert parse_dice(text, "minutes") == expected.replace(unit="minutes")


def test_parse_dice_bare_nd_only_with_bare_d6() -> None:
    assert parse_dice("3d", bare_d6=True) == Dice(3, 6)
    assert parse_dice("1d+2", bare_d6=True) == Dice(1, 6, modifier=2)
    assert parse_dice("2d-1", bare_d6=True) == Dice(2, 6, modifier=-1)
    assert parse_dice("2d6", bare_d6=True) == Dice(2, 6)
    with pytest.raises(DiceSyntaxError):
        parse_dice("3d")
    with pytest.raises(DiceSyntaxError):
        parse_dice("1d+2")


@pytest.mark.parametrize(
    ("text", "offsets"),
    [
        ("3d", {2}),  # the sides are missing after the d
        ("d0", {0}),  # no count
        ("d6", {0}),
        ("0d6", {0}),  # zero dice
        ("1d0", {2}),  # a die with no sides
        ("2d6x", {3, 4}),  # a multiplier with no number
        ("2d6x0", {4}),
        ("2d6+", {3, 4}),  # a modifier with no number
        ("2d6-", {3, 4}),
        ("", {0}),
        (" 2d6", {0}),
        ("2d6 ", {3}),
        ("2d6+1x2", {5}),
        ("abc", {0}),
        ("2x6", {1}),
    ],
)
def test_parse_dice_rejects_with_an_offset(text: str, offsets: set[int]) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse_dice(text)
    err = info.value
    assert isinstance(err, RuleInputError)
    assert isinstance(err, ValueError)
    assert 0 <= err.offset <= len(text)
    assert err.offset in offsets, (text, err.offset)
    assert str(err)


def test_dice_syntax_error_is_a_rule_input_error() -> None:
    assert issubclass(DiceSyntaxError, RuleInputError)
    assert issubclass(DiceSyntaxError, ValueError)


@pytest.mark.parametrize("dice", SAMPLE_DICE, ids=str)
def test_parse_round_trips_str(dice: Dice) -> None:
    assert parse_dice(str(dice)) == dice


# -- rolling --------------------------------------------------------------------


def test_roll_calls_randint_once_per_die_in_order() -> None:
    rng = RecordingRng([1, 2, 3])
    assert Dice(3, 6, modifier=2, multiplier=10).roll(rng) == 62
    assert rng.calls == [(1, 6), (1, 6), (1, 6)]
    assert rng.answers == []

    rng = RecordingRng([4, 1])
    assert Dice(2, 4, modifier=-1).roll(rng) == 4
    assert rng.calls == [(1, 4), (1, 4)]


def test_roll_consumes_answers_in_order() -> None:
    rng = RecordingRng([6, 1, 5, 2])
    first = Dice(1, 6).roll(rng)
    second = Dice(1, 6, multiplier=10).roll(rng)
    third = Dice(2, 6).roll(rng)
    assert (first, second, third) == (6, 10, 7)
    assert rng.calls == [(1, 6)] * 4


def test_roll_of_a_constant_calls_nothing() -> None:
    rng = RecordingRng([])
    assert Dice(0, 0, modifier=5).roll(rng) == 5
    assert rng.calls == []


def test_random_seed_is_reproducible() -> None:
    dice = Dice(4, 6, modifier=3, multiplier=2)
    a = [dice.roll(random.Random(1234)) for _ in range(5)]
    b = [dice.roll(random.Random(1234)) for _ in range(5)]
    assert a == b
    rng1, rng2 = random.Random(99), random.Random(99)
    seq1 = [dice.roll(rng1) for _ in range(50)]
    seq2 = [dice.roll(rng2) for _ in range(50)]
    assert seq1 == seq2
    # The same as summing one randint(1, sides) per die from the same seed.
    manual = random.Random(99)
    expected = [sum(manual.randint(1, 6) for _ in range(4)) * 2 + 3 for _ in range(50)]
    assert seq1 == expected
    assert all(v in dice.distribution() for v in seq1)


def test_scripted_returns_results_in_order() -> None:
    script = Scripted([2, 1, 2])
    assert script.remaining == 3
    assert script.randint(1, 2) == 2
    assert script.remaining == 2
    assert script.randint(1, 2) == 1
    assert script.remaining == 1
    assert script.randint(1, 2) == 2
    assert script.remaining == 0
    with pytest.raises(RuleInputError):
        script.randint(1, 2)


def test_scripted_drives_a_roll() -> None:
    script = Scripted([3, 4, 6])
    assert Dice(2, 6, multiplier=10).roll(script) == 70
    assert script.remaining == 1
    assert Dice(1, 6, modifier=-1).roll(script) == 5
    assert script.remaining == 0


def test_scripted_runs_out() -> None:
    script = Scripted([3])
    with pytest.raises(RuleInputError):
        Dice(2, 6).roll(script)
    with pytest.raises(RuleInputError):
        Scripted([]).randint(1, 6)


@pytest.mark.parametrize(("value", "sides"), [(7, 6), (0, 6), (-1, 4), (3, 2)])
def test_scripted_refuses_results_outside_the_die(value: int, sides: int) -> None:
    script = Scripted([value])
    with pytest.raises(RuleInputError):
        script.randint(1, sides)
    with pytest.raises(RuleInputError):
        Dice(1, sides).roll(Scripted([value]))


def test_scripted_refuses_non_int_results() -> None:
    with pytest.raises(RuleInputError):
        Scripted(_untyped([1, 2.0]))
    with pytest.raises(RuleInputError):
        Scripted(_untyped(["3"]))


def test_scripted_accepts_any_iterable() -> None:
    script = Scripted(iter([1, 2, 3]))
    assert script.remaining == 3
    assert Dice(3, 3).roll(script) == 6
    assert script.remaining == 0


# -- property ---------------------------------------------------------------------


@st.composite
def small_dice(draw: st.DrawFn) -> Dice:
    count = draw(st.integers(0, 4))
    sides = draw(st.integers(1, 8)) if count else 0
    multiplier = draw(st.integers(1, 3)) if count else 1
    modifier = draw(st.integers(-5, 5))
    return Dice(count, sides, modifier=modifier, multiplier=multiplier)


@settings(max_examples=150, deadline=None)
@given(dice=small_dice(), data=st.data())
def test_rolls_stay_in_the_distribution(dice: Dice, data: st.DataObject) -> None:
    dist = dice.distribution()
    assert sum(dist.values()) == 1
    assert min(dist) == dice.min
    assert max(dist) == dice.max
    assert sum(k * p for k, p in dist.items()) == dice.mean
    assert list(dist) == sorted(dist)

    faces = data.draw(
        st.lists(
            st.integers(1, max(dice.sides, 1)),
            min_size=dice.count,
            max_size=dice.count,
        )
    )
    script = Scripted(faces)
    value = dice.roll(script)
    assert script.remaining == 0
    assert value == sum(faces) * dice.multiplier + dice.modifier
    assert value in dist
    assert dice.min <= value <= dice.max

    seed = data.draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    for _ in range(5):
        assert dice.roll(rng) in dist

    assert parse_dice(str(dice)) == dice
