"""More of the d20_scifi catalog: the rules added since test_d20_catalog.py.

Getting past cover, instant and half exposure, the exposures of an encounter,
accumulation, secondary effects, symptoms, healing, and spin. Figures come from
the source (000_67cc3971ad3938cc.txt) and the catalog, typed out here by hand;
the reference implementations below are written from the catalog's text.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

import pytest
import rulebook.d20_scifi as d20
from rulebook.dice import Dice, Scripted
from rulebook.errors import RuleInputError

# -- helpers ----------------------------------------------------------------------


def _untyped(value: object) -> Any:
    """Pass a deliberately wrong argument past the type checker."""
    return cast(Any, value)


def _case_variants(label: str) -> list[str]:
    return sorted({label, label.lower(), label.upper(), label.swapcase()})


class Recorder:
    """An RNG that records every ``randint`` call; answers from a seeded Random."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.calls: list[tuple[int, int]] = []
        self.results: list[int] = []

    def randint(self, a: int, b: int, /) -> int:
        self.calls.append((a, b))
        value = self.random.randint(a, b)
        self.results.append(value)
        return value


# -- attack_through_cover -----------------------------------------------------------

# Table: Cover and Concealment: level -> (cover AC or None, miss %, targetable, guess)
COVER: dict[str, tuple[int | None, int, bool, bool]] = {
    "Total": (None, 50, False, True),
    "9/10": (10, 40, True, False),
    "3/4": (6, 30, True, False),
    "1/2": (4, 20, True, False),
    "1/4": (1, 10, True, False),
}
MATERIALS = ["soft", "hard"]
CALIBERS = ["standard", "heavy", "super", "warhead"]
MODES = ["at_target", "through_cover", "at_cover"]

# (allowed, ac_bonus, miss_chance, must_guess_location, target_ac)
Outcome = tuple[bool, int, int, bool, int | None]


def _attack_reference(
    level: str, material: str, caliber: str, mode: str, penetrates: bool
) -> Outcome | None:
    """The catalog's attack_through_cover, written out; None where it is refused."""
    cover_ac, miss, targetable, guess = COVER[level]
    if mode == "at_cover":
        # "Attacking the cover itself: heavy, super or warhead only; target AC 5"
        if caliber == "standard":
            return None
        return (True, 0, 0, False, 5)
    if mode == "at_target":
        if not targetable:
            return None
        ac = cover_ac or 0
        # "against soft cover heavy ignores 1 AC of it, super 2 (never below 0);
        # a warhead ignores none"
        if material == "soft":
            ac = max(ac - {"heavy": 1, "super": 2}.get(caliber, 0), 0)
        # "At the target the miss chance is 0 and the cover's AC applies"
        return (True, ac, 0, False, None)
    # Through the cover: then it counts as concealment of the same level.
    if material == "soft":
        allowed = caliber in ("heavy", "super", "warhead")
    else:
        allowed = caliber == "warhead" and penetrates
    if not allowed:
        return None
    return (True, 0, miss, guess, None)


ALL_COMBINATIONS = list(
    itertools.product(COVER, MATERIALS, CALIBERS, MODES, (False, True))
)


def test_attack_through_cover_every_combination() -> None:
    assert len(ALL_COMBINATIONS) == 240
    for level, material, caliber, mode, penetrates in ALL_COMBINATIONS:
        got = d20.attack_through_cover(
            level, material, caliber, mode, warhead_penetrates=penetrates
        )
        expected = _attack_reference(level, material, caliber, mode, penetrates)
        where = (level, material, caliber, mode, penetrates)
        assert type(got.allowed) is bool, where
        assert isinstance(got.reason, str) and got.reason, where
        if expected is None:
            assert got.allowed is False, where
            continue
        assert (
            got.allowed,
            got.ac_bonus,
            got.miss_chance,
            got.must_guess_location,
            got.target_ac,
        ) == expected, where
        assert type(got.ac_bonus) is int and type(got.miss_chance) is int, where


