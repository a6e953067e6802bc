"""The generated d20_scifi runtime answers the catalog's surface with the source's figures.

Figures come from the source (000_67cc3971ad3938cc.txt), written out here by hand,
not from rules/: a wrong row in the rules data must fail these tests.
"""

from __future__ import annotations

import enum
import random
from fractions import Fraction
from typing import Any, cast

import pytest
import rulebook.d20_scifi as d20
from rulebook.dice import Dice
from rulebook.errors import RuleInputError

# -- helpers --------------------------------------------------------------------


def _untyped(value: object) -> Any:
    """Pass a deliberately wrong argument past the type checker."""
    return cast(Any, value)


def _case_variants(label: str) -> list[str]:
    return sorted({label, label.lower(), label.upper(), label.swapcase()})


class _Opaque:
    """An object of no type a rule takes, with the same repr in every process
    (parametrize ids must not differ between pytest-xdist's workers)."""

    def __repr__(self) -> str:
        return "<opaque object>"


BAD_NON_LABELS: list[object] = [
    None,
    0,
    1,
    2,
    -1,
    0.5,
    True,
    False,
    b"1/2",
    ["1/2"],
    ("Total",),
    _Opaque(),
]


# -- cover ----------------------------------------------------------------------

# Table: Cover and Concealment, straight from the source:
# level: (hide/spot, reflex, cover AC, miss chance %, targetable, must guess location)
COVER_TABLE: dict[str, tuple[int | None, int | None, int | None, int, bool, bool]] = {
    "Total": (None, None, None, 50, False, True),
    "9/10": (4, 4, 10, 40, True, False),
    "3/4": (3, 3, 6, 30, True, False),
    "1/2": (2, 2, 4, 20, True, False),
    "1/4": (1, 1, 1, 10, True, False),
}

# Words of the source's Description column that the coverage text must carry.
COVER_COVERAGE_WORDS: dict[str, tuple[str, ...]] = {
    "Total": ("body",),
    "9/10": ("small", "hands", "feet"),
    "3/4": ("corner",),
    "1/2": ("half", "third", "vital"),
    "1/4": ("small obstacle", "non-vital", "vital"),
}

COVER_MEMBERS: dict[str, str] = {
    "TOTAL": "Total",
    "NINE_TENTHS": "9/10",
    "THREE_QUARTERS": "3/4",
    "HALF": "1/2",
    "QUARTER": "1/4",
}


def test_cover_level_is_a_strenum_of_the_source_labels() -> None:
    assert issubclass(d20.CoverLevel, enum.StrEnum)
    assert {m.name: m.value for m in d20.CoverLevel} == COVER_MEMBERS
    assert [m.value for m in d20.CoverLevel] == list(COVER_TABLE)
    half: str = d20.CoverLevel.HALF
    assert half == "1/2"
    assert d20.CoverLevel("3/4") is d20.CoverLevel.THREE_QUARTERS


def test_cover_row_fields() -> None:
    names = list(d20.CoverRow.FIELDS)
    assert names == [
        "coverage",
        "hide_spot_modifier",
        "reflex_bonus",
        "cover_ac",
        "miss_chance",
        "targetable",
        "must_guess_location",
    ]


@pytest.mark.parametrize("label", list(COVER_TABLE))
def test_cover_rows_match_the_source(label: str) -> None:
    hide, reflex, ac, miss, targetable, guess = COVER_TABLE[label]
    row = d20.cover(d20.CoverLevel(label))
    assert row.hide_spot_modifier == hide
    assert row.reflex_bonus == reflex
    assert row.cover_ac == ac
    assert row.miss_chance == miss
    assert row.targetable is targetable
    assert row.must_guess_location is guess
    for value, expected in (
        (row.hide_spot_modifier, hide),
        (row.reflex_bonus, reflex),
        (row.cover_ac, ac),
    ):
        # N/A cells are None; every other cell is a real int (not a bool).
        if expected is None:
            assert value is None
        else:
            assert type(value) is int
    assert type(row.miss_chance) is int
    assert type(row.targetable) is bool
    assert type(row.must_guess_location) is bool
    assert isinstance(row.coverage, str)
    text = row.coverage.casefold()
    for word in COVER_COVERAGE_WORDS[label]:
        assert word in text, (label, word, row.coverage)


