"""A range table called from expressions (tests/dice_formulas/dice_formulas/ranges.yaml):
``name(number).field`` reads a field of the row the number falls in, in Python
and JavaScript alike; the odds of a formula that rolls the number are every
roll enumerated; a number that may fall outside the rows, a record read
without a field, an unknown field and a table answering a mapping are located
errors; rules.json and ``rulesc explain`` show the call."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import build

from .conftest import ROOT, enumerated_odds, run_rulesc
from .test_dice_formulas import SEEDS, javascript_answers_as_python

RULES = ROOT / "tests" / "dice_formulas"
RANGES = RULES / "dice_formulas" / "ranges.yaml"
# The rows of ranges.yaml, restated: (lo, hi, bonus, heavy, most damage).
ROWS = [(1, 7, -1, False, 4), (8, 13, 0, False, 6), (14, 30, 2, True, 12)]


def _row(score: int) -> tuple[int, bool, int]:
    lo_hi = [
        (bonus, heavy, most) for lo, hi, bonus, heavy, most in ROWS if lo <= score <= hi
    ]
    assert len(lo_hi) == 1, score
    return lo_hi[0]


def test_a_field_of_the_row_each_score_falls_in(df: ModuleType) -> None:
    for seed in SEEDS:
        for score in range(1, 31):
            bonus, heavy, most = _row(score)
            rng = random.Random(seed)
            die = rng.randint(1, 20)
            got = df.banded_attack(score, random.Random(seed))
            assert got == die + bonus + (most if heavy else 0), (seed, score)


def test_odds_are_every_roll_enumerated(df: ModuleType) -> None:
    errors = importlib.import_module("rulebook.errors")
    for name, args in (
        ("banded_attack", (1,)),
        ("banded_attack", (14,)),
        ("rolled_band", ()),
    ):
        expected = enumerated_odds(getattr(df, name), args, errors.RuleInputError)
        chances = getattr(df, f"{name}_odds")(*args)
        assert dict(chances) == expected, name
        assert sum(chances.values()) == 1


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls = [
        ("bandedAttack", "banded_attack", [score]) for score in (1, 7, 8, 13, 14, 30)
    ]
    javascript_answers_as_python(
        df, df_out, [*calls, ("rolledBand", "rolled_band", [])]
    )


def test_rules_json_writes_the_call_and_its_field(df_out: Path) -> None:
    data = json.loads((df_out / "rules.json").read_text("utf-8"))
    rules = {f"{s['id']}.{r['id']}": r for s in data["systems"] for r in s["rules"]}
    text = json.dumps(rules["dice_formulas.banded_attack"])
    assert '"node": "field"' in text and '"node": "rule_call"' in text
    assert '"function": "score_bonus"' in text


def test_explain_reads_the_row(df_out: Path) -> None:
    done = run_rulesc(
        "explain",
        "--rules",
        str(RULES),
        "dice_formulas.banded_attack",
        "score=16",
        "--dice",
        "5",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Answer\n  19" in done.stdout and "WARNING" not in done.stdout


def _errors(tmp_path: Path, expression: str, parameters: str = "") -> list[str]:
    folder = tmp_path / "rules" / "dice_formulas"
    folder.mkdir(parents=True)
    for name in ("system.yaml", "ranges.yaml"):
        (folder / name).write_text((RULES / "dice_formulas" / name).read_text("utf-8"))
    text = (folder / "ranges.yaml").read_text("utf-8")
    old = '    expression: "d20 + score_bonus(score).bonus + (score_bonus(score).damage.max if score_bonus(score).heavy else 0)"'
    assert old in text
    (folder / "ranges.yaml").write_text(
        text.replace(old, f"    expression: {json.dumps(expression)}"), "utf-8"
    )
    with pytest.raises(RulesError) as info:
        build(tmp_path / "rules", run_examples=False)
    return [f"{d.line}:{d.col}: {d.message} ({d.hint})" for d in info.value.diagnostics]


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        (
            "score_bonus(score - 5).bonus",
            "argument 'score' of score_bonus() may be -4..25, but score_bonus allows only 1..30",
        ),
        ("score_bonus(score + 1).bonus", "may be 2..31"),
        ("score_bonus(score)", "score_bonus() answers a record: read a field of it"),
        ("score_bonus(score).weight", "unknown field 'weight' of score_bonus()"),
        ("score_bonus(score).band", "the formula gives text, but the field is int"),
    ],
)
def test_a_call_that_may_miss_a_row_is_a_located_error(
    tmp_path: Path, expression: str, said: str
) -> None:
    errors = _errors(tmp_path, expression)
    assert any(said in e for e in errors), errors


def test_a_mapping_range_table_is_not_called(rules_copy: Path) -> None:
    path = rules_copy / "d20_scifi" / "zero_g.yaml"
    text = path.read_text("utf-8")
    old = "expression: clamp(max(10 + 5 * climb_bonus"
    assert old in text
    path.write_text(
        text.replace(
            old, "expression: clamp(max(radiation_symptoms(5).x + 5 * climb_bonus"
        ),
        "utf-8",
    )
    with pytest.raises(RulesError) as info:
        build(rules_copy, run_examples=False)
    assert any(
        "unknown function 'radiation_symptoms'" in d.message
        or "radiation_symptoms" in d.message
        for d in info.value.diagnostics
    ), [d.message for d in info.value.diagnostics]
