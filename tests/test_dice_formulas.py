"""Dice as values of the expression language (tests/dice_formulas/): formulas that
roll in notation, built into Python and JavaScript, answer alike on seeded rngs
and as the dice core rolls the same notation; their worked examples, with
scripted dice, hold; their docs show the notation; bad notation is a located error."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesc.examples import run_example
from rulesc.lang import expr
from rulesc.pipeline import load_systems
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll

from .conftest import ROOT, run_rulesc
from .js_node import node_json
from .test_expr_math import one_text
from .test_js_cookbook import test_the_cookbook_types_pass_tsc_strict as tsc_strict

RULES = ROOT / "tests" / "dice_formulas"
SEEDS = range(40)


def _core(notation: str, seed: int) -> tuple[int, tuple[int, ...]]:
    rolled = roll(parse_notation(notation), random.Random(seed))
    assert isinstance(rolled.total, int)  # a sum of pools and whole numbers
    return rolled.total, rolled.results


def test_python_answers_as_the_dice_core_rolls(df: ModuleType) -> None:
    for seed in SEEDS:
        assert df.roll_ability(random.Random(seed)) == _core("4d6dl1", seed)[0]
        assert df.attack(3, random.Random(seed)) == _core("1d20", seed)[0] + 3
        for dice in (1, 4, 10):
            results = _core(f"{dice}d6", seed)[1]
            hits = sum(5 <= r <= 6 for r in results)
            assert df.hits(dice, random.Random(seed)) == hits
            assert df.hits_in_notation(dice, random.Random(seed)) == hits
        assert df.hits(0, random.Random(seed)) == 0  # no die: no randint call


def test_the_rolls_are_in_the_order_written(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    # 2d20kh1 (4, 17), then 2d6 (2, 5), then d(sides) (3), then dF (randint 3: +1)
    assert df.advantage(6, scripted([4, 17, 2, 5, 3, 3])) == 17 + 5 - 3 + 1


def test_the_ranges_come_from_the_notation() -> None:
    params = {"bonus": expr.Param("bonus", "int", -5, 20)}
    ranges = {
        "4d6dl1": (3, 18),
        "1d20 + bonus": (-4, 40),
        "6d6>=5": (0, 6),
        "dF": (-1, 1),
        "2d20kh1": (1, 20),
        "1d6!": (1, None),  # an explosion has no highest total
        "1d6!o": (1, 12),
        "d%": (1, 100),
    }
    for text, (lo, hi) in ranges.items():
        checked = expr.compile_formula(text, params)
        assert checked.interval == expr.Interval(lo, hi), text


def test_the_worked_examples_hold(df: ModuleType) -> None:
    (system,) = load_systems(RULES)
    ran = 0
    for rule in system.rules:
        for ex in rule.examples:
            assert run_example(df, rule, ex) is None, (rule.id, ex.name)
            ran += 1
    assert ran >= 6


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls = [
        ("rollAbility", "roll_ability", []),
        ("attack", "attack", [7]),
        ("hits", "hits", [6]),
        ("hits", "hits", [0]),
        ("hitsInNotation", "hits_in_notation", [6]),
        ("advantage", "advantage", [8]),
        # tests/dice_formulas/dice_formulas/odds.yaml: rolls in many shapes
        ("branch", "branch", []),
        ("either", "either", []),
        ("spread", "spread", [2]),
        ("poolRead", "pool_read", [3]),
        ("rolledCount", "rolled_count", []),
        ("sided", "sided", [5]),
        ("rerolled", "rerolled", [3]),
        ("halved", "halved", [-1]),
        ("keptSorted", "kept_sorted", []),
        ("member", "member", []),
        ("called", "called", []),
        ("exploding", "exploding", []),
        ("shortcuts", "shortcuts", [2]),
        ("openTotal", "open_total", [3, 2]),
        ("poolTwice", "pool_twice", [4]),
    ]
    javascript_answers_as_python(df, df_out, calls)


def javascript_answers_as_python(
    df: ModuleType, df_out: Path, calls: list[tuple[str, str, list[Any]]]
) -> None:
    """Each call (JavaScript name, Python name, arguments) answers the same JSON
    text from ``dumps`` in both languages, on each seed's rng."""
    dumps = importlib.import_module("rulebook.json").dumps
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ Random }} from "{(js / "random.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps([[f, args] for f, _, args in calls])};\n"
        f"const seeds = {json.dumps(list(SEEDS))};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) =>\n"
        "  seeds.map((s) => dumps(m[f](...args, new Random(s)))))));\n"
    )
    answers = node_json(script)
    for (_, py, args), got in zip(calls, answers, strict=True):
        want = [dumps(getattr(df, py)(*args, random.Random(s))) for s in SEEDS]
        assert got == want, py