def test_total_cover_is_not_targetable_and_must_guess() -> None:
    row = d20.cover(d20.CoverLevel.TOTAL)
    assert row.targetable is False
    assert row.must_guess_location is True
    assert row.cover_ac is None
    assert row.hide_spot_modifier is None
    assert row.reflex_bonus is None
    assert row.miss_chance == 50
    # Every other level is targetable and needs no guessing.
    others = [d20.cover(m) for m in d20.CoverLevel if m is not d20.CoverLevel.TOTAL]
    assert all(r.targetable and not r.must_guess_location for r in others)


def test_cover_protection_grows_with_coverage() -> None:
    rows = [d20.cover(m) for m in reversed(list(d20.CoverLevel))]
    misses = [r.miss_chance for r in rows]
    assert misses == sorted(misses) == [10, 20, 30, 40, 50]
    acs = [r.cover_ac for r in rows if r.cover_ac is not None]
    assert acs == [1, 4, 6, 10]


@pytest.mark.parametrize("member", list(d20.CoverLevel))
def test_cover_lookup_by_member_label_and_any_case(member: d20.CoverLevel) -> None:
    by_member = d20.cover(member)
    assert d20.cover(member.value) == by_member
    assert d20.cover(str(member.value)) == by_member
    for variant in _case_variants(member.value):
        assert d20.cover(variant) == by_member


def test_cover_label_any_case_for_total() -> None:
    expected = d20.cover(d20.CoverLevel.TOTAL)
    for text in ("total", "TOTAL", "Total", "tOtAl"):
        assert d20.cover(text) == expected


@pytest.mark.parametrize(
    "label", ["2/3", "", "Totall", "1/3", "half", "100%", "9/10 ", "HALF"]
)
def test_cover_unknown_label_is_refused_naming_the_labels(label: str) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.cover(label)
    message = str(info.value)
    for valid in COVER_TABLE:
        assert valid in message, (valid, message)


@pytest.mark.parametrize("value", BAD_NON_LABELS, ids=repr)
def test_cover_non_str_is_refused(value: object) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.cover(_untyped(value))
    assert isinstance(info.value, ValueError)
    for valid in COVER_TABLE:
        assert valid in str(info.value)


def test_cover_refuses_another_enums_member() -> None:
    with pytest.raises(RuleInputError):
        d20.cover(_untyped(d20.RadiationLevel.LOW))


def test_rule_input_error_is_a_value_error() -> None:
    assert issubclass(RuleInputError, ValueError)
    with pytest.raises(ValueError):
        d20.cover("2/3")


def test_cover_row_is_frozen_with_slots() -> None:
    row = d20.cover("1/2")
    assert hasattr(d20.CoverRow, "__slots__")
    assert not hasattr(row, "__dict__")
    for name in row.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(row, name, 0)
    assert row.cover_ac == 4


# -- radiation_exposure ------------------------------------------------------------

# Table: Radiation Exposure, straight from the source:
# level: (incubation, its unit, Fort DC, primary effect)
RADIATION_TABLE: dict[str, tuple[str, str, int, str]] = {
    "Minor": ("6d6", "hours", 10, "1"),
    "Low": ("5d6", "hours", 12, "2d2"),
    "Moderate": ("4d6", "hours", 15, "3d2"),
    "High": ("3d6", "hours", 19, "3d3"),
    "Severe": ("2d6", "hours", 24, "3d4"),
    "Critical": ("2d6x10", "minutes", 30, "3d6"),
}

LADDER = ["Minor", "Low", "Moderate", "High", "Severe", "Critical"]