def test_attack_through_cover_fields() -> None:
    assert list(d20.CoverAttack.FIELDS) == [
        "allowed",
        "ac_bonus",
        "miss_chance",
        "must_guess_location",
        "target_ac",
        "reason",
    ]


def test_attack_through_cover_counts() -> None:
    """How often each answer comes up over the whole grid (a second view)."""
    allowed = [
        combo
        for combo in ALL_COMBINATIONS
        if d20.attack_through_cover(*combo[:4], warhead_penetrates=combo[4]).allowed
    ]
    # at_cover: 5 levels x 2 materials x 3 calibers x 2 = 60
    # at_target: 4 targetable levels x 2 x 4 x 2 = 64
    # through soft: 5 x 3 calibers x 2 = 30; through hard: 5 (warhead, penetrates)
    assert len(allowed) == 60 + 64 + 30 + 5


def test_warhead_penetrates_only_matters_through_hard_cover() -> None:
    for level, material, caliber, mode in itertools.product(
        COVER, MATERIALS, CALIBERS, MODES
    ):
        no = d20.attack_through_cover(level, material, caliber, mode)
        yes = d20.attack_through_cover(
            level, material, caliber, mode, warhead_penetrates=True
        )
        if material == "hard" and caliber == "warhead" and mode == "through_cover":
            assert (no.allowed, yes.allowed) == (False, True)
        else:
            assert no == yes, (level, material, caliber, mode)


def test_attack_through_cover_worked_cases() -> None:
    heavy = d20.attack_through_cover("1/2", "soft", "heavy", "at_target")
    assert (heavy.allowed, heavy.ac_bonus, heavy.miss_chance) == (True, 3, 0)
    assert d20.attack_through_cover("1/4", "soft", "super", "at_target").ac_bonus == 0
    assert d20.attack_through_cover("3/4", "soft", "warhead", "at_target").ac_bonus == 6
    assert d20.attack_through_cover("9/10", "hard", "super", "at_target").ac_bonus == 10
    through = d20.attack_through_cover("3/4", "soft", "super", "through_cover")
    assert (through.ac_bonus, through.miss_chance, through.must_guess_location) == (
        0,
        30,
        False,
    )
    total = d20.attack_through_cover("Total", "soft", "heavy", "through_cover")
    assert (total.allowed, total.miss_chance, total.must_guess_location) == (
        True,
        50,
        True,
    )
    wall = d20.attack_through_cover("1/2", "hard", "heavy", "at_cover")
    assert (wall.allowed, wall.target_ac) == (True, 5)


def test_attacking_the_cover_leaves_hardness_and_hit_points_to_the_gm() -> None:
    # The source gives the cover AC 5 and hardness and hit points "according to
    # their material and thickness", with no figures: every allowed attack on the
    # cover says so, and no figure is answered for them.
    for level, material, caliber in itertools.product(COVER, MATERIALS, CALIBERS[1:]):
        attack = d20.attack_through_cover(level, material, caliber, "at_cover")
        assert (attack.allowed, attack.target_ac) == (True, 5)
        assert "hardness and hit points" in attack.reason
        assert "game master" in attack.reason
        assert not set(attack.FIELDS) & {
            "hardness",
            "hit_points",
        }


def _zero_g_reference(
    movement: str, on_surface: bool
) -> tuple[bool, Any, bool, bool, bool]:
    """Movement in Zero-G: without a surface no movement; crawling and launching
    are move actions that provoke and cannot be run; a launch leaves one floating."""
    if not on_surface:
        return (False, None, False, False, False)
    return (True, "move", True, False, movement == "launch")


def test_zero_g_movement_every_input() -> None:
    for movement, on_surface in itertools.product(["crawl", "launch"], [True, False]):
        for variant in [*_case_variants(movement), d20.ZeroGMovement(movement)]:
            move = d20.zero_g_movement(variant, on_surface=on_surface)
            got = (
                move.can_move,
                move.action,
                move.provokes,
                move.can_run,
                move.floating_after,
            )
            assert got == _zero_g_reference(movement, on_surface), (
                movement,
                on_surface,
            )
            assert move.reason
    assert d20.zero_g_movement("crawl") == d20.zero_g_movement("crawl", on_surface=True)


