"""The odds functions derived from formulas that roll (tests/dice_formulas/): each
answers every value with its exact chance, the same as every roll enumerated
one by one through the formula itself, and as icepool works them out."""

from __future__ import annotations

import importlib
import itertools
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest

from .conftest import ROOT, enumerated_odds, run_rulesc
from .test_decision_rolls import ENUMERATED as DECIDED
from .test_odds_fields import ENUMERATED as FIELDS
from .test_record_calls import ENUMERATED as RECORDS
from .test_rolling_calls import ENUMERATED as CALLING

RULES = ROOT / "tests" / "dice_formulas"
ICE: Any = icepool  # untyped: every value of it is Any here
# Each rolling formula with the arguments to enumerate it at (every roll is run).
ENUMERATED: dict[str, list[tuple[int, ...]]] = {
    "roll_ability": [()],
    "attack": [(-5,), (20,)],
    "hits": [(0,), (1,), (4,)],
    "hits_in_notation": [(0,), (3,)],
    "advantage": [(2,)],
    "branch": [()],
    "either": [()],
    "spread": [(0,), (3,)],
    "pool_read": [(1,)],
    "joined": [(0,), (2,), (3,)],  # lists joined: a die and a pool
    "rolled_count": [()],
    "sided": [(1,), (5,)],
    "rerolled": [(0,), (1,)],
    "halved": [(-3,), (0,), (3,)],
    "kept_sorted": [()],
    "member": [()],
    "called": [()],
    "shortcuts": [(0,)],
    "open_total": [(0, 0), (10, 3)],
    "pool_twice": [(1,), (3,)],
    "pool_folds": [(0, 1), (2, 3), (3, 2)],
    "best_three": [(0,), (1,), (2,), (3,)],  # kh3 of fewer dice keeps them all
    "drop_three": [(1,), (2,)],  # dl3 of fewer dice drops them all
}


