"""Rules answering a record, called from other rules with a field read
(tests/dice_formulas/dice_formulas/fields.yaml): a decision answering fields
is called ``name(args).field`` in any expression, rolling (with the caller's
rng, its dice where it is called) or not; the caller's odds use the called
rule's chances of the field read (a private function of them, one working
out); JavaScript answers as Python; a function of a rule of another shape
is refused with why, where it is called."""

from __future__ import annotations

import importlib
import random
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from . import bounds_cases as cases
from .conftest import enumerated_odds
from .test_dice_formulas import SEEDS, javascript_answers_as_python

# Each rule calling a rule that answers a record, the parts its odds are of,
# and the arguments to enumerate it at.
ENUMERATED: dict[str, tuple[tuple[str, ...], list[tuple[int, ...]]]] = {
    "pool_botches": ((), [(1,), (2,)]),  # a formula, the calls in its expression
    "graded": ((), [()]),  # a rule rolling nothing, called with a die
    "better_pool": (("grade", "best"), [(1,), (2,)]),  # calls in lets
}


def _plain(value: object) -> object:
    return str(value) if isinstance(value, Enum) else value


@pytest.mark.parametrize(
    ("name", "args"),
    [(name, args) for name, (_, found) in ENUMERATED.items() for args in found],
)
def test_the_caller_s_odds_are_every_roll_enumerated(
    df: ModuleType, name: str, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    fields, _ = ENUMERATED[name]
    function = getattr(df, name)
    odds = getattr(df, f"{name}_odds")(*args)
    for field in fields or (None,):

        def read(*a: Any, field: str | None = field) -> object:
            answer = function(*a)
            return _plain(answer if field is None else getattr(answer, field))

        chances = odds if field is None else odds[field]
        expected = enumerated_odds(read, args, errors.RuleInputError)
        assert {_plain(k): p for k, p in chances.items()} == expected, field


def test_the_called_rule_rolls_where_it_is_called(df: ModuleType) -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        botches = int(df.counted_pool(2, rng).botch) + int(
            df.counted_pool(2, rng).botch
        )
        assert df.pool_botches(2, random.Random(seed)) == botches
        rng = random.Random(seed)
        first = df.counted_pool(2, rng).successes
        second = df.counted_pool(2, rng).successes
        assert df.better_pool(2, random.Random(seed)).best == max(first, second)
    assert df.grade(15).points == 5  # rolls nothing: no rng


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls: list[tuple[str, str, list[Any]]] = [
        ("poolBotches", "pool_botches", [2]),
        ("graded", "graded", []),
        ("betterPool", "better_pool", [3]),
    ]
    javascript_answers_as_python(df, df_out, calls)


def test_the_called_rule_answers_the_chances_of_the_fields_read(df_out: Path) -> None:
    code = (df_out / "rulebook" / "dice_formulas.py").read_text(encoding="utf-8")
    # the caller's odds read the called rule's private function of the field
    # it reads (successes: place 0, botch: place 1), one for each
    assert "def _counted_pool_odds_of_0(dice: int) -> _odds.Dist:" in code
    assert "def _counted_pool_odds_of_1(dice: int) -> _odds.Dist:" in code
    botches = code.split("def pool_botches_odds(")[1].split("\ndef ")[0]
    assert botches.count("_counted_pool_odds_of_1(dice)") == 2
    js = (df_out / "js" / "dice_formulas.js").read_text(encoding="utf-8")
    assert "function _countedPoolOddsOf1(dice) {" in js


_CALLER = """  - id: caller
    kind: formula
    title: Caller
    summary: Calls.
    source: {section: A}
    function: caller
    parameters: []
    expression: CALL + 1
"""

_MANY = """  - id: many
    kind: decision
    title: Many
    summary: Each that holds.
    source: {section: A}
    function: many
    parameters: []
    hit_policy: collect
    value: {type: int, title: N}
    cases:
      - when: "true"
        then: 1
"""

_RECORD = """  - id: pair
    kind: decision
    title: Pair
    summary: Two numbers.
    source: {section: A}
    function: pair
    parameters: []
    result: Pair
    fields:
      - {name: low, title: Low, type: int}
      - {name: high, title: High, type: int}
    cases:
      - when: "true"
        then: {low: 1, high: 2}
"""


@pytest.mark.parametrize(
    ("rules", "call", "expected"),
    [
        (
            _MANY,
            "many()",
            "'many' is the function of rule 'many', which answers a list",
        ),
        (_RECORD, "pair()", "cannot add Pair and int"),  # a record is a value
        (_RECORD, "pair().middle", "Pair has no field 'middle'"),
        (_RECORD, "pair().high", None),
    ],
)
def test_a_call_of_a_rule_says_why_where_it_cannot_be(
    rules: str, call: str, expected: str | None, tmp_path: Path
) -> None:
    cases.write(tmp_path, rules + _CALLER.replace("CALL", call))
    found = cases.build_or_errors(tmp_path, run_examples=False)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found
