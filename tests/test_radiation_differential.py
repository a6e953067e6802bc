"""Radiation sickness: the generated runtime against a hand-written reference.

``tests/reference_radiation.py`` plays an encounter straight from the source and
the rulings, sharing no code with compiler/ or the runtime. Here both are given
``random.Random(seed)`` for 10,200 seeded encounters and must agree event for
event and on the totals (and must roll the same number of dice). Hypothesis
then checks properties of the runtime's timelines that hold whatever the dice.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any, cast

import pytest
import rulebook.d20_scifi as d20
from hypothesis import given, settings
from hypothesis import strategies as st
from rulebook.errors import RuleInputError

from .reference_radiation import LEVELS, Event
from .reference_radiation import simulate_radiation as reference_simulate

# -- helpers ----------------------------------------------------------------------

FIELDS: tuple[str, ...] = Event._fields  # minute, kind, exposure, level, amount, ...

Row = tuple[object, ...]


def _plain(value: object) -> object:
    """An event figure as plain data: enum members become their labels."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, str):
        return str(value)
    raise TypeError(f"unexpected event figure {value!r}")


def _runtime_rows(timeline: d20.RadiationTimeline) -> list[Row]:
    return [
        tuple(_plain(getattr(event, field)) for field in FIELDS)
        for event in timeline.events
    ]


def _reference_rows(events: list[Event]) -> list[Row]:
    return [tuple(event) for event in events]


def _show(row: Row | None) -> str:
    if row is None:
        return "(no event)"
    return ", ".join(
        f"{field}={value!r}"
        for field, value in zip(FIELDS, row, strict=True)
        if value is not None
    )


class ScriptedRng:
    """Dice scripted in order; every randint must be in range and all must be used."""

    def __init__(self, dice: list[int]) -> None:
        self.dice = list(dice)

    def randint(self, a: int, b: int, /) -> int:
        assert self.dice, f"ran out of scripted dice (asked for {a}..{b})"
        value = self.dice.pop(0)
        assert a <= value <= b, f"scripted {value} is not in {a}..{b}"
        return value


# -- the differential test ----------------------------------------------------------

RUNS_PER_LEVEL = 1_700  # x 6 levels = 10,200 runs
LONG_EXPOSURES: tuple[int, ...] = (
    41,
    47,
    60,
    72,
    90,
    120,
    187,
    240,
    360,
    600,
    1_000,
    1_440,
    5_000,
    20_000,
)

Case = tuple[int, str, int, int]  # seed, level, exposed_minutes, fort_bonus


