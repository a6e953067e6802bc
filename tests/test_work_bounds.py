"""Bounds checked before the work: whatever sizes a rules file holds (a range's
ends, counts, sides, a chart's sizes, durations, maxima, dice), the build
answers with a build or located errors, within a cap on memory and time and
with no RecursionError; a chain of rules calling rules is a located error past
its limit, not recursion."""

from __future__ import annotations

import copy
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from rulesc.common.limits import (
    MAX_CALL_CHAIN,
    MAX_ROLLED_RESULTS,
    Budget,
)
from rulesc.runtime.dice import Dice

from . import bounds_cases as cases
from .conftest import RULES

pytestmark = pytest.mark.usefixtures("no_hang")


@st.composite
def hostile(draw: st.DrawFn) -> tuple[str, bool]:
    """A real rule alone, one to four of its numbers or dice made hostile."""
    _kind, text = draw(st.sampled_from(cases.rules()))
    data = YAML(typ="safe").load(text)
    if draw(st.booleans()):  # worked examples break when figures change
        data[0].pop("examples", None)
    numbers = [p for p, v in cases.leaves(data) if isinstance(v, int)]
    dice = [
        p
        for p, v in cases.leaves(data)
        if isinstance(v, str) and cases.looks_like_dice(v)
    ]
    for _ in range(draw(st.integers(1, 4))):
        if dice and draw(st.integers(0, 3)) == 0:
            value: Any = draw(st.sampled_from(cases.DICE))
            cases.put(data, draw(st.sampled_from(dice)), value)
        elif numbers:
            value = draw(
                st.sampled_from(cases.NUMBERS) | st.integers(-cases.BIG, cases.BIG)
            )
            cases.put(data, draw(st.sampled_from(numbers)), value)
    if draw(st.integers(0, 4)) == 0:  # many copies of one row: work per file
        rows = data[0].get("rows")
        if isinstance(rows, list) and rows:
            data[0]["rows"] = [copy.deepcopy(rows[0]) for _ in range(300)]
    return cases.dump(data), draw(st.booleans())


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=hostile())
def test_hostile_sizes_build_or_fail_located_within_bounds(
    case: tuple[str, bool],
) -> None:
    text, run_examples = case
    folder = Path(tempfile.mkdtemp())
    try:
        cases.write(folder, text)
        errors = cases.build_or_errors(folder, run_examples=run_examples)
    finally:
        shutil.rmtree(folder)
    for error in errors:
        where, _, message = error.partition(": ")
        assert where.split(":")[0].endswith("lab/lab.yaml") or where.endswith(
            "system.yaml"
        ), error
        line, col = where.split(":")[1:3]
        assert int(line) >= 1 and int(col) >= 1 and message, error


def _chain(count: int, *, backwards: bool = False) -> str:
    """``count`` formulas, each calling the next (or the one before)."""
    rules = []
    for n in range(count):
        callee = n - 1 if backwards else n + 1
        body = f"f{callee}(x) + 1" if 0 <= callee < count else "x"
        rules.append(
            f"""\
- id: f{n}
  kind: formula
  title: F{n}
  summary: A formula.
  source: {{section: X}}
  function: f{n}
  parameters: [{{name: x, type: int, min: 0, max: 10, description: X.}}]
  expression: "{body}"
"""
        )
    return "".join(rules)


def _chain_folder(tmp_path: Path, count: int, *, backwards: bool = False) -> Path:
    """The chain in files of at most 400 rules (a file's limit is 500)."""
    text = _chain(count, backwards=backwards)
    cases.write(tmp_path, "")
    parts = text.split("- id: ")[1:]
    folder = tmp_path / "lab"
    (folder / "lab.yaml").unlink()
    for start in range(0, len(parts), 400):
        chunk = "".join("- id: " + p for p in parts[start : start + 400])
        (folder / f"chain{start}.yaml").write_text(
            cases.HEADER + "rules:\n" + chunk, encoding="utf-8"
        )
    return tmp_path


@pytest.mark.parametrize("backwards", [False, True])
def test_a_long_chain_of_calls_is_a_located_error(
    tmp_path: Path, backwards: bool
) -> None:
    errors = cases.build_or_errors(_chain_folder(tmp_path, 2000, backwards=backwards))
    assert errors
    for error in errors:
        assert f"at most {MAX_CALL_CHAIN} in a chain (a limit of rulesc)" in error
        assert f"a chain of {MAX_CALL_CHAIN + 1} rules calling each other" in error
        assert "/lab/chain" in error


@pytest.mark.parametrize("backwards", [False, True])
def test_the_longest_chain_allowed_builds_with_room_on_the_stack(
    tmp_path: Path, backwards: bool
) -> None:
    """At the limit, the build needs well under Python's 1,000 frames."""
    folder = _chain_folder(tmp_path, MAX_CALL_CHAIN, backwards=backwards)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(500)
    try:
        assert cases.build_or_errors(folder, run_examples=True) == []
    finally:
        sys.setrecursionlimit(limit)


