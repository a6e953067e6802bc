"""The reference's math says a pool's options in words, never their tokens."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesc.emit.markdown.dice_words import option_words
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_terms import Pool


def _pool(written: str) -> Pool:
    (term,) = parse_notation(written).terms
    assert isinstance(term.value, Pool)
    return term.value


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("4d6kh3", ["keep the 3 highest"]),
        ("4d6kl1", ["keep the lowest"]),
        ("4d6dh2", ["drop the 2 highest"]),
        ("4d6dl1", ["drop the lowest"]),
        ("3d10!", ["a die showing 10 adds a die, again while a new one does"]),
        (
            "3d10!!",
            [
                "a die showing 10 is rolled again and added to it, again while it shows it"
            ],
        ),
        (
            "3d10!p",
            [
                "a die showing 10 adds a die that counts 1 less, again while a new one shows it"
            ],
        ),
        ("3d10!o", ["a die showing 10 adds one die"]),
        (
            "3d10!>=8",
            ["a die showing 8 or more adds a die, again while a new one does"],
        ),
        ("3d6r1", ["a die showing 1 is rolled until it shows another"]),
        ("3d6ro1", ["a die showing 1 is rolled once"]),
        ("3d6r1r3", ["a die showing 1 or 3 is rolled until it shows another"]),
        ("3d6u", ["a die showing a face another shows is rolled again"]),
        ("6d10>=8f1", ["count the dice showing 8 or more", "less those showing 1"]),
        ("6d6<=2", ["count the dice showing 2 or less"]),
        ("3d6min2max5", ["a face below 2 counts as 2", "a face above 5 counts as 5"]),
        ("2d6x10", ["times 10"]),
        ("3d6s", []),  # sorting shows the dice in order: the roll is the same
        ("3d6", []),
    ],
)
def test_each_option_in_words(written: str, said: list[str]) -> None:
    assert option_words(_pool(written), sides_known=True) == said


@given(st.integers(2, 100), st.sampled_from(["!", "!!", "!p", "!o"]))
def test_the_exploding_face_is_the_die_s_highest(sides: int, token: str) -> None:
    (known,) = option_words(_pool(f"2d{sides}{token}"), sides_known=True)
    (unknown,) = option_words(_pool(f"2d{sides}{token}"), sides_known=False)
    assert known.startswith(f"a die showing {sides} ")
    assert unknown.startswith("a die showing its highest face ")
    assert not re.search(r"[!<>=]", known + unknown)