def test_radiation_level_is_a_strenum_of_the_source_labels() -> None:
    assert issubclass(d20.RadiationLevel, enum.StrEnum)
    assert [m.value for m in d20.RadiationLevel] == LADDER
    assert [m.name for m in d20.RadiationLevel] == [
        "MINOR",
        "LOW",
        "MODERATE",
        "HIGH",
        "SEVERE",
        "CRITICAL",
    ]
    moderate: str = d20.RadiationLevel.MODERATE
    assert moderate == "Moderate"


def test_radiation_row_fields() -> None:
    names = list(d20.RadiationRow.FIELDS)
    assert names == ["incubation", "fort_dc", "primary_effect"]


@pytest.mark.parametrize("label", LADDER)
def test_radiation_rows_match_the_source(label: str) -> None:
    incubation, unit, dc, effect = RADIATION_TABLE[label]
    row = d20.radiation_exposure(d20.RadiationLevel(label))
    assert isinstance(row.incubation, Dice)
    assert isinstance(row.primary_effect, Dice)
    assert str(row.incubation) == incubation
    assert row.incubation.unit == unit
    assert row.fort_dc == dc
    assert type(row.fort_dc) is int
    assert str(row.primary_effect) == effect
    assert row.primary_effect.unit == "CON damage"


def test_critical_incubates_in_tens_of_minutes() -> None:
    row = d20.radiation_exposure(d20.RadiationLevel.CRITICAL)
    inc = row.incubation
    assert (inc.count, inc.sides, inc.multiplier, inc.modifier) == (2, 6, 10, 0)
    assert inc.unit == "minutes"
    assert str(inc) == "2d6x10"
    assert (inc.min, inc.max, inc.mean) == (20, 120, Fraction(70))
    assert set(inc.distribution()) == set(range(20, 121, 10))


def test_hourly_incubations_are_plain_d6s() -> None:
    for label, count in zip(LADDER[:5], (6, 5, 4, 3, 2), strict=True):
        inc = d20.radiation_exposure(label).incubation
        assert inc == Dice(count, 6, unit="hours")


def test_minor_primary_effect_is_the_constant_one() -> None:
    effect = d20.radiation_exposure(d20.RadiationLevel.MINOR).primary_effect
    assert effect.count == 0
    assert effect.modifier == 1
    assert effect.multiplier == 1
    assert (effect.min, effect.max, effect.mean) == (1, 1, Fraction(1))
    assert effect.distribution() == {1: Fraction(1)}
    calls: list[tuple[int, int]] = []

    class Recorder:
        def randint(self, a: int, b: int, /) -> int:
            calls.append((a, b))
            return a

    assert effect.roll(Recorder()) == 1
    assert calls == []


def test_primary_effects_are_the_source_dice() -> None:
    expected = {
        "Low": (2, 2),
        "Moderate": (3, 2),
        "High": (3, 3),
        "Severe": (3, 4),
        "Critical": (3, 6),
    }
    for label, (count, sides) in expected.items():
        effect = d20.radiation_exposure(label).primary_effect
        assert effect == Dice(count, sides, unit="CON damage")


@pytest.mark.parametrize("member", list(d20.RadiationLevel))
def test_radiation_lookup_by_member_label_and_any_case(
    member: d20.RadiationLevel,
) -> None:
    by_member = d20.radiation_exposure(member)
    for variant in _case_variants(member.value):
        assert d20.radiation_exposure(variant) == by_member


@pytest.mark.parametrize(
    "value", ["Extreme", "", "none", "Mod", *BAD_NON_LABELS], ids=repr
)
def test_radiation_bad_level_is_refused(value: object) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.radiation_exposure(_untyped(value))
    for valid in LADDER:
        assert valid in str(info.value)


def test_radiation_row_is_frozen_with_slots() -> None:
    row = d20.radiation_exposure("Low")
    assert hasattr(d20.RadiationRow, "__slots__")
    assert not hasattr(row, "__dict__")
    for name in row.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(row, name, 0)
    assert row.fort_dc == 12


