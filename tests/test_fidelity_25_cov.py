"""Issue 25, d20 cover and zero gravity: silent choices made explicit, docs that say what runs.

Warhead-tipped rounds of any caliber, AC 5 for simple objects only, soft cover's
two modes, the Total-cover ruling, spin sickness against the raw spin, the spin
penalty on rolls, and the launch floor before quartering: each checked in the
runtime, in the generated reference page, and in the traceability matrix.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import rulebook.d20_scifi as d20

from .conftest import GENERATED, ROOT
from .trace.matrix import load_matrix

LEVELS: list[d20.CoverLevelLabel] = ["Total", "9/10", "3/4", "1/2", "1/4"]
MATERIALS: list[d20.CoverMaterialLabel] = ["soft", "hard"]
CALIBERS: list[d20.CaliberLabel] = ["standard", "heavy", "super", "warhead"]
MODES: list[d20.AttackModeLabel] = ["at_target", "through_cover", "at_cover"]
CANNONS: list[d20.CaliberLabel] = ["heavy", "super"]
FLAGS = [False, True]
PAGES = GENERATED / "docs" / "d20_scifi"
MATRIX = ROOT / "tests" / "trace" / "d20_scifi.yaml"


def _page(rule: str) -> str:
    """A rule's reference page, lines joined and Markdown's escaped underscores read back."""
    text = (PAGES / f"{rule}.md").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", text).replace("\\_", "_")


def _ruling(rule: str, ruling: str) -> str:
    """The text of one ruling box on a rule's page, from its title to the next box."""
    page = _page(rule)
    title = f'!!! note "Ruling: {ruling.replace("_", " ")}"'
    assert title in page, (rule, ruling)
    return page.split(title, 1)[1].split("!!! ", 1)[0].split("## ", 1)[0]


def _answer(attack: d20.CoverAttack) -> tuple[Any, ...]:
    return (
        attack.allowed,
        attack.ac_bonus,
        attack.miss_chance,
        attack.must_guess_location,
        attack.target_ac,
    )


def _matrix_entry(digest: str) -> dict[str, Any]:
    (entry,) = [e for e in load_matrix(MATRIX)["passages"] if e["digest"] == digest]
    return dict(entry)


# -- warhead-tipped rounds of any caliber ----------------------------------------


def test_caliber_warhead_is_a_standard_caliber_warhead() -> None:
    # caliber="warhead" keeps its answers: it is warhead=True on a standard weapon.
    for level, material, mode, penetrates, simple in itertools.product(
        LEVELS, MATERIALS, MODES, FLAGS, FLAGS
    ):
        flags = {"warhead_penetrates": penetrates, "simple_object": simple}
        old = d20.attack_through_cover(level, material, "warhead", mode, **flags)
        new = d20.attack_through_cover(
            level, material, "standard", mode, warhead=True, **flags
        )
        both = d20.attack_through_cover(
            level, material, "warhead", mode, warhead=True, **flags
        )
        assert old == new == both, (level, material, mode, penetrates, simple)


def _warhead_reference(
    level: d20.CoverLevelLabel,
    material: str,
    caliber: str,
    mode: str,
    penetrates: bool,
) -> tuple[Any, ...]:
    """A warhead-tipped heavy or super round, from the source's three ways past cover."""
    assert caliber in ("heavy", "super")
    row = d20.cover(level)
    if mode == "at_cover":
        return (True, 0, 0, False, 5)
    if mode == "at_target":
        if not row.targetable:
            return (False, 0, 0, False, None)
        cut = {"heavy": 1, "super": 2}[caliber] if material == "soft" else 0
        return (True, max((row.cover_ac or 0) - cut, 0), 0, False, None)
    if material == "soft" or penetrates:
        return (True, 0, row.miss_chance, row.must_guess_location, None)
    return (False, 0, 0, False, None)


def test_ap_cannon_shells_every_combination() -> None:
    for level, material, caliber, mode, penetrates in itertools.product(
        LEVELS, MATERIALS, CANNONS, MODES, FLAGS
    ):
        got = d20.attack_through_cover(
            level, material, caliber, mode, warhead=True, warhead_penetrates=penetrates
        )
        where = (level, material, caliber, mode, penetrates)
        assert _answer(got) == _warhead_reference(*where), where
        assert got.reason, where