@pytest.mark.parametrize("movement", ["run", "float", "", None, 1], ids=repr)
def test_zero_g_movement_refuses_other_movements(movement: object) -> None:
    with pytest.raises(RuleInputError):
        d20.zero_g_movement(_untyped(movement))


@pytest.mark.parametrize("flag", [1, 0, "yes", None], ids=repr)
def test_zero_g_on_surface_must_be_a_bool(flag: object) -> None:
    with pytest.raises(RuleInputError):
        d20.zero_g_movement("crawl", on_surface=_untyped(flag))


def test_attack_through_cover_accepts_members_and_any_case() -> None:
    expected = d20.attack_through_cover("1/2", "soft", "super", "through_cover")
    assert (
        d20.attack_through_cover(
            d20.CoverLevel.HALF,
            d20.CoverMaterial.SOFT,
            d20.Caliber.SUPER,
            d20.AttackMode.THROUGH_COVER,
        )
        == expected
    )
    for material, caliber, mode in itertools.product(
        _case_variants("soft"), _case_variants("super"), _case_variants("through_cover")
    ):
        assert d20.attack_through_cover("1/2", material, caliber, mode) == expected
    assert [m.value for m in d20.CoverMaterial] == MATERIALS
    assert [m.value for m in d20.Caliber] == CALIBERS
    assert [m.value for m in d20.AttackMode] == MODES


@pytest.mark.parametrize(
    ("args", "labels"),
    [
        (("2/3", "soft", "heavy", "at_target"), list(COVER)),
        (("1/2", "wood", "heavy", "at_target"), MATERIALS),
        (("1/2", "soft", "light", "at_target"), CALIBERS),
        (("1/2", "soft", "heavy", "through"), MODES),
        (("1/2", None, "heavy", "at_target"), MATERIALS),
        (("1/2", "soft", 1, "at_target"), CALIBERS),
        (("1/2", "soft", "heavy", True), MODES),
    ],
    ids=repr,
)
def test_attack_through_cover_bad_labels_are_refused(
    args: tuple[object, ...], labels: list[str]
) -> None:
    with pytest.raises(RuleInputError) as info:
        d20.attack_through_cover(*[_untyped(a) for a in args])
    for label in labels:
        assert label in str(info.value)


def test_warhead_penetrates_is_a_keyword_only_bool() -> None:
    call: Any = d20.attack_through_cover
    with pytest.raises(TypeError):
        call("1/2", "hard", "warhead", "through_cover", True)
    for flag in (1, 0, "yes", None):
        with pytest.raises(RuleInputError):
            d20.attack_through_cover(
                "1/2",
                "hard",
                "warhead",
                "through_cover",
                warhead_penetrates=_untyped(flag),
            )


# -- radiation ladder ---------------------------------------------------------------

LADDER = ["Minor", "Low", "Moderate", "High", "Severe", "Critical"]
# Table: Radiation Exposure: level -> (incubation, its unit, Fort DC, primary effect)
RADIATION: dict[str, tuple[str, str, int, str]] = {
    "Minor": ("6d6", "hours", 10, "1"),
    "Low": ("5d6", "hours", 12, "2d2"),
    "Moderate": ("4d6", "hours", 15, "3d2"),
    "High": ("3d6", "hours", 19, "3d3"),
    "Severe": ("2d6", "hours", 24, "3d4"),
    "Critical": ("2d6x10", "minutes", 30, "3d6"),
}


def _shifted(level: str, steps: int) -> str | None:
    index = LADDER.index(level) - steps
    return LADDER[index] if index >= 0 else None


