"""An expression with a comma inside its brackets, left unquoted in a flow mapping
or list (``{when: x, then: max(a, b)}``): YAML ends the value at the comma, and
the loader says so at the value, once, with the whole expression quoted in its
hint; the hint, written in, loads as the expression. A value whose brackets do
not close on its line (``:-(``) stands as YAML reads it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import (
    MAX_QUOTED,
    RulesError,
)
from rulesc.front.loader import load_text

NAMES = st.sampled_from(["a", "bonus", "dice", "n2"])


@st.composite
def calls(draw: st.DrawFn, depth: int = 1) -> str:
    """A call of two or more arguments, some of them calls again."""
    args = draw(
        st.lists(
            calls(depth - 1) if depth and draw(st.booleans()) else NAMES,
            min_size=2,
            max_size=3,
        )
    )
    name = draw(st.sampled_from(["max", "min", "clamp", "count"]))
    return f"{name}({', '.join(args)})"


@st.composite
def expressions(draw: st.DrawFn) -> str:
    """An expression holding a call with a comma: the call alone, or compared."""
    call = draw(calls())
    after = draw(st.sampled_from(["", " > 3", ' == "hit"', " + 1"]))
    text = call + after
    assume(len(text) <= MAX_QUOTED)  # a message cuts a longer value it quotes
    return text


def _file(entry: str) -> bytes:
    return f"rules:\n  - {entry}\n".encode()


@settings(max_examples=60, deadline=None)
@given(expressions(), st.sampled_from(["mapping", "list"]), st.booleans())
def test_a_cut_off_expression_is_one_error_saying_to_quote_it(
    expression: str, shape: str, first: bool
) -> None:
    value = expression
    if shape == "mapping":
        pairs = [f"then: {value}", "when: x"]
        entry = "{" + ", ".join(pairs if first else pairs[::-1]) + "}"
    else:
        items = [value, "b"]
        entry = "[" + ", ".join(items if first else items[::-1]) + "]"
    with pytest.raises(RulesError) as caught:
        load_text(_file(entry), "x.yaml")
    (found,) = caught.value.diagnostics
    where = "{ } mapping" if shape == "mapping" else "[ ] list"
    assert found.message.startswith(
        f"a comma inside the brackets of {expression!r} ends the value in a {where}"
    ), found.message
    assert found.line == 2 and found.col == 5 + entry.index(expression)
    assert found.hint is not None
    quoted = found.hint.removeprefix("quote the whole expression: ")
    fixed = load_text(_file(entry.replace(expression, quoted)), "x.yaml").data
    assert fixed is not None
    (loaded,) = fixed["rules"]
    assert (loaded["then"] if shape == "mapping" else loaded[0 if first else 1]) == (
        expression
    )


def test_brackets_that_do_not_close_stand_as_written() -> None:
    data = load_text(_file("{face: :-(, b: 1}"), "x.yaml").data
    assert data == {"rules": [{"face": ":-(", "b": 1}]}
