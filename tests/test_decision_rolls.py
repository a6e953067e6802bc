"""Decisions that roll (tests/dice_formulas/dice_formulas/decisions.yaml): their
dice in ``let``, read by their cases; the function takes the rng, Python and
JavaScript answer alike, and the odds function of the value, or of the field
``odds`` names, is every roll enumerated through the decision itself; the page,
rules.json and ``rulesc explain`` show the names; dice in a case and odds of an
unknown field are located errors."""

from __future__ import annotations

import importlib
import inspect
import json
import random
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .conftest import ROOT, enumerated_odds, run_rulesc
from .test_dice_formulas import javascript_answers_as_python
from .test_expr_math import one_text

RULES = ROOT / "tests" / "dice_formulas"
# Each rolling decision, the part of its answer its odds are of, and the
# arguments to enumerate it at (every roll is run).
ENUMERATED: dict[str, tuple[str | None, list[tuple[int, ...]]]] = {
    "action_roll": ("outcome", [(0,), (1,), (2,), (4,)]),
    "percentile_test": ("sl", [(1,), (45,), (99,)]),
    "saved": (None, [(0, 5), (3, 15), (10, 30), (-5, 30)]),
    "six_again": ("total", [(0,), (3,)]),
    "guarded_pool": ("outcome", [(1, 4, 3), (2, 6, 5), (3, 4, 4)]),
}


def _read(function: Callable[..., Any], field: str | None) -> Callable[..., Any]:
    """The decision answering only the part its odds are of (a label as its
    text: a member of an unordered enum does not sort, its text does)."""

    def read(*args: Any) -> Any:
        answer = function(*args)
        value = answer if field is None else getattr(answer, field)
        return str(value) if isinstance(value, Enum) else value

    return read


