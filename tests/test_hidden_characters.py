"""Hidden characters: a control, bidirectional, separator, format, private-use,
unassigned or non-character code point in the rules' text reaches no generated
file raw; it is written as its escape (compiler/common/visible.py) wherever the text
is. NUL and lone surrogates, which no output can carry, are located errors.

A Hypothesis property builds a small system whose titles, summary and
descriptions are made of such characters (written as YAML escapes, as a rules
editor would), and checks every generated file: the Python and JavaScript
modules (comments and docstrings included), the TypeScript types, the Markdown
pages, the charts, the readmes and pyproject.toml; rules.json and the other
JSON files are JSON, which holds text exactly (tests/test_rules_json.py). The
escapes of TOML strings and of the forms' JSON give the text back exactly.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.common.visible import json_visible
from rulesc.emit.python.views import toml_string
from rulesc.pipeline import build, load_systems

from .test_sinks import shown_escaped
from .test_strings_are_data import FIELDS, _write

# Characters that act on text or hide in it, as a rules editor may write them
# with YAML's escapes: controls, bidirectional controls and isolates, zero-width
# and other format characters, line and paragraph separators, private-use,
# unassigned and non-characters (NUL is refused, below).
_NAMED = (
    *("\x01", "\x07", "\x0b", "\x0c", "\x1b", "\x1c", "\x1f", "\x7f", "\x85", "\x9b"),
    *("\u00ad", "\u061c", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e"),
    *("\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2028"),
    *("\u2029", "\u2060", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff"),
    *("\ue000", "\ufdd0", "\ufffe", "\uffff", "\U000e0001", "\U000e007f"),
    *("\U000f0000", "\U0010fffd", "\U0010ffff", "\u0378", "\U0003fffe"),
)
_HIDDEN = st.one_of(
    st.sampled_from(_NAMED),
    st.characters(
        categories=["Cc", "Cf", "Zl", "Zp", "Co", "Cn"], exclude_characters="\x00"
    ),
)
# A text holding some: a word first (a title is never empty), white space too.
HIDDEN_TEXT = st.lists(
    st.one_of(_HIDDEN, st.sampled_from(("Cover", " ", "\t", "\n", "a-b"))),
    min_size=1,
    max_size=8,
).map(lambda parts: "Word " + "".join(parts))

PLAIN = dict.fromkeys(FIELDS, "Plain") | {
    "file": "sources.txt",
    **dict(zip("abcd", ("Alpha", "Bravo", "Charlie", "Delta"), strict=True)),
    **dict(zip(("unit", "unit_b"), ("Unit1", "Unit2"), strict=True)),
}
# Where the texts go: titles (the system's and rules', a column's, a key's),
# the summary, a description, the source's work and section, a ruling.
_PLACES = ("title", "summary", "col_description", "col_title", "work", "question")
# Files whose text is JSON: it holds any text exactly, as JSON escapes or not.
_JSON = (".json",)
_FOLDED = " \t\n\r"  # folded into a space where the text is one line


def _hidden(text: str) -> set[str]:
    return {ch for ch in text if not ch.isprintable() and ch not in _FOLDED}


def _escaped(ch: str) -> re.Pattern[str]:
    r"""``ch`` as any output writes it: ``\x1b``, ``\u202e``, ``\U000e0001`` (the
    Markdown's backslash escaped, a JavaScript string's ``\u001b`` or pair)."""
    code = ord(ch)
    if code >= 0x10000:
        high, low = divmod(code - 0x10000, 0x400)
        pair = rf"\\+u{0xD800 + high:04x}\\+u{0xDC00 + low:04x}"
        return re.compile(rf"\\+U{code:08x}|{pair}")
    return re.compile(
        rf"\\+(?:x{code:02x}|u{code:04x})" if code < 0x100 else rf"\\+u{code:04x}"
    )


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(texts=st.lists(HIDDEN_TEXT, min_size=len(_PLACES), max_size=len(_PLACES)))
def test_no_hidden_character_reaches_a_file_raw(
    tmp_path_factory: pytest.TempPathFactory, texts: list[str]
) -> None:
    values = PLAIN | dict(zip(_PLACES, texts, strict=True))
    rules = _write(tmp_path_factory.mktemp("hidden"), values)
    files = build(rules, run_examples=False).files
    for path, blob in files.items():
        if path.endswith(_JSON):
            continue
        text = blob.decode("utf-8")
        raw = {hex(ord(ch)) for ch in text if not ch.isprintable() and ch not in "\n"}
        assert not raw, (path, raw)
    # each hidden character of the system's title is shown as its escape
    hidden = _hidden(values["title"])
    for path in ("docs/textsys.md", "rulebook/textsys.py", "js/textsys.d.ts"):
        text = files[path].decode("utf-8")
        for ch in hidden:
            assert _escaped(ch).search(text), (path, shown_escaped(ch))


@pytest.mark.parametrize("place", (*_PLACES, "a", "section", "note"))
def test_a_nul_is_a_located_error(tmp_path: Path, place: str) -> None:
    values = PLAIN | {place: f"{PLAIN[place]}\x00"}
    rules = _write(tmp_path, values)
    with pytest.raises(RulesError) as caught:
        load_systems(rules)
    (error, *_) = caught.value.diagnostics
    assert "NUL character (U+0000)" in error.message
    assert error.file.startswith("rules/textsys/") and error.line > 1


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=HIDDEN_TEXT)
def test_toml_and_json_text_hold_the_text_with_escapes(text: str) -> None:
    """pyproject.toml's strings (the package's description) and the forms' JSON:
    the same text read back, no hidden character in the file."""
    written = toml_string(text)
    assert tomllib.loads(f"d = {written}")["d"] == text
    dumped = json_visible(json.dumps(text, ensure_ascii=False))
    assert json.loads(dumped) == text
    for shown in (written, dumped):
        assert shown.isprintable(), shown