@pytest.mark.parametrize("level", LADDER)
def test_instant_exposure_every_level(level: str) -> None:
    row = d20.instant_exposure(level)
    # From Moderate up; two levels lower; incubation always 2d10+10 minutes.
    lower = _shifted(level, 2) if LADDER.index(level) >= 2 else None
    if lower is None:
        assert row is None
        assert d20.instant_exposure_level(level) is None
        return
    assert row is not None
    _, _, dc, effect = RADIATION[lower]
    assert row.fort_dc == dc
    assert str(row.primary_effect) == effect
    assert row.primary_effect.unit == "CON damage"
    assert str(row.incubation) == "2d10+10"
    assert row.incubation.unit == "minutes"
    assert (row.incubation.min, row.incubation.max) == (12, 30)
    assert d20.instant_exposure_level(level) == lower


@pytest.mark.parametrize("level", LADDER)
def test_half_exposure_every_level(level: str) -> None:
    row = d20.half_exposure(level)
    lower = _shifted(level, 1)
    if lower is None:
        # Half of Minor falls below the ladder: no effect.
        assert level == "Minor"
        assert row is None
        assert d20.half_exposure_level(level) is None
        return
    assert row is not None
    incubation, unit, dc, effect = RADIATION[lower]
    # Fort DC, incubation and primary effect all one level lower.
    assert (str(row.incubation), row.incubation.unit) == (incubation, unit)
    assert row.fort_dc == dc
    assert str(row.primary_effect) == effect
    assert d20.half_exposure_level(level) == lower
    assert row == d20.radiation_exposure(lower)


def test_instant_and_half_accept_any_case_and_refuse_bad_levels() -> None:
    for level in LADDER:
        for variant in _case_variants(level):
            assert d20.instant_exposure(variant) == d20.instant_exposure(level)
            assert d20.half_exposure(variant) == d20.half_exposure(level)
    for bad in ("Extreme", "", None, 2, True):
        with pytest.raises(RuleInputError):
            d20.instant_exposure(_untyped(bad))
        with pytest.raises(RuleInputError):
            d20.half_exposure(_untyped(bad))


# -- exposures ------------------------------------------------------------------------

# (kind, effective level, Fort DC, incubation, incubation unit, effect, starts at)
Row = tuple[str, str, int, str, str | None, str, int]


def _exposures_reference(level: str, exposed: int, full: int) -> list[Row]:
    found: list[Row] = []
    instant = _shifted(level, 2) if LADDER.index(level) >= 2 else None
    if instant is not None:
        _, _, dc, effect = RADIATION[instant]
        found.append(("instant", instant, dc, "2d10+10", "minutes", effect, 0))
    if exposed >= full:
        incubation, unit, dc, effect = RADIATION[level]
        found.append(("full", level, dc, incubation, unit, effect, full))
    elif 2 * exposed >= full:  # at least half, compared exactly
        half = _shifted(level, 1)
        if half is not None:
            incubation, unit, dc, effect = RADIATION[half]
            found.append(("half", half, dc, incubation, unit, effect, exposed))
    return found


def _rows(exposures: list[d20.Exposure]) -> list[Row]:
    return [
        (
            str(e.kind),
            str(e.effective_level),
            e.fort_dc,
            str(e.incubation),
            e.incubation.unit,
            str(e.primary_effect),
            e.starts_at_minutes,
        )
        for e in exposures
    ]


def test_exposures_grid() -> None:
    for level in LADDER:
        for full in range(3, 13):
            for exposed in range(1, 31):
                got = d20.exposures(level, exposed, full)
                assert _rows(got) == _exposures_reference(level, exposed, full), (
                    level,
                    exposed,
                    full,
                )
                kinds = [str(e.kind) for e in got]
                assert not ("full" in kinds and "half" in kinds)
                assert kinds.count("instant") <= 1


def test_exactly_half_of_the_full_time_is_half() -> None:
    assert _rows(d20.exposures("Low", 4, 8))[0][:2] == ("half", "Minor")
    assert d20.exposures("Low", 3, 8) == []
    assert [e.kind for e in d20.exposures("High", 6, 12)] == ["instant", "half"]
    assert [e.kind for e in d20.exposures("High", 5, 12)] == ["instant"]


