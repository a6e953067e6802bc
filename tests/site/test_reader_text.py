"""Every page of the reference reads in the players' words: no rule id, no
kind, no code, no ``None`` and no raw TeX in its reader text (issue 42's shared
design, section 2), the parts for programmers kept apart."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.kinds.registry import kinds

from ..conftest import ROOT
from .reader_text import (
    CodeWords,
    Reading,
    code_words,
    offences,
    pages_of,
    reader_text,
)

KIND_TEXTS = frozenset(kind.text for kind in kinds().values())


def words_of_build(generated: Path) -> CodeWords:
    """The code words of a build: its rules.json's identifiers, the kinds' names."""
    return CodeWords.of(generated / "rules.json", KIND_TEXTS)


def test_every_page_reads_in_players_words(site: Path) -> None:
    pages = pages_of(site)
    assert len(pages) > 30  # the index, 3 overviews, every rule's page
    found = offences(site, words_of_build(ROOT / "generated"))
    assert not found, "code words in reader text:\n" + "\n".join(found)


def test_search_indexes_players_words_only(site: Path) -> None:
    """No contract, no section for programmers, no TeX and no code word in the
    search index's entries of the reference."""
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    entries = [
        e for e in index["docs"] if not e["location"].startswith(("guides/", "rules/"))
    ]
    assert len(entries) > 30
    words = words_of_build(ROOT / "generated")
    found = []
    for entry in entries:
        assert not entry["location"].startswith("contract"), entry["location"]
        assert "for-programmers" not in entry["location"], entry["location"]
        text = re.sub(r"<[^>]+>", " ", f"{entry['title']}\n{entry['text']}")
        found += [
            f"{entry['location']}: {word!r} in “{context}”"
            for word, context in code_words(Reading(text=text), words)
        ]
    assert not found, "code words in the search index:\n" + "\n".join(found)


def _page(article: str) -> str:
    return f'<html><body><article class="md-content__inner">{article}</article></body></html>'


WORDS = CodeWords(frozenset({"cover_ac", "CoverLevel", "table"}), KIND_TEXTS)
IDENTIFIERS = st.from_regex(r"[a-z]{1,8}(_[a-z]{1,8}){1,3}", fullmatch=True)


@settings(max_examples=25)
@given(IDENTIFIERS)
def test_a_snake_case_word_is_found_with_its_context(word: str) -> None:
    reading = reader_text(_page(f"<p>The answer is {word} here.</p>"))
    assert (word, f"The answer is {word} here.") in code_words(reading, WORDS)


@settings(max_examples=25)
@given(IDENTIFIERS)
def test_programmers_parts_math_and_scripts_are_not_reader_text(word: str) -> None:
    html = _page(
        f'<p>Plain words.</p><div class="rb-programmers"><h2>For programmers</h2>'
        f"<p>{word}<br>{word}</p><table><tr><td>{word}</td></tr></table></div>"
        f'<span class="arithmatex">\\(\\textit{{dice}}\\)</span>'
        f"<script>var {word} = null;</script>"
        f'<details class="rb-programmers"><summary>Calls</summary>{word}()</details>'
    )
    reading = reader_text(html)
    assert reading.text == "Plain words."
    assert code_words(reading, WORDS) == []


def test_each_kind_of_code_word_is_named() -> None:
    html = _page(
        "<p>It answers None, or True.</p><p>Write \\frac here.</p>"
        "<p>A CoverLevel, not a Cover Level.</p>"
        "<ul><li><a>Cover</a>: a table.</li></ul>"
        "<p><code>count(pool, 8, 10)</code> and <code>table</code> and <code>4d6</code></p>"
        '<span class="arithmatex">\\(\\operatorname{rolls}(x) + \\textit{a\\_b} + \\text{CoverLevel}\\)</span>'
    )
    found = [word for word, _ in code_words(reader_text(html), WORDS)]
    assert sorted(found) == sorted(
        [
            "None",
            "True",
            "\\frac",
            "CoverLevel",
            "CoverLevel",
            "a table",
            "count(pool, 8, 10)",
            "table",
            "\\operatorname{rolls}",
            "\\_",
        ]
    )
