"""Dice options after a computed count or sides (``(n)d(sides)!!kh1``, ``d(s)>=5``):
for random options, the formula's range holds every total the literal
notation ``NdS...`` gives at every count and sides its parameters allow, and
the build refuses it exactly where some such literal is refused; built, each
rolls what the literal rolls on the same rng, its odds function answers the
literal's exact odds, and JavaScript answers both as Python does."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.emit.expr import to_python
from rulesc.lang import expr
from rulesc.runtime import dice_rolls, dice_terms
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import counted_odds, odds
from rulesc.runtime.errors import RuleInputError

from .conftest import ROOT, import_fresh, run_rulesc
from .js_node import node_json

REROLLS = ("", "r1", "ro<=1", "rr1", "rr<=2", "r>=5")
KEEPS = ("", "kh1", "kl2", "dh1", "dl1", "k")
TARGETS = ("", ">=4", "<=2", "=3", ">=6")
MULTIPLIERS = ("", "x2")
EXPLODES = ("", "!", "!!", "!o", "!>=5", "!!<=1", "!=2")
COUNTS, SIDES = (0, 3), (1, 6)  # the parameters' ranges
SEEDS = range(6)


PIECES = (REROLLS, KEEPS, TARGETS, MULTIPLIERS, EXPLODES)


def options_of(choose: Callable[[tuple[str, ...]], str]) -> str:
    """Options in notation, each piece drawn by ``choose(pieces)`` (the
    explosion last: a target right after it would set the faces it explodes on)."""
    reroll, keep, target, multiplier, explode = (choose(p) for p in PIECES)
    if explode.startswith(("!o", "!>", "!=")) or explode == "!":
        keep = ""  # '!' and '!o' add dice: no keep
    return reroll + keep + target + multiplier + explode


def _chooser(picked: tuple[str, ...]) -> Callable[[tuple[str, ...]], str]:
    pieces = iter(picked)
    return lambda _: next(pieces)


OPTIONS = st.tuples(*(st.sampled_from(p) for p in PIECES)).map(
    lambda picked: options_of(_chooser(picked))
)
PARAMS = {
    "n": expr.Param("n", "int", COUNTS[0], COUNTS[1]),
    "s": expr.Param("s", "int", SIDES[0], SIDES[1]),
}


def _literal(count: int, sides: int, options: str) -> dice_terms.DiceSum | None:
    """The literal notation of the pool (None: no dice), or RuleInputError
    (a target no face of the literal die meets is refused only as typed: the
    pool of computed sides counts no die)."""
    if not count:
        return None
    try:
        return parse_notation(f"{count}d{sides}{options}")
    except RuleInputError as error:
        if "no face of" not in str(error):
            raise
    pool = parse_notation(f"{count}d{SIDES[1]}{options}").pools[0]
    return dice_terms.DiceSum((dice_terms.Term(1, pool.replace(sides=sides)),))


def _refused(options: str, fewest: int) -> bool:
    """Whether a die of the options with some sides from ``fewest`` on is refused."""
    try:
        for sides in range(fewest, SIDES[1] + 1):
            _literal(1, sides, options)
    except RuleInputError:
        return True
    return False


def _evaluated(code: str, n: int, s: int, seed: int) -> Any:
    scope: dict[str, Any] = {"dice_rolls": dice_rolls, "dice_terms": dice_terms}
    scope |= {"n": n, "s": s, "rng": random.Random(seed), "list": list}
    return eval(code, {"__builtins__": {}}, scope)  # the emitter's own code


@settings(max_examples=120, deadline=None)
@given(OPTIONS, st.sampled_from([SIDES[0], 2]), st.booleans())
def test_the_range_and_rolls_are_the_literal_notations(
    options: str, fewest: int, listed: bool
) -> None:
    params = dict(PARAMS, s=expr.Param("s", "int", fewest, SIDES[1]))
    text = f"(n)d(s){options}"
    text = f"rolls({text})" if listed else text
    try:
        checked = expr.compile_formula(text, params)
    except expr.ExprError as error:
        assert _refused(options, fewest), (text, error.message)
        assert error.hint is not None
        return
    assert not _refused(options, fewest), text
    code = to_python(checked.node, name=str, rounding="down")
    for n in range(COUNTS[0], COUNTS[1] + 1):
        for s in range(fewest, SIDES[1] + 1):
            dice = _literal(n, s, options)
            for seed in SEEDS:
                got = _evaluated(code, n, s, seed)
                if dice is None:
                    assert got == ([] if listed else 0)
                    continue
                rolled = dice_rolls.roll(dice, random.Random(seed))
                assert got == (list(rolled.results) if listed else rolled.total)
            if dice is None or listed:
                continue
            iv = checked.interval
            assert iv is not None
            for value in odds(dice, 2).chances:  # every total known 2 dice deep
                assert iv.lo is None or iv.lo <= value, text
                assert iv.hi is None or value <= iv.hi, text


@settings(max_examples=80, deadline=None)
@given(OPTIONS, st.sampled_from(["", "q", "kq"]), st.booleans())
def test_fudge_dice_take_every_option_the_notation_takes(
    options: str, junk: str, listed: bool
) -> None:
    # `(n)dF...` in a formula is `NdF...` of the notation at each count: the
    # same refusals (with the hint of what the pool takes after `dF`), rolls
    options += junk
    text = f"(n)dF{options}"
    text = f"rolls({text})" if listed else text
    try:
        parse_notation(f"dF{options}")
    except RuleInputError as refused:
        with pytest.raises(expr.ExprError) as caught:
            expr.compile_formula(text, PARAMS)
        assert caught.value.hint == getattr(refused, "hint", caught.value.hint)
        if junk:  # a letter no option starts with: what the pool takes there
            assert "a pool takes" in (caught.value.hint or ""), text
        return
    checked = expr.compile_formula(text, PARAMS)
    code = to_python(checked.node, name=str, rounding="down")
    for n in range(1, COUNTS[1] + 1):
        dice = parse_notation(f"{n}dF{options}")
        for seed in SEEDS:
            rolled = dice_rolls.roll(dice, random.Random(seed))
            got = _evaluated(code, n, 0, seed)
            assert got == (list(rolled.results) if listed else rolled.total), text


def test_an_option_after_the_sides_is_read_as_notation_reads_it() -> None:
    params = PARAMS | {"s": expr.Param("s", "int", 2, 6)}
    pool = expr.compile_formula("d(s)>=5 + (1 if d(s) >= 5 else 0)", params)
    source = expr.to_source(pool.node)
    assert source.startswith("d(s)>=5 + "), source  # no space: the pool's target
    assert "d(s) >= 5" in source  # with spaces: the total compared
    assert pool.interval == expr.Interval(0, 2)


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            "d(s)q",
            "bad dice options 'q' after d(s): unexpected 'q'",
            "after 'd(s)' a pool takes",
        ),
        ("d(s)!!!", "a second explosion", "after 'd(s)!!' a pool takes"),
        ("(n)d(s)kh1q", "unexpected 'q'", "after '(n)d(s)kh1' a pool takes"),
        ("d(s)!", "the dice sides may be 1, and then every face", "sides"),
    ],
)
def test_a_refused_option_says_what_the_pool_takes_there(
    text: str, message: str, hint: str
) -> None:
    with pytest.raises(expr.ExprError) as caught:
        expr.compile_formula(text, PARAMS)
    assert message in caught.value.message
    assert caught.value.hint is not None and hint in caught.value.hint


# -- built: Python and JavaScript, rolls and odds ------------------------------------

RULES = ROOT / "tests" / "dice_formulas" / "dice_formulas"
SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/rules.schema.json"
SAMPLE = 14  # formulas in the built rules, their options drawn at random


def _sample() -> list[str]:
    draw = random.Random(39)
    found: list[str] = []
    while len(found) < SAMPLE:
        options = options_of(draw.choice)
        if options not in found and not _refused(options, 2):
            found.append(options)
    return found


def _rules(folder: Path, sample: list[str]) -> Path:
    system = folder / "computed"
    system.mkdir(parents=True)
    meta = (RULES / "system.yaml").read_text(encoding="utf-8")
    (system / "system.yaml").write_text(
        meta.replace("system: dice_formulas", "system: computed").replace(
            "../../../schema", "../../schema"
        ),
        encoding="utf-8",
    )
    rules = []
    for i, options in enumerate(sample):
        rules.append(
            f"""  - id: pool_{i}
    kind: formula
    title: Pool {i}
    summary: A pool with options.
    source: {{section: Pools}}
    function: pool_{i}
    parameters:
      - {{name: n, type: int, min: {COUNTS[0]}, max: {COUNTS[1]}, description: Dice.}}
      - {{name: s, type: int, min: 2, max: {SIDES[1]}, description: Sides.}}
    expression: "(n)d(s){options}"
    unbounded_because: An explosion has no highest.