def test_radiation_level_ordering_follows_the_ladder() -> None:
    members = list(d20.RadiationLevel)
    for i, low in enumerate(members):
        for j, high in enumerate(members):
            assert (low < high) is (i < j), (low, high)
            assert (low <= high) is (i <= j), (low, high)
            assert (low > high) is (i > j), (low, high)
            assert (low >= high) is (i >= j), (low, high)


def test_radiation_level_ordering_is_not_alphabetical() -> None:
    R = d20.RadiationLevel
    # Alphabetically "High" < "Low" and "Critical" < "Minor": the ladder says otherwise.
    assert R.LOW < R.HIGH
    assert not R.HIGH < R.LOW
    assert R.CRITICAL > R.MINOR
    assert R.MODERATE < R.HIGH
    assert R.SEVERE < R.CRITICAL
    assert max(R) is R.CRITICAL
    assert min(R) is R.MINOR


def test_radiation_level_compares_with_label_strings() -> None:
    R = d20.RadiationLevel
    assert R.LOW < "High"
    assert R.LOW < "high"
    assert R.LOW < "HIGH"
    assert R.CRITICAL > "minor"
    assert R.SEVERE >= "severe"
    assert R.SEVERE <= "Severe"
    assert not R.HIGH < "Low"
    assert R.MODERATE >= "Low"
    # The label on the left works too (the member's reflected comparison wins).
    assert "High" > R.LOW  # noqa: SIM300
    assert "minor" < R.CRITICAL  # noqa: SIM300
    assert not "Low" > R.HIGH  # noqa: SIM300


def test_radiation_level_refuses_to_compare_with_unknown_labels() -> None:
    with pytest.raises(RuleInputError):
        _ = d20.RadiationLevel.LOW < "Extreme"
    # A member of an unordered enum orders on no side: TypeError, as for any Enum.
    other_enum: Any = d20.CoverLevel.HALF
    with pytest.raises(TypeError, match="CoverLevel is not ordered"):
        _ = d20.RadiationLevel.LOW < other_enum  # noqa: SIM300
    with pytest.raises(TypeError, match="CoverLevel is not ordered"):
        _ = other_enum > d20.RadiationLevel.LOW


def test_radiation_levels_sort_along_the_ladder() -> None:
    members = list(d20.RadiationLevel)
    rng = random.Random(20)
    for _ in range(20):
        shuffled = members[:]
        rng.shuffle(shuffled)
        assert sorted(shuffled) == members
        assert sorted(shuffled, reverse=True) == members[::-1]
    assert [m.value for m in sorted(members)] == LADDER
    assert sorted(LADDER) != LADDER  # the alphabet would get it wrong


def test_radiation_levels_are_hashable_and_equal_their_labels() -> None:
    table = {m: m.value for m in d20.RadiationLevel}
    assert table[d20.RadiationLevel.HIGH] == "High"
    high: str = d20.RadiationLevel.HIGH
    assert high == "High"
    assert len(set(d20.RadiationLevel)) == 6


# -- full_exposure_time -------------------------------------------------------------


def test_full_exposure_time_is_3d4_minutes() -> None:
    for dice in (d20.FULL_EXPOSURE_TIME, d20.full_exposure_time):
        assert isinstance(dice, Dice)
        assert str(dice) == "3d4"
        assert (dice.count, dice.sides, dice.modifier, dice.multiplier) == (3, 4, 0, 1)
        assert dice.unit == "minutes"
        assert dice.min == 3
        assert dice.max == 12
        assert dice.mean == Fraction(15, 2)
        assert sum(dice.distribution().values()) == 1
    assert d20.full_exposure_time == d20.FULL_EXPOSURE_TIME


# -- crawl_speed --------------------------------------------------------------------