@pytest.mark.parametrize("full", [3, 5, 7, 9, 11])
def test_odd_full_times_need_the_rounded_up_half(full: int) -> None:
    need = full // 2 + 1  # 3.5 minutes of 7 means 4
    assert [e.kind for e in d20.exposures("Moderate", need - 1, full)] == ["instant"]
    kinds = [e.kind for e in d20.exposures("Moderate", need, full)]
    assert kinds == ["instant", "half"]
    half = d20.exposures("Moderate", need, full)[1]
    assert (half.effective_level, half.starts_at_minutes) == ("Low", need)


def test_half_of_minor_is_nothing_and_minor_has_no_instant() -> None:
    for full in range(3, 13):
        for exposed in range(1, full):
            assert d20.exposures("Minor", exposed, full) == []
        only = d20.exposures("Minor", full, full)
        assert _rows(only) == [("full", "Minor", 10, "6d6", "hours", "1", full)]


def test_instant_with_full_and_with_half() -> None:
    full = d20.exposures("High", 30, 7)
    assert _rows(full) == [
        ("instant", "Low", 12, "2d10+10", "minutes", "2d2", 0),
        ("full", "High", 19, "3d6", "hours", "3d3", 7),
    ]
    half = d20.exposures("Critical", 5, 9)
    assert _rows(half) == [
        ("instant", "High", 19, "2d10+10", "minutes", "3d3", 0),
        ("half", "Severe", 24, "2d6", "hours", "3d4", 5),
    ]
    for e in full + half:
        assert isinstance(e.kind, d20.ExposureKind)
        assert isinstance(e.effective_level, d20.RadiationLevel)
        assert isinstance(e.incubation, Dice) and isinstance(e.primary_effect, Dice)


def test_staying_longer_is_still_one_full_exposure() -> None:
    assert [e.kind for e in d20.exposures("Low", 500, 3)] == ["full"]
    assert d20.exposures("Low", 500, 3)[0].starts_at_minutes == 3


@pytest.mark.parametrize(
    ("level", "exposed", "full"),
    [
        ("Low", 5, 13),
        ("Low", 5, 2),
        ("Low", 5, 0),
        ("Low", 0, 8),
        ("Low", -1, 8),
        ("Low", True, 8),
        ("Low", 5, True),
        ("Low", 5.0, 8),
        ("Low", 5, 8.0),
        ("Low", "5", 8),
        ("Extreme", 5, 8),
        ("", 5, 8),
        (None, 5, 8),
    ],
    ids=repr,
)
def test_exposures_bad_inputs_are_refused(
    level: object, exposed: object, full: object
) -> None:
    with pytest.raises(RuleInputError):
        d20.exposures(_untyped(level), _untyped(exposed), _untyped(full))


# -- accumulation -----------------------------------------------------------------


@pytest.mark.parametrize("pool", range(0, 19))
def test_accumulation_deals_the_pool_and_never_more_than_left(pool: int) -> None:
    for seed in range(25):
        rng = Recorder(seed * 31 + pool)
        dealt = d20.accumulation(pool, rng)
        assert sum(dealt) == pool
        assert rng.calls == [(1, 4)] * len(dealt)  # one 1d4 each time
        left = pool
        for amount, roll in zip(dealt, rng.results, strict=True):
            assert amount == min(roll, left)
            assert 1 <= amount <= 4
            left -= amount
        assert left == 0


def test_accumulation_worked_pool() -> None:
    # 5 points: 2, then 1, then a 4 that finds only 2 left.
    rng = Scripted([2, 1, 4])
    assert d20.accumulation(5, rng) == [2, 1, 2]
    assert rng.remaining == 0
    assert d20.accumulation(0, Scripted([])) == []