def test_the_types_pass_tsc_strict(df_out: Path, tmp_path: Path) -> None:
    tsc_strict(df_out, tmp_path)  # the rng is typed `$dice.RNG`


def test_the_docs_show_the_notation(df_out: Path) -> None:
    def page(name: str) -> str:
        text = (df_out / "docs" / "dice_formulas" / f"{name}.md").read_text("utf-8")
        return one_text(text)

    assert r"\text{4d6}\text{ (drop the lowest)}" in page("roll_ability")
    assert "Call: `roll_ability(rng) -> int`." in page("roll_ability")
    assert (
        r"(\textit{dice})\text{d6}\text{ (count the dice showing 5 or more)}"
        in page("hits_in_notation")
    )
    assert r"\min(\text{the dice rolled: }\text{d}(\textit{sides}))" in page(
        "advantage"
    )
    assert "`hits(dice=4, rng=Scripted([5, 2, 6, 4]))` gives `2`" in page("hits")


def _write_rules(tmp_path: Path, expression: str) -> Path:
    folder = tmp_path / "rules" / "dice_formulas"
    folder.mkdir(parents=True)
    for name in ("system.yaml", "rolls.yaml"):
        text = (RULES / "dice_formulas" / name).read_text(encoding="utf-8")
        if name == "rolls.yaml":
            text = text.replace("expression: 1d20 + bonus", f"expression: {expression}")
        (folder / name).write_text(text, encoding="utf-8")
    return tmp_path / "rules"


def test_bad_notation_is_a_located_error(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path, "bonus + 1d20q")
    done = run_rulesc("check", "--rules", str(rules), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    # the 'q' is column 29: `    expression: ` is 16 wide, then `bonus + 1d20` (12)
    assert (
        "rolls.yaml:29:29: error: formula: bad dice notation '1d20q': unexpected 'q'"
        in (done.stderr)
    ), done.stderr
    assert "hint: after '1d20' a pool takes, each once" in done.stderr


def test_a_count_that_may_be_negative_is_refused(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path, "(bonus)d6")
    done = run_rulesc("check", "--rules", str(rules), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "rolls.yaml:29:18: error: formula: the dice count may be -5..20" in (
        done.stderr
    ), done.stderr


def test_explain_shows_each_roll() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.advantage", "sides=6",
        "--dice", "4,17,2,5,3,3", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [" ".join(line.split()) for line in done.stdout.splitlines()]
    assert "[1] 2d20kh1 → 17 (rolled 4, 17; kept 17)" in lines, done.stdout
    assert "[2] rolls(2d6) → [2, 5] (rolled 2, 5)" in lines, done.stdout
    assert "[5] rolls(d(sides)) → [3] (rolled 3)" in lines, done.stdout
    assert "[8] dF → 1 (rolled 1)" in lines, done.stdout
    assert lines[lines.index("Answer") + 1] == "20"


def test_a_decision_that_rolls_is_a_located_error(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path, "1d20 + bonus")
    extra = """
  - id: pick
    kind: decision
    title: Pick
    summary: Picks.
    source: {section: Test}
    function: pick
    parameters:
      - {name: bonus, type: int, min: 0, max: 5, description: A bonus.}
    value: {type: int, title: Value}
    cases:
      - when: d20 > bonus
        then: 1
      - when: "true"
        then: 0
"""
    path = rules / "dice_formulas" / "rolls.yaml"
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    done = run_rulesc("check", "--rules", str(rules), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "only a formula's expression or a let value rolls dice: 'd20'" in done.stderr
    assert done.stderr.count("error:") == 1, done.stderr
