"""A decision's odds options: the depth its explosions are followed to (an
expression of its parameters), its odds function's name, and the odds of a
pool's dice read only through one count (worked out as that count, so a pool
of many exploding dice is exact and quick). Checked against icepool."""

from __future__ import annotations

import importlib
import re
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest

from rulesc.examples import runtime_from
from rulesc.pipeline import build

from .js_node import node_json
from .test_process_and_state import _errors, _write

STORM = """\
- id: storm
  kind: decision
  title: Storm pool
  summary: Roll a pool of d10s; 9 or more rolls again, 7 or more succeeds.
  source: {section: Pools}
  function: storm
  parameters:
    - {name: dice, type: int, min: 0, max: 30, description: The dice.}
  let:
    - {name: pool, value: "rolls((dice)d10!>=9)", description: The dice rolled.}
  result: Storm
  fields:
    - {name: successes, title: Successes, type: int}
    - {name: rolls, title: Rolls, type: list, items: int, default: pool}
  odds: successes
  odds_function: storm_chances
  depth: dice + 5
  cases:
    - when: "true"
      then: {successes: "count(pool, 7, 10)"}
"""


def _then(inner: Any) -> Any:
    """A d10's hit (7+), and on 9+ the chain after it."""
    return lambda f: (1 if f >= 7 else 0) + (inner if f >= 9 else 0)


def _icepool_storm(dice: int, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """The count of 7+ among ``dice`` d10s each re-rolled on 9+, every count a
    die cut off at ``depth`` could reach unknown (as the odds list them)."""
    cut = 10**6
    chain = icepool.d10.map(lambda f: (1 if f >= 7 else 0) + (cut if f >= 9 else 0))
    for _ in range(depth):
        chain = icepool.d10.map(_then(chain))
    total = chain.pool(dice).sum() if dice else icepool.Die([0])
    denominator = total.denominator()
    known: dict[int, Fraction] = {}
    tail = Fraction(0)
    for outcome, quantity in total.items():
        share = Fraction(quantity, denominator)
        if outcome > depth:
            tail += share
        else:
            known[outcome] = share
    return known, tail


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return dict(build(_write(tmp_path_factory.mktemp("storm"), STORM)).files)


def test_the_odds_follow_the_depth_and_answer_every_count_exactly(
    outputs: dict[str, bytes],
) -> None:
    files = {k: v.decode() for k, v in outputs.items() if k.startswith("rulebook/")}
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        assert not hasattr(lab, "storm_odds")  # named as the rule says
        for dice in (0, 1, 3, 6):
            found = lab.storm_chances(dice)
            known, tail = _icepool_storm(dice, dice + 5)
            assert dict(found) == known and found.tail == tail, dice
            assert sum(found.values()) + found.tail == 1
        started = time.perf_counter()
        most = lab.storm_chances(30)  # thirty exploding dice, 35 deep
        assert time.perf_counter() - started < 2
        assert max(most) == 35 and 0 < most.tail < Fraction(1, 100)


def test_javascript_answers_the_same_odds(
    outputs: dict[str, bytes], tmp_path: Path
) -> None:
    for name, data in outputs.items():
        if name.startswith("js/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(data)
    said = node_json(
        f'import {{ stormChances }} from "{(tmp_path / "js" / "lab.js").as_uri()}";\n'
        "const shown = (o) => [[...o].map(([k, f]) => [k, `${f.numerator}/${f.denominator}`]),"
        " `${o.tail.numerator}/${o.tail.denominator}`];\n"
        "console.log(JSON.stringify([0, 3, 30].map((n) => shown(stormChances(n)))));\n"
    )
    files = {k: v.decode() for k, v in outputs.items() if k.startswith("rulebook/")}
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        for dice, (chances, tail) in zip((0, 3, 30), said, strict=True):
            found = lab.storm_chances(dice)
            assert [[k, Fraction(v)] for k, v in found.items()] == [
                [k, Fraction(v)] for k, v in chances
            ]
            assert found.tail == Fraction(tail)


def test_the_page_says_the_depth(outputs: dict[str, bytes]) -> None:
    page = outputs["docs/lab/storm.md"].decode()
    assert "`storm_chances(dice)`" in page
    assert r"It follows an explosion $\textit{dice} + 5$ dice deep" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("  depth: pool_size\n", "unknown name 'pool_size'"),
        ("  depth: dice > 2\n", "depth must be a whole number of the parameters alone"),
        ("  depth: count(pool, 9, 10)\n", "this reads pool"),
    ],
)
def test_a_bad_depth_is_located(tmp_path: Path, change: str, message: str) -> None:
    body = STORM.replace("  depth: dice + 5\n", change)
    found = _errors(tmp_path, body)
    assert any(message in line for line in found), found


def test_odds_options_need_odds(tmp_path: Path) -> None:
    body = STORM.replace("  odds: successes\n", "").replace(
        '  let:\n    - {name: pool, value: "rolls((dice)d10!>=9)", description: The dice rolled.}\n',
        "",
    )
    body = body.replace("default: pool}", "default: []}").replace(
        "count(pool, 7, 10)", "dice"
    )
    found = _errors(tmp_path, body)
    assert any(
        "this decision has no odds: 'odds_function' says nothing" in f for f in found
    )


