"""Dice of the rules' own faces: for random dice (numbers, or symbols several
to a face) the runtime's pool of listed faces rolls the k-th face for a roll of
k, and its odds (the multiset of faces a pool shows; a numeric pool's total,
kept or counted, its faces rerolled once) are every face enumerated, in Python
and JavaScript alike; built (tests/dice_formulas' ``faces.yaml``), a die rule
is a constant of its faces on its page, in rules.json and in both languages,
``d(die)`` rolls it in expressions, ``tally`` counts a symbol over a pool's
faces, with odds every roll enumerated, and each mistake is a located error."""

from __future__ import annotations

import importlib
import itertools
import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.lang import expr
from rulesc.lang.nodes import DieFaces
from rulesc.runtime import _odds
from rulesc.runtime.dice import Scripted
from rulesc.runtime.dice_odds import odds
from rulesc.runtime.dice_rolls import roll, tally
from rulesc.runtime.dice_terms import Compare, DiceSum, Face, Pool, Term
from rulesc.runtime.json import dumps

from .conftest import ROOT, enumerated_odds, run_rulesc
from .js_node import node_json
from .test_decision_rolls import _read
from .test_dice_formulas import javascript_answers_as_python

SYMBOLS = ("hit", "edge", "miss")
NUMBERS = st.lists(st.integers(-3, 5), min_size=2, max_size=6)
SYMBOL_FACES = st.lists(
    st.lists(st.sampled_from(SYMBOLS), max_size=2).map(tuple), min_size=2, max_size=6
)
OPTIONS = st.sampled_from(["", "kh1", "kl1", ">=1", "ro<1"])


def _dice(faces: tuple[Face, ...], count: int, options: str = "") -> Pool:
    """A pool of ``count`` dice of ``faces`` with one option (as the notation
    writes it after the sides)."""
    made: dict[str, Any] = {}
    if options.startswith("k"):
        made = {"keep": options[:2], "keep_count": 1}
    elif options.startswith(">="):
        made = {"target": Compare(">=", int(options[2:]))}
    elif options.startswith("ro<"):
        made = {"reroll": Compare("<", int(options[3:])), "reroll_once": True}
    return Pool(count, len(faces), listed=faces, **made)


def _die_once(faces: tuple[Face, ...], options: str) -> dict[Face, Fraction]:
    """One die's final face, every roll of it enumerated (a reroll rolled)."""
    found: dict[Face, Fraction] = {}
    n = len(faces)
    for first in faces:
        again = (
            options.startswith("ro<")
            and isinstance(first, int)
            and first < int(options[3:])
        )
        for then in faces if again else (first,):
            share = Fraction(1, n * n) if again else Fraction(1, n)
            found[then] = found.get(then, Fraction(0)) + share
    return found


def _enumerated(
    faces: tuple[Face, ...],
    count: int,
    options: str,
    read: Callable[[tuple[Face, ...]], Any],
) -> dict[Any, Fraction]:
    """The chance of each ``read`` of the dice, every face of every die enumerated."""
    die = _die_once(faces, options)
    found: dict[Any, Fraction] = {}
    for shown in itertools.product(die.items(), repeat=count):
        value = read(tuple(f for f, _ in shown))
        chance = Fraction(1)
        for _, p in shown:
            chance *= p
        found[value] = found.get(value, Fraction(0)) + chance
    return found


def _total(options: str) -> Callable[[tuple[Face, ...]], int]:
    """How a numeric pool's value reads its dice, by its option."""

    def read(dice: tuple[Face, ...]) -> int:
        values = [cast(int, d) for d in dice]  # (numbers)
        if options == "kh1":
            return max(values)
        if options == "kl1":
            return min(values)
        if options.startswith(">="):
            return sum(v >= int(options[2:]) for v in values)
        return sum(values)

    return read


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(NUMBERS.map(tuple), SYMBOL_FACES.map(tuple)),
    st.integers(1, 3),
    OPTIONS,
    st.integers(0, 10**6),
)
def test_pools_of_listed_faces_are_every_face_enumerated(
    faces: tuple[Face, ...], count: int, options: str, seed: int
) -> None:
    numeric = all(isinstance(f, int) for f in faces)
    options = options if numeric else ""  # a die of symbols takes no option
    pool = _dice(faces, count, options)
    kept = options if options.startswith("k") else ""

    def multiset(dice: tuple[Face, ...]) -> tuple[Face, ...]:
        ordered = sorted(dice)
        return tuple(
            ordered[-1:] if kept == "kh1" else ordered[:1] if kept else ordered
        )

    results = _odds.answer(_odds.results(pool, 10))
    assert dict(results) == _enumerated(faces, count, options, multiset)
    if numeric:
        total = odds(DiceSum((Term(1, pool),)))
        assert total.chances == _enumerated(faces, count, options, _total(options))
    # a roll of k shows the k-th face (no reroll: one roll a die)
    ks = [random.Random(seed + i).randint(1, len(faces)) for i in range(count)]
    if not options.startswith("ro"):
        rolled = roll(DiceSum((Term(1, _dice(faces, count)),)), Scripted(ks))
        assert list(rolled.results) == [faces[k - 1] for k in ks]
    if not numeric:
        for symbol in SYMBOLS:
            shown = [faces[k - 1] for k in ks]
            assert tally(shown, symbol) == sum(
                f.count(symbol) for f in shown if isinstance(f, tuple)
            )


