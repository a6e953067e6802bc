"""Rules that call rules that roll (tests/dice_formulas/dice_formulas/calls.yaml):
the called rule rolls with the caller's rng where it is called, so the dice come
in the order the rules state; the caller's odds, worked out from the called
rule's odds, are every roll enumerated through the caller itself; JavaScript
answers as Python does; the page, rules.json and ``rulesc explain`` show the
call and the called rule's dice."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll

from .conftest import ROOT, enumerated_odds, run_rulesc
from .test_decision_rolls import _read
from .test_dice_formulas import SEEDS, javascript_answers_as_python

RULES = ROOT / "tests" / "dice_formulas"
# Each rule that calls a rule that rolls, the part of its answer its odds are
# of, and the arguments to enumerate it at (every roll is run).
ENUMERATED: dict[str, tuple[str | None, list[tuple[int, ...]]]] = {
    "hit_damage": (None, [(0,), (5,), (10,)]),  # a formula, the call in a let
    "rolled_bonus": (None, [()]),  # an argument that rolls
    "two_saves": (None, [(-5,), (0,), (10,)]),  # a decision called twice
    "strike": ("outcome", [(0,), (4,), (10,)]),  # a decision, the call in a let
    "saves_in_a_row": (None, [(-5,), (0,), (10,)]),  # in a repeating turn
    "better_aimed": (None, [(0,), (5,)]),  # a keyword-only argument that rolls
}


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
    got = {(str(k) if field else k): p for k, p in chances.items()}
    assert got == expected
    assert chances.tail == 0
    assert sum(chances.values()) == 1


def _die(notation: str, rng: random.Random) -> int:
    total = roll(parse_notation(notation), rng).total
    assert isinstance(total, int)  # a sum of pools and whole numbers
    return total


def test_the_called_rule_rolls_where_it_is_called(df: ModuleType) -> None:
    """The rules restated: the called rule's dice with the same rng, in order."""
    for seed in SEEDS:
        for bonus in (0, 4, 10):
            rng = random.Random(seed)
            total = df.attack(bonus, rng)
            damage = _die("1d6", rng) + 2 if total >= 15 else 0
            assert df.hit_damage(bonus, random.Random(seed)) == damage
            rng = random.Random(seed)
            total = df.attack(bonus, rng)
            hit = 15 <= total < 25
            struck = df.strike(bonus, random.Random(seed))
            assert (struck.total, struck.damage) == (
                total,
                _die("1d6", rng) if hit else 12 if total >= 25 else 0,
            )
            rng = random.Random(seed)
            saves = int(df.saved(bonus, 12, rng)) + int(df.saved(bonus, 12, rng))
            assert df.two_saves(bonus, random.Random(seed)) == saves
        rng = random.Random(seed)
        bonus_die = _die("1d4", rng)
        assert df.rolled_bonus(random.Random(seed)) == df.attack(bonus_die, rng) + 1
        rng = random.Random(seed)
        aim = _die("1d4", rng) - 1
        better = max(df.aimed(2, rng, aim=aim), df.aimed(2, rng))
        assert df.better_aimed(2, random.Random(seed)) == better


def test_scripted_dice_go_to_the_called_rule_in_order(df: ModuleType) -> None:
    scripted = importlib.import_module("rulebook.dice").Scripted
    # the bonus die, then the attack's die: 10 + 3, plus 1
    assert df.rolled_bonus(scripted([3, 10])) == 14
    # a 15 and a 20 save twice, and the turns stop there; a 4 fails at once
    assert df.saves_in_a_row(0, scripted([15, 20])) == 2
    assert df.saves_in_a_row(0, scripted([4])) == 0
    # the aim die (3: an aim of 2), the aimed die, then the plain one
    assert df.better_aimed(1, scripted([3, 10, 11])) == 13


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls: list[tuple[str, str, list[Any]]] = [
        ("hitDamage", "hit_damage", [5]),
        ("rolledBonus", "rolled_bonus", []),
        ("twoSaves", "two_saves", [2]),
        ("strike", "strike", [6]),
        ("savesInARow", "saves_in_a_row", [3]),
        ("betterAimed", "better_aimed", [1]),
    ]
    javascript_answers_as_python(df, df_out, calls)


def test_the_page_says_the_rule_calls_the_rolling_rule(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "hit_damage.md").read_text("utf-8")
    assert "The formula reads [Attack roll](attack.md)." in page
    assert "It rolls the dice of [Attack roll](attack.md) where it calls it" in page
    page = (df_out / "docs" / "dice_formulas" / "strike.md").read_text("utf-8")
    assert "It rolls the dice of [Attack roll](attack.md) where it calls it" in page
    plain = (df_out / "docs" / "dice_formulas" / "called.md").read_text("utf-8")
    assert "It rolls the dice of" not in plain  # `double` rolls none


def test_rules_json_says_the_call_rolls(df_out: Path) -> None:
    data = json.loads((df_out / "rules.json").read_text("utf-8"))
    (system,) = data["systems"]
    rules = {rule["id"]: rule for rule in system["rules"]}
    call = rules["hit_damage"]["let"][0]["value"]["tree"]
    assert call["node"] == "rule_call" and call["rule"] == "attack"
    assert call["rolls"] is True
    plain = rules["called"]["expression"]["tree"]["left"]
    assert plain["node"] == "rule_call" and plain["rolls"] is False


def test_explain_shows_the_called_rules_dice() -> None:
    done = run_rulesc(
        "explain",
        "--rules",
        str(RULES),
        "dice_formulas.hit_damage",
        "bonus=3",
        "--dice",
        "12,4",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "(rule attack, rolled 12)" in done.stdout
    assert "(rolled 4)" in done.stdout
    assert "WARNING" not in done.stdout
    done = run_rulesc(
        "explain",
        "--rules",
        str(RULES),
        "dice_formulas.saves_in_a_row",
        "bonus=0",
        "--dice",
        "15,4",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "ok = saved(bonus, 12) = true   (saved rolled 15)" in done.stdout
    assert "ok = saved(bonus, 12) = false   (saved rolled 4)" in done.stdout
    assert "WARNING" not in done.stdout
