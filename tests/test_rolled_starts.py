"""A repeating decision whose state starts with a roll (tests/dice_formulas'
``head_start`` and ``rolled_level``): the starts are rolled once, in the
state's order, before the first turn; the odds start the chain from each state
the starts can give, with its chance (every roll enumerated agrees, for a
chain followed turn by turn and for one solved whole; a gambler's ruin from a
rolled start agrees with its closed form), JavaScript answers as Python, and
the proof that the turns end tries every start."""

from __future__ import annotations

import importlib
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import enumerated_odds
from .js_node import node_json
from .test_decision_rolls import _read
from .test_dice_formulas import javascript_answers_as_python


@pytest.mark.parametrize(
    ("name", "field", "args"),
    [
        ("head_start", "turns", (2,)),
        ("head_start", "turns", (4,)),
        ("head_start", "turns", (5,)),
        ("rolled_level", None, ()),
    ],
)
def test_odds_are_every_roll_enumerated(
    df: ModuleType, name: str, field: str | None, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    function = getattr(df, name)
    if name == "rolled_level":  # no bound on its turns: enumerate a while, then solve
        expected = _ruin()
    else:
        expected = enumerated_odds(_read(function, field), args, errors.RuleInputError)
    chances = getattr(df, f"{name}_odds")(*args)
    assert dict(chances) == expected
    assert chances.tail == 0


def _ruin() -> dict[bool, Fraction]:
    """A walk up (chance 1/3) or down (2/3) from a start of 1, 2 or 3 (each
    1/3): the chance it reaches 0 before 4 from i is 1 - (2^i - 1) / 15."""
    down = sum(
        (Fraction(1, 3) * (1 - Fraction(2**i - 1, 15)) for i in (1, 2, 3)), Fraction(0)
    )
    return {True: down, False: 1 - down}


def test_the_starts_are_rolled_once_in_the_state_order(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    # the head start (4), then the boost's die (6), then one turn's die (1)
    answer = df.head_start(6, scripted([4, 6, 1]))
    assert (answer.turns, answer.lead) == (1, 6)
    rng = scripted([3, 2])  # 3 covers 2: no turn, no die past the starts
    assert df.head_start(2, rng).turns == 0
    assert rng.remaining == 0


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls = [("headStart", "head_start", [7]), ("rolledLevel", "rolled_level", [])]
    javascript_answers_as_python(df, df_out, calls)
    dumps = importlib.import_module("rulebook.json").dumps
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        "const far = [2, 5, 7, 10].map((d) => dumps(m.headStartOdds(d)));\n"
        "console.log(JSON.stringify([far, dumps(m.rolledLevelOdds())]));\n"
    )
    far, level = node_json(script)
    assert far == [dumps(df.head_start_odds(d)) for d in (2, 5, 7, 10)]
    assert level == dumps(df.rolled_level_odds())