def _sample() -> list[tuple[list[Any], int, str]]:
    draw = random.Random(39)
    found: list[tuple[list[Any], int, str]] = []
    for i in range(24):
        size = draw.randint(2, 6)
        if i % 2:
            faces: list[Any] = [draw.randint(-3, 5) for _ in range(size)]
            options = draw.choice(["", "kh1", "kl1", ">=1", "ro<1"])
        else:
            faces = [
                sorted(draw.sample(SYMBOLS, draw.randint(0, 2))) for _ in range(size)
            ]
            options = ""
        found.append((faces, draw.randint(1, 3), options))
    return found


def _listed(chances: Any) -> list[list[Any]]:
    """Chances of multisets of faces as JSON holds them: each (as a list) with
    its chance's text, in order."""

    def plain(value: Any) -> Any:
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    return [[plain(k), str(p)] for k, p in chances.items()]


def _js_options(options: str) -> str:
    if options.startswith("k"):
        return f'keep: "{options[:2]}", keepCount: 1'
    if options.startswith(">="):
        return f'target: new Compare(">=", {options[2:]})'
    if options.startswith("ro<"):
        return f'reroll: new Compare("<", {options[3:]}), rerollOnce: true'
    return ""


def test_javascript_rolls_and_works_out_listed_faces_as_python(df_out: Path) -> None:
    js = df_out / "js"
    sample = _sample()
    pools = [
        f"new Pool({count}, {len(faces)}, {{ listed: {json.dumps(faces)}, {_js_options(o)} }})"
        for faces, count, o in sample
    ]
    script = (
        f'import {{ Pool, Compare, DiceSum, Term }} from "{(js / "dice_terms.js").as_uri()}";\n'
        f'import {{ roll }} from "{(js / "dice_rolls.js").as_uri()}";\n'
        f'import {{ odds }} from "{(js / "dice_odds.js").as_uri()}";\n'
        f'import {{ results, answer }} from "{(js / "odds.js").as_uri()}";\n'
        f'import {{ Random }} from "{(js / "random.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ fractionText }} from "{(js / "_support.js").as_uri()}";\n'
        f"const pools = [{', '.join(pools)}];\n"
        "const listed = (c) => [...c].map(([k, p]) => [k, fractionText(p)]);\n"
        "console.log(JSON.stringify(pools.map((p, i) => [\n"
        "  dumps(roll(new DiceSum([new Term(1, p)]), new Random(i))),\n"
        "  listed(answer(results(p, 10))),\n"
        "  p.numeric ? dumps(odds(new DiceSum([new Term(1, p)]))) : null,\n"
        "  String(p)])));\n"
    )
    answers = node_json(script)
    for i, ((faces, count, options), got) in enumerate(
        zip(sample, answers, strict=True)
    ):
        pool = _dice(
            tuple(tuple(f) if isinstance(f, list) else f for f in faces), count, options
        )
        dice = DiceSum((Term(1, pool),))
        want = [
            dumps(roll(dice, random.Random(i))),
            _listed(_odds.answer(_odds.results(pool, 10))),
            dumps(odds(dice)) if pool.numeric else None,
            str(pool),
        ]
        assert got == want, (faces, count, options)


