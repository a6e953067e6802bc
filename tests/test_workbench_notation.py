"""rulesc roll with dice notation beyond the rules' own: d20, d%, 4dF, keep, explode, count."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import Odds, odds
from rulesc.runtime.dice_rolls import roll
from rulesc.workbench.notation import odds_lines, rolled_text

from .workbench_helpers import project, rulesc

__all__ = ["project"]


@pytest.mark.parametrize(
    "text", ["d20", "d%", "4dF", "4d6kh3", "2d20kl1", "1d6!", "6d6>=5", "4d6dl1"]
)
def test_the_issues_notation_rolls_as_the_runtime_rolls(
    project: Path, text: str
) -> None:
    done = rulesc("roll", text, "--seed", "5", cwd=project)
    assert done.returncode == 0, done.stderr
    dice = parse_notation(text, bare_d6=True)
    rolled = roll(dice, random.Random(5))
    assert done.stdout == f"{text}: {rolled_text(dice, rolled)}\n"
    assert done.stdout.rstrip().endswith(str(rolled.total))


def test_stats_are_exact(project: Path) -> None:
    done = rulesc("roll", "4d6dl1", "--stats", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "range: 3 to 18" in done.stdout
    assert "(exactly 15869/1296)" in done.stdout
    rows = [ln.split() for ln in done.stdout.splitlines() if "at least" in ln]
    assert [int(r[0]) for r in rows] == list(range(3, 19))
    assert "1/1296" in rows[0]


def test_depth_bounds_explosions_and_the_rest_is_a_tail(project: Path) -> None:
    done = rulesc("roll", "1d6!", "--stats", "--depth", "2", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "range: 1 to 17 (and more, past depth 2)" in done.stdout
    assert "tail:  0.46% (exactly 1/216)" in done.stdout
    bad = rulesc("roll", "1d6!", "--stats", "--depth", "101", cwd=project)
    assert bad.returncode == 2
    assert "--depth must be 0 to 100, not 101" in bad.stderr


def test_a_mistake_in_the_new_notation_is_located(project: Path) -> None:
    done = rulesc("roll", "4d6kh0", cwd=project)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "rulesc roll: error: 4d6kh0: kh takes 1 die or more, not 0, at character 4."
    )
    assert lines[1:3] == ["    4d6kh0", "       ^"]
    large = rulesc("roll", "101d6kh3", "--stats", cwd=project)  # no size cap
    assert large.returncode == 0 and "range: 3 to 18" in large.stdout


def test_rolled_text_marks_dropped_hits_rerolls_and_explosions() -> None:
    class Faces:
        def __init__(self, *faces: int) -> None:
            self.faces = list(faces)

        def randint(self, a: int, b: int) -> int:
            return self.faces.pop(0)

    cases = [
        ("4d6kh3", (2, 5, 6, 1), "[2, 5, 6, 1 dropped] = 13"),
        ("6d6>=5", (6, 5, 2, 1, 3, 5), "[6*, 5*, 2, 1, 3, 5*] = 3"),
        ("2d6ro1+3", (1, 4, 6), "[1\N{RIGHTWARDS ARROW}4, 6] + 3 = 13"),
        ("d6!-d4", (6, 6, 2, 3), "[6!, 6!, 2] - [3] = 11"),
        ("2d6!!kl1", (6, 2, 3), "[8 (6 2) dropped, 3] = 3"),
        ("d20", (17,), "17"),
        ("2d6x10", (3, 4), "[3, 4] \N{MULTIPLICATION SIGN} 10 = 70"),
    ]
    for text, faces, shown in cases:
        dice = parse_notation(text)
        assert rolled_text(dice, roll(dice, Faces(*faces))) == shown, text


def test_odds_lines_state_the_tail_and_the_mean_of_the_rest() -> None:
    lines = odds_lines(odds(parse_notation("1d4!"), 1), 1)
    assert lines[0] == "range: 1 to 7 (and more, past depth 1)"
    listed = Fraction(1 + 2 + 3, 4) + Fraction(5 + 6 + 7, 16)
    assert lines[1].endswith(f"(exactly {listed / Fraction(15, 16)})")
    assert lines[2].startswith("tail:  6.25% (exactly 1/16)")


# -- issue 41: rulesc roll keeps spaces, reads -d6, notes x, shows trees -------------


def test_spaces_dashes_x_and_trees_as_players_type_them(project: Path) -> None:
    """One process per spelling is slow: each command checks several things."""
    chance = rulesc("roll", "3d6 >= 10", "--seed", "2", cwd=project)
    assert chance.returncode == 0, chance.stderr
    dice = parse_notation("3d6 >= 10")
    rolled = roll(dice, random.Random(2))
    assert chance.stdout == f"3d6 >= 10: {rolled_text(dice, rolled)}\n"
    assert rolled.total in (0, 1) and ">= 10: " in chance.stdout
    minus = rulesc("roll", "-d6", "--seed", "3", cwd=project)  # no -- needed
    assert minus.returncode == 0, minus.stderr
    assert minus.stdout.startswith("-d6: -[")
    times = rulesc("roll", "2d6x10", "--seed", "1", cwd=project)
    assert times.returncode == 0 and "Foundry reads x as explode" in times.stderr
    assert "write 1d10!=10 for that" in times.stderr
    tree = rulesc("roll", "(2d6+3)/4 + 1d20+5[STR\x07]", "--seed", "4", cwd=project)
    assert tree.returncode == 0, tree.stderr
    assert "[STR\\x07]" in tree.stdout and " / 4 + [" in tree.stdout
    total = roll(parse_notation("(2d6+3)/4 + 1d20+5[STR\x07]"), random.Random(4)).total
    assert tree.stdout.rstrip().endswith(f"= {total}")  # exact: 29/4, never 7.25


def test_rolled_text_of_groups_failures_and_sorting() -> None:
    dice = parse_notation("{4d6sd, 2d6}kh1 + 10d10>=8f1")
    rolled = roll(dice, random.Random(7))
    text = rolled_text(dice, rolled)
    group, pool = rolled.terms
    assert text.startswith("{[") and "dropped" in text and "}kh1 + [" in text
    dice_shown = text[2 : text.index("]")].split(", ")
    values = [int(d.split()[0].rstrip("*~!")) for d in dice_shown]
    assert values == sorted(values, reverse=True)  # sd: shown high to low
    assert text.count("~") == sum(pool.fails)  # type: ignore[union-attr]
    assert text.count("*") == sum(pool.hits)  # type: ignore[union-attr]
    assert text.endswith(f"= {rolled.total}") and group.kept.count(True) == 1  # type: ignore[union-attr]


def test_stats_show_fractional_values_exactly() -> None:
    chances: dict[Any, Fraction] = {Fraction(k, 2): Fraction(1, 6) for k in range(1, 7)}
    lines = odds_lines(Odds(chances, Fraction(0)), 10)
    assert lines[:2] == ["range: 1/2 to 3", "mean:  1.75 (exactly 7/4)"]
    labels = [line.split()[0] for line in lines[3:]]
    assert labels == ["1/2", "1", "3/2", "2", "5/2", "3"]
