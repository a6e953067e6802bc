"""Keeping or dropping more dice than are rolled keeps (drops) them all, as
Roll20 reads it: ``1d6kh3`` keeps the one die, ``2d6dl3`` drops both (0). The
notation, a roll, the exact odds and the dice kept agree with every roll
enumerated, in Python and in JavaScript; a rule whose count comes from a
parameter (``(dice)d6kh3``, tests/dice_formulas/) answers alike for every
count, odds included, and ``rulesc roll`` keeps the die."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.runtime._odds import results
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import odds
from rulesc.runtime.dice_rolls import PoolRoll, roll
from rulesc.runtime.dice_terms import Pool

from .conftest import ROOT, enumerated_odds, run_rulesc
from .js_node import node_json
from .test_js_dice_notation import javascript_answers, python_answer

KEEPS = ("kh", "kl", "dh", "dl")


def _kept(faces: tuple[int, ...], keep: str, count: int) -> tuple[int, ...]:
    """The dice kept, lowest first, by the rule as Roll20 reads it."""
    ranked = sorted(faces, reverse=keep in ("kh", "dh"))  # the first ones count
    # keeping more than there are keeps all; dropping more leaves none
    chosen = ranked[:count] if keep in ("kh", "kl") else ranked[count:]
    return tuple(sorted(chosen))


def _brute(dice: int, sides: int, keep: str, count: int) -> dict[tuple[int, ...], int]:
    """How many of the sides**dice rolls keep each multiset of dice."""
    found: Counter[tuple[int, ...]] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        found[_kept(faces, keep, count)] += 1
    return dict(found)


pools = st.tuples(
    st.integers(1, 4), st.integers(1, 6), st.sampled_from(KEEPS), st.integers(1, 7)
)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(pools, st.integers(0, 2**32))
def test_python_keeps_as_every_roll_enumerated(
    pool: tuple[int, int, str, int], seed: int
) -> None:
    dice, sides, keep, count = pool
    text = f"{dice}d{sides}{keep}{count}"
    ways = _brute(dice, sides, keep, count)
    whole = sides**dice
    totals: Counter[int] = Counter()
    for kept, n in ways.items():
        totals[sum(kept)] += n
    chances = odds(parse_notation(text), 10)
    assert dict(chances.chances) == {t: Fraction(n, whole) for t, n in totals.items()}
    assert chances.tail == 0
    (term,) = parse_notation(text).terms
    assert isinstance(term.value, Pool)
    listed = results(term.value, 10)
    assert {k: Fraction(w, listed.denom) for k, w in listed.weights.items()} == {
        k: Fraction(n, whole) for k, n in ways.items()
    }
    rolled = roll(parse_notation(text), random.Random(seed))
    (pool_roll,) = rolled.terms
    assert isinstance(pool_roll, PoolRoll)
    kept = _kept(tuple(pool_roll.dice), keep, count)
    assert sorted(rolled.results) == list(kept)
    assert rolled.total == sum(kept)


def test_javascript_keeps_as_python(tmp_path: Path) -> None:
    cases: list[dict[str, Any]] = [
        {"text": f"{dice}d{sides}{keep}{count}", "seed": seed, "depth": 10}
        for seed, (dice, sides, keep, count) in enumerate(
            itertools.product((1, 2, 3), (1, 4, 6), KEEPS, (1, 2, 3, 5))
        )
    ]
    cases += [{"text": t, "seed": 3, "depth": 4} for t in ("2d6!!kh3", "2dFdl5")]
    want = [python_answer(c["text"], c["seed"], c["depth"]) for c in cases]
    assert all(isinstance(a["parse"], str) for a in want)  # none refused now
    got = javascript_answers(cases, tmp_path)
    for case, expected, answer in zip(cases, want, got, strict=True):
        assert answer == expected, case


def test_a_count_of_none_is_still_refused() -> None:
    for text in ("3d6kh0", "3d6dl0"):
        answer = python_answer(text, 1, 10)
        assert "takes 1 die or more, not 0" in answer["parse"]["message"], answer


def _totals(dice: int, keep: str, count: int, plus: int = 0) -> dict[int, Fraction]:
    """The chance of each total of ``dice`` d6 kept so, plus ``plus``."""
    found: dict[int, Fraction] = {}
    for kept, n in _brute(dice, 6, keep, count).items():
        total = sum(kept) + plus
        found[total] = found.get(total, Fraction(0)) + Fraction(n, 6**dice)
    return found


def test_a_rule_keeps_every_die_of_a_small_pool(df: ModuleType, df_out: Path) -> None:
    errors = __import__("rulebook.errors", fromlist=["RuleInputError"])
    for dice in range(6):
        assert dict(df.best_three_odds(dice)) == _totals(dice, "kh", 3)
        # rolls((dice)d4kl2) lists both dice of two or more, every die of fewer
        assert dict(df.drop_three_odds(dice)) == _totals(dice, "dl", 3, min(dice, 2))
    for dice in range(3):  # the odds are the rules' own rolls, enumerated
        for name in ("best_three", "drop_three"):
            want = enumerated_odds(getattr(df, name), (dice,), errors.RuleInputError)
            assert dict(getattr(df, f"{name}_odds")(dice)) == want, (name, dice)
    assert dict(df.best_three_odds(1)) == {f: Fraction(1, 6) for f in range(1, 7)}
    assert dict(df.drop_three_odds(2)) == {2: 1}  # both d6 dropped, both d4 kept
    dumps = __import__("rulebook.json", fromlist=["dumps"]).dumps
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        'console.log(JSON.stringify(["bestThreeOdds", "dropThreeOdds"].map((f) =>\n'
        "  [0, 1, 2, 3, 4, 5].map((n) => dumps(m[f](n))))));\n"
    )
    got = node_json(script)
    for name, answers in zip(("best_three", "drop_three"), got, strict=True):
        odds_of = getattr(df, f"{name}_odds")
        assert answers == [dumps(odds_of(n)) for n in range(6)], name


def test_rulesc_roll_keeps_the_one_die() -> None:
    for seed in range(5):
        done = run_rulesc("roll", "1d6kh3", "--seed", str(seed), cwd=ROOT)
        assert done.returncode == 0, done.stderr
        value = int(done.stdout.strip().rpartition(" ")[2])
        assert value == roll(parse_notation("1d6"), random.Random(seed)).total
    dropped = run_rulesc("roll", "2d6dl3", "--seed", "1", cwd=ROOT)
    assert dropped.returncode == 0 and dropped.stdout.strip().endswith("= 0")
    stats = run_rulesc("roll", "2d6dl3", "--stats", cwd=ROOT)
    assert stats.returncode == 0 and "always 0" in stats.stdout