def test_ap_cannon_shell_worked_cases() -> None:
    shell = d20.attack_through_cover(
        "1/2", "hard", "super", "through_cover", warhead=True, warhead_penetrates=True
    )
    assert (shell.allowed, shell.ac_bonus, shell.miss_chance) == (True, 0, 20)
    # Without the warhead a super round cannot go through hard cover, ruled or not.
    plain = d20.attack_through_cover(
        "1/2", "hard", "super", "through_cover", warhead_penetrates=True
    )
    assert plain.allowed is False
    # Past soft cover the caliber still counts: 6 AC less 2 for super.
    past = d20.attack_through_cover("3/4", "soft", "super", "at_target", warhead=True)
    assert (past.allowed, past.ac_bonus) == (True, 4)


def test_warhead_flag_changes_nothing_for_a_warhead_caliber_or_without_it() -> None:
    # Default arguments answer as before the flag existed.
    for level, material, caliber, mode in itertools.product(
        LEVELS, MATERIALS, CALIBERS, MODES
    ):
        assert d20.attack_through_cover(
            level, material, caliber, mode
        ) == d20.attack_through_cover(
            level, material, caliber, mode, warhead=False, simple_object=True
        )


# -- AC 5 for simple inanimate objects only --------------------------------------


def test_cover_that_is_no_simple_object_has_no_target_ac() -> None:
    for level, material, caliber, warhead in itertools.product(
        LEVELS, MATERIALS, CALIBERS, FLAGS
    ):
        simple = d20.attack_through_cover(
            level, material, caliber, "at_cover", warhead=warhead
        )
        other = d20.attack_through_cover(
            level, material, caliber, "at_cover", warhead=warhead, simple_object=False
        )
        where = (level, material, caliber, warhead)
        can_destroy = caliber != "standard" or warhead
        assert simple.allowed is other.allowed is can_destroy, where
        if can_destroy:
            assert simple.target_ac == 5, where
            assert other.target_ac is None, where
            assert "game master" in other.reason, where
            assert "simple" in other.reason, where


def test_simple_object_matters_only_when_the_cover_is_attacked() -> None:
    for level, material, caliber, mode, warhead in itertools.product(
        LEVELS, MATERIALS, CALIBERS, MODES[:2], FLAGS
    ):
        assert d20.attack_through_cover(
            level, material, caliber, mode, warhead=warhead, simple_object=False
        ) == d20.attack_through_cover(
            level, material, caliber, mode, warhead=warhead
        ), (
            level,
            material,
            caliber,
            mode,
        )


def test_ac_5_ruling_on_the_page() -> None:
    text = _ruling("attack_through_cover", "ac_5_for_simple_objects")
    assert "simple inanimate object" in text and "no target AC" in text
    assert (
        "- *The cover is a simple object*: Whether the cover is a simple inanimate object"
        in (_page("attack_through_cover"))
    )


# -- soft cover's two modes ------------------------------------------------------


def test_soft_cover_modes_never_combine() -> None:
    for level, caliber in itertools.product(LEVELS, CALIBERS):
        past = d20.attack_through_cover(level, "soft", caliber, "at_target")
        through = d20.attack_through_cover(level, "soft", caliber, "through_cover")
        assert past.miss_chance == 0 and not past.must_guess_location, level
        assert through.ac_bonus == 0, level
    text = _ruling("attack_through_cover", "soft_cover_two_modes")
    assert "At the target" in text.replace("\n", " ") and "through the cover" in text
    assert "count the cover twice" in text


# -- Total cover: the ruling says what the runtime does --------------------------


def test_total_cover_ruling_matches_the_runtime() -> None:
    text = _ruling("cover", "total_cover_has_no_figures")
    # The corrected text: the 50% belongs to concealment, never to an attack past cover.
    assert "concealment column" in text
    assert "never for an attack past total cover, which cannot be made" in text
    # The old text said the miss chance still applied to an attack on the target.
    assert "still applies when the attacker guesses" not in _page("cover")
    row = d20.cover("Total")
    assert (row.hide_spot_modifier, row.reflex_bonus, row.cover_ac) == (
        None,
        None,
        None,
    )
    assert (row.targetable, row.miss_chance, row.must_guess_location) == (
        False,
        50,
        True,
    )
    for material, caliber, warhead in itertools.product(MATERIALS, CALIBERS, FLAGS):
        past = d20.attack_through_cover(
            "Total", material, caliber, "at_target", warhead=warhead
        )
        assert past.allowed is False, (material, caliber)
    through = d20.attack_through_cover("Total", "soft", "heavy", "through_cover")
    assert (through.allowed, through.miss_chance, through.must_guess_location) == (
        True,
        50,
        True,
    )