@pytest.mark.parametrize("pool", range(0, 25))
def test_saved_halves_round_down_minimum_one(pool: int) -> None:
    expected = 0 if pool == 0 else max(pool // 2, 1)
    assert d20.accumulation_after_save(pool) == expected
    dealt = d20.accumulation(pool, Scripted([4] * 13), saved=True)
    assert sum(dealt) == expected
    assert all(a == 4 for a in dealt[:-1])


def test_saved_one_point_pool_keeps_its_point() -> None:
    assert d20.accumulation(1, Scripted([3]), saved=True) == [1]
    assert d20.accumulation(3, Scripted([4]), saved=True) == [1]


@pytest.mark.parametrize("pool", [-1, -5, True, False, 2.0, "3", None], ids=repr)
def test_accumulation_bad_pool_is_refused(pool: object) -> None:
    with pytest.raises(RuleInputError):
        d20.accumulation(_untyped(pool), Scripted([1] * 5))
    with pytest.raises(RuleInputError):
        d20.accumulation_after_save(_untyped(pool))


def test_accumulation_saved_is_a_keyword_only_bool() -> None:
    call: Any = d20.accumulation
    with pytest.raises(TypeError):
        call(4, Scripted([4]), True)
    for flag in (1, "yes", None):
        with pytest.raises(RuleInputError):
            d20.accumulation(4, Scripted([4]), saved=_untyped(flag))


def test_accumulation_figures() -> None:
    assert Dice(1, 4) == d20.ACCUMULATION_DEAL
    assert d20.ACCUMULATION_INTERVAL_MINUTES == 60


# -- secondary effects ---------------------------------------------------------------

EFFECTS: list[tuple[str, list[str]]] = [
    ("Nausea", ["Fatigued", "Sickened", "Nauseated"]),
    ("Headache / Pain", ["Dazzled", "Fascinated", "Dazed"]),
    ("Weakness", ["Fatigued", "Exhausted", "Paralyzed"]),
    ("Disorientation", ["Flat-Footed", "Shaken", "Dazed"]),
    ("Internal", []),
]
Plain = tuple[str, int, str | None, bool, bool]


def _plain(outcome: d20.SecondaryOutcome) -> Plain:
    condition = None if outcome.condition is None else str(outcome.condition)
    return (
        str(outcome.effect),
        outcome.stage,
        condition,
        outcome.reroll,
        outcome.permanent_point,
    )


def test_secondary_effects_are_the_source_table_in_die_order() -> None:
    assert [m.value for m in d20.SecondaryEffect] == [name for name, _ in EFFECTS]
    assert Dice(1, 5) == d20.SECONDARY_EFFECTS_ROLL
    assert d20.SECONDARY_EFFECTS_EVERY == 3
    for roll, (name, stages) in enumerate(EFFECTS, start=1):
        track = d20.SecondaryEffects()
        outcomes = [_plain(track.apply(roll)) for _ in range(4)]
        if not stages:
            assert outcomes == [(name, outcomes[0][1], None, False, True)] * 4
            continue
        assert outcomes == [
            (name, 1, stages[0], False, False),
            (name, 2, stages[1], False, False),
            (name, 3, stages[2], False, False),
            (name, 4, None, True, False),
        ]


@pytest.mark.parametrize("roll", [1, 2, 3, 4])
def test_stage_four_rerolls_and_stays_at_three(roll: int) -> None:
    name, stages = EFFECTS[roll - 1]
    track = d20.SecondaryEffects()
    for _ in range(3):
        track.apply(roll)
    effect = d20.SecondaryEffect(name)
    for _ in range(3):
        outcome = track.apply(roll)
        assert _plain(outcome) == (name, 4, None, True, False)
        # each effect's stage is a field named for its member
        assert getattr(track, effect.name.lower()) == 3
        assert stages[2] in track.conditions


def test_internal_every_time() -> None:
    track = d20.SecondaryEffects()
    for _ in range(6):
        outcome = track.apply(5)
        assert outcome.effect == "Internal"
        assert outcome.permanent_point is True
        assert outcome.reroll is False
        assert outcome.condition is None
        assert 1 <= outcome.stage <= 4
    assert track.conditions == ()


def test_skip_past_a_condition_already_suffered() -> None:
    # Fatigued from Nausea: Weakness skips its Fatigued stage to Exhausted.
    track = d20.SecondaryEffects()
    assert _plain(track.apply(1)) == ("Nausea", 1, "Fatigued", False, False)
    assert _plain(track.apply(3)) == ("Weakness", 2, "Exhausted", False, False)
    # And the other way round: Fatigued from Weakness, Nausea goes to Sickened.
    track = d20.SecondaryEffects()
    track.apply(3)
    assert _plain(track.apply(1)) == ("Nausea", 2, "Sickened", False, False)


def test_skip_past_the_last_stage_is_a_reroll() -> None:
    # Dazed from Headache; Disorientation's stage 3 is Dazed too.
    track = d20.SecondaryEffects()
    for _ in range(3):
        track.apply(2)
    assert _plain(track.apply(4)) == ("Disorientation", 1, "Flat-Footed", False, False)
    assert _plain(track.apply(4)) == ("Disorientation", 2, "Shaken", False, False)
    assert _plain(track.apply(4)) == ("Disorientation", 4, None, True, False)
    assert track.disorientation == 3
    # both effects hold Dazed: the conditions list it once
    assert track.conditions == ("Dazed",)


def test_earlier_stage_conditions_do_not_persist() -> None:
    # The rules' ruling: an effect gives only its current stage's condition.
    track = d20.SecondaryEffects()
    track.apply(1)
    track.apply(1)  # Nausea: Fatigued -> Sickened
    assert _plain(track.apply(3)) == ("Weakness", 1, "Fatigued", False, False)


def test_each_character_has_its_own_track() -> None:
    first = d20.SecondaryEffects()
    second = d20.SecondaryEffects()
    first.apply(1)
    assert _plain(second.apply(1)) == ("Nausea", 1, "Fatigued", False, False)


@pytest.mark.parametrize("roll", [0, 6, -1, True, 1.0, "1", None], ids=repr)
def test_secondary_effects_bad_roll_is_refused(roll: object) -> None:
    with pytest.raises(RuleInputError):
        d20.SecondaryEffects().apply(_untyped(roll))


# -- radiation_symptoms ---------------------------------------------------------------

SYMPTOMS: list[dict[str, str]] = [
    {
        "Skin": "Skin redness / irritation",
        "Hair Loss": "Loose strands",
        "Bleeding": "Coughing blood",
    },
    {
        "Skin": "Open lesions",
        "Hair Loss": "Clumps",
        "Bleeding": "Swollen / bleeding gums",
    },
    {
        "Skin": "Sloughing",
        "Hair Loss": "Totally bald patches",
        "Bleeding": "Bleeding from orifices",
    },
]


def test_radiation_symptoms_by_damage() -> None:
    assert d20.radiation_symptoms(0) is None
    for damage in range(1, 80):
        stage = 0 if damage <= 5 else 1 if damage <= 10 else 2
        got = d20.radiation_symptoms(damage)
        assert got is not None
        assert {str(k): v for k, v in got.items()} == SYMPTOMS[stage], damage
        assert all(isinstance(k, d20.SymptomType) for k in got)
        # The keys are StrEnum members, so the label works as a key too.
        assert cast(dict[str, str], got)["Skin"] == SYMPTOMS[stage]["Skin"]


@pytest.mark.parametrize("damage", [-1, -11, True, False, 1.5, "3", None], ids=repr)
def test_radiation_symptoms_bad_damage_is_refused(damage: object) -> None:
    with pytest.raises(RuleInputError):
        d20.radiation_symptoms(_untyped(damage))


def test_radiation_symptoms_answers_are_independent_copies() -> None:
    first = d20.radiation_symptoms(3)
    assert first is not None
    first[d20.SymptomType.SKIN] = "changed"
    again = d20.radiation_symptoms(3)
    assert (
        again is not None and again[d20.SymptomType.SKIN] == "Skin redness / irritation"
    )


# -- healing ------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "ready"), [(0, 0), (1, 0), (3, 300), (7, 12345)])
def test_healing_one_point_a_day(points: int, ready: int) -> None:
    heals = d20.healing(points, ready)
    assert heals == [(ready + 1440 * day, 1) for day in range(1, points + 1)]


@pytest.mark.parametrize(
    ("points", "ready"),
    [(-1, 0), (0, -1), (True, 0), (1, True), (1.0, 0), ("1", 0), (None, 0)],
    ids=repr,
)
def test_healing_bad_input_is_refused(points: object, ready: object) -> None:
    with pytest.raises(RuleInputError):
        d20.healing(_untyped(points), _untyped(ready))


# -- spin ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spin", "alone", "attached"),
    [(0, 0, 0), (1, -1, 0), (4, -4, -2), (5, -5, -2), (9, -9, -4), (10, -10, -5)],
)
def test_spin_modifier_spot_values(spin: int, alone: int, attached: int) -> None:
    assert d20.spin_modifier(spin) == alone
    assert d20.spin_modifier(spin, attached=False) == alone
    assert d20.spin_modifier(spin, attached=True) == attached
    assert d20.spin_modifier(spin, True) == attached