@pytest.mark.parametrize(
    ("name", "args"),
    [(name, args) for name, cases in ENUMERATED.items() for args in cases],
)
def test_odds_are_every_roll_enumerated(
    df: ModuleType, name: str, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    expected = enumerated_odds(getattr(df, name), args, errors.RuleInputError)
    chances = getattr(df, f"{name}_odds")(*args)
    assert dict(chances) == expected
    assert list(chances) == sorted(chances)
    assert chances.tail == 0
    assert sum(chances.values()) == 1


def test_every_rolling_formula_has_odds_and_is_enumerated(df: ModuleType) -> None:
    rolling = {
        n[: -len("_odds")] for n in dir(df) if n.endswith("_odds") and n[0] != "_"
    }
    # the repeating decisions' odds are checked against chains solved apart
    # (tests/test_decision_repeats.py, and those with a list of the state in
    # tests/test_repeat_lists.py)
    repeating = {
        "last_stand",
        "recovering",
        "first_six",
        "to_six",
        "three_d4",
        "ongoing",
    }
    repeating |= {"head_start", "rolled_level"}  # (tests/test_rolled_starts.py)
    repeating |= {"bright_pool", "tilted_total"}  # (tests/test_custom_dice.py)
    # those reading a range table are enumerated in tests/test_range_calls.py
    ranges = {"banded_attack", "rolled_band"}
    assert (
        rolling
        == set(ENUMERATED)
        | {"exploding", "aimed", "open_sided"}
        | set(DECIDED)
        | repeating
        | set(CALLING)
        | set(FIELDS)
        | set(RECORDS)
        | ranges
    )
    assert not hasattr(df, "double_odds")  # it does not roll


def test_odds_agree_with_icepool(df: ModuleType) -> None:
    d6: Any = ICE.d6
    d20: Any = ICE.d20
    cases: list[tuple[Any, Any]] = [
        (df.roll_ability_odds(), d6.pool(4).highest(3).sum()),
        (df.attack_odds(7), d20 + 7),
        (df.hits_odds(10), _count(10, 2, 6)),
        (df.halved_odds(1), ((3 @ d6) + 1) // 2),
        (df.pool_read_odds(4), _pool_read(4)),
    ]
    for chances, die in cases:
        expected = {int(v): Fraction(n, die.denominator()) for v, n in die.items()}
        assert dict(chances) == {v: p for v, p in expected.items() if p}


def _count(dice: int, hits: int, sides: int) -> Any:
    """How many of ``dice`` dice of ``sides`` show one of the top ``hits`` faces."""
    return dice @ ICE.Die([1] * hits + [0] * (sides - hits))


def _pool_read(dice: int) -> Any:
    highest: Any = ICE.d6.pool(dice).highest(1).sum() * 10
    sixes = _count(dice, 1, 6)
    low_two: Any = ICE.d4.pool(3).lowest(2).sum()
    return highest + sixes + low_two


# Pools whose kept dice (``rolls(...)``) the odds work out as a multiset: every
# keep (the highest 3 of 4 were once kept as 1), rerolls, Fudge dice, counts and
# each explosion (those of ``!`` and ``!o`` add dice: tests/test_js_formula_odds.py
# compares them with JavaScript's).
POOLS = [
    "4d6dl1",
    "4d6dh1",
    "5d6kh3",
    "4d4kl3",
    "3d6kh2",
    "3d4kl2",
    "3d6ro1",
    "2d6rr2",
    "4dF",
    "3d10>=8",
    "2d6!!",
    "3d6!",
    "2d6!o",
    "2d4!",
    "3d6ro<=2!o",
]
POOL_DEPTH = 3


def test_the_dice_a_pool_keeps_are_every_roll_enumerated(df: ModuleType) -> None:
    odds = importlib.import_module("rulebook._odds")
    weights = importlib.import_module("rulebook._dice_weights")
    notation = importlib.import_module("rulebook.dice_notation")
    checked = 0
    for text in POOLS:
        pool = notation.parse_notation(text).terms[0].value
        if pool.explode in ("!", "!o"):
            continue
        die = weights.chain_weights(pool, POOL_DEPTH, lambda v: v)
        found: dict[tuple[int, ...], int] = {}
        for faces in itertools.product(die.weights.items(), repeat=pool.count):
            shown = sorted(f for f, _ in faces)
            highest = pool.keep in ("kh", "dl")
            kept = shown[len(shown) - pool.kept :] if highest else shown[: pool.kept]
            weight = 1
            for _, w in faces:
                weight *= w
            found[tuple(kept)] = found.get(tuple(kept), 0) + weight
        denom = die.denom**pool.count
        expected = {k: Fraction(w, denom) for k, w in sorted(found.items())}
        chances = odds.answer(odds.results(pool, POOL_DEPTH))
        assert dict(chances) == expected, text
        assert list(chances) == sorted(chances), text
        checked += 1
    assert checked >= 10


def test_explosions_leave_a_tail(df: ModuleType) -> None:
    core = importlib.import_module("rulebook.dice_odds")
    notation = importlib.import_module("rulebook.dice_notation")
    expected = core.odds(notation.parse_notation("1d6!!+1d4!o"))
    chances = df.exploding_odds()
    assert dict(chances) == expected.chances
    assert chances.tail == expected.tail > 0
    assert sum(chances.values()) + chances.tail == 1


def test_pages_show_the_odds_the_runtime_gives(df: ModuleType, df_out: Path) -> None:
    pages = df_out / "docs" / "dice_formulas"
    page = (pages / "roll_ability.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and "/" in line]
    expected = [
        f"| {v} | {p} | {float(p * 100):.2f}% |"
        for v, p in df.roll_ability_odds().items()
    ]
    assert rows == expected
    exploding = (pages / "exploding.md").read_text(encoding="utf-8")
    tail = df.exploding_odds().tail
    assert f"unknown with chance {tail} (" in exploding
    attack = (pages / "attack.md").read_text(encoding="utf-8")
    assert "`attack_odds(bonus)` answers these odds" in attack
    assert "| Answer | Chance |" not in attack  # it needs an argument


def test_a_pool_read_only_through_folds_is_a_multiset_source(df_out: Path) -> None:
    # a pool read only through counts, sums, lengths, the highest and the
    # lowest is one source of the engine (its folds over the multiset of its
    # outcomes: exactness is the enumeration above); dice joined into one list
    # and read through folds are groups of one pool; a list read any other way
    # is a list (its kept dice), and a count read alone a dice total
    code = (df_out / "rulebook" / "dice_formulas.py").read_text(encoding="utf-8")

    def odds_of(name: str) -> str:
        return code.split(f"def {name}_odds(")[1].split("\ndef ")[0]

    folds = odds_of("pool_folds")
    assert folds.count("_odds.pool(") == 2
    assert '("len", (0,), None, None)' in folds
    assert '("max", (0,), None, None)' in odds_of("pool_twice")
    assert odds_of("action_roll").count("_odds.pool(") == 2
    assert odds_of("joined").count("_odds.item(") == 2
    # a count of whole numbers read alone: the dice counting them, a total
    assert 'target=dice_terms.Compare(">=", 5)' in odds_of("hits")


def test_explain_of_a_formula_that_rolls_ends_with_its_exact_odds() -> None:
    rules = ROOT / "tests" / "dice_formulas"
    done = run_rulesc(
        "explain", "--rules", str(rules), "dice_formulas.attack",
        "bonus=3", "--dice", "12", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Exact odds of its answer\n")[1].split("\n\n")[0]
    lines = section.splitlines()
    # a d20 plus 3: each of 4 to 23 once in twenty
    assert [line.split()[0] for line in lines] == [str(n) for n in range(4, 24)]
    assert all(line.endswith("1/20") for line in lines)
