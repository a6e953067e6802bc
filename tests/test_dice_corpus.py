"""The corpus of notations players type (tests/dice_corpus.tsv), each answered as its tool's documentation means it, exactly, or refused where it says."""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from rulesc.runtime.dice import DiceSyntaxError
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import DEPTH, odds

from .dice_meanings import FUNCTIONS, Number, build, chances, read, uncut
from .doc_blocks import ROOT, blocks
from .test_js_dice_notation import javascript_answers, python_answer

CORPUS = Path(__file__).with_name("dice_corpus.tsv")
TOOLS = {"Roll20", "rpg-dice-roller", "Foundry VTT", "AnyDice", "Avrae"}


@dataclass(frozen=True)
class Row:
    """A notation, where its meaning is written down, and what rulebook answers."""

    notation: str
    tool: str
    section: str
    answer: str
    note: str

    @property
    def refused(self) -> tuple[int, str] | None:
        """The offset and a word of the refusal, or None for a meaning."""
        if not self.answer.startswith("refused "):
            return None
        _, offset, word = self.answer.split(" ", 2)
        return int(offset), word


def rows() -> list[Row]:
    lines = [
        line
        for line in CORPUS.read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    return [
        Row(**record)
        for record in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    ]


ROWS = rows()
BY_NOTATION = {row.notation: row for row in ROWS}


def test_the_corpus_covers_the_tools_and_says_where() -> None:
    assert len(ROWS) >= 170 and len(BY_NOTATION) == len(ROWS)
    assert {row.tool for row in ROWS} == TOOLS
    for row in ROWS:
        assert row.section.split(":")[0].strip(), row
        assert any(
            name in row.section
            for name in ("Roll20", "rpg-dice-roller", "Foundry", "AnyDice", "Avrae")
        ), row
    refused = [row for row in ROWS if row.refused]
    assert 40 <= len(refused) < len(ROWS) - 120
    # every function of the meanings' table is used by some row
    used = {
        word
        for row in ROWS
        if not row.refused
        for word in row.answer.replace("(", " ").replace(")", " ").split()
    }
    assert set(FUNCTIONS) <= used


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.notation)
def test_each_notation_answers_its_meaning_or_is_refused_where_it_says(
    row: Row, request: pytest.FixtureRequest
) -> None:
    if (refusal := row.refused) is not None:
        offset, word = refusal
        with pytest.raises(DiceSyntaxError) as caught:
            parse_notation(row.notation)
        error = caught.value
        assert (error.offset, row.notation) == (offset, row.notation), error
        assert word in f"{error.message} {error.hint}", error
        return
    got = odds(parse_notation(row.notation))
    want = _icepool(row.answer, request.config.cache)
    kept = uncut(read(row.answer))
    assert 1 - got.tail == kept  # the tail: the chance some die was cut
    assert {value: p / kept for value, p in got.chances.items()} == want


def _icepool(meaning: str, cache: pytest.Cache | None) -> dict[Number, Fraction]:
    """icepool's chances for ``meaning``; those that take icepool more than a
    moment (1000d6: half a minute) kept in pytest's cache between runs."""
    key = "dice_corpus/" + meaning.replace("/", "|")
    if cache is not None and (kept := cache.get(key, None)) is not None:
        return {_number(v): Fraction(p) for v, p in kept}
    start = time.perf_counter()
    found = chances(meaning)
    if cache is not None and time.perf_counter() - start > 1:
        cache.set(key, [[str(v), str(p)] for v, p in found.items()])
    return found


def _number(text: str) -> Number:
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


def test_the_meanings_read_back_as_written() -> None:
    """The table's reader: numbers, fractions, words and nesting."""
    assert read("(+ (n 2 (d 6)) 3/2 -1)") == (
        "+",
        ("n", 2, ("d", 6)),
        Fraction(3, 2),
        -1,
    )
    assert chances("(+ (d 2) 1/2)") == {
        Fraction(3, 2): Fraction(1, 2),
        Fraction(5, 2): Fraction(1, 2),
    }
    assert chances("(round (/ (neg (d 4)) 2))") == {
        0: Fraction(1, 4),
        -1: Fraction(2, 4),
        -2: Fraction(1, 4),
    }
    cut = Fraction(1, 6) ** 11  # a d6 and ten more dice, all sixes
    assert uncut(read("(+ (n 2 (x (d 6) (= 6))) (xo (d 6) (= 6)))")) == (1 - cut) ** 2
    assert build(read("(>= 5)"))(5) and not build(read("(any (= 1) (= 3))"))(2)


GUIDE = ROOT / "docsite" / "guides" / "dice-notation.md"


def guide_spellings() -> list[str]:
    """The spellings the guide shows: each line of its ``dice`` blocks, before ``  #``."""
    return [
        line.split("  #")[0].strip()
        for block in blocks(GUIDE)
        if block.lang == "dice"
        for line in block.body.splitlines()
        if line.strip()
    ]


def test_the_guide_shows_corpus_rows_and_both_runtimes_answer_them_alike(
    tmp_path: Path,
) -> None:
    """Each spelling the guide shows is a row of the corpus (so exact against
    icepool, or refused where it says), and the JavaScript runtime reads, rolls
    and works out each as the Python one does (one Node process for all)."""
    shown = guide_spellings()
    assert len(shown) >= 60
    assert [text for text in shown if text not in BY_NOTATION] == []
    assert any(BY_NOTATION[text].refused for text in shown)
    cases = [{"text": text, "seed": 41, "depth": DEPTH} for text in shown]
    want = [python_answer(text, 41, DEPTH) for text in shown]
    assert javascript_answers(cases, tmp_path) == want
