"""A typed consumer of the generated package: every call as a user writes it.

Type checkers must pass it clean (``make typecheck`` runs mypy and pyright, both
strict): each ``assert_type`` states the exact type a checker must see for a
piece of the public surface (what ``reveal_type`` would show, checked), so a
looser or wrong type is an error. tests/test_typing.py also runs it, so every
call here answers at run time too.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import assert_type

import rulebook
from rulebook import d20_scifi, edge_of_darkness, gurps
from rulebook.d20_scifi import (
    Caliber,
    CoverLevel,
    CoverLevelLabel,
    CoverRow,
    Exposure,
    ExposureKind,
    RadiationCondition,
    RadiationLevel,
    RadiationRow,
    RadiationTimeline,
    SecondaryEffect,
    SecondaryOutcome,
    TimelineEvent,
    TimelineEventKind,
)
from rulebook.dice import Dice, Scripted, parse_dice
from rulebook.edge_of_darkness import ConcealmentDegree, PoolResult
from rulebook.errors import RuleInputError
from rulebook.gurps import (
    CoveredAttack,
    CoverExposure,
    HitLocation,
    HitLocationLabel,
    HitLocationRow,
    RandomHit,
)
from rulebook.json import JSON, dumps, to_data
from rulebook.odds import Chances


def labels_and_members() -> None:
    """A choice takes its member or its exact label; calling the enum looks a
    label up in any case, typed."""
    assert_type(d20_scifi.cover("Total"), CoverRow)
    assert_type(d20_scifi.cover(CoverLevel.HALF), CoverRow)
    level: CoverLevelLabel = "1/4"
    assert_type(d20_scifi.cover(level), CoverRow)
    typed_in = "total"  # what a user typed: a str, made a member by the enum
    assert_type(CoverLevel(typed_in), CoverLevel)
    assert d20_scifi.cover(CoverLevel(typed_in)) == d20_scifi.cover("Total")
    assert_type(gurps.hit_location("Torso"), HitLocationRow)
    where: HitLocationLabel = "Left Leg"
    assert_type(gurps.hit_location(HitLocation(where)), HitLocationRow)
    assert_type(gurps.roll_hit_location(random.Random(1)), HitLocation)
    assert_type(rulebook.gurps.hit_location("Skull").penalty, int)


def ladders() -> None:
    """A ladder orders against members and labels; equality is the exact label."""
    assert_type(RadiationLevel.LOW < RadiationLevel.HIGH, bool)
    assert_type(RadiationLevel.LOW < "high", bool)
    assert_type(RadiationLevel.LOW < "High", bool)
    assert RadiationLevel.LOW < "high" and RadiationLevel.LOW.value == "Low"
    assert_type(RadiationLevel.LOW.rank, int)
    assert_type(max(RadiationLevel), RadiationLevel)
    assert_type(d20_scifi.half_exposure_level("Low"), RadiationLevel | None)
    assert_type(d20_scifi.instant_exposure("Critical"), RadiationRow | None)
    assert_type(d20_scifi.radiation_exposure(RadiationLevel.HIGH).fort_dc, int)
    assert_type(d20_scifi.radiation_exposure("High").incubation, Dice)
    degree = edge_of_darkness.fire_from_full_cover()
    assert_type(degree, ConcealmentDegree)
    assert degree > "barely concealed"


def decisions_and_records() -> None:
    attack = d20_scifi.attack_through_cover("1/2", "soft", Caliber.SUPER, "at_target")
    assert_type(attack.ac_bonus, int)
    assert_type(attack.target_ac, int | None)
    move = d20_scifi.zero_g_movement("crawl", on_surface=False)
    assert_type(move.can_move, bool)
    assert_type(d20_scifi.launch_speed(2, "one_leg"), int)
    assert_type(d20_scifi.zero_g_weapon_range("zero_g").max_increments, int)
    assert_type(edge_of_darkness.ranged_modifier("Barely concealed", None), int)
    assert_type(
        d20_scifi.radiation_symptoms(7), dict[d20_scifi.SymptomType, str] | None
    )
    assert_type(d20_scifi.spin_save(12), d20_scifi.SpinSave | None)
    assert_type(d20_scifi.FLOATING.flat_footed, bool)


def exposures_and_events() -> None:
    found = d20_scifi.exposures("Moderate", 10, 8)
    assert_type(found, list[Exposure])
    assert_type(found[0].kind, ExposureKind)
    assert_type(found[0].effective_level, RadiationLevel)
    run = d20_scifi.simulate_radiation("High", 30, 2, random.Random(7))
    assert_type(run, RadiationTimeline)
    assert_type(run.events, tuple[TimelineEvent, ...])
    assert_type(run.conditions, tuple[RadiationCondition, ...])
    for event in run.events:
        assert_type(event.kind, TimelineEventKind)
        assert_type(event.exposure, ExposureKind | None)
        assert_type(event.level, RadiationLevel | None)
        assert_type(event.effect, SecondaryEffect | None)
        assert_type(event.condition, RadiationCondition | None)
        assert_type(event.minute, int)
        if event.kind == "save":
            assert event.success is not None
    track = d20_scifi.SecondaryEffects()
    assert_type(track.apply(1), SecondaryOutcome)
    assert_type(track.conditions, tuple[RadiationCondition, ...])


def mappings() -> None:
    """A mapping takes members, labels or both, as keys and as values."""
    exposure = gurps.exposure_behind_cover(2)
    assert_type(exposure, dict[HitLocation, CoverExposure])
    assert_type(gurps.random_hit(exposure, random.Random(3)), RandomHit)
    written: dict[HitLocationLabel, CoverExposure] = {
        "Skull": CoverExposure.EXPOSED,
        "Face": CoverExposure.EXPOSED,
        "Right Leg": CoverExposure.COVERED,
        "Right Arm": CoverExposure.EXPOSED,
        "Torso": CoverExposure.HALF,
        "Groin": CoverExposure.COVERED,
        "Left Arm": CoverExposure.EXPOSED,
        "Left Leg": CoverExposure.COVERED,
        "Hand": CoverExposure.EXPOSED,
        "Foot": CoverExposure.COVERED,
        "Neck": CoverExposure.EXPOSED,
        "Vitals": CoverExposure.HALF,
        "Eyes": CoverExposure.EXPOSED,
    }
    assert len(written) == len(HitLocation)
    hit = gurps.random_hit(written, Scripted([3, 3, 4, 5]))  # Torso, half: check 5
    assert_type(hit.location, HitLocation)
    assert_type(hit.check, int | None)
    assert (hit.location, hit.check, hit.strikes_cover) == (HitLocation.TORSO, 5, True)
    aimed = gurps.attack_covered_target("aimed", "Torso", exposure=exposure)
    assert_type(aimed, CoveredAttack)
    shot = gurps.attack_covered_target("random", exposure=written)
    assert_type(shot.resolve(random.Random(5)), RandomHit)


def pools_dice_json() -> None:
    assert_type(edge_of_darkness.roll_pool(5, random.Random(2)), PoolResult)
    odds = edge_of_darkness.pool_distribution(3)
    assert_type(odds, Chances[int])
    assert_type(odds.at_least(1), Fraction)
    assert_type(odds.tail, Fraction)
    assert_type(parse_dice("2d6+1"), Dice)
    assert_type(Dice(1, 20).roll(random.Random(1)), int)
    assert_type(to_data(d20_scifi.cover("Total")), JSON)
    assert_type(dumps(d20_scifi.cover("Total")), str)
    assert_type(d20_scifi.cover("Total").to_dict(), dict[str, JSON])
    try:
        CoverLevel("nine tenths")
    except ValueError:
        pass
    else:
        raise AssertionError("'nine tenths' is no label")
    try:
        d20_scifi.cover("Total")
    except RuleInputError:
        raise AssertionError("'Total' is a label") from None


def main() -> None:
    """Every part, in order (tests/test_typing.py calls it)."""
    labels_and_members()
    ladders()
    decisions_and_records()
    exposures_and_events()
    mappings()
    pools_dice_json()