def _cases(level: str) -> list[Case]:
    """Seeded encounters at one level: 1..40 minutes, some long stays, bonus -5..25."""
    offset = LEVELS.index(level)
    cases: list[Case] = []
    for i in range(RUNS_PER_LEVEL):
        seed = i * len(LEVELS) + offset
        if i % 8 == 7:
            minutes = LONG_EXPOSURES[(i // 8) % len(LONG_EXPOSURES)]
        else:
            minutes = 1 + (i - i // 8) % 40  # every value, in turn
        bonus = -5 + (i // 3) % 31
        cases.append((seed, level, minutes, bonus))
    return cases


def _disagreement(case: Case) -> str | None:
    """None when runtime and reference agree on this encounter, else what differs."""
    seed, level, minutes, bonus = case
    runtime_rng = random.Random(seed)
    reference_rng = random.Random(seed)
    timeline = d20.simulate_radiation(level, minutes, bonus, runtime_rng)
    reference = reference_simulate(level, minutes, bonus, reference_rng)
    where = f"seed={seed} level={level} exposed_minutes={minutes} fort_bonus={bonus}"
    got = _runtime_rows(timeline)
    want = _reference_rows(reference["events"])
    if got != want:
        for index in range(max(len(got), len(want))):
            mine = got[index] if index < len(got) else None
            theirs = want[index] if index < len(want) else None
            if mine != theirs:
                return (
                    f"{where}: event {index} differs\n"
                    f"  runtime:   {_show(mine)}\n"
                    f"  reference: {_show(theirs)}"
                )
    got_totals = (
        timeline.con_damage_dealt,
        timeline.permanent,
        tuple(str(condition) for condition in timeline.conditions),
    )
    want_totals = (
        reference["con_damage_dealt"],
        reference["permanent"],
        reference["conditions"],
    )
    if got_totals != want_totals:
        return (
            f"{where}: totals (con_damage_dealt, permanent, conditions) differ\n"
            f"  runtime:   {got_totals!r}\n  reference: {want_totals!r}"
        )
    if runtime_rng.getstate() != reference_rng.getstate():
        return f"{where}: same events, but a different number of dice was rolled"
    return None


def test_cases_cover_the_brief() -> None:
    cases = [case for level in LEVELS for case in _cases(level)]
    assert len(cases) >= 10_000
    assert len({case[0] for case in cases}) == len(cases)
    assert {case[1] for case in cases} == set(LEVELS)
    assert set(range(1, 41)) <= {case[2] for case in cases}
    assert set(LONG_EXPOSURES) <= {case[2] for case in cases}
    assert {case[3] for case in cases} == set(range(-5, 26))


@pytest.mark.parametrize("level", LEVELS)
def test_runtime_agrees_with_reference(level: str) -> None:
    problems: list[str] = []
    for case in _cases(level):
        problem = _disagreement(case)
        if problem is not None:
            problems.append(problem)
    shown = "\n".join(problems[:5])
    assert not problems, f"{len(problems)} of {RUNS_PER_LEVEL} runs disagree:\n{shown}"


# -- scripted dice: the ties the seeded runs rarely reach ------------------------------

Brief = tuple[int, str, str | None]  # minute, kind, exposure


def _brief(rows: list[Row]) -> list[Brief]:
    return [
        (cast(int, row[0]), cast(str, row[1]), cast("str | None", row[2]))
        for row in rows
    ]


def _both(level: str, minutes: int, bonus: int, dice: list[int]) -> list[Row]:
    """Run both with the same scripted dice; they must agree and use all of them."""
    runtime_rng = ScriptedRng(dice)
    reference_rng = ScriptedRng(dice)
    timeline = d20.simulate_radiation(level, minutes, bonus, runtime_rng)
    reference = reference_simulate(level, minutes, bonus, reference_rng)
    got = _runtime_rows(timeline)
    assert got == _reference_rows(reference["events"])
    assert runtime_rng.dice == [] and reference_rng.dice == []
    return got


def test_reference_plays_the_rules_worked_example() -> None:
    """The high_room_* examples of simulate_radiation, on the reference alone."""
    dice = [2, 2, 3, 1, 1, 1, 1, 1, 1, 1, 5, 4, 3, 3, 3, 2, 4, 1, 2, 4, 3, 4]
    result = reference_simulate("High", 30, 0, ScriptedRng(dice))
    events = result["events"]
    assert [
        (e.minute, e.exposure, e.level, e.pool)
        for e in events
        if e.kind == "incubation_end"
    ] == [
        (12, "instant", "Low", 2),
        (187, "full", "High", 9),
    ]
    assert [
        (e.minute, e.exposure, e.amount) for e in events if e.kind == "con_damage"
    ] == [
        (12, "instant", 2),
        (187, "full", 4),
        (247, "full", 4),
        (307, "full", 1),
    ]
    assert [
        (e.minute, e.effect, e.stage, e.condition)
        for e in events
        if e.kind == "secondary_effect"
    ] == [
        (187, "Nausea", 1, "Fatigued"),
        (187, "Headache / Pain", 1, "Dazzled"),
        (247, "Weakness", 2, "Exhausted"),
    ]
    assert result["con_damage_dealt"] == 11
    assert result["permanent"] == 0
    assert result["conditions"] == ("Fatigued", "Dazzled", "Exhausted")
    heals = [e.minute for e in events if e.kind == "heal"]
    assert heals == [307 + 1440 * day for day in range(1, 12)]


def test_two_incubations_ending_together_deal_after_both_saves() -> None:
    """Critical: instant (2d10+10 = 23) and full (3 + 2d6x10 = 23) end at once.

    Both incubation ends were scheduled before either pool's first deal, so both
    incubation ends and saves come first, then the instant deal, then the full one.
    A natural 1 fails even with +25 against DC 19.
    """
    dice = [1, 1, 1]  # full exposure at 3 minutes
    dice += [6, 7]  # instant incubation 23 minutes
    dice += [1, 1]  # full incubation 20 minutes, from minute 3
    dice += [1, 1, 1, 1]  # instant: High's 3d3 = 3, save natural 1
    dice += [1, 1, 1, 2]  # full: Critical's 3d6 = 3, save 2 + 25 < 30
    dice += [3, 1]  # instant deals 3 (3rd point: Nausea)
    dice += [3, 3]  # full deals 3 (6th point: Weakness, past Fatigued)
    rows = _both("Critical", 30, 25, dice)
    assert _brief(rows) == [
        (0, "contaminated", None),
        (23, "incubation_end", "instant"),
        (23, "save", "instant"),
        (23, "incubation_end", "full"),
        (23, "save", "full"),
        (23, "con_damage", "instant"),
        (23, "secondary_effect", None),
        (23, "con_damage", "full"),
        (23, "secondary_effect", None),
        (30, "decontaminated", None),
        (30, "condition_end", None),
        (30, "condition_end", None),
    ] + [(30 + 1440 * day, "heal", None) for day in range(1, 7)]
    saves = [row for row in rows if row[1] == "save"]
    assert [(row[5], row[6], row[8]) for row in saves] == [
        (1, 26, False),
        (2, 27, False),
    ]
    effects = [
        (row[10], row[11], row[12]) for row in rows if row[1] == "secondary_effect"
    ]
    assert effects == [("Nausea", 1, "Fatigued"), ("Weakness", 2, "Exhausted")]


def test_leaving_as_an_incubation_ends_decontaminates_first() -> None:
    """Moderate, 12 minutes: the instant incubation ends at 12, when the character leaves.

    A natural 20 saves even at -15; Minor's pool of 1 stays 1.
    """
    dice = [4, 4, 4]  # full exposure at 12 minutes: exactly the stay
    dice += [1, 1]  # instant incubation 12 minutes
    dice += [1, 1, 1, 1]  # full (Moderate) incubation 4 hours, from minute 12
    dice += [20, 4]  # instant: Minor's 1 point (no die), natural 20, deal 1
    dice += [2, 2, 2, 1]  # full: 3d2 = 6, natural 1
    dice += [4, 5]  # deal 4 (3rd point: Internal)
    dice += [4, 2]  # deal 2 of 4 (6th point: Headache / Pain)
    rows = _both("Moderate", 12, -15, dice)
    assert _brief(rows) == [
        (0, "contaminated", None),
        (12, "decontaminated", None),
        (12, "incubation_end", "instant"),
        (12, "save", "instant"),
        (12, "con_damage", "instant"),
        (252, "incubation_end", "full"),
        (252, "save", "full"),
        (252, "con_damage", "full"),
        (252, "secondary_effect", None),
        (312, "con_damage", "full"),
        (312, "secondary_effect", None),
        (312, "condition_end", None),
    ] + [(312 + 1440 * day, "heal", None) for day in range(1, 7)]
    instant_save = rows[3]
    assert (instant_save[5], instant_save[6], instant_save[8], instant_save[9]) == (
        20,
        5,
        True,
        1,
    )


# -- properties of the runtime ---------------------------------------------------------

levels = st.sampled_from(LEVELS)
stays = st.one_of(st.integers(1, 40), st.integers(41, 30_000))
bonuses = st.integers(-5, 25)
seeds = st.integers(0, 2**64 - 1)
PROPERTY_SETTINGS = settings(max_examples=300, deadline=None)


def _run(level: str, minutes: int, bonus: int, seed: int) -> d20.RadiationTimeline:
    return d20.simulate_radiation(level, minutes, bonus, random.Random(seed))


@PROPERTY_SETTINGS
@given(levels, stays, bonuses, seeds)
def test_events_are_in_time_order(
    level: str, minutes: int, bonus: int, seed: int
) -> None:
    events = _run(level, minutes, bonus, seed).events
    assert [e.minute for e in events] == sorted(e.minute for e in events)
    assert (events[0].minute, events[0].kind) == (0, "contaminated")
    decontaminated = [e.minute for e in events if e.kind == "decontaminated"]
    assert decontaminated == [minutes]


@PROPERTY_SETTINGS
@given(levels, stays, bonuses, seeds)
def test_each_pool_is_dealt_in_full_and_no_more(
    level: str, minutes: int, bonus: int, seed: int
) -> None:
    timeline = _run(level, minutes, bonus, seed)
    rolled: dict[str, int] = {}
    after_save: dict[str, int] = {}
    dealt: defaultdict[str, int] = defaultdict(int)
    for event in timeline.events:
        if event.kind == "incubation_end":
            assert event.exposure is not None and event.exposure not in rolled
            assert event.pool is not None
            rolled[event.exposure] = event.pool
        elif event.kind == "save":
            assert event.exposure in rolled and event.exposure not in after_save
            assert event.pool is not None and event.roll is not None
            assert event.total == event.roll + bonus
            natural_rule = {1: False, 20: True}.get(event.roll)
            assert event.dc is not None
            expected = (
                natural_rule if natural_rule is not None else event.total >= event.dc
            )
            assert event.success is expected
            pool = rolled[event.exposure]
            assert event.pool == (max(1, pool // 2) if event.success else pool)
            after_save[event.exposure] = event.pool
        elif event.kind == "con_damage":
            assert event.exposure in after_save
            assert event.amount is not None and 1 <= event.amount <= 4
            dealt[event.exposure] += event.amount
    assert dealt == after_save
    for exposure, amount in dealt.items():
        assert amount <= rolled[exposure]
    assert timeline.con_damage_dealt == sum(dealt.values())


@PROPERTY_SETTINGS
@given(levels, stays, bonuses, seeds)
def test_healing_starts_a_day_after_the_last_damage(
    level: str, minutes: int, bonus: int, seed: int
) -> None:
    timeline = _run(level, minutes, bonus, seed)
    events = timeline.events
    kinds = [e.kind for e in events]
    heals = [i for i, kind in enumerate(kinds) if kind == "heal"]
    damage = [i for i, kind in enumerate(kinds) if kind == "con_damage"]
    decontaminated = kinds.index("decontaminated")
    assert len(heals) == timeline.con_damage_dealt - timeline.permanent
    assert sum(events[i].amount or 0 for i in heals) == len(heals)
    assert all(events[i].amount == 1 for i in heals)
    if not heals:
        return
    assert heals[0] > decontaminated and events[heals[0]].minute > minutes
    last_damage = events[damage[-1]].minute
    assert heals[0] > damage[-1] and events[heals[0]].minute > last_damage
    assert events[heals[0]].minute == max(minutes, last_damage) + 1440
    assert [events[i].minute for i in heals] == [
        events[heals[0]].minute + 1440 * day for day in range(len(heals))
    ]


@PROPERTY_SETTINGS
@given(levels, stays, bonuses, seeds)
def test_secondary_effects_follow_the_damage(
    level: str, minutes: int, bonus: int, seed: int
) -> None:
    timeline = _run(level, minutes, bonus, seed)
    effects = [e for e in timeline.events if e.kind == "secondary_effect"]
    internal = [e for e in effects if e.effect == "Internal"]
    assert timeline.permanent == len(internal)
    assert all(e.permanent_point for e in internal)
    assert not any(e.permanent_point for e in effects if e.effect != "Internal")
    assert len([e for e in effects if not e.reroll]) == timeline.con_damage_dealt // 3


@PROPERTY_SETTINGS
@given(levels, stays, bonuses, seeds)
def test_same_seed_same_timeline(
    level: str, minutes: int, bonus: int, seed: int
) -> None:
    assert _run(level, minutes, bonus, seed) == _run(level, minutes, bonus, seed)


@settings(max_examples=50, deadline=None)
@given(levels, st.integers(max_value=0), bonuses)
def test_no_exposure_is_refused(level: str, minutes: int, bonus: int) -> None:
    with pytest.raises(RuleInputError):
        d20.simulate_radiation(level, minutes, bonus, random.Random(0))


@settings(max_examples=50, deadline=None)
@given(levels, st.integers(1, 40), st.one_of(st.booleans(), st.text(max_size=3)))
def test_bonus_must_be_an_int(level: str, minutes: int, bonus: bool | str) -> None:
    with pytest.raises(RuleInputError):
        d20.simulate_radiation(level, minutes, cast(Any, bonus), random.Random(0))