# -- die rules, built --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "field", "args"),
    [
        ("bright_pool", "success", (0, 0)),
        ("bright_pool", "success", (1, 0)),
        ("bright_pool", "success", (2, 2)),
        ("bright_pool", "success", (3, 1)),
        ("tilted_total", None, (0,)),
        ("tilted_total", None, (2,)),
    ],
)
def test_odds_are_every_roll_enumerated(
    df: ModuleType, name: str, field: str | None, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    expected = enumerated_odds(
        _read(getattr(df, name), field), args, errors.RuleInputError
    )
    got = getattr(df, f"{name}_odds")(*args)
    assert dict(got) == expected
    assert got.tail == 0


def test_symbol_pool_of_one_good_die(df: ModuleType) -> None:
    # one bright die, no dark: a mark on 3, 4 and 5 of its six faces
    assert df.bright_pool_odds(1, 0)[True] == Fraction(1, 2)


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    calls = [
        ("brightPool", "bright_pool", [3, 2]),
        ("tiltedTotal", "tilted_total", [3]),
    ]
    javascript_answers_as_python(df, df_out, calls)
    dumps_py = importlib.import_module("rulebook.json").dumps
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        "console.log(JSON.stringify([dumps(m.brightPoolOdds(3, 2)),\n"
        "  dumps(m.tiltedTotalOdds(3)), dumps(m.BRIGHT_DIE), dumps(m.tiltedDie)]));\n"
    )
    assert node_json(script) == [
        dumps_py(df.bright_pool_odds(3, 2)),
        dumps_py(df.tilted_total_odds(3)),
        dumps_py(df.BRIGHT_DIE),
        dumps_py(df.tilted_die),
    ]


def test_the_page_rules_json_and_types_show_the_faces(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "bright_die.md").read_text("utf-8")
    assert "| 5 | mark, spark |" in page and "| 1 | blank |" in page
    assert "Value: `BRIGHT_DIE: tuple[tuple[str, ...], ...]`" in page
    rules = json.loads((df_out / "rules.json").read_text("utf-8"))
    (system,) = rules["systems"]
    by_id = {r["id"]: r for r in system["rules"]}
    die = by_id["bright_die"]
    assert die["symbols"] == ["mark", "spark"]
    assert die["faces"][4] == ["mark", "spark"]
    assert by_id["tilted_die"]["faces"] == [-1, 0, 0, 1, 2, 3]
    lets = by_id["bright_pool"]["let"]
    assert '"die": "bright_die"' in json.dumps(lets)
    types = (df_out / "js" / "dice_formulas.d.ts").read_text("utf-8")
    assert "export declare const BRIGHT_DIE: readonly (readonly string[])[];" in types
    assert "export declare const TILTED_DIE: readonly number[];" in types


def test_roll_and_explain_show_the_faces() -> None:
    rules = str(ROOT / "tests" / "dice_formulas")
    done = run_rulesc(
        "roll", "--rules", rules, "dice_formulas.bright_die", "--stats", cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    lines = [" ".join(line.split()) for line in done.stdout.splitlines()]
    assert "mark+spark 16.7% 1/6" in lines and "blank 33.3% 1/3" in lines
    done = run_rulesc("explain", "--rules", rules, "dice_formulas.bright_die", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "  5  mark + spark" in done.stdout


DIES = {
    "good": DieFaces("good", ((), ("hit",), ("hit", "edge")), ("hit", "edge")),
    "tilt": DieFaces("tilt", (-1, 0, 3)),
}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('tally(rolls((n)d(good)), "miss")', "'miss' is not a symbol of these dice"),
        ("(n)d(good)", "d(good): a die of symbols has no total"),
        ("rolls((n)d(good)!)", "d(good)!: a die of symbols takes no option"),
        ("good + 1", "'good' is a die, not a value"),
        ('tally(rolls((n)d(tilt)), "hit")', "tally() counts a symbol on the faces"),
        ("max(rolls((n)d(good)))", "max() needs a list of int, got list of symbols"),
    ],
)
def test_a_die_misread_is_a_located_error(text: str, message: str) -> None:
    params = {"n": expr.Param("n", "int", 0, 3)}
    with pytest.raises(expr.ExprError) as caught:
        expr.compile_formula(text, params, dies=DIES)
    assert message in caught.value.message, caught.value.message


def test_a_die_reads_as_the_dice_of_its_faces() -> None:
    params = {"n": expr.Param("n", "int", 0, 3)}
    total = expr.compile_formula("(n)d(tilt)kh1 + 2d(tilt)", params, dies=DIES)
    assert total.interval == expr.Interval(-3, 9)
    counted = expr.compile_formula(
        'tally(rolls((n)d(good)) + rolls(2d(good)), "hit")', params, dies=DIES
    )
    assert counted.interval == expr.Interval(0, 10)
    assert (
        expr.to_source(counted.node)
        == 'tally(rolls((n)d(good)) + rolls((2)d(good)), "hit")'
    )
