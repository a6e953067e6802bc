"""A repeating decision's state may hold a list (``to_six`` and ``three_d4`` in
tests/dice_formulas/dice_formulas/repeats.yaml): it starts as ``[]`` and the
turn joins each die to it; Python holds it as a tuple and JavaScript as a
frozen array, the record's list field as both already do. The proof of the
ending and the odds follow only the state the ending (and the odds) read: a
list neither reads, or a number neither reads, has no part in them, and the
odds are those of the chain without it; a list they read needs max_turns
(tests/invalid/repeat_list_ending.yaml, repeat_odds_list.yaml), and with it
each list is a state of the chain. The page, rules.json and ``rulesc
explain`` show the list."""

from __future__ import annotations

import importlib
import itertools
import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import ModuleType

from .conftest import ROOT, run_rulesc
from .js_node import node_json

RULES = ROOT / "tests" / "dice_formulas"
D6 = range(1, 7)


@cache
def _last_is_six(total: int) -> Fraction:
    """The chance the die that takes the total to 6 or more is a six, from
    ``total``, by recursion over the turn (the total only grows)."""
    if total >= 6:
        raise AssertionError(total)
    found = Fraction(0)
    for die in D6:
        if total + die >= 6:
            found += Fraction(int(die == 6), 6)
        else:
            found += _last_is_six(total + die) / 6
    return found


def test_the_runtime_answers_the_dice_in_rolling_order(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    answer = df.to_six(scripted([2, 1, 4]))
    assert (answer.dice, answer.count_, answer.pips, answer.six) == (
        (2, 1, 4),
        3,
        7,
        False,
    )
    assert type(answer.dice) is tuple
    long = df.to_six(scripted([1, 1, 1, 1, 1, 6]))
    assert (long.dice, long.pips, long.six) == ((1, 1, 1, 1, 1, 6), 11, True)
    assert df.three_d4(scripted([1, 4, 2])) == 7
    dumps = importlib.import_module("rulebook.json").dumps
    assert json.loads(dumps(answer)) == {
        "six": False,
        "dice": [2, 1, 4],
        "count": 3,
        "pips": 7,
    }


def test_odds_follow_only_the_state_the_ending_and_the_odds_read(
    df: ModuleType,
) -> None:
    chances = df.to_six_odds()
    assert dict(chances) == {True: _last_is_six(0), False: 1 - _last_is_six(0)}
    assert chances[True] == Fraction(7**5, 6**6)


def test_a_list_the_ending_reads_is_followed_up_to_max_turns(df: ModuleType) -> None:
    found: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, 5), repeat=3):
        found[sum(dice)] = found.get(sum(dice), Fraction(0)) + Fraction(1, 64)
    chances = df.three_d4_odds()
    assert dict(chances) == found and chances.tail == 0


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    scripted = importlib.import_module("rulebook.dice").Scripted
    js = df_out / "js"
    found = node_json(
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ Scripted }} from "{(js / "dice.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        "const six = m.toSix(new Scripted([1, 1, 1, 1, 1, 6]));\n"
        "console.log(JSON.stringify([dumps(six), Object.isFrozen(six.dice),\n"
        "  dumps(m.toSixOdds()), dumps(m.threeD4Odds()),\n"
        "  dumps(m.threeD4(new Scripted([1, 4, 2])))]));\n"
    )
    assert found == [
        dumps(df.to_six(scripted([1, 1, 1, 1, 1, 6]))),
        True,
        dumps(df.to_six_odds()),
        dumps(df.three_d4_odds()),
        dumps(df.three_d4(scripted([1, 4, 2]))),
    ]


def test_the_types_hold_the_list_as_the_record_fields_do(df_out: Path) -> None:
    python = (df_out / "rulebook" / "dice_formulas.py").read_text("utf-8")
    assert "    dice: tuple[int, ...] = ()\n" in python
    assert "tuple([*dice, die])" in python
    assert "def _three_d4(dice: tuple[int, ...], turns: int) -> int:" in python
    typescript = (df_out / "js" / "dice_formulas.d.ts").read_text("utf-8")
    assert "  readonly dice: readonly number[];\n" in typescript


def test_the_page_and_rules_json_show_the_list(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "to_six.md").read_text("utf-8")
    assert "- *dice* (list of int): The dice rolled so far." in page
    assert "*pips* (int, kept within 0 to 36)" in page
    assert "(the rules are proved to end:" in page
    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in data["systems"][0]["rules"]}
    state = {v["name"]: v for v in rules["to_six"]["repeat"]["state"]}
    assert (state["dice"]["type"], state["dice"]["items"]) == ("list", "int")
    assert state["dice"]["start"]["source"] == "[]"
    assert state["total"]["items"] is None
    sets = {s["name"]: s["value"]["source"] for s in rules["to_six"]["repeat"]["set"]}
    assert sets["dice"] == "dice + [die]"


def test_explain_shows_the_list_turn_by_turn() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.to_six",
        "--dice", "2,1,4", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "  start: total 0, last 0, dice [], pips 0\n" in text
    assert "    then total 3, last 1, dice [2, 1], pips 3\n" in text
    assert "Dice (dice)" in text and "2, 1, 4" in text
    assert "WARNING" not in text