def _crawl_reference(climb_bonus: int, occupied_limbs: int) -> int:
    """10 + 5 x Climb (not below 5), minus 10 per occupied limb, 0..40."""
    climb_part = 10 + 5 * climb_bonus
    if climb_part < 5:
        climb_part = 5
    speed = climb_part - 10 * occupied_limbs
    if speed > 40:
        speed = 40
    if speed < 0:
        speed = 0
    return speed


@pytest.mark.parametrize(
    ("climb", "limbs", "expected"),
    [
        (0, 0, 10),
        (1, 0, 15),
        (4, 2, 10),
        (-1, 0, 5),
        (-3, 0, 5),
        (-3, 1, 0),
        (-10, 0, 5),
        (6, 0, 40),
        (7, 0, 40),
        (7, 1, 35),
        (10, 0, 40),
        (12, 1, 40),
        (12, 4, 30),
        (2, 2, 0),
        (0, 4, 0),
        (3, 1, 15),
    ],
)
def test_crawl_speed_spot_values(climb: int, limbs: int, expected: int) -> None:
    assert d20.crawl_speed(climb, limbs) == expected


def test_crawl_speed_grid_against_reference() -> None:
    for climb in range(-10, 13):
        for limbs in range(5):
            got = d20.crawl_speed(climb, limbs)
            assert type(got) is int
            assert got == _crawl_reference(climb, limbs), (climb, limbs)
            assert 0 <= got <= 40


def test_crawl_speed_floor_applies_before_limbs() -> None:
    # -3 Climb floors at 5; one limb then takes 10 off: 0, not 5 - anything else.
    assert d20.crawl_speed(-3, 0) == 5
    assert d20.crawl_speed(-3, 1) == 0
    # The cap is on the final speed: 12 Climb -> 70, two limbs -> 50, capped at 40.
    assert d20.crawl_speed(12, 2) == 40
    assert d20.crawl_speed(12, 3) == 40
    assert d20.crawl_speed(12, 4) == 30


@pytest.mark.parametrize(
    ("climb", "limbs"),
    [
        (True, 0),
        (False, 0),
        (0, True),
        (0, False),
        (1.0, 0),
        (0, 1.0),
        (0.5, 0),
        ("1", 0),
        (0, "1"),
        (None, 0),
        (0, None),
        (0, -1),
        (0, -5),
        (0, 5),
        (3, 6),
    ],
)
def test_crawl_speed_bad_input_is_refused(climb: object, limbs: object) -> None:
    with pytest.raises(RuleInputError):
        d20.crawl_speed(_untyped(climb), _untyped(limbs))


# -- launch_speed -------------------------------------------------------------------

LIMB_DIVISORS: dict[str, int] = {
    "both_legs": 1,
    "one_leg": 2,
    "both_arms": 2,
    "one_arm": 4,
}


def _launch_reference(jump_bonus: int, limbs: str) -> int:
    """20 + 5 x Jump, 10..100, then halved or quartered (round down)."""
    speed = 20 + 5 * jump_bonus
    if speed < 10:
        speed = 10
    if speed > 100:
        speed = 100
    return speed // LIMB_DIVISORS[limbs]


def test_launch_limbs_is_a_strenum_of_the_catalog_labels() -> None:
    assert issubclass(d20.LaunchLimbs, enum.StrEnum)
    assert [m.value for m in d20.LaunchLimbs] == list(LIMB_DIVISORS)
    one_arm: str = d20.LaunchLimbs.ONE_ARM
    assert one_arm == "one_arm"


@pytest.mark.parametrize(
    ("jump", "limbs", "expected"),
    [
        (0, "both_legs", 20),
        (2, "both_legs", 30),
        (2, "one_arm", 7),
        (2, "one_leg", 15),
        (2, "both_arms", 15),
        (-5, "one_leg", 5),
        (-2, "both_legs", 10),
        (-3, "both_legs", 10),
        (-20, "one_arm", 2),
        (16, "both_legs", 100),
        (20, "both_arms", 50),
        (30, "one_arm", 25),
        (1, "one_arm", 6),
        (1, "one_leg", 12),
    ],
)
def test_launch_speed_spot_values(jump: int, limbs: str, expected: int) -> None:
    assert d20.launch_speed(jump, limbs) == expected


