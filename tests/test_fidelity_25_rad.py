"""Issue 25, d20 radiation: the secondary-effect conditions end, and the rulings and notes the issue asks for."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rulebook.d20_scifi as d20
import yaml

from .reference_radiation import simulate_radiation as reference_simulate

ROOT = Path(__file__).resolve().parents[1]


def _rules() -> dict[str, dict[str, Any]]:
    raw = yaml.safe_load((ROOT / "rules/d20_scifi/radiation.yaml").read_text())
    return {rule["id"]: rule for rule in raw["rules"]}


def _ruling_ids(rule: str) -> set[str]:
    rulings = _rules()[rule].get("rulings", [])
    assert isinstance(rulings, list)
    return {r["id"] for r in rulings}


def _trace(digest: str) -> dict[str, Any]:
    raw = yaml.safe_load((ROOT / "tests/trace/d20_scifi.yaml").read_text())
    (entry,) = [p for p in raw["passages"] if p["digest"] == digest]
    assert isinstance(entry, dict)
    return entry


def _plain(value: object) -> object:
    return None if value is None else str(value)


def test_a_seeded_run_shows_when_each_condition_ends() -> None:
    """Severe radiation, 20 minutes, Fortitude +2, seed 16: Weakness gives
    Fatigued at minute 82; Nausea, finding Fatigued, gives Sickened at 431;
    Internal comes up twice. Nothing ends while the character is contaminated
    or the full exposure's pool is dealt: both conditions end at minute 551,
    the last point; the 11 points that can heal heal a day apart after it."""
    run = d20.simulate_radiation("Severe", 20, 2, random.Random(16))
    events = [
        (e.minute, e.kind, _plain(e.effect), _plain(e.condition), e.permanent_point)
        for e in run.events
        if e.kind in ("decontaminated", "secondary_effect", "condition_end")
    ]
    assert events == [
        (20, "decontaminated", None, None, None),
        (82, "secondary_effect", "Weakness", "Fatigued", False),
        (371, "secondary_effect", "Internal", None, True),
        (431, "secondary_effect", "Nausea", "Sickened", False),
        (491, "secondary_effect", "Internal", None, True),
        (551, "condition_end", None, "Sickened", None),
        (551, "condition_end", None, "Fatigued", None),
    ]
    dealt = [e.minute for e in run.events if e.kind == "con_damage"]
    assert max(dealt) == 551
    assert (run.con_damage_dealt, run.permanent) == (13, 2)
    heals = [e.minute for e in run.events if e.kind == "heal"]
    assert heals == [551 + 1440 * day for day in range(1, 12)]


def test_a_replaced_stage_ends_with_the_roll_that_replaced_it() -> None:
    """Seed 0: Weakness comes up twice, so Exhausted replaced Fatigued at minute
    609; only the conditions suffered then (Sickened, Exhausted) end, at 609."""
    run = d20.simulate_radiation("Severe", 20, 2, random.Random(0))
    assert [str(c) for c in run.conditions] == ["Fatigued", "Sickened", "Exhausted"]
    ends = [
        (e.minute, str(e.condition)) for e in run.events if e.kind == "condition_end"
    ]
    assert ends == [(609, "Sickened"), (609, "Exhausted")]


@pytest.mark.parametrize(
    "level",
    [
        d20.RadiationLevel.MODERATE,
        d20.RadiationLevel.HIGH,
        d20.RadiationLevel.SEVERE,
        d20.RadiationLevel.CRITICAL,
    ],
)
def test_conditions_end_exactly_when_healing_may_begin(
    level: d20.RadiationLevel,
) -> None:
    """Over many seeds: the conditions that end are those the last roll of
    each staged effect gave (the track's state), at the later of leaving and
    the last point dealt, after every other event of the sickness; the
    independent reference agrees."""
    for seed in range(60):
        exposed = 5 + seed % 40
        run = d20.simulate_radiation(level, exposed, seed % 7 - 3, random.Random(seed))
        dealt = [e.minute for e in run.events if e.kind == "con_damage"]
        ready = max([exposed, *dealt])
        track = d20.SecondaryEffects()
        for e in run.events:
            if e.kind == "secondary_effect":
                assert e.roll is not None
                track.apply(e.roll)
        ends = [e for e in run.events if e.kind == "condition_end"]
        assert [e.condition for e in ends] == list(track.conditions)
        assert all(e.minute == ready for e in ends)
        for e in run.events:
            if e.kind not in ("condition_end", "heal"):
                assert e.minute <= ready
        reference = reference_simulate(
            str(level), exposed, seed % 7 - 3, random.Random(seed)
        )
        assert [
            (e.minute, e.condition)
            for e in reference["events"]
            if e.kind == "condition_end"
        ] == [(e.minute, str(e.condition)) for e in ends]


def test_the_rulings_and_the_note_are_recorded() -> None:
    assert "conditions_end_when_healing_may_begin" in _ruling_ids("simulate_radiation")
    assert "internal_again_marks_another" in _ruling_ids("secondary_effects")
    half = {r["id"]: r for r in _rules()["exposures"]["rulings"]}[
        "half_timer_at_departure"
    ]
    assert "midpoint" in half["question"] and "6 of 8 minutes" in half["ruling"]
    assert "settled only by leaving" in half["reason"]
    notes = yaml.safe_load((ROOT / "rules/d20_scifi/system.yaml").read_text())
    assert "cleaning_off_contamination" in {n["id"] for n in notes["not_modelled"]}


def test_the_matrix_maps_the_passages_the_issue_names() -> None:
    wear_off = _trace("11e1e9c95cb3")  # effects neither heal nor wear off
    assert (
        "simulate_radiation#/rulings/conditions_end_when_healing_may_begin"
        in (wear_off["at"])
    )
    assert "simulate_radiation#/recovery/ends" in wear_off["at"]
    both = _trace("a7aba68310a7")  # both Instant and Half/Full
    assert both["rules"] == ["exposures"]
    assert "/rulings/one_full_exposure" not in both["at"]
    assert {"/instant", "/half"} <= set(both["at"])
    assert _trace("b34db9b779fc")["not_modelled"] == "cleaning_off_contamination"
    internal = _trace("7af2a31ef29b")
    assert "/rulings/internal_again_marks_another" in internal["at"]
    half = _trace("527a4b576d34")
    assert "/rulings/half_timer_at_departure" in half["at"]


def test_the_system_page_counts_the_new_note() -> None:
    page = (ROOT / "generated/docs/d20_scifi.md").read_text()
    assert "The source states 4 mechanics these rules do not model" in page
    assert "- **Cleaning off contamination**: " in page  # the id in words
    assert "cleaning_off_contamination" in page.split("## For programmers", 1)[1]


def test_the_process_page_says_when_the_conditions_end() -> None:
    page = (ROOT / "generated/docs/d20_scifi/simulate_radiation.md").read_text()
    assert (
        "When recovery may begin (the source left and everything dealt), each "
        "condition of the track still suffered ends (*condition end* events)"
    ) in page
    assert "Ruling: conditions end when healing may begin" in page


def test_rulesc_simulate_says_when_each_condition_ends() -> None:
    """The workbench names each ending condition on its own line."""
    shown = subprocess.run(
        [
            *(sys.executable, "-m", "rulesc", "simulate"),
            "d20_scifi.simulate_radiation",
            *("--level", "Severe", "--exposed-minutes", "20"),
            *("--fort-bonus", "2", "--seed", "16"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "9h 11m   condition end: Sickened (no longer suffered)" in shown
    assert "9h 11m   condition end: Fatigued (no longer suffered)" in shown