"""
        )
    (system / "pools.yaml").write_text(
        f"{SCHEMA_LINE}\nsystem: computed\nrules:\n" + "".join(rules),
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ModuleType, Path, list[str]]]:
    sample = _sample()
    base = tmp_path_factory.mktemp("computed")
    rules, out = _rules(base / "rules", sample), base / "out"
    done = run_rulesc("build", "--rules", str(rules), "--out", str(out), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with import_fresh(out):
        yield importlib.import_module("rulebook.computed"), out, sample


CALLS = [
    (n, s) for n in range(COUNTS[0], COUNTS[1] + 1) for s in range(2, SIDES[1] + 1)
]


def test_built_rolls_and_odds_are_the_literal_notations(
    built: tuple[ModuleType, Path, list[str]],
) -> None:
    module, _, sample = built
    for i, options in enumerate(sample):
        roll, chances_of = (
            getattr(module, f"pool_{i}"),
            getattr(module, f"pool_{i}_odds"),
        )
        for n, s in CALLS:
            dice = _literal(n, s, options)
            for seed in SEEDS:
                want = (
                    0
                    if dice is None
                    else dice_rolls.roll(dice, random.Random(seed)).total
                )
                assert roll(n, s, random.Random(seed)) == want, (options, n, s)
            chances = chances_of(n, s)
            if dice is None:
                assert dict(chances) == {0: Fraction(1)}
                continue
            # (as the rules list a pool's odds: a count with exploding counts
            # lists up to the depth, dice_odds.counted_odds)
            exact = counted_odds(dice.pools[0])
            assert dict(chances) == exact.chances, (options, n, s)
            assert chances.tail == exact.tail, (options, n, s)


def test_javascript_rolls_and_odds_as_python(
    built: tuple[ModuleType, Path, list[str]],
) -> None:
    module, out, sample = built
    dumps = importlib.import_module("rulebook.json").dumps
    js = out / "js"
    names = [f"pool{i}" for i in range(len(sample))]
    script = (
        f'import * as m from "{(js / "computed.js").as_uri()}";\n'
        f'import {{ Random }} from "{(js / "random.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const names = {json.dumps(names)};\n"
        f"const calls = {json.dumps(CALLS)};\n"
        f"const seeds = {json.dumps(list(SEEDS))};\n"
        "console.log(JSON.stringify(names.map((f) => calls.map(([n, s]) => [\n"
        "  seeds.map((seed) => dumps(m[f](n, s, new Random(seed)))),\n"
        "  dumps(m[f + 'Odds'](n, s))]))));\n"
    )
    answers = node_json(script)
    for i, got in enumerate(answers):
        roll, chances_of = (
            getattr(module, f"pool_{i}"),
            getattr(module, f"pool_{i}_odds"),
        )
        want = [
            [
                [dumps(roll(n, s, random.Random(seed))) for seed in SEEDS],
                dumps(chances_of(n, s)),
            ]
            for n, s in CALLS
        ]
        assert got == want, sample[i]
