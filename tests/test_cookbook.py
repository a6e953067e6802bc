"""The cookbook: five common mechanics written only in YAML (tests/cookbook/).

It is built as a rules editor would build it, ``rulesc build --rules tests/cookbook
--out DIR``, and the generated ``rulebook.cookbook`` is imported and asked the
answers the mechanics state; ``rulesc explain`` and ``simulate`` work on it too.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .conftest import ROOT, import_fresh, run_rulesc

COOKBOOK = ROOT / "tests" / "cookbook"


@pytest.fixture(scope="module")
def out(cookbook_out: Path) -> Path:
    """The build of tests/cookbook (conftest's, one a session)."""
    return cookbook_out


@pytest.fixture(scope="module")
def cb(out: Path) -> Iterator[ModuleType]:
    with import_fresh(out):
        yield importlib.import_module("rulebook.cookbook")


def scripted(cb: ModuleType, dice: list[int]) -> Any:
    return importlib.import_module("rulebook.dice").Scripted(dice)


def test_the_build_writes_the_module_and_docs(out: Path) -> None:
    assert (out / "rulebook" / "cookbook.py").is_file()
    assert (out / "docs" / "cookbook.md").is_file()


# -- filth fever -----------------------------------------------------------------


def test_filth_fever_day_by_day(cb: ModuleType) -> None:
    # incubation 2 days; day 2 fails (Dex 3, Con 1); days 3 and 4 succeed: cured day 4
    run = cb.simulate_filth_fever(2, scripted(cb, [2, 5, 3, 1, 15, 12]))
    assert (run.dex_damage, run.con_damage, run.saves_made, run.cured_day) == (
        3,
        1,
        3,
        4,
    )
    days = [e.day for e in run.events]
    assert days == sorted(days) and days[0] == 0
    saves = [e for e in run.events if e.kind == "save"]
    assert [(e.day, e.roll, e.total, e.success) for e in saves] == [
        (2, 5, 7, False),
        (3, 15, 17, True),
        (4, 12, 14, True),
    ]


def test_filth_fever_rolls_dex_before_con_and_needs_two_in_a_row(
    cb: ModuleType,
) -> None:
    # a success, a failure (Dex 1 then Con 3), then two successes
    run = cb.simulate_filth_fever(0, scripted(cb, [1, 12, 2, 1, 3, 20, 19]))
    dealt = [(e.kind, e.amount) for e in run.events if e.amount is not None]
    assert dealt == [("dex_damage", 1), ("con_damage", 3)]
    assert (run.saves_made, run.cured_day) == (4, 4)


def test_filth_fever_natural_rolls(cb: ModuleType) -> None:
    # +40 still fails on a natural 1; -20 still succeeds on a natural 20
    high = cb.simulate_filth_fever(40, scripted(cb, [1, 1, 2, 2, 20, 20]))
    assert (high.dex_damage, high.con_damage, high.cured_day) == (2, 2, 3)
    low = cb.simulate_filth_fever(-20, scripted(cb, [3, 20, 20]))
    assert (low.dex_damage, low.saves_made, low.cured_day) == (0, 2, 4)


@pytest.mark.parametrize("bonus", [-21, 41, True, 1.0, "2"])
def test_filth_fever_refuses_bonuses(cb: ModuleType, bonus: Any) -> None:
    with pytest.raises(
        cb.RuleInputError if hasattr(cb, "RuleInputError") else ValueError
    ):
        cb.simulate_filth_fever(bonus, random.Random(1))


def test_filth_fever_seeded_runs_are_repeatable(cb: ModuleType) -> None:
    for seed in range(200):
        a = cb.simulate_filth_fever(seed % 7 - 3, random.Random(seed))
        b = cb.simulate_filth_fever(seed % 7 - 3, random.Random(seed))
        assert a == b
        assert a.saves_made == sum(1 for e in a.events if e.kind == "save")
        assert a.saves_made >= 2 and a.cured_day is not None
        assert a.dex_damage == sum(e.amount for e in a.events if e.kind == "dex_damage")


# -- giant wasp poison --------------------------------------------------------------


def test_giant_wasp_poison(cb: ModuleType) -> None:
    both = cb.giant_wasp_poison(3, scripted(cb, [10, 4, 2, 2]))
    assert (both.initial_damage, both.secondary_damage) == (4, 2)
    first_saved = cb.giant_wasp_poison(3, scripted(cb, [15, 5, 6]))
    assert (first_saved.initial_damage, first_saved.secondary_damage) == (0, 6)
    none = cb.giant_wasp_poison(0, scripted(cb, [20, 18]))
    assert (none.initial_damage, none.secondary_damage) == (0, 0)
    assert [(e.minute, e.kind) for e in both.events] == [
        (0, "save"),
        (0, "initial_damage"),
        (1, "save"),
        (1, "secondary_damage"),
    ]
    with pytest.raises(ValueError):
        cb.giant_wasp_poison(41, random.Random(1))


# -- exhaustion -------------------------------------------------------------------------


def test_exhaustion(cb: ModuleType) -> None:
    state = cb.Exhaustion()
    assert (state.level, state.effects, state.dead) == (0, (), False)
    state.gain()
    state.gain(levels=2)
    assert state.level == 3
    assert state.effects == (
        "Disadvantage on ability checks",
        "Speed halved",
        "Disadvantage on attack rolls and saving throws",
    )
    state.gain(levels=5)
    assert (state.level, state.dead) == (6, True)
    assert state.effects[-1] == "Death" and len(state.effects) == 6
    for _ in range(8):
        state.long_rest()
    assert (state.level, state.effects, state.dead) == (0, (), False)
    with pytest.raises(ValueError):
        state.gain(levels=0)


# -- autofire and the pool ----------------------------------------------------------


def test_autofire(cb: ModuleType) -> None:
    assert cb.autofire_pool(5, "short", 1) == 6
    assert cb.autofire_pool(5, "MEDIUM", 3) == 5
    assert cb.autofire_pool(1, "Long", 6) == -1  # not clamped: a chance die
    assert cb.autofire_pool(0, cb.Burst.LONG, 1) == 3
    with pytest.raises(ValueError, match="single target"):
        cb.autofire_pool(5, "short", 2)
    with pytest.raises(ValueError, match="at most 3 targets"):
        cb.autofire_pool(5, "medium", 4)
    for bad in ((31, "short", 1), (-1, "short", 1), (5, "long", 0), (5, "long", 31)):
        with pytest.raises(ValueError):
            cb.autofire_pool(*bad)
    result = cb.roll_pool(
        cb.autofire_pool(2, "medium", 1), scripted(cb, [8, 10, 3, 1, 2])
    )
    assert result.successes == 2


# -- weapon damage ----------------------------------------------------------------------


def test_weapon_damage_and_bonus(cb: ModuleType) -> None:
    assert [str(cb.weapon_damage(s).damage) for s in ("Small", "medium", "LARGE")] == [
        "1d6",
        "1d8",
        "2d6",
    ]
    assert [cb.damage_bonus(s) for s in (1, 7, 10, 11, 15, 50)] == [-5, -2, 0, 0, 2, 20]
    assert cb.least_damage("Large", 14) == 4
    assert cb.least_damage("Small", 3) == 1
    assert cb.least_damage("Medium", 30) == 11
    for bad in (0, 51):
        with pytest.raises(ValueError):
            cb.damage_bonus(bad)


# -- the workbench ------------------------------------------------------------------------


def test_explain_and_simulate_work_on_the_cookbook() -> None:
    rules = ("--rules", str(COOKBOOK))
    fever = run_rulesc(
        "simulate",
        *rules,
        "cookbook.simulate_filth_fever",
        "--fort-bonus",
        "2",
        "--seed",
        "3",
        cwd=ROOT,
    )
    assert fever.returncode == 0, fever.stderr
    assert "cured day" in fever.stdout and "save 1d20 rolls" in fever.stdout
    many = run_rulesc(
        "simulate",
        *rules,
        "cookbook.giant_wasp_poison",
        "--fort-bonus",
        "0",
        "--runs",
        "200",
        cwd=ROOT,
    )
    assert many.returncode == 0, many.stderr
    assert "initial damage, distribution" in many.stdout
    tired = run_rulesc(
        "explain",
        *rules,
        "cookbook.exhaustion",
        "gain",
        "gain=2",
        "long_rest",
        cwd=ROOT,
    )
    assert tired.returncode == 0, tired.stderr
    assert "level 2" in tired.stdout and "Speed halved" in tired.stdout
    least = run_rulesc(
        "explain",
        *rules,
        "cookbook.least_damage",
        "size=Large",
        "strength=14",
        cwd=ROOT,
    )
    assert least.returncode == 0, least.stderr
    assert "4" in least.stdout
