"""rulesc roll: any dice expression of the rules' notation, seeded, with exact stats."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from rulesc.runtime.dice import Dice, parse_dice
from rulesc.workbench.dicestats import stats_lines
from rulesc.workbench.roll import rolled_text

from .workbench_helpers import project, rulesc

__all__ = ["project"]


def test_a_seeded_roll_shows_each_die_and_repeats(project: Path) -> None:
    first = rulesc("roll", "2d10+10", "--seed", "7", cwd=project)
    assert first.returncode == 0, first.stderr
    rng = random.Random(7)
    a, b = rng.randint(1, 10), rng.randint(1, 10)
    assert first.stdout == f"2d10+10: ({a} + {b}) + 10 = {a + b + 10}\n"
    again = rulesc("roll", "2d10+10", "--seed", "7", cwd=project)
    assert again.stdout == first.stdout


def test_stats_are_exact(project: Path) -> None:
    done = rulesc("roll", "3d6", "--stats", cwd=project)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "range: 3 to 18" in out
    assert "mean:  10.5 (exactly 21/2)" in out
    rows = [ln.split() for ln in out.splitlines() if "at least" in ln]
    assert [int(r[0]) for r in rows] == list(range(3, 19))
    ten = next(r for r in rows if r[0] == "10")
    assert "1/8" in ten and "12.5%" in ten


def test_gurps_notation_and_dice_rules(project: Path) -> None:
    gurps = rulesc("roll", "3d-1", "--stats", cwd=project)
    assert "range: 2 to 17" in gurps.stdout
    rule = rulesc("roll", "d20_scifi.full_exposure_time", "--stats", cwd=project)
    assert rule.returncode == 0, rule.stderr
    assert rule.stdout.startswith("d20_scifi.full_exposure_time (3d4):")
    assert "minutes" in rule.stdout


def test_a_bad_expression_points_at_the_mistake(project: Path) -> None:
    done = rulesc("roll", "3x6", cwd=project)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "rulesc roll: error: 3x6: 'x' cannot come after '3', at character 2."
    )
    assert lines[1:3] == ["    3x6", "     ^"]
    assert "hint: write NdS" in done.stderr


def test_rolled_text_and_grouped_stats() -> None:
    assert rolled_text(Dice(2, 6, multiplier=10), [3, 4], 70) == "(3 + 4) × 10 = 70"
    assert rolled_text(Dice(1, 20), [12], 12) == "12"
    assert rolled_text(Dice(1, 20, modifier=-2), [12], 10) == "12 - 2 = 10"
    wide = stats_lines(parse_dice("20d10"))
    chart = [line for line in wide if "%" in line and "at least" in line]
    assert len(chart) <= 40  # grouped into ranges
    total = sum(parse_dice("20d10").distribution().values(), Fraction(0))
    assert total == 1