def test_spin_modifier_grid() -> None:
    for spin in range(0, 60):
        assert d20.spin_modifier(spin) == -spin
        # Attached: half the spin, rounded down, as a penalty.
        assert d20.spin_modifier(spin, attached=True) == -(spin // 2)
        assert d20.spin_modifier(spin, attached=True) <= 0


@pytest.mark.parametrize(
    ("spin", "attached"),
    [
        (-1, False),
        (True, False),
        (1.0, False),
        ("2", False),
        (None, False),
        (3, 1),
        (3, "yes"),
    ],
    ids=repr,
)
def test_spin_modifier_bad_input_is_refused(spin: object, attached: object) -> None:
    with pytest.raises(RuleInputError):
        d20.spin_modifier(_untyped(spin), _untyped(attached))


def test_spin_save_by_spin() -> None:
    for spin in range(0, 5):
        assert d20.spin_save(spin) is None
    for spin in range(5, 40):
        save = d20.spin_save(spin)
        assert save is not None
        assert save.dc == 14
        assert save.condition == ("Sickened" if spin < 10 else "Nauseated"), spin
        assert save.every_minutes == 1
        assert save.lingers == Dice(1, 6, unit="minutes")
        assert str(save.lingers) == "1d6"


@pytest.mark.parametrize(
    ("spin", "condition"),
    [(4, None), (5, "Sickened"), (9, "Sickened"), (10, "Nauseated")],
)
def test_spin_save_thresholds(spin: int, condition: str | None) -> None:
    save = d20.spin_save(spin)
    assert (None if save is None else save.condition) == condition


def test_spin_save_fields() -> None:
    assert list(d20.SpinSave.FIELDS) == [
        "dc",
        "condition",
        "every_minutes",
        "lingers",
    ]


@pytest.mark.parametrize("spin", [-1, True, 5.0, "5", None], ids=repr)
def test_spin_save_bad_spin_is_refused(spin: object) -> None:
    with pytest.raises(RuleInputError):
        d20.spin_save(_untyped(spin))


def test_floating_facts() -> None:
    assert d20.FLOATING.flat_footed is True
    assert d20.FLOATING.can_change_course is False
    assert d20.FLOATING.keeps_launch_velocity is True
    with pytest.raises(AttributeError, match="cannot assign to field"):
        cast(Any, d20.FLOATING).flat_footed = False


def test_spin_facts() -> None:
    assert d20.SPIN.per_action == 1
    assert type(d20.SPIN.per_action) is int
    assert d20.SPIN.cleared_by_surface is True
    assert d20.SPIN.joined_takes_heavier is True
    assert d20.SPIN.grappling_counts_as_attached is True
    with pytest.raises(AttributeError, match="cannot assign to field"):
        cast(Any, d20.SPIN).per_action = 2


def test_module_exports_the_catalog_names() -> None:
    for name in (
        "attack_through_cover",
        "CoverAttack",
        "instant_exposure",
        "half_exposure",
        "exposures",
        "Exposure",
        "accumulation",
        "SecondaryEffects",
        "SecondaryOutcome",
        "radiation_symptoms",
        "healing",
        "spin_modifier",
        "spin_save",
        "SpinSave",
        "FLOATING",
        "SPIN",
    ):
        assert name in d20.__all__, name
        assert hasattr(d20, name), name
