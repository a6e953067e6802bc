"""Mutation tests: a figure changed in rules/ changes the runtime and the docs.

Every figure lives in the YAML, so editing one in a copy of rules/ and building
must change what the generated runtime answers and what the docs print.
"""

from __future__ import annotations

from pathlib import Path

from rulesc.pipeline import Outputs, build

from .conftest import Editor
from .probe import ask, doc


def test_table_cell(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "m.cover('3/4').cover_ac"
    assert ask(built, question) == 6
    edit("d20_scifi/cover.yaml", "cover_ac: 6", "cover_ac: 7")
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, question) == 7
    assert "| +6 AC |" in doc(built) and "| +6 AC |" not in doc(mutated)
    assert "| +7 AC |" in doc(mutated)


def test_formula_constant(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "m.crawl_speed(climb_bonus=10, occupied_limbs=0)"
    assert ask(built, question) == 40
    edit("d20_scifi/zero_g.yaml", "occupied_limbs, 0, 40)", "occupied_limbs, 0, 45)")
    edit(
        "d20_scifi/zero_g.yaml",
        "occupied_limbs: 0}\n        expect: 40",
        "occupied_limbs: 0}\n        expect: 45",
    )
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, question) == 45
    assert "The result is always from 0 to 40." in doc(built)
    assert "The result is always from 0 to 45." in doc(mutated)
    assert "0), 45)" in doc(mutated, rule="crawl_speed")


def test_formula_coefficient(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "m.launch_speed(jump_bonus=2)"
    assert ask(built, question) == 30
    edit(
        "d20_scifi/zero_g.yaml",
        "clamp(20 + 5 * jump_bonus",
        "clamp(20 + 6 * jump_bonus",
    )
    edit("d20_scifi/zero_g.yaml", "expect: 30", "expect: 32")
    edit(
        "d20_scifi/zero_g.yaml",
        "limbs: one_arm}\n        expect: 7",
        "limbs: one_arm}\n        expect: 8",
    )
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, question) == 32
    term = r"6 \times \textit{jump bonus}"  # the formula's math (LaTeX)
    assert term in doc(mutated) and term not in doc(built)


def test_dice_expression(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "str(m.radiation_exposure('Severe').primary_effect)"
    assert ask(built, question) == "3d4"
    edit(
        "d20_scifi/radiation.yaml",
        "{key: Severe, incubation: 2d6, fort_dc: 24, primary_effect: 3d4}",
        "{key: Severe, incubation: 2d6, fort_dc: 24, primary_effect: 3d4+1}",
    )
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, question) == "3d4+1"
    assert "| 3d4+1 CON damage |" in doc(mutated)
    assert "| `3d4+1` | CON damage | 4 to 13 | 8.5 |" in doc(mutated)


def test_dice_rule(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "(m.FULL_EXPOSURE_TIME.min, m.FULL_EXPOSURE_TIME.max)"
    assert ask(built, question) == (3, 12)
    edit("d20_scifi/radiation.yaml", "dice: 3d4\n", "dice: 3d6\n")
    edit(
        "d20_scifi/radiation.yaml",
        "dice: [1, 2, 3]\n        expect: 6",
        "dice: [1, 2, 6]\n        expect: 9",
    )
    edit(
        "d20_scifi/radiation.yaml",
        "full_exposure_minutes: 13}",
        "full_exposure_minutes: 19}",
    )
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, question) == (3, 18)
    assert "| `3d6` | minutes | 3 to 18 | 10.5 |" in doc(mutated)


def test_label_and_ruling_text(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    edit(
        "d20_scifi/cover.yaml",
        '{name: HALF, label: "1/2"}',
        '{name: HALF, label: "one half"}',
    )
    edit("d20_scifi/cover.yaml", '  - key: "1/2"', "  - key: one half")
    edit("d20_scifi/cover.yaml", 'args: {level: "1/2"}', "args: {level: one half}")
    edit(
        "d20_scifi/cover.yaml",
        "ruling: >-\n          There are none:",
        "ruling: >-\n          Nothing at all:",
    )
    mutated = build(rules_copy, run_examples=False)
    assert ask(mutated, "m.CoverLevel.HALF.value") == "one half"
    assert "| one half |" in doc(mutated)
    assert "**Ruling:** Nothing at all:" in doc(mutated)