def test_the_count_shortcut_keeps_other_reads_of_the_dice(tmp_path: Path) -> None:
    """Where the dice are read another way too (their highest), the odds
    follow the dice themselves: the same answers as the count alone (of
    fewer dice: the count and the length of 30 of them, each die with its
    explosions told apart, pass the runtime's limit of work, which the build
    says at the rule)."""
    body = STORM.replace('count(pool, 7, 10)"}', 'count(pool, 7, 10) + 0 * len(pool)"}')
    body = body.replace("min: 0, max: 30", "min: 0, max: 5")
    outputs = build(_write(tmp_path, body))
    files = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        for dice in (1, 2):
            known, _ = _icepool_storm(dice, dice + 5)
            found = lab.storm_chances(dice)
            # the dice listed: a count past the depth is known when no die was cut
            assert {k: v for k, v in found.items() if k <= dice + 5} == known


SIXES = """\
- id: sixes
  kind: decision
  title: Sixes
  summary: Roll two exploding six-sided dice and count the sixes.
  source: {section: Pools}
  function: sixes
  parameters: []
  let:
    - {name: dice, value: "rolls(2d6!)", description: The dice rolled.}
  value: {type: int, title: Sixes}
  depth: 3
  cases:
    - when: "true"
      then: "count(dice, 6)"
"""


def test_a_count_of_exploding_dice_counts_the_sixes_they_show(tmp_path: Path) -> None:
    """``count(rolls(2d6!), 6)``: each six rolls one more die, and is counted;
    the odds list the counts a die cut off at the depth could not reach."""
    outputs = build(_write(tmp_path, SIXES))
    files = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        found = lab.sixes_odds()
    cut = 10**6
    chain = icepool.d6.map(lambda f: (1 if f == 6 else 0) + (cut if f == 6 else 0))
    for _ in range(3):
        chain = icepool.d6.map(_sixes_then(chain))
    total = chain.pool(2).sum()
    known = {k: Fraction(q, total.denominator()) for k, q in total.items() if k <= 3}
    assert dict(found) == known
    assert found.tail == 1 - sum(known.values())


def _sixes_then(inner: Any) -> Any:
    return lambda f: (1 if f == 6 else 0) + (inner if f == 6 else 0)


def test_an_odds_chart_is_a_table_and_a_chart_per_value(tmp_path: Path) -> None:
    body = STORM + (
        "  odds_chart: {title: Successes by pool, over: dice, values: [1, 3], beat: [0, 2]}\n"
    )
    outputs = build(_write(tmp_path, body))
    page = outputs.files["docs/lab/storm.md"].decode()
    assert "Successes by pool (exact chances" in page
    assert "| *dice* | Mean | beat 0 | beat 1 | beat 2 |" in page
    for dice in (1, 2, 3):
        chart = f"docs/charts/odds-lab-storm-{dice}.svg"
        assert f"(../charts/odds-lab-storm-{dice}.svg)" in page
        svg = outputs.files[chart].decode()
        # In words: the parameter's title and the field's, the mean as the
        # table prints it.
        title = f'<title id="t">Chances of each number of successes, Dice {dice}<'
        assert title in svg
        mean = re.search(rf"\| {dice} \| ([0-9]+\.[0-9]{{2}}) \|", page)
        assert mean is not None
        assert f">Dice {dice}: on average {mean[1]} successes<" in svg


@pytest.mark.parametrize(
    ("chart", "message"),
    [
        ("{title: T, over: rolls, values: [1, 3]}", "'rolls' is not a parameter"),
        ("{title: T, over: dice, values: [3, 1]}", "values must be [low, high]"),
        ("{title: T, over: dice, values: [0, 31]}", "within dice's 0 to 30"),
        ("{title: T, over: dice, values: [1, 3], beat: [0, 99]}", "at most 50 columns"),
    ],
)
def test_a_bad_odds_chart_is_located(tmp_path: Path, chart: str, message: str) -> None:
    found = _errors(tmp_path, STORM + f"  odds_chart: {chart}\n")
    assert any(message in line for line in found), found


def test_at_least_reads_whole_number_answers(outputs: dict[str, bytes]) -> None:
    files = {k: v.decode() for k, v in outputs.items() if k.startswith("rulebook/")}
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        errors = importlib.import_module(f"{name}.errors")
        odds = importlib.import_module(f"{name}.odds")
        found = lab.storm_chances(3)
        assert found.at_least(0) == 1
        assert found.at_least(1) == 1 - found[0]
        assert found.at_least(99) == found.tail  # the tail counted as more
        with pytest.raises(errors.RuleInputError):
            found.at_least("1")
        labels = odds.Chances([("hit", Fraction(1, 2)), ("miss", Fraction(1, 2))])
        with pytest.raises(errors.RuleInputError, match="whole-number answers"):
            labels.at_least(1)
