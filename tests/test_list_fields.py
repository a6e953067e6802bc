"""Lists joined with ``+`` and a decision's list fields (issue 26 item 6): the
join runs in order in Python and in the reference evaluator, and reads in the
docs and rules.json; ``action_roll`` and ``six_again``
(tests/dice_formulas/dice_formulas/decisions.yaml) answer the dice rolled as a
tuple in Python and a frozen array in JavaScript, the same JSON text from
``dumps``; the page, the ``.d.ts`` and rules.json show the field. The located
errors are in tests/invalid/list_field_value.yaml and list_concat_types.yaml and
in tests/test_expr_lists.py."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.core.trees import to_tree
from rulesc.emit.markdown.words import value_words
from rulesc.lang.expr import (
    Interval,
    to_source,
)
from rulesc.workbench.math import to_math

from .js_node import node_json
from .test_expr_lists import ENV, check, run


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[x] + [y, 3]", [-4, 2, 3]),
        ("[1] + [x] + [y]", [1, -4, 2]),
        ("len([x] + [y] + [1, 2])", 4),
        ("sum([x, y] + [10])", 8),
        ("max([x] + [y])", 2),
        ("y in [x] + [2]", True),
        ("[flag] + [not flag]", [True, False]),
        ('["a"] + [text(size)]', ["a", "Large"]),
        ("[size] + [other]", ["Large", "Small"]),
    ],
)
def test_lists_join_in_order(text: str, expected: Any) -> None:
    assert run(text, ENV) == expected


def test_a_join_has_the_hull_of_the_ranges_and_the_sum_of_the_lengths() -> None:
    joined = check("[x] + [y, 3]")
    assert (joined.type, joined.item) == ("list", "int")
    assert joined.interval == Interval(-5, 4)
    assert joined.length == Interval(3, 3)
    nested = check("[1] + ([x] if flag else [x, y])")
    assert nested.length == Interval(2, 3)


def test_a_join_reads_in_the_docs_and_in_rules_json() -> None:
    node = check("[x] + [y, 3]").node
    assert to_source(node) == "[x] + [y, 3]"
    assert to_math(node, rounding="down") == "[x] + [y, 3]"
    words = value_words(node, rounding="down")
    assert words == "*x*, then *y*, then 3"
    tree = to_tree(node, rounding="down", rule_id=str)
    assert tree["node"] == "concat"
    assert [tree["left"]["node"], tree["right"]["node"]] == ["list", "list"]


def _scripted(df: ModuleType) -> Any:
    return importlib.import_module("rulebook.dice").Scripted


def test_python_answers_the_dice_rolled_as_a_tuple(df: ModuleType) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    scripted = _scripted(df)
    answer = df.action_roll(3, scripted([6, 2, 6]))
    assert answer.rolls == (6, 2, 6) and type(answer.rolls) is tuple
    assert answer.to_dict() == {"outcome": "critical", "die": 6, "rolls": [6, 2, 6]}
    assert dumps(answer) == '{"outcome": "critical", "die": 6, "rolls": [6, 2, 6]}'
    assert df.action_roll(0, scripted([6, 5])).rolls == (6, 5)  # the two low dice
    again = df.six_again(1, scripted([6, 4]))
    assert (again.total, again.again, again.rolls) == (11, True, (6, 4))
    assert df.six_again(0, scripted([3])).rolls == (3,)
    with pytest.raises(AttributeError):
        again.rolls = (1,)  # the record is frozen, and so is its tuple


def test_javascript_answers_a_frozen_array_and_the_same_json(
    df: ModuleType, df_out: Path
) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    scripted = _scripted(df)
    js = df_out / "js"
    calls = [
        ("actionRoll", "action_roll", [3], [6, 2, 6]),
        ("actionRoll", "action_roll", [0], [6, 5]),
        ("sixAgain", "six_again", [1], [6, 4]),
        ("sixAgain", "six_again", [2], [5]),
    ]
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ Scripted }} from "{(js / "dice.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps([[f, a, d] for f, _, a, d in calls])};\n"
        "console.log(JSON.stringify(calls.map(([f, args, dice]) => {\n"
        "  const answer = m[f](...args, new Scripted(dice));\n"
        "  return [dumps(answer), Object.isFrozen(answer.rolls), Array.isArray(answer.rolls)];\n"
        "})));\n"
    )
    found = node_json(script)
    for (_, py, args, dice), (text, frozen, array) in zip(calls, found, strict=True):
        assert text == dumps(getattr(df, py)(*args, scripted(dice))), py
        assert frozen and array, py
    types = (js / "dice_formulas.d.ts").read_text(encoding="utf-8")
    assert "  readonly rolls: readonly number[];\n" in types


def test_the_page_rules_json_and_examples_show_the_list(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "six_again.md").read_text("utf-8")
    assert "| When | Total | Rolled again | Dice rolled |" in page
    assert "| *first*, then *extra* |" in page  # `[first] + extra`, in words
    assert "- `rolls` (`tuple[int, ...]`): Dice rolled." in page
    assert "gives `total=11, again=True, rolls=[6, 4]`" in page
    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in data["systems"][0]["rules"]}
    slots = {s["name"]: s for s in rules["six_again"]["slots"]}
    assert (slots["rolls"]["type"], slots["rolls"]["items"]) == ("list", "int")
    assert slots["total"]["items"] is None
    first = rules["six_again"]["cases"][0]["then"]["rolls"]  # [first] + extra
    assert first["node"] == "concat"
    assert first["left"]["node"] == "list"
    assert first["right"] == {"node": "name", "name": "extra"}
