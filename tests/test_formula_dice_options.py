"""Pools in formulas take the notation's options: the code each target prints makes the pool the notation reads.

The Python printer's code of a pool, run, makes a pool equal to it, every
option set (min/max, rerolls until or once on any of several conditions,
``!p``, unique, keep after an explosion, failures, sorting); the JavaScript
printer names the same options, in JavaScript's spelling, in the same order.
A formula's pool with the new options has the range they give (every roll
of the runtime lies within it), and a
spelling the notation refuses (or options after a space) is a located error
with the hint that writes what was meant.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.emit.javascript.dice import pool_code_js
from rulesc.emit.python.dice import pool_code_python
from rulesc.lang import expr
from rulesc.runtime import dice_terms
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import AnyOf, Compare, Condition, Pool
from rulesc.runtime.errors import RuleInputError

_OPS = st.sampled_from([">=", "<=", "="])


def _compare(sides: int) -> st.SearchStrategy[Compare]:
    return st.builds(Compare, _OPS, st.integers(1, sides))


def _condition(sides: int) -> st.SearchStrategy[Condition]:
    several = st.lists(_compare(sides), min_size=2, max_size=3, unique=True)
    return st.one_of(_compare(sides), several.map(lambda cs: AnyOf(tuple(cs))))


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    """A pool with any of the options (those the pool refuses are left out)."""
    count, sides = draw(st.integers(1, 6)), draw(st.integers(2, 12))
    given: dict[str, Any] = {}
    maybe = {
        "fudge": st.just(True),
        "minimum": st.integers(1, 3),
        "maximum": st.integers(sides - 2, sides),
        "reroll": _condition(sides),
        "reroll_once": st.just(True),
        "explode": st.sampled_from(["!", "!!", "!p", "!o"]),
        "explode_at": _condition(sides),
        "unique": st.just(True),
        "keep": st.sampled_from(["kh", "kl", "dh", "dl"]),
        "target": _condition(sides),
        "failure": _condition(sides),
        "sort": st.sampled_from(["a", "d"]),
        "multiplier": st.integers(2, 10),
    }
    pool = Pool(count, sides)
    for name, values in maybe.items():
        if not draw(st.booleans()):
            continue
        tried = {**given, name: draw(values)}
        if name == "keep":
            tried["keep_count"] = draw(st.integers(1, count))
        try:  # an option the pool refuses with the others is left out
            pool = Pool(count, sides, **tried)
        except RuleInputError:
            continue
        given = tried
    return pool


def _python(pool: Pool) -> str:
    return pool_code_python(pool, str(pool.count), str(pool.sides))


@settings(max_examples=60, deadline=None)
@given(pools())
def test_the_python_code_makes_the_pool(pool: Pool) -> None:
    made = eval(_python(pool), {"__builtins__": {}, "dice_terms": dice_terms})
    assert made == pool
    assert str(made) == str(pool)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


@settings(max_examples=60, deadline=None)
@given(pools())
def test_the_javascript_code_names_the_same_options(pool: Pool) -> None:
    python = _python(pool)
    js = pool_code_js(pool, str(pool.count), str(pool.sides))
    named = re.findall(r"(\w+)=", python)
    assert re.findall(r"(\w+): ", js) == [_camel(n) for n in named]
    conditions = re.findall(r'Compare\("([<>=]+)", (\d+)\)', python)
    assert re.findall(r'Compare\("([<>=]+)", (\d+)\)', js) == conditions
    assert js.count("new $dice_terms.AnyOf([") == python.count("dice_terms.AnyOf((")


_PARAMS = {"n": expr.Param("n", "int", 1, 6)}


@pytest.mark.parametrize(
    ("formula", "lo", "hi"),
    [
        ("4d6min2", 8, 24),  # each die at least 2
        ("4d6max5", 4, 20),  # each die at most 5
        ("3d6min2max5", 6, 15),
        ("4d6r1", 8, 24),  # a 1 rerolled until it is no longer one
        ("4d6ro1", 4, 24),  # once: the new face stands, a 1 too
        ("2d10r1r3", 4, 20),  # neither 1 nor 3 stays: 2 the lowest
        ("4d6d1", 3, 18),  # the lowest dropped
        ("2d6!kh1", 1, 6),  # the highest of all the dice, those added too
        ("(n)d6!pkh1", 0, 6),  # an added die counts its face less 1
        ("min(3d6!p, 40)", 3, 40),  # the dice first rolled, and more
        ("10d10>=8f1", -10, 10),  # successes less failures
        ("3d6u", 3, 18),
        ("4d6s", 4, 24),  # sorting changes no figure
        ("4dF.1", -4, 4),
        ("(n)d6min2", 2, 36),
    ],
)
def test_a_pool_with_the_new_options_has_its_range(
    formula: str, lo: int, hi: int
) -> None:
    checked = expr.compile_formula(formula, _PARAMS)
    assert checked.interval == expr.Interval(lo, hi)


_ROLLED = ["4d6min2", "3d6min2max5", "2d10r1r3", "4d6ro1", "2d6!kh1", "1d6!p", "4dF!p"]
_ROLLED += ["10d10>=8f1", "3d6u", "4d6d1", "4dF.1", "2d6!pdl1", "6d6!okh2"]


@pytest.mark.parametrize("formula", _ROLLED)
def test_every_roll_lies_within_the_range(formula: str) -> None:
    interval = expr.compile_formula(formula, _PARAMS).interval
    assert interval is not None
    for seed in range(300):
        rolled = roll(parse_notation(formula), random.Random(seed)).total
        assert interval.contains(int(rolled)), (seed, rolled)


def test_explosions_that_add_dice_have_no_highest() -> None:
    for formula in ("1d6!p", "2d6!", "(n)d6!pdl1", "4dF!p"):
        interval = expr.compile_formula(formula, _PARAMS).interval
        assert interval is not None
        assert interval.hi is None


@pytest.mark.parametrize(
    ("formula", "message", "start", "hint"),
    [
        (
            "4d6 kh3",
            "unexpected 'kh3'",
            4,
            "write the options right after the sides: 4d6kh3",
        ),
        (
            "1 + 4d6r>2",
            "'>2' reads as 2 or more in Roll20",
            8,
            "write >=2 (Roll20's >2)",
        ),
        ("10d10>8f1", "'>8' reads as 8 or more", 5, "or >=9"),
        ("4d6cs>=5", "'cs' marks critical successes", 3, "write >=N"),
        ("dF.3", "a Fudge die is dF, dF.1 or dF.2", 2, "write dF.1"),
    ],
)
def test_a_refused_spelling_is_located(
    formula: str, message: str, start: int, hint: str
) -> None:
    with pytest.raises(expr.ExprError) as caught:
        expr.compile_formula(formula, _PARAMS)
    assert message in caught.value.message
    assert caught.value.start == start
    assert hint in (caught.value.hint or "")
