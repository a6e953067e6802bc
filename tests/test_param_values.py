"""An int parameter that is one of listed values (``values: [4, 6, 8, 10, 12]``,
tests/dice_formulas' ``open_sided``): any other whole number is refused with
the other arguments, before a die is rolled, by the function and its odds
function, in Python and JavaScript alike; its page, rules.json, its try-it
form and its TypeScript type say the values."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .js_node import node_json

VALUES = (4, 6, 8, 10, 12)
TRIED = range(-2, 16)


def _answer(df: ModuleType, sides: int) -> str:
    """What ``open_sided(1, sides)`` says with a script of no dice: a refusal
    of the argument, or that it went on to roll (the script ran out)."""
    errors = importlib.import_module("rulebook.errors")
    scripted = importlib.import_module("rulebook.dice").Scripted
    try:
        df.open_sided(1, sides, scripted([]))
    except errors.RuleInputError as error:
        return str(error)
    raise AssertionError("a roll with no dice scripted")


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 20))
def test_a_value_not_listed_is_refused_before_any_roll(
    df: ModuleType, sides: int
) -> None:
    errors = importlib.import_module("rulebook.errors")
    said = _answer(df, sides)
    if sides in VALUES:
        assert "the dice script ran out" in said
        assert df.open_sided_odds(1, sides)  # answered
        return
    if 4 <= sides <= 12:
        assert said == f"sides must be one of 4, 6, 8, 10, 12, not {sides}"
    else:
        assert said == f"sides must be in 4..12, not {sides}"
    with pytest.raises(errors.RuleInputError, match=said.replace(".", r"\.")):
        df.open_sided_odds(1, sides)


def test_javascript_refuses_as_python(df: ModuleType, df_out: Path) -> None:
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ Scripted }} from "{(js / "dice.js").as_uri()}";\n'
        f"const tried = {json.dumps(list(TRIED))};\n"
        "const said = (f) => { try { f(); return null; } catch (e) { return e.message; } };\n"
        "console.log(JSON.stringify(tried.map((s) => [\n"
        "  said(() => m.openSided(1, s, new Scripted([]))),\n"
        "  said(() => m.openSidedOdds(1, s))])));\n"
    )
    answers = node_json(script)
    for sides, (rolled, odds) in zip(TRIED, answers, strict=True):
        assert rolled == _answer(df, sides), sides
        assert odds == (None if sides in VALUES else rolled), sides


def test_the_page_the_types_and_rules_json_say_the_values(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "open_sided.md").read_text("utf-8")
    assert "- *sides*: The sides of each die. One of 4, 6, 8, 10, 12." in page
    assert "| `sides` | `int` | one of 4, 6, 8, 10, 12 |" in page
    assert '"one_of":[4,6,8,10,12]' in page  # the try-it form's choices
    types = (df_out / "js" / "dice_formulas.d.ts").read_text("utf-8")
    assert "openSided(dice: number, sides: 4 | 6 | 8 | 10 | 12, rng" in types
    rules = json.loads((df_out / "rules.json").read_text("utf-8"))
    (system,) = rules["systems"]
    rule = next(r for r in system["rules"] if r["id"] == "open_sided")
    sides = next(p for p in rule["params"] if p["name"] == "sides")
    assert sides["values"] == list(VALUES)
    assert (sides["min"], sides["max"]) == (4, 12)
