"""Bounded work: every dice expression rulesc accepts is worked out exactly (the
largest ones it accepts included), and what it would not work out quickly is
refused with the limit. Nothing here times anything: a hang fails the test
(``no_hang``), and ``make bench`` measures."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from rulesc.common.limits import (
    MAX_DICE_SUMS,
    dice_problem,
    roll_problem,
)
from rulesc.emit.markdown.charts import dice_chart
from rulesc.runtime.dice import _sum_counts, parse_dice
from rulesc.workbench.dicestats import stats_lines

from .conftest import run_rulesc

pytestmark = pytest.mark.usefixtures("no_hang")

# The edges of what is accepted: most dice, most sides, most sums.
ACCEPTED = ["100d100", "99d102", "50d200", "10d1000", "1d1000", "100d2", "3d6x10+5"]
REFUSED = ["101d2", "1d1001", "100d102", "11d1000", "100000d6"]


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted_dice_are_worked_out(text: str) -> None:
    dice = parse_dice(text)
    assert dice_problem(dice) is None
    _sum_counts.cache_clear()
    dist = dice.distribution()
    dice_chart(dice)
    stats_lines(dice)
    assert sum(dist.values()) == 1
    assert len(dist) == dice.count * (dice.sides - 1) + 1


@pytest.mark.parametrize("text", REFUSED)
def test_dice_past_the_limits_are_refused_with_them(text: str) -> None:
    problem = dice_problem(parse_dice(text))
    assert problem is not None and f"at most {MAX_DICE_SUMS} possible sums" in problem


@pytest.mark.parametrize(("count", "sides"), list(product(range(0, 5), range(1, 7))))
def test_sum_counts_agree_with_every_roll(count: int, sides: int) -> None:
    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    assert _sum_counts(count, sides) == dict(sorted(ways.items()))


@pytest.mark.parametrize(
    ("words", "why"),
    [
        # (no fixed cap on count or sides: only the runtime's own limits)
        (["100d1000", "--stats"], "takes at most 3,000,000"),
        (["100000000d6"], "roll fewer dice"),
        (["1d2000000000"], "sides"),
    ],
)
def test_roll_refuses_what_it_cannot_do_quickly(words: list[str], why: str) -> None:
    done = run_rulesc("roll", *words, cwd=Path.cwd())
    assert done.returncode == 2, done.stdout + done.stderr
    assert why in done.stderr


def test_rolling_the_most_dice_is_quick() -> None:
    dice = parse_dice("1000d6")
    assert roll_problem(dice) is None
    done = run_rulesc("roll", "1000d6", "--seed", "1", cwd=Path.cwd())
    assert done.returncode == 0 and done.stdout.startswith("1000d6: ")
