"""Text from the rules in the site's math: KaTeX shows it as text, exactly.

A label or a title that a formula names reaches the docs inside ``\\text{...}``
(``compiler.emit.markdown.math.latex_text``), which the site renders with the KaTeX it
ships (docsite/node_modules/katex), as docsite/rulebook.js does: no error, no
element KaTeX would not make for plain text (no link, no image, no style from
the rules), and the text a reader sees is the rules' text, whitespace folded,
with KaTeX's own quotes (a straight quote or backtick reads as a curly one).
All the cases (300, drawn by Hypothesis) run in one Node process.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.emit.markdown.math import latex_text

from .js_node import missing, node
from .test_sinks import one_line
from .test_strings_are_data import HOSTILE

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "docsite" / "node_modules" / "katex" / "dist" / "katex.mjs"

# One Node process answers every case: a line of JSON (the TeX) in, a line out.
_RENDER = """
import katex from %s;
import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    answer = { html: katex.renderToString(JSON.parse(line), {
      displayMode: false, throwOnError: true, output: "html", strict: "ignore" }) };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\\n");
}
"""


# What KaTeX makes of plain text: spans with its classes and inline styles of
# sizes, and nothing else (an <a>, <img>, href or url() would come from the text).
_TAG = re.compile(r"<(/?)([a-zA-Z0-9]+)([^>]*)>")
_ATTRIBUTE = re.compile(r'\s([a-zA-Z-]+)="([^"]*)"')
_QUOTES = str.maketrans(
    {"'": "\N{RIGHT SINGLE QUOTATION MARK}", "`": "\N{RIGHT SINGLE QUOTATION MARK}"}
)

# Printable text with the characters LaTeX and HTML treat specially, letters
# outside ASCII that KaTeX sets whole (or as letter and accent: ``é``), and the
# hostile pieces of test_strings_are_data that are ASCII (KaTeX draws some
# symbols from parts, ``©`` as ``c`` in a circle: not what this test is about).
_ALPHABET = st.sampled_from(
    [*"ab -'`\"\\{}$&#%_^~<>|!?,.;:/*=+()[]@0", "中", "ж", "€", "é"]
)
_PIECES = st.sampled_from([p for p in HOSTILE if p.isascii()])
_TEXTS = st.lists(
    st.one_of(_PIECES, st.text(_ALPHABET, min_size=1, max_size=12)),
    min_size=1,
    max_size=4,
).map("".join)


class _KaTeX:
    """KaTeX in a Node process of its own, rendering as the site does."""

    def __init__(self) -> None:
        if not KATEX.is_file():
            missing("KaTeX (docsite/node_modules)")
        self.process = subprocess.Popen(
            [node(), "--input-type=module", "-e", _RENDER % json.dumps(KATEX.as_uri())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # KaTeX warns of glyphs its fonts lack
            text=True,
            encoding="utf-8",
        )

    def render(self, tex: str) -> dict[str, str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(tex) + "\n")
        self.process.stdin.flush()
        answer: dict[str, str] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def katex() -> Iterator[_KaTeX]:
    running = _KaTeX()
    yield running
    running.close()


_DOTLESS = str.maketrans(
    "\N{LATIN SMALL LETTER DOTLESS I}\N{LATIN SMALL LETTER DOTLESS J}", "ij"
)


def _letters(text: str) -> str:
    """``text`` with its accents left out: KaTeX sets an accented letter as the
    letter and a spacing accent (a grave A as an A and a modifier letter grave,
    a grave i as a dotless i and the same), which reads the same."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFD", text.translate(_DOTLESS))
        if unicodedata.category(ch) not in {"Mn", "Lm", "Sk"}
    )


def _shown(text: str) -> str:
    """What a reader should see of ``text``: one line, every character that acts
    on text or hides in it as its escape, KaTeX's quotes."""
    return one_line(text).translate(_QUOTES)


@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=_TEXTS)
def test_katex_shows_rules_text_as_text(katex: _KaTeX, text: str) -> None:
    answer = katex.render(rf"\text{{{latex_text(text)}}}")
    assert "error" not in answer, answer
    html = answer["html"]
    for closing, tag, attributes in _TAG.findall(html):
        assert tag == "span", tag
        if closing:
            continue
        for name, value in _ATTRIBUTE.findall(attributes):
            assert name in {"class", "style", "aria-hidden"}, name
            assert "url(" not in value and "javascript" not in value, value
    seen = unescape(_TAG.sub("", html)).replace("\N{NO-BREAK SPACE}", " ")
    assert _letters(" ".join(seen.split())) == _letters(" ".join(_shown(text).split()))