def test_launch_speed_defaults_to_both_legs() -> None:
    for jump in range(-6, 20):
        assert d20.launch_speed(jump) == d20.launch_speed(jump, "both_legs")
        assert d20.launch_speed(jump) == _launch_reference(jump, "both_legs")


def test_launch_speed_grid_against_reference() -> None:
    for jump in range(-12, 25):
        for member in d20.LaunchLimbs:
            got = d20.launch_speed(jump, member)
            assert type(got) is int
            assert got == _launch_reference(jump, member.value), (jump, member)
            assert got == d20.launch_speed(jump, member.value)


@pytest.mark.parametrize("member", list(d20.LaunchLimbs))
def test_launch_speed_limbs_any_case(member: d20.LaunchLimbs) -> None:
    expected = d20.launch_speed(4, member)
    for variant in _case_variants(member.value):
        assert d20.launch_speed(4, variant) == expected


@pytest.mark.parametrize(
    "limbs",
    ["", "legs", "one leg", "both-arms", "three_arms", "one_arms", *BAD_NON_LABELS],
    ids=repr,
)
def test_launch_speed_bad_limbs_is_refused(limbs: object) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.launch_speed(2, _untyped(limbs))
    for valid in LIMB_DIVISORS:
        assert valid in str(info.value)


@pytest.mark.parametrize("jump", [True, False, 1.0, 2.5, "2", None])
def test_launch_speed_bad_jump_is_refused(jump: object) -> None:
    with pytest.raises(RuleInputError):
        d20.launch_speed(_untyped(jump))


# -- zero_g_weapon_range --------------------------------------------------------------

RANGE_TABLE: dict[str, tuple[int, int]] = {
    "zero_g": (20, 10),
    "zero_g_vacuum": (100, 10),
}


def test_zero_g_environment_is_a_strenum() -> None:
    assert issubclass(d20.ZeroGEnvironment, enum.StrEnum)
    assert [m.value for m in d20.ZeroGEnvironment] == list(RANGE_TABLE)


@pytest.mark.parametrize("label", list(RANGE_TABLE))
def test_zero_g_weapon_range_matches_the_source(label: str) -> None:
    max_inc, crit_inc = RANGE_TABLE[label]
    row = d20.zero_g_weapon_range(d20.ZeroGEnvironment(label))
    assert row.max_increments == max_inc
    assert row.critical_increments == crit_inc
    assert d20.zero_g_weapon_range(label) == row
    assert d20.zero_g_weapon_range(label.upper()) == row
    assert list(row.FIELDS) == [
        "max_increments",
        "critical_increments",
    ]


@pytest.mark.parametrize("value", ["vacuum", "", "zero g", *BAD_NON_LABELS], ids=repr)
def test_zero_g_weapon_range_bad_environment_is_refused(value: object) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.zero_g_weapon_range(_untyped(value))
    for valid in RANGE_TABLE:
        assert valid in str(info.value)


def test_range_row_is_frozen_with_slots() -> None:
    row = d20.zero_g_weapon_range("zero_g")
    assert hasattr(d20.RangeRow, "__slots__")
    assert not hasattr(row, "__dict__")
    for name in row.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(row, name, 0)
    assert row.max_increments == 20


def test_module_exports_the_catalog_names() -> None:
    for name in (
        "cover",
        "CoverLevel",
        "CoverRow",
        "radiation_exposure",
        "RadiationLevel",
        "RadiationRow",
        "FULL_EXPOSURE_TIME",
        "full_exposure_time",
        "crawl_speed",
        "launch_speed",
        "LaunchLimbs",
        "zero_g_weapon_range",
        "ZeroGEnvironment",
        "RangeRow",
    ):
        assert name in d20.__all__
        assert hasattr(d20, name)
