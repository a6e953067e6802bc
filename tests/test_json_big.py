"""Every odds value ``dumps`` can write, ``loads`` and ``fraction`` read back: an
exact chance of any size (past Python's limit of 4,300 digits on turning an
int into text, which is neither asked nor changed) is written digit for digit,
the same text in Python and JavaScript, and read back as the very fraction."""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.runtime.dice_odds import Odds
from rulesc.runtime.errors import RuleInputError
from rulesc.runtime.json import dumps, fraction, loads, to_data
from rulesc.runtime.odds import Chances

from .js_node import PACKAGE, node_json

LIMIT = 4300  # Python's own, on int <-> text


@st.composite
def chances(draw: st.DrawFn) -> Chances[int]:
    """Chances whose fractions have up to 20,000 digits above and below."""
    weights = [
        draw(st.integers(1, 10) | st.builds(_huge, st.integers(1, 66_000)))
        for _ in range(draw(st.integers(1, 4)))
    ]
    denominator = sum(weights) + draw(st.builds(_huge, st.integers(1, 66_000)))
    tail = Fraction(denominator - sum(weights), denominator)
    pairs = [(v, Fraction(w, denominator)) for v, w in enumerate(weights)]
    return Chances(pairs, tail)


def _huge(bits: int) -> int:
    """A whole number of about ``bits`` bits, odd (so it rarely cancels)."""
    return int(3 ** (bits * 631 // 1000)) | 1


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(value=chances())
def test_dumps_and_loads_round_trip_chances_of_any_size(value: Chances[int]) -> None:
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(LIMIT)
    try:
        text = dumps(value)
        data = loads(text)
        assert data == to_data(value)
        assert isinstance(data, dict)
        assert {int(k): fraction(v) for k, v in data.items()} == dict(value)
        odds = Odds(dict(value), value.tail)
        read = loads(dumps(odds))
        assert isinstance(read, dict) and isinstance(read["chances"], dict)
        assert fraction(read["tail"]) == value.tail
        assert sys.get_int_max_str_digits() == LIMIT  # the caller's, untouched
    finally:
        sys.set_int_max_str_digits(before)


def test_some_chance_is_past_python_s_limit() -> None:
    big = Chances([(1, Fraction(1, _huge(20_000)))], 1 - Fraction(1, _huge(20_000)))
    assert max(len(run) for run in re.findall("[0-9]+", dumps(big))) > LIMIT


@pytest.mark.parametrize(
    "text", ["1/0", "", "1/2/3", "a/2", "1.5", " 1", "+1", "١", None, 3, "1_0"]
)
def test_fraction_refuses_what_is_not_a_fraction(text: Any) -> None:
    with pytest.raises(RuleInputError, match="a fraction is text"):
        fraction(text)


def test_loads_reads_an_integer_of_any_length_and_refuses_what_is_not_json() -> None:
    assert loads("1" * 10_000) == (10**10_000 - 1) // 9
    with pytest.raises(RuleInputError, match="not JSON text"):
        loads("{")


def test_javascript_writes_and_reads_the_same_text() -> None:
    values = [
        Chances([(1, Fraction(_huge(bits), _huge(bits + 7)))], Fraction(0))
        for bits in (10, 20_000, 60_000)
    ]
    texts = [dumps(v) for v in values]
    script = f"""
import {{ dumps, fraction, loads }} from {json.dumps((PACKAGE / "json.js").as_uri())};
import {{ Chances }} from {json.dumps((PACKAGE / "odds.js").as_uri())};
const texts = {json.dumps(texts)};
console.log(JSON.stringify(texts.map((text) => {{
  const read = Object.entries(loads(text)).map(([k, v]) => [Number(k), fraction(v)]);
  return dumps(new Chances(read, fraction("0")));
}})));
"""
    assert node_json(script) == texts
