"""The loader's two YAML parsers agree: libyaml's (C) supplies trees, ruamel's errors.

libyaml reads every file first; whatever it refuses, or whatever tree the builder
refuses, is read again by ruamel's pure-Python parser (compiler/front/loader.py). So the
C parser must never give a tree ruamel would not: on every corpus file (rules/, the
cookbook, tests/invalid/, every YAML file under tests/, the hostile inputs) and on
mutations of them, a tree from libyaml is ruamel's, with the same positions, key
positions, scalar spans and styles; and ``load_text`` answers exactly as ruamel
alone does, errors included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.front import loader
from tests.invalid_cases import load_cases
from tests.test_hostile_yaml import BILLION_LAUGHS

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("**/*.yaml"))
COOKBOOK = sorted((ROOT / "tests" / "cookbook").glob("**/*.yaml"))
EVERY_YAML = sorted({*RULES, *COOKBOOK, *(ROOT / "tests").glob("**/*.yaml")})
CASES = load_cases()

# What YAML 1.1 (libyaml) and 1.2 (ruamel) read differently, what the builder
# refuses, and the corners of the syntax: each must come out as ruamel has it.
SNIPPETS = [
    "a: 1\n",
    "a: 1",  # no line end at the end
    "",
    "\n",
    "# only a comment\n",
    "a:\n",
    "a:\n  - \n  -\nb: 2\n",
    "a: {b: , c}\n",
    "a: [1, , 2]\n",
    "a: {b}\n",
    "a: yes\nb: on\nc: 0755\nd: 0o17\ne: 1_000\nf: 12:30\n",
    "a: 1.5\nb: .inf\nc: 1e3\nd: 2001-12-14\n",
    'a: "\\/ \\x41 \\u00e9 \\U0001F600 \\N \\_ \\L \\P"\n',
    "a: 'it''s'\n",
    "a: |\n  x\n\n  y\nb: >-\n  folded\n  text\n\n  more\n",
    "a: |2\n   x\n  y\n",
    "a: |-\n  x\n#c\n",
    "a: |#c\n  x\n",
    "a: >\n  \n  x\n",
    "a: >\n\n  x\n   \n  y\n",
    "a: |+\n  x\n\n\nb: 1\n",
    "|\n  x\n",
    ">+\n#2001-01-01 \n",
    "- a\n- b: c\n  d: e\n-\n",
    "a:\tb\n",
    "a: b\tc\n",
    "\tb: c\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: !tag x\n",
    "%YAML 1.2\n---\na: 1\n",
    "%TAG ! tag:x,2000:\n---\na: 1\n",
    "--- \na: 1\n...\n",
    "a: 1\n---\nb: 2\n",
    "? a\n: b\n",
    "? [a]\n: b\n",
    "a: 1\na: 2\n",
    "<<: {a: 1}\n",
    "1: a\n",
    "null: a\n",
    "a: b: c\n",
    "a: [b, {c: d}, [e]]\n",
    "a: {b: [c, d], e: {f: g}}\n",
    "a: 'x\n  y'\nb: \"x\n\n  y\"\n",
    "a: x\n  y\n\n  z\n",
    "a: x # comment\nb: 'y' # c\n",
    'a: é🙂\nb: "\\u00e9"\nc: ü\n',
    "é: 1\n🙂: 2\n",
    "a: [" * 40 + "]" * 40 + "\n",
    "a:\n" + "".join("  " * n + "- \n" for n in range(1, 6)),
    "a: " + "x" * 2000 + "\n",
    "a: @b\n",
    "a: `b\n",
    "a: %b\n",
    "- - - a\n",
    "a: -\n",
    "a: - b\n",
    "a:\n- b\n- c\n",
    'a: "\\\n  b"\n',
]


def _fields(source: loader.SourceFile) -> tuple[Any, ...]:
    return (
        source.data,
        source.positions,
        source.key_positions,
        source.scalars,
        source.key_scalars,
        source.first_line,
        source.text,
    )


def _read(text: str, *, fast: bool) -> tuple[Any, ...] | None:
    """The tree one parser gives (None when it or the builder refuses)."""
    source = loader.SourceFile("x.yaml", None, text=text)
    events = loader._fast_events(text) if fast else loader._reference_events(text)
    try:
        source.data = loader._Builder(source, text, events).document()
    except (loader._Fail, loader._Refused):
        return None
    return _fields(source)


def _agree(text: str) -> bool:
    """A tree from libyaml is ruamel's; True when libyaml gave one."""
    try:  # what the loader lets through to a parser
        loader._decode(text.encode("utf-8", "surrogatepass"))
    except loader._Fail:
        return False
    if not loader._fast_suits(text):
        return False
    fast = _read(text, fast=True)
    if fast is None:
        return False
    assert fast == _read(text, fast=False), f"the parsers differ on {text[:200]!r}"
    return True


def _load(raw: bytes, monkeypatch: pytest.MonkeyPatch, *, fast: bool) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(loader, "FAST_PARSER", fast)
        try:
            return _fields(loader.load_text(raw, "rules/s/x.yaml"))
        except RulesError as exc:
            return exc.diagnostics


def _texts() -> list[str]:
    found = [p.read_text(encoding="utf-8") for p in EVERY_YAML]
    for case in CASES:
        try:
            found.append(loader._decode(case.data))
        except loader._Fail:
            continue
    return found


TEXTS = _texts()


@pytest.mark.parametrize("path", RULES + COOKBOOK, ids=lambda p: p.name)
def test_libyaml_reads_every_rules_file_as_ruamel_does(path: Path) -> None:
    assert _agree(path.read_text(encoding="utf-8")), "libyaml read it"


def test_a_tree_from_libyaml_is_ruamels_on_every_corpus_file() -> None:
    assert len(TEXTS) > 100
    for text in TEXTS:
        _agree(text)


@pytest.mark.parametrize("text", SNIPPETS)
def test_a_tree_from_libyaml_is_ruamels_on_the_corners(text: str) -> None:
    _agree(text)


@pytest.mark.parametrize(
    "raw",
    [case.data for case in CASES] + [BILLION_LAUGHS, b"\xef\xbb\xbfa: 1\n"],
    ids=[case.name for case in CASES] + ["billion_laughs", "bom"],
)
def test_load_answers_as_ruamel_alone_does(
    raw: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _load(raw, monkeypatch, fast=True) == _load(raw, monkeypatch, fast=False)


TOKENS = [
    ":", ": ", "- ", "\t", " ", "\n", '"', "'", "{", "}", "[", "]", ",", "#", "&a ",
    "*a", "!", "!!str ", "? ", "|", ">", "%", "---", "...", "\\", "\\/", "\\x41",
    "é", "🙂", "\n  ", "@", "`", "~", "|-\n", ">+\n", "|\n", ">-\n", "  #c\n",
    "#c\n", "\n   \n", "|2\n", "|-#x\n", "\n\n", " # c", ">-\n  \n", "<<: ",
]  # fmt: skip


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        col = draw(st.integers(0, len(lines[at])))
        cut = draw(st.integers(0, 2))
        token = draw(st.sampled_from(TOKENS) | st.text(max_size=2))
        lines[at] = lines[at][:col] + token + lines[at][col + cut :]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=_mutated())
def test_a_tree_from_libyaml_is_ruamels_on_mutated_files(text: str) -> None:
    _agree(text)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(text=st.lists(st.sampled_from([*TOKENS, "a", "1", "x y", "true"]), max_size=20))
def test_a_tree_from_libyaml_is_ruamels_on_token_soup(text: list[str]) -> None:
    _agree("".join(text) + "\n")