@pytest.mark.parametrize(
    ("name", "args"),
    [(name, args) for name, (_, cases) in ENUMERATED.items() for args in cases],
)
def test_odds_are_every_roll_enumerated(
    df: ModuleType, name: str, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    field = ENUMERATED[name][0]
    expected = enumerated_odds(
        _read(getattr(df, name), field), args, errors.RuleInputError
    )
    chances = getattr(df, f"{name}_odds")(*args)
    assert dict(chances) == expected
    assert chances.tail == 0
    assert sum(chances.values()) == 1


def test_labels_are_in_their_enum_order_not_alphabetical(df: ModuleType) -> None:
    chances = df.action_roll_odds(3)
    assert [str(k) for k in chances] == ["failure", "partial", "success", "critical"]
    assert (
        chances[df.ActionOutcome.CRITICAL]
        == 1 - Fraction(5, 6) ** 3 - 3 * Fraction(1, 6) * Fraction(5, 6) ** 2
    )
    # no dice: the lowest of two, never a critical
    assert df.ActionOutcome.CRITICAL not in df.action_roll_odds(0)
    assert list(df.saved_odds(0, 11)) == [False, True]
    assert list(df.percentile_test_odds(45)) == sorted(df.percentile_test_odds(45))


def test_only_decisions_that_roll_and_answer_one_value_or_name_a_field_have_odds(
    df: ModuleType,
) -> None:
    rolling = {n[: -len("_odds")] for n in dir(df) if n.endswith("_odds")}
    assert set(ENUMERATED) <= rolling
    odds = inspect.signature(df.saved_odds)
    assert list(odds.parameters) == ["bonus", "dc"]  # the same, less the rng
    assert list(inspect.signature(df.saved).parameters) == ["bonus", "dc", "rng"]


def test_the_answers_read_the_dice_rolled_once(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    assert df.action_roll(3, scripted([6, 2, 6])).outcome == "critical"
    assert df.action_roll(3, scripted([1, 6, 3])).outcome == "success"
    assert df.action_roll(2, scripted([5, 1])).outcome == "partial"
    assert df.action_roll(0, scripted([6, 6])).outcome == "success"  # no critical
    assert df.action_roll(0, scripted([6, 3])).die == 3  # the lowest
    one = df.percentile_test(45, scripted([100]))
    assert (one.roll, one.success, one.sl) == (100, False, -6)
    assert df.percentile_test(1, scripted([5])).success  # 5 or under succeeds
    assert df.saved(10, 5, scripted([1])) is False
    assert df.saved(-5, 30, scripted([20])) is True
    assert df.saved(2, 12, scripted([10])) is True
    errors = importlib.import_module("rulebook.errors")
    with pytest.raises(errors.RuleInputError):
        df.action_roll(7, random.Random(0))
    with pytest.raises(errors.RuleInputError):
        df.action_roll_odds(-1)
    with pytest.raises(errors.RuleInputError, match="rng must have a randint"):
        df.action_roll(2, None)  # the rng is checked


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls: list[tuple[str, str, list[Any]]] = [
        ("actionRoll", "action_roll", [0]),
        ("actionRoll", "action_roll", [5]),
        ("percentileTest", "percentile_test", [45]),
        ("guardedPool", "guarded_pool", [3, 6, 4]),
        ("saved", "saved", [2, 12]),
        ("actionRoll", "action_roll", [4]),  # a list field: the dice rolled
        ("sixAgain", "six_again", [2]),
    ]
    javascript_answers_as_python(df, df_out, calls)
    types = (df_out / "js" / "dice_formulas.d.ts").read_text(encoding="utf-8")
    assert (
        "export declare function actionRoll(dice: number, rng: $dice.RNG): ActionRoll;"
        in types
    )


def test_the_page_lists_the_names_then_the_cases(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "action_roll.md").read_text("utf-8")
    page = one_text(page)
    first = page.index("First, in order")
    pool = page.index(
        r"\textit{pool} = \text{the dice rolled: }(\textit{dice})\text{d6}"
    )
    then = page.index("Then the first row whose condition holds gives the answer:")
    assert first < pool < then
    assert "The pool's dice." in page
    assert "Call: `action_roll(dice: int, rng: RNG) -> ActionRoll`." in page
    assert "`action_roll_odds(dice)` answers these odds" in page


def test_rules_json_holds_the_names_and_the_odds_field(df_out: Path) -> None:
    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    (system,) = data["systems"]
    rules = {r["id"]: r for r in system["rules"]}
    action = rules["action_roll"]
    assert [(b["name"], b["value"]["source"]) for b in action["let"]] == [
        ("pool", "rolls((dice)d6)"),
        ("low", "rolls((2 if dice == 0 else 0)d6)"),
    ]
    assert action["odds"] == "outcome"
    assert rules["saved"]["odds"] == "value"


def test_explain_binds_the_names_then_tries_the_cases() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.action_roll",
        "dice=3", "--dice", "6,2,6", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    steps = text.split("Steps, in order\n")[1].split("\n\n")[0].splitlines()
    # the names first, in order, with the dice each rolled; then the cases
    assert steps[:2] == [
        "  pool = rolls((dice)d6) = [6, 2, 6]   (rolled 6, 2, 6)",
        "  low = rolls((2 if dice == 0 else 0)d6) = []   (no dice)",
    ]
    assert [line.split(": ")[-1] for line in steps[2:6]] == ["no", "no", "no", "yes"]
    assert steps[5] == "  if count(pool, 6) >= 2: yes"
    assert steps[6] == '    answer outcome "critical", die 6, rolls [6, 2, 6]'
    assert steps[7] == "      rolls = pool + low = [6, 2, 6]"  # a list field
    assert "Outcome (outcome)     critical" in text
    assert "Dice rolled (rolls)   6, 2, 6\n" in text
    assert "WARNING" not in text


def test_explain_ends_with_the_exact_odds_of_the_inputs() -> None:
    """After the answer, the odds function's chances for the same inputs: a
    bar for each label in its set's order, and each exact chance."""
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.action_roll",
        "dice=0", "--dice", "6,6", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Exact odds of outcome\n")[1].split("\n\n")[0]
    labels = [line.split()[0] for line in section.splitlines()]
    assert labels == ["failure", "partial", "success"]  # no critical with no dice
    # two dice, the lowest read: a success only on two sixes
    assert section.splitlines()[2].endswith("1/36")
    assert "tail" not in section


def test_explain_of_a_pool_shows_every_count_listed_and_the_tail() -> None:
    done = run_rulesc(
        "explain", "edge_of_darkness.dice_pool", "dice=1", "--dice", "9", cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Exact odds of successes\n")[1].split("\n\n")[0]
    lines = section.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [str(n) for n in range(12)]
    assert lines[0].endswith("7/10") and lines[1].endswith("27/100")
    assert lines[-1].startswith("  unknown past the depth (the tail):")


def _check(tmp_path: Path, rule: str) -> str:
    """``rulesc check`` of the dice formulas with ``rule`` added; its stderr."""
    rules = tmp_path / "rules"
    folder = rules / "dice_formulas"
    folder.mkdir(parents=True)
    for path in (RULES / "dice_formulas").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        if path.name == "decisions.yaml":
            text += rule
        (folder / path.name).write_text(text, encoding="utf-8")
    done = run_rulesc("check", "--rules", str(rules), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    return done.stderr


_LINES = len(
    (RULES / "dice_formulas" / "decisions.yaml").read_text("utf-8").splitlines()
)
_BAD = """
  - id: bad
    kind: decision
    title: Bad
    summary: Wrong.
    source: {section: Test}
    function: bad
    parameters: []
    let:
      - {name: die, value: 1d6}
    result: Bad
    fields:
      - {name: high, title: High, type: bool}
    odds: ODDS
    cases:
      - when: WHEN
        then: {high: true}
      - when: "true"
        then: {high: false}
"""


def test_dice_in_a_case_are_a_located_error(tmp_path: Path) -> None:
    stderr = _check(tmp_path, _BAD.replace("ODDS", "high").replace("WHEN", "1d6 > 3"))
    # the case: the rule's 16th line after decisions.yaml's own
    assert (
        f"decisions.yaml:{_LINES + 16}:15: error: expression: only a formula's "
        "expression or a let value rolls dice: '1d6'" in stderr
    ), stderr
    assert "bind the roll to a name with let" in stderr
    assert stderr.count("error:") == 1, stderr


def test_odds_of_an_unknown_field_are_a_located_error(tmp_path: Path) -> None:
    stderr = _check(tmp_path, _BAD.replace("ODDS", "low").replace("WHEN", "die > 3"))
    assert f"decisions.yaml:{_LINES + 14}:11: error: no field 'low'" in stderr, stderr
    assert "fields: high" in stderr
    assert stderr.count("error:") == 1, stderr


def test_calling_a_rule_that_rolls_in_a_case_is_a_located_error(
    tmp_path: Path,
) -> None:
    when = "saved(0, 10)"  # a decision that rolls, called where no dice may be
    stderr = _check(tmp_path, _BAD.replace("ODDS", "high").replace("WHEN", when))
    assert (
        f"decisions.yaml:{_LINES + 16}:15: error: expression: only a formula's "
        "expression or a let value rolls dice: 'saved(0, 10)' (saved() rolls dice)"
        in stderr
    ), stderr
    assert "bind the roll to a name with let" in stderr
    assert stderr.count("error:") == 1, stderr


def test_names_that_roll_no_dice_take_no_rng(df: ModuleType) -> None:
    assert list(inspect.signature(df.band).parameters) == ["score"]
    assert [df.band(s) for s in (0, 9, 10, 11, 12, 20)] == [-1, -1, 0, 0, 1, 1]
    assert not hasattr(df, "band_odds")
    # with no odds to follow the names into, the cases read them in place
    assert not hasattr(df, "_band")


def test_a_unique_decision_is_proved_over_its_names(tmp_path: Path) -> None:
    overlap = """
  - id: overlap
    kind: decision
    title: Overlap
    summary: Two cases match a modifier of 0.
    source: {section: Test}
    function: overlap
    parameters:
      - {name: score, type: int, min: 0, max: 20, description: The score.}
    let:
      - {name: modifier, value: score // 2 - 5}
    value: {type: int, title: Band}
    hit_policy: unique
    cases:
      - when: modifier <= 0
        then: -1
      - when: modifier >= 0
        then: 1
"""
    stderr = _check(tmp_path, overlap)
    assert "error: cases 1 and 2 both match score=10" in stderr, stderr
    assert stderr.count("error:") == 1, stderr
