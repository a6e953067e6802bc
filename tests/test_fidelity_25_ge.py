"""Issue 25 (GURPS and Edge of Darkness): the corrected pages and the new inputs answer as the sources say.

The figures are typed here from the sources (001_664ceb7c2a0fa5eb.txt for GURPS,
004_fa4591f0a94231fd.txt for Edge of Darkness), not read from rules/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest
import rulebook.edge_of_darkness as eod
import rulebook.gurps as g
import yaml
from rulebook.errors import RuleInputError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "generated" / "docs"


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _input_line(page: str, param: str) -> str:
    """The line of a rule page's inputs that names ``param`` (by its title)."""
    found = [line for line in page.splitlines() if line.startswith(f"- *{param}*:")]
    assert len(found) == 1, found
    return found[0]


# -- the pages say what the runtime does ---------------------------------------------


def test_fire_from_full_cover_page_gives_the_shooter_minus_2_and_his_attackers_minus_3() -> (
    None
):
    page = _page("edge_of_darkness/fire_from_full_cover.md")
    (summary,) = [
        p for p in page.split("\n\n") if p.startswith("A character under full cover")
    ]
    # The old text read as if the shooter himself took -3.
    assert "and is -3 to hit" not in page
    assert "substantially concealed" in summary
    assert re.search(r"against him are then at -3", summary), summary
    assert re.search(r"his own shots are at -2", summary), summary


def test_the_runtime_agrees_with_the_full_cover_page() -> None:
    degree = eod.fire_from_full_cover()
    assert degree is eod.ConcealmentDegree.SUBSTANTIALLY
    # His own shot, from full cover: -2.
    assert eod.ranged_modifier(shooter="Completely covered") == -2
    assert eod.ranged_modifier(shooter=degree) == -2
    # A shot at him once he has fired: -3.
    assert eod.ranged_modifier(target=degree) == -3


def test_full_cover_ruling_is_on_the_ranged_modifier_page() -> None:
    page = _page("edge_of_darkness/ranged_modifier.md")
    assert "Ruling: full cover shooter own penalty" in page


def test_gurps_exposure_input_says_what_the_runtime_does() -> None:
    line = _input_line(_page("gurps/attack_covered_target.md"), "Exposure")
    assert "none unless given" not in line
    assert line.endswith(
        "unless given, what “What cover leaves exposed” answers given "
        "*Hands the weapon needs*: 2."
    ), line
    # ... which is what the runtime does when exposure is not given.
    rifle = g.exposure_behind_cover(weapon_hands=2)
    for location in g.HitLocation:
        given = g.attack_covered_target(
            option="aimed", location=location, exposure=rifle
        )
        default = g.attack_covered_target(option="aimed", location=location)
        assert default == given, location


def test_mapping_examples_name_each_location() -> None:
    page = _page("gurps/exposure_behind_cover.md")
    assert "answers Skull exposed, Skull" not in page
    assert (
        "it answers Left Arm exposed, Torso half, Vitals half, Groin covered and "
        "Skull exposed." in page
    )


# -- GURPS: cover DR of living things is a note, counted on the system page ------------


def test_living_cover_dr_is_a_not_modelled_note_counted_on_the_page() -> None:
    page = _page("gurps.md")
    assert "The source states 2 mechanics these rules do not model" in page
    assert "- **Living cover dr**: " in page  # the id in words
    assert "by id: `taking_cover`, `living_cover_dr`." in page
    system = yaml.safe_load((ROOT / "rules/gurps/system.yaml").read_text("utf-8"))
    ids = [n["id"] for n in system["not_modelled"]]
    assert page.count("  Why not: ") == len(ids) == 2
    matrix = yaml.safe_load((ROOT / "tests/trace/gurps.yaml").read_text("utf-8"))
    overpenetration = [p for p in matrix["passages"] if p["lines"] == "53-55"]
    assert overpenetration == [
        {"lines": "53-55", "digest": "c0195cf2fa81", "not_modelled": "living_cover_dr"}
    ]


# -- GURPS: blind fire is -10 unless given -----------------------------------------------


def test_blind_fire_is_minus_10_by_default() -> None:
    answer = g.attack_covered_target(
        option="through", cover_dr=12, completely_concealed=True
    )
    assert (answer.allowed, answer.to_hit_modifier, answer.extra_dr) == (True, -10, 12)


@pytest.mark.parametrize("penalty", [0, -4, -6, -10, -14])
def test_blind_fire_penalty_given(penalty: int) -> None:
    answer = g.attack_covered_target(
        option="through", cover_dr=5, completely_concealed=True, blind_penalty=penalty
    )
    assert (answer.to_hit_modifier, answer.extra_dr) == (penalty, 5)
    # Against a foe not completely concealed it is the -2 of shooting through.
    seen = g.attack_covered_target(option="through", cover_dr=5, blind_penalty=penalty)
    assert seen.to_hit_modifier == -2


@pytest.mark.parametrize("bad", [1, 10, True, "-10", None])
def test_blind_fire_penalty_refuses_a_bonus_or_a_non_number(bad: object) -> None:
    with pytest.raises(RuleInputError):
        g.attack_covered_target(
            option="through", completely_concealed=True, blind_penalty=cast(Any, bad)
        )


def test_blind_fire_penalty_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        cast(Any, g.attack_covered_target)("through", None, None, 0, True, -6)


# -- GURPS: the weapon arm is an input, right unless given -----------------------------------


def test_weapon_arm_is_right_unless_given() -> None:
    pistol = g.exposure_behind_cover(weapon_hands=1)
    assert pistol == g.exposure_behind_cover(weapon_hands=1, weapon_arm="right")
    assert pistol[g.HitLocation.RIGHT_ARM] is g.CoverExposure.EXPOSED
    assert pistol[g.HitLocation.LEFT_ARM] is g.CoverExposure.COVERED


def test_left_handed_pistol_shows_the_left_arm() -> None:
    left = g.exposure_behind_cover(weapon_hands=1, weapon_arm="left")
    right = g.exposure_behind_cover(weapon_hands=1)
    assert left[g.HitLocation.LEFT_ARM] is g.CoverExposure.EXPOSED
    assert left[g.HitLocation.RIGHT_ARM] is g.CoverExposure.COVERED
    assert left[g.HitLocation.HAND] is g.CoverExposure.EXPOSED
    # Only the arms change sides.
    arms = {g.HitLocation.LEFT_ARM, g.HitLocation.RIGHT_ARM}
    assert {k: v for k, v in left.items() if k not in arms} == {
        k: v for k, v in right.items() if k not in arms
    }


@pytest.mark.parametrize("arm", ["right", "left", "LEFT"])
def test_two_handed_weapon_shows_both_arms_either_way(arm: str) -> None:
    rifle = g.exposure_behind_cover(weapon_hands=2, weapon_arm=cast(Any, arm))
    assert rifle == g.exposure_behind_cover(weapon_hands=2)


def test_weapon_arm_refuses_a_location() -> None:
    with pytest.raises(RuleInputError):
        g.exposure_behind_cover(weapon_hands=1, weapon_arm=cast(Any, "Right Leg"))
