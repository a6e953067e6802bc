"""Guards among a decision's names (tests/dice_formulas' ``guarded_pool``): a
refusal is tried where it stands, before any die is rolled, by the function
and its odds function, in Python and JavaScript alike; an early answer ends
the call before the dice of the names after it are rolled, and its odds are
the chances of the rolls that reach it (tests/test_decision_rolls.py checks
them against every roll enumerated); the page, rules.json and ``rulesc
explain`` show the guards where they stand."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction
from pathlib import Path
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import ROOT, run_rulesc
from .js_node import node_json

REFUSAL = "A pool's dice have 4, 6, 8, 10 or 12 sides."
SIDES = (4, 6, 8, 10, 12)
CALLS = [(d, s, t) for d in (1, 3) for s in range(2, 13) for t in (2, 7)]


class _Counted:
    """An rng that answers 1 for every die, counting them."""

    def __init__(self) -> None:
        self.rolled = 0

    def randint(self, low: int, high: int) -> int:
        self.rolled += 1
        return low


def _call(df: ModuleType, args: tuple[int, ...]) -> tuple[str, int]:
    """What ``guarded_pool`` answers (its outcome, or its refusal) with every
    die showing 1, and how many dice it rolled."""
    errors = importlib.import_module("rulebook.errors")
    rng = _Counted()
    try:
        return str(df.guarded_pool(*args, rng).outcome), rng.rolled
    except errors.RuleInputError as error:
        return str(error), rng.rolled


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(2, 12), st.integers(2, 12))
def test_a_refusal_comes_before_any_die_and_a_slip_before_the_rest(
    df: ModuleType, dice: int, sides: int, target: int
) -> None:
    errors = importlib.import_module("rulebook.errors")
    said, rolled = _call(df, (dice, sides, target))
    if sides not in SIDES:
        assert (said, rolled) == (REFUSAL, 0)
        try:
            df.guarded_pool_odds(dice, sides, target)
        except errors.RuleInputError as error:
            assert str(error) == REFUSAL
        else:
            raise AssertionError("the odds function answered a refused call")
        return
    assert (said, rolled) == ("slip", 1)  # the first die is 1: no other rolled
    chances = df.guarded_pool_odds(dice, sides, target)
    assert chances[df.GuardedOutcome.SLIP] == Fraction(1, sides)


def test_javascript_refuses_and_answers_as_python(df: ModuleType, df_out: Path) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps(CALLS)};\n"
        "const ones = () => { const rng = { rolled: 0, randint(a) { rng.rolled += 1; return a; } }; return rng; };\n"
        "const said = (f) => { try { return f(); } catch (e) { return e.message; } };\n"
        "console.log(JSON.stringify(calls.map((args) => {\n"
        "  const rng = ones();\n"
        "  return [said(() => String(m.guardedPool(...args, rng).outcome)), rng.rolled,\n"
        "    said(() => dumps(m.guardedPoolOdds(...args)))];\n"
        "})));\n"
    )
    answers = node_json(script)
    errors = importlib.import_module("rulebook.errors")
    for args, (outcome, rolled, odds) in zip(CALLS, answers, strict=True):
        assert (outcome, rolled) == _call(df, args), args
        try:
            want = dumps(df.guarded_pool_odds(*args))
        except errors.RuleInputError as error:
            want = str(error)
        assert odds == want, args


def test_the_page_rules_json_and_explain_show_the_guards(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "guarded_pool.md").read_text("utf-8")
    refused = f"If *sides* is none of 4, 6, 8, 10 or 12, the call is refused: {REFUSAL}"
    slip = "If *first* is 1, the answer is Outcome slip, Best die 1, and no name after is worked out."
    assert page.index(refused) < page.index(r"\textit{first} =") < page.index(slip)
    assert page.index(slip) < page.index(r"\textit{others} =")
    rules = json.loads((df_out / "rules.json").read_text("utf-8"))
    (system,) = rules["systems"]
    rule = next(r for r in system["rules"] if r["id"] == "guarded_pool")
    assert [(g["before"], g["refuse"]) for g in rule["guards"]] == [
        (0, REFUSAL),
        (1, None),
    ]
    assert rule["guards"][1]["then"]["outcome"]["value"] == "slip"
    done = run_rulesc(
        "explain", "--rules", str(ROOT / "tests" / "dice_formulas"),
        "dice_formulas.guarded_pool", "dice=3", "sides=6", "target=5", "--dice", "1",
        cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = [" ".join(line.split()) for line in done.stdout.splitlines()]
    start = steps.index("Steps, in order")
    assert steps[start + 1 : start + 5] == [
        "if sides not in [4, 6, 8, 10, 12]: no",
        "first = d(sides) = 1 (rolled 1)",
        "if first == 1: yes",
        'answer outcome "slip", best 1',
    ]
