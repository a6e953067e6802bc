"""Pools in formulas take the notation's options: the code each target prints makes the pool the notation reads.

The Python printer's code of a pool, run, makes a pool equal to it, every
option set (min/max, rerolls until or once on any of several conditions,
``!p``, unique, keep after an explosion, failures, sorting); the JavaScript
printer names the same options, in JavaScript's spelling, in the same order.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesc.emit.javascript.dice import pool_code_js
from rulesc.emit.python.dice import pool_code_python
from rulesc.runtime import dice_terms
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
    for name, values in maybe.items():
        if draw(st.booleans()):
            given[name] = draw(values)
    if "keep" in given:
        given["keep_count"] = draw(st.integers(1, count))
    try:
        return Pool(count, sides, **given)
    except RuleInputError:
        assume(False)
        raise


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
