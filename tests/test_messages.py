"""The runtimes' one table of messages (rulesc.runtime._messages): both runtimes refuse
in its words, neither writes them by hand, and the JavaScript runtime holds the table
the build writes in."""

from __future__ import annotations

import json
import re
import subprocess
from enum import StrEnum
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.core.checks import SAYS
from rulesc.runtime import _support
from rulesc.runtime._messages import MESSAGES, say
from rulesc.runtime.errors import RuleInputError

from .js_node import PACKAGE, node

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    ROOT / "compiler" / "runtime" / "_support.py",
    ROOT / "compiler" / "runtime_js" / "_support.js",
)


def test_the_runtimes_say_the_messages_of_the_table_alone() -> None:
    said = {}
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        said[source.name] = set(re.findall(r'say\(\s*"(\w+)"', text))
        for words in MESSAGES.values():  # no wording written again by hand
            for piece in re.split(r"\{\w+\}", words):
                assert len(piece) < 10 or piece not in text, (source.name, piece)
    assert said["_support.py"] | said["_support.js"] == set(MESSAGES)
    # (Python's alone: a Mapping's items are read through its own code)
    assert said["_support.py"] - said["_support.js"] == {"unread_mapping"}


def test_every_check_of_the_core_says_a_message_of_the_table() -> None:
    assert {key for keys in SAYS.values() for key in keys} <= set(MESSAGES)


def test_a_message_puts_in_its_values_as_they_are() -> None:
    assert say("not_int", name="{value}", value="{name}") == (
        "{value} must be an int, not {name}"
    )


class _Side(StrEnum):
    LEFT = "Left"
    RIGHT = "Right"


def test_a_mapping_with_two_keys_for_one_label_is_refused() -> None:
    by_label = {m.value.casefold(): m for m in _Side}
    given_twice = {"left": "Left", "LEFT": "Right", "Right": "Left"}
    with pytest.raises(RuleInputError, match="two keys for 'Left': 'left' and 'LEFT'"):
        _support.mapping(_Side, by_label, _Side, by_label, given_twice, "sides")
    with pytest.raises(RuleInputError, match="sides has no value for 'Right'"):
        _support.mapping(_Side, by_label, _Side, by_label, {"Left": "Left"}, "sides")


_SCRIPT = """
import { MESSAGES } from "./_messages.js";
import * as $ from "./_support.js";
const cases = JSON.parse(process.argv[1]);
const said = cases.map(([value, name, lo, hi]) => $.badInt(value, name, lo, hi).message);
console.log(JSON.stringify({ table: MESSAGES, said }));
"""


@settings(max_examples=1, deadline=None)
@given(
    cases=st.lists(
        st.tuples(
            st.integers(-(2**53) + 1, 2**53 - 1),
            st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True),
            st.none() | st.integers(-100, 0),
            st.none() | st.integers(1, 100),
        ),
        min_size=30,
        max_size=30,
    )
)
def test_both_runtimes_refuse_an_int_in_the_same_words(
    cases: list[tuple[int, str, int | None, int | None]],
) -> None:
    """One run of Node for a batch of drawn arguments (outside their ranges
    or not): the JavaScript runtime holds the table and says what Python says."""
    done = subprocess.run(
        [node(), "--input-type=module", "-e", _SCRIPT, json.dumps(cases)],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    assert found["table"] == dict(MESSAGES)
    python = [str(_support.bad_int(v, name, lo, hi)) for v, name, lo, hi in cases]
    assert found["said"] == python