# -- spin ------------------------------------------------------------------------


def test_spin_sickness_counts_the_raw_spin_of_attached_characters() -> None:
    # Attached at spin 6: -3 to rolls, but the save is still spin 6's.
    assert d20.spin_modifier(6, attached=True) == -3
    six = d20.spin_save(6)
    assert six is not None and (six.dc, six.condition) == (14, "Sickened")
    # Attached at spin 10: -5 to rolls, and still Nauseated on a failure.
    assert d20.spin_modifier(10, attached=True) == -5
    ten = d20.spin_save(10)
    assert ten is not None and ten.condition == "Nauseated"
    # spin_save takes the spin alone: there is no attached argument to halve it.
    assert list(
        d20.spin_save.__code__.co_varnames[: d20.spin_save.__code__.co_argcount]
    ) == ["spin"]
    text = _ruling("spin_save", "sickness_counts_raw_spin")
    assert "spin 6" in text and "-3" in text


def test_spin_penalty_is_on_rolls_not_scores_ruling() -> None:
    text = _ruling("spin_modifier", "penalty_on_rolls_not_scores")
    assert "The scores themselves" in text
    assert d20.spin_modifier(3) == -3  # the whole spin on the roll, not half of it


# -- launch speed: floor, then quarter -------------------------------------------


def test_launch_floor_comes_before_the_limbs() -> None:
    assert d20.launch_speed(-5, "one_arm") == 2
    assert d20.launch_speed(-5, "one_leg") == 5
    for jump in range(-30, 30):
        base = min(max(20 + 5 * jump, 10), 100)
        assert d20.launch_speed(jump, "one_arm") == base // 4, jump
        assert d20.launch_speed(jump, "both_arms") == base // 2, jump
    text = _ruling("launch_speed", "limits_before_limbs")
    assert "2 ft." in text
    grid = _ruling("launch_speed", "feet_not_squares")
    assert "off the 5 ft. grid" in grid


# -- the traceability matrix -----------------------------------------------------


def test_matrix_maps_the_corrected_passages() -> None:
    # The AC 5 sentence (Destroying Cover), to the rule, not only to the GM ruling.
    ac5 = _matrix_entry("57d7be0f4374")
    assert ac5["rules"] == ["attack_through_cover"]
    assert {
        "/parameters/simple_object",
        "/cases/2",
        "/rulings/ac_5_for_simple_objects",
    } <= set(ac5["at"])
    # Shooting through hard cover with AP cannon shells: the warhead flag.
    hard = _matrix_entry("1961ff52d5bf")
    assert {"/parameters/warhead", "/rulings/warhead_of_any_caliber"} <= set(hard["at"])
    # Soft cover's two sentences: the two-modes ruling.
    for digest in ("8f3e15a3294a", "3ebf7b74a86d"):
        assert "/rulings/soft_cover_two_modes" in _matrix_entry(digest)["at"]
    # Spin: halved penalties, the penalty to Dexterity and Wisdom, the sickness save.
    assert (
        "spin_save#/rulings/sickness_counts_raw_spin"
        in _matrix_entry("16294dc16f85")["at"]
    )
    assert "/rulings/penalty_on_rolls_not_scores" in _matrix_entry("8be2841a022d")["at"]
    assert "/rulings/sickness_counts_raw_spin" in _matrix_entry("959f78c2a880")["at"]
    # Launch: the floor and the quartering.
    assert "/examples/floor_then_quarter" in _matrix_entry("f3d40f27062d")["at"]
    assert "/rulings/feet_not_squares" in _matrix_entry("cb7fc7600b36")["at"]


def test_cases_the_matrix_names_are_the_ones_it_means() -> None:
    # The matrix points at cases by index: hold the indices to what they decide.
    rules = Path(ROOT / "rules" / "d20_scifi" / "cover.yaml").read_text(
        encoding="utf-8"
    )
    block = rules.split("  - id: attack_through_cover", 1)[1].split("    rulings:", 1)[
        0
    ]
    whens = re.findall(r"- when: (.*)", block)
    assert "not simple_object" in whens[1]
    assert whens[2].strip() == 'mode == "at_cover"'
    assert whens[4].strip() == 'mode == "at_target" and material == "soft"'
    assert "warhead_penetrates" in whens[7]
    assert whens[8].strip() == '"true"'
