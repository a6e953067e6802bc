"""Decisions that repeat a turn until an ending holds
(tests/dice_formulas/dice_formulas/repeats.yaml): the runtime takes the turns
with the caller's rng, in Python and JavaScript alike; the odds are the exact
absorbing chances, checked against chains solved here apart from the runtime
(a rule whose state moves up and down loops, and is exact all the same); the
page, rules.json and ``rulesc explain`` show the state, the turn and the
ending; an odds field that reads the turn count without max_turns (or a
depth) is a located error; with ``depth`` the odds follow the turns that deep
exactly, the runs still going the tail (D&D 4e's ongoing damage)."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import ROOT, run_rulesc
from .js_node import node_json
from .test_decision_rolls import _check  # pyright: ignore[reportPrivateUsage]
from .test_dice_formulas import javascript_answers_as_python

RULES = ROOT / "tests" / "dice_formulas"
D20 = range(1, 21)


@cache
def _stand(successes: int, failures: int) -> dict[str, Fraction]:
    """The chances of each ending of the last stand from a state, by
    recursion over the turn (it always moves: no loop)."""
    if successes >= 3:
        return {"holds": Fraction(1)}
    if failures >= 3:
        return {"falls": Fraction(1)}
    found: dict[str, Fraction] = {}
    for die in D20:
        if die == 20:
            after = {"up": Fraction(1)}
        elif die >= 10:
            after = _stand(successes + 1, failures)
        else:
            after = _stand(successes, min(failures + (2 if die == 1 else 1), 3))
        for key, p in after.items():
            found[key] = found.get(key, Fraction(0)) + p / 20
    return found


def _recovery_step(level: int) -> dict[int, Fraction]:
    """One check from ``level``: the chances of the next level, each face of
    the die worked out by hand."""
    found: dict[int, Fraction] = {}
    dc = 10 + level
    for die in D20:
        degree = 3 if die >= dc + 10 else 2 if die >= dc else 0 if die <= dc - 10 else 1
        degree = min(max(degree + (die == 20) - (die == 1), 0), 3)
        after = min(max(level + {3: -2, 2: -1, 1: 1, 0: 2}[degree], 0), 4)
        found[after] = found.get(after, Fraction(0)) + Fraction(1, 20)
    return found


def _recovered(start: int) -> Fraction:
    """The chance of reaching 0 before 4 from ``start``: x_l = sum_m P(l, m) x_m
    with x_0 = 1, x_4 = 0, solved by Gauss-Jordan on the dense 3 x 3 system."""
    levels = [1, 2, 3]
    rows: list[list[Fraction]] = []
    for level in levels:
        step = _recovery_step(level)
        row = [Fraction(int(level == m)) - step.get(m, Fraction(0)) for m in levels]
        rows.append([*row, step.get(0, Fraction(0))])
    for col in range(3):
        pivot = next(r for r in range(col, 3) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for r in range(3):
            if r != col and rows[r][col]:
                rows[r] = [
                    a - rows[r][col] * b
                    for a, b in zip(rows[r], rows[col], strict=True)
                ]
    return rows[levels.index(start)][3]


def test_the_last_stand_odds_are_the_chain_solved_apart(df: ModuleType) -> None:
    chances = df.last_stand_odds()
    assert {str(k): v for k, v in chances.items()} == _stand(0, 0)
    assert [str(k) for k in chances] == ["up", "holds", "falls"]  # the enum's order
    assert chances.tail == 0
    assert sum(chances.values()) == 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_state_that_loops_has_exact_odds(df: ModuleType, level: int) -> None:
    chances = df.recovering_odds(level)
    assert chances[True] == _recovered(level)
    assert chances[False] == 1 - _recovered(level)
    assert _recovery_step(2)[1] and _recovery_step(1)[2]  # 1 and 2 reach each other


def test_with_max_turns_the_odds_may_read_the_turns(df: ModuleType) -> None:
    chances = df.first_six_odds()
    sixth, other = Fraction(1, 6), Fraction(5, 6)
    expected = {k: other ** (k - 1) * sixth for k in range(1, 5)} | {5: other**4}
    assert dict(chances) == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 20), st.integers(-12, 12))
def test_with_depth_the_odds_follow_the_turns_that_deep(
    df: ModuleType, damage: int, bonus: int
) -> None:
    saves = sum(1 for d in D20 if d == 20 or (d != 1 and d + bonus >= 10))
    save = Fraction(saves, 20)
    fails = 1 - save
    chances = df.ongoing_odds(damage, bonus)
    rounds = {k: fails ** (k - 1) * save for k in range(1, 21)}
    assert dict(chances["rounds"]) == rounds
    assert dict(chances["total"]) == {k * damage: p for k, p in rounds.items()}
    assert chances["rounds"].tail == chances["total"].tail == fails**20


def test_depth_with_max_turns_is_a_located_error(tmp_path: Path) -> None:
    capped = _TURNS_READ.replace("until: found", "until: found\n      max_turns: 5")
    stderr = _check(tmp_path, capped + "    depth: 3\n")
    assert "error: max_turns already bounds the turns its odds follow" in stderr
    assert "hint: remove 'depth'" in stderr
    assert stderr.count("error:") == 1, stderr


def test_the_runtime_takes_the_turns_with_the_rng(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    stand = df.last_stand(scripted([12, 5, 15, 19]))
    assert (str(stand.outcome), stand.turns) == ("holds", 4)
    assert str(df.last_stand(scripted([1, 3])).outcome) == "falls"
    assert str(df.last_stand(scripted([20])).outcome) == "up"
    # a failure past three is kept at three (clamped), still falls
    assert df.last_stand(scripted([5, 5, 1])).turns == 3
    checks = df.recovering(1, scripted([5, 12, 20]))
    assert (checks.recovered, checks.checks) == (True, 3)
    assert df.recovering(3, scripted([1])).recovered is False  # 3 + 2 kept at 4
    assert df.first_six(scripted([1, 2, 3, 4, 5])) == 5  # stops at max_turns
    assert df.first_six(scripted([6])) == 1
    errors = importlib.import_module("rulebook.errors")
    with pytest.raises(errors.RuleInputError):
        df.recovering(4, scripted([1]))
    with pytest.raises(errors.RuleInputError):
        df.recovering_odds(0)


def test_a_run_past_the_runtimes_limit_is_refused(df: ModuleType) -> None:
    chain = importlib.import_module("rulebook._chain")
    errors = importlib.import_module("rulebook.errors")
    assert chain.next_turn(0) == 1
    limit = importlib.import_module("rulebook._support").MAX_ENTRIES
    with pytest.raises(errors.RuleInputError, match="more than 100,000 turns"):
        chain.next_turn(limit)


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    javascript_answers_as_python(
        df,
        df_out,
        [
            ("lastStand", "last_stand", []),
            ("recovering", "recovering", [2]),
            ("firstSix", "first_six", []),
        ],
    )
    dumps = importlib.import_module("rulebook.json").dumps
    js = df_out / "js"
    calls: list[tuple[str, list[int]]] = [
        ("lastStandOdds", []),
        ("recoveringOdds", [1]),
    ]
    calls += [("recoveringOdds", [3]), ("firstSixOdds", [])]
    calls += [("ongoingOdds", [7, -3]), ("ongoingOdds", [1, 12])]
    found = node_json(
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, a]) => dumps(m[f](...a)))));\n"
    )
    want = [
        dumps(df.last_stand_odds()),
        dumps(df.recovering_odds(1)),
        dumps(df.recovering_odds(3)),
        dumps(df.first_six_odds()),
        dumps(df.ongoing_odds(7, -3)),
        dumps(df.ongoing_odds(1, 12)),
    ]
    assert found == want


def test_the_page_says_the_state_the_turn_and_the_ending(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "last_stand.md").read_text("utf-8")
    start = page.index("The state, carried from turn to turn, starts as:")
    stop = page.index("The turns stop when")
    turn = page.index("Each turn, first, in order")
    sets = page.index("Then the turn sets, all at once from the values before it")
    cases = page.index("When the turns stop, the cases read the parameters")
    assert start < stop < turn < sets < cases
    assert "*successes* (int, kept within 0 to 3)" in page
    assert "checked before each turn, the first included" in page
    assert "| up | 1451/8000 |" in page  # the odds, worked out at the build
    six = (df_out / "docs" / "dice_formulas" / "first_six.md").read_text("utf-8")
    assert "or after 5 turns, whichever comes first" in six


def test_rules_json_holds_the_state_and_the_turn(df_out: Path) -> None:
    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in data["systems"][0]["rules"]}
    repeat = rules["last_stand"]["repeat"]
    assert [(v["name"], v["min"], v["max"]) for v in repeat["state"]] == [
        ("successes", 0, 3),
        ("failures", 0, 3),
        ("up", None, None),
    ]
    assert repeat["state"][2]["start"]["source"] == "false"
    assert [b["name"] for b in repeat["let"]] == ["die"]
    assert [s["name"] for s in repeat["set"]] == ["up", "successes", "failures"]
    assert repeat["until"]["source"] == "up or successes >= 3 or failures >= 3"
    assert repeat["max_turns"] is None
    assert rules["first_six"]["repeat"]["max_turns"] == 5
    assert rules["saved"]["repeat"] is None and "state" not in rules["saved"]


def test_explain_traces_each_turn() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.recovering",
        "level=1", "--dice", "5,12,20", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    steps = text.split("Steps, in order\n")[1].split("\n\n")[0]
    assert steps.startswith(
        "  start: now 1\n  turn 1:\n    die = d20 = 5   (rolled 5)\n"
    )
    assert "    then now 2\n  turn 2:" in steps
    assert (
        "  the turns end after 3: now <= 0 or now >= 4\n  if now <= 0: yes\n" in steps
    )
    assert "Checks (checks)         3\n" in text  # the turns taken
    assert "WARNING" not in text


_TURNS_READ = """
  - id: counted
    kind: decision
    title: Counted
    summary: The turns until a six, with no bound on them.
    source: {section: Test}
    function: counted
    parameters: []
    repeat:
      state:
        - {name: found, type: bool, value: false}
      let:
        - {name: die, value: 1d6}
      set:
        - {name: found, value: die == 6}
      until: found
    value: {type: int, title: Turns}
    cases:
      - when: "true"
        then: turns
"""


def test_odds_of_the_turn_count_without_max_turns_are_a_located_error(
    tmp_path: Path,
) -> None:
    stderr = _check(tmp_path, _TURNS_READ)
    lines = len(
        (RULES / "dice_formulas" / "decisions.yaml").read_text("utf-8").splitlines()
    )
    assert (
        f"decisions.yaml:{lines + 10}:7: error: the odds of 'value' read 'turns', "
        "which has no end without max_turns" in stderr
    ), stderr
    assert "give repeat a max_turns" in stderr
    assert stderr.count("error:") == 1, stderr


def test_a_state_value_set_twice_and_a_refusing_case_are_located_errors(
    tmp_path: Path,
) -> None:
    rule = _TURNS_READ.replace(
        "        - {name: found, value: die == 6}\n",
        "        - {name: found, value: die == 6}\n        - {name: found, value: die == 5}\n",
    ).replace("        then: turns\n", "        refuse: never\n")
    stderr = _check(tmp_path, rule)
    assert "error: 'found' is set twice in a turn" in stderr, stderr
    assert (
        "error: a repeating decision answers every call: its cases cannot refuse"
        in stderr
    )