def test_one_huge_range_of_a_rolled_table_is_answered_at_once(tmp_path: Path) -> None:
    """A range as wide as the loader allows is checked on its ends (once, 9 GB)."""
    table = """\
- id: pick
  kind: table
  title: Pick
  summary: A rolled table.
  source: {section: X}
  function: pick
  key:
    param: what
    title: What
    enum: Pick
    members: [{name: LOW, label: Low}, {name: HIGH, label: High}]
  row: PickRow
  columns:
    - {name: roll, type: range, title: Roll}
  rows:
    - {key: Low, roll: [1, 3]}
    - {key: High, roll: [4, 999999999999999]}
  rolls: {dice: 1d6, column: roll, function: roll_pick}
"""
    cases.write(tmp_path, table)
    (error,) = cases.build_or_errors(tmp_path)
    assert error.endswith("'High' covers 7, which 1d6 cannot roll"), error


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    count=st.integers(1, 3),
    sides=st.integers(1, 8),
    bonus=st.integers(-3, 3),
    cells=st.lists(
        st.one_of(st.none(), st.tuples(st.integers(-2, 25), st.integers(0, 6))),
        max_size=6,
    ),
)
def test_cover_on_ends_says_what_value_by_value_said(
    count: int, sides: int, bonus: int, cells: list[tuple[int, int] | None]
) -> None:
    """The check on the ranges' ends reports exactly what checking every value did."""
    from types import SimpleNamespace

    from rulesc.front.semantics import SystemBuilder

    dice = Dice(count, sides, bonus)
    rows = [
        SimpleNamespace(
            cells=[None if c is None else (c[0], c[0] + c[1])],
            key=SimpleNamespace(label=f"r{n}"),
        )
        for n, c in enumerate(cells)
    ]
    found: list[tuple[Any, str]] = []
    builder = SimpleNamespace(
        err=lambda src, path, message, hint=None, key=False: found.append(
            (path[-1], message)
        )
    )
    SystemBuilder.check_roll_cover(builder, None, (), tuple(rows), 0, dice)  # type: ignore[arg-type]
    assert found == _value_by_value(rows, dice)


def _value_by_value(rows: list[Any], dice: Dice) -> list[tuple[Any, str]]:
    found: list[tuple[Any, str]] = []
    owner: dict[int, Any] = {}
    for position, row in enumerate(rows):
        cell = row.cells[0]
        if cell is None:
            continue
        values = range(cell[0], cell[1] + 1)
        outside = [v for v in values if not dice.min <= v <= dice.max]
        clash = next((v for v in values if v in owner), None)
        label = row.key.label
        if outside:
            found.append(
                (position, f"{label!r} covers {outside[0]}, which {dice} cannot roll")
            )
        if clash is not None:
            found.append(
                (
                    position,
                    f"{label!r} and {owner[clash].key.label!r} both cover {clash}",
                )
            )
        for v in values:
            owner.setdefault(v, row)
    missing = [v for v in range(dice.min, dice.max + 1) if v not in owner]
    if missing:
        found.append(
            ("rolls", f"no row covers {', '.join(map(str, missing[:8]))} of {dice}")
        )
    return found


def test_a_budget_counts_each_piece_once_per_file() -> None:
    budget = Budget(10)
    assert budget.spend("a", "x", 6) is None
    assert budget.spend("a", "x", 6) is None  # counted once
    assert budget.spend("a", "y", 5) == 11
    assert budget.spend("b", "y", 5) is None  # each file its own
    assert budget.first_refusal("a") and not budget.first_refusal("a")
    assert MAX_ROLLED_RESULTS >= 10_000


def test_the_errors_guide_states_each_limit_with_its_figure() -> None:
    from rulesc.common import limits

    guide = RULES.parent / "docsite" / "guides" / "errors.md"
    says_no = guide.read_text(encoding="utf-8")
    figures = {
        limits.MAX_FILE_DICE_WORK: "dice x sums",
        limits.MAX_ROLLED_RESULTS: "results",
        limits.MAX_CALL_CHAIN: "rules",
        limits.MAX_POOL_WORK: "at most",
        limits.MAX_POOL_CHARTS: "in all",
        limits.MAX_CHART_COLUMNS: "numbers",
        limits.most_pool_dice(10, 10): "d10s",
        limits.most_pool_dice(1000, 100): "d1000s",
    }
    text = " ".join(says_no.split())
    for figure, word in figures.items():
        assert f"{figure:,} {word}" in text or f"{word} {figure:,}" in text, figure
