"""Hostile rules data: long values, symbolic links, digits of other scripts.

- An error quoting a long value (a key, a text where a number belongs) cuts it
  to ``MAX_QUOTED`` characters, an ellipsis and its length, in every format.
- A symbolic link under the rules folder leading outside it, to nothing, or in
  a loop is a located error naming the link; its target is never read.
- A digit of another script in dice notation is refused at that character.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import main
from rulesc.common.diagnostics import (
    MAX_QUOTED,
    Diagnostic,
    RulesError,
    format_diagnostics,
    quoted,
    shorten,
)
from rulesc.front.loader import load_text
from rulesc.front.validate import validate
from rulesc.pipeline import load_sources
from rulesc.runtime.dice import DiceSyntaxError, parse_dice
from rulesc.workbench import display

from .conftest import RULES

HEAD = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
LONGEST_LINE = 2 * MAX_QUOTED + 120  # an error's text and two cut values

# -- long values ------------------------------------------------------------------

# Rules files with one long value; {v} is where it goes (a key, text, a number's
# place, an enum's, a name's).
TEMPLATES = {
    "text for an int": "name: other, min: {v}",
    "text for an int, quoted": 'name: other, min: "{v}"',
    "an unknown key": "name: other, {v}: 1",
    "a name": "name: {v}",
    "a type": "name: other, type: {v}",
    "a duplicate key": "name: other, {v}: 1, {v}: 2",
    "a date-like text": "name: other, min: 2024-01-01T{v}",
}
FORMULA = """system: d20_scifi
rules:
  - id: broken
    kind: formula
    title: A formula
    summary: A broken formula.
    source: {{section: Nowhere}}
    function: broken
    parameters:
      - {{name: bonus, type: int, min: 0, max: 5, description: A bonus.}}
      - {{description: Another., max: 5, {field}}}
    expression: 2 + bonus
"""


def _errors(text: str) -> list[Diagnostic]:
    raw = (HEAD + text).encode()
    try:
        source = load_text(raw, "rules/d20_scifi/long.yaml")
    except RulesError as exc:
        return exc.diagnostics
    return validate(source)


def _outputs(errors: list[Diagnostic]) -> list[str]:
    """Every format's text: text, json (its strings), github, and the terminal's."""
    github = display.github(errors).replace("%0A", "\n")  # one line per part
    found = [format_diagnostics(errors, "text"), github]
    for item in json.loads(format_diagnostics(errors, "json")):
        found += [str(v) for v in item.values() if v is not None]
    return found


@pytest.mark.parametrize("length", [MAX_QUOTED + 1, 200, 5_000, 100_000])
@pytest.mark.parametrize("where", sorted(TEMPLATES))
def test_a_long_value_is_quoted_cut_in_every_format(where: str, length: int) -> None:
    value = ("k" + "x" * length)[:length]
    field = TEMPLATES[where].format(v=value)
    errors = _errors(FORMULA.format(field=field))
    assert errors, where
    for text in _outputs(errors):
        for line in text.splitlines():
            assert len(line) <= LONGEST_LINE, (where, line[:200])
    message = " ".join(d.message + (d.hint or "") for d in errors)
    quoting = value[:40] in message
    if length <= 1000:  # a longer key is a YAML syntax error, quoting nothing
        assert quoting, message
    if quoting:
        assert "characters)" in message and "\N{HORIZONTAL ELLIPSIS}" in message


@pytest.mark.parametrize("length", [10, MAX_QUOTED, 300, 100_000])
def test_a_long_line_is_shown_around_its_caret_on_a_terminal(
    tmp_path: Path, length: int
) -> None:
    path = tmp_path / "rules" / "s" / "f.yaml"
    path.parent.mkdir(parents=True)
    line = "a" * length + " bad " + "b" * length
    path.write_text(f"# head\nkey: {line}\n", encoding="utf-8")
    at = 6 + length + 1  # the column of "bad"
    error = Diagnostic("rules/s/f.yaml", 2, at, "a problem")
    shown = display.text([error], root=tmp_path, snippets=True)
    rows = shown.splitlines()
    assert all(len(r) <= LONGEST_LINE for r in rows), rows
    source, caret = rows[2], rows[3]
    start = caret.index("^")
    assert source[start : start + 3] == "bad"


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(["unknown key {}", "{} is not one", "a {}, b {}"]))
def test_quoted_and_shorten_bound_any_text(value: str, shape: str) -> None:
    shown = quoted(value)
    assert len(shown) <= MAX_QUOTED + 30
    if len(repr(value)) <= MAX_QUOTED + 2:
        assert shown == repr(value)
    else:
        assert shown.endswith(f"({len(value):,} characters)")
        assert "\N{HORIZONTAL ELLIPSIS}" in shown
        # the head is a prefix of the text (its quotes are repr's own choice,
        # which may differ from the whole text's), and holds its start
        head = ast.literal_eval(shown.rsplit(" (", 1)[0])
        assert head.endswith("\N{HORIZONTAL ELLIPSIS}")
        assert value.startswith(head[:-1]) and len(head) > 1
    message = shape.format(*[quoted(value)] * shape.count("{}"))
    assert shorten(message) == message  # what quoted cut, shorten leaves
    assert shorten(shorten(shape.format(*[repr(value)] * shape.count("{}")))) == (
        shorten(shape.format(*[repr(value)] * shape.count("{}")))
    )
    long = shape.format(*[repr(value)] * shape.count("{}"))
    assert len(Diagnostic("f", 1, 1, long).message) <= len(shape) + 3 * (
        MAX_QUOTED + 30
    )


def test_words_with_apostrophes_are_not_cut() -> None:
    text = "the rule's " + "x" * 300 + " isn't quoted"
    assert shorten(text) == text


# -- symbolic links -----------------------------------------------------------------

SECRET = "SECRET-CONTENT-4f1d"


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """A project: rules/ (one system), and beside it files rules must not reach."""
    rules = tmp_path / "project" / "rules"
    shutil.copytree(RULES / "d20_scifi", rules / "d20_scifi")
    outside = tmp_path / "project" / "outside"
    outside.mkdir()
    (tmp_path / "project" / "outside.yaml").write_text(f"{SECRET}: 1\n")
    (outside / f"{SECRET}.yaml").write_text(f"{SECRET}: 1\n")
    (outside / f"{SECRET}.json").write_text("{}")
    (outside / "system.yaml").write_text(f"{SECRET}: 1\n")
    os.mkfifo(outside / "fifo.yaml")  # reading it would block the test for ever
    return rules


# (where the link is, relative to rules/; what it points to; the expected message)
OUTSIDE = "symbolic link leading outside the rules folder rules/"
NOWHERE = "symbolic link to nothing: its target does not exist"
LOOP = "symbolic link that loops: following it never ends"
SHAPES = [
    ("d20_scifi/passwd.yaml", "/etc/passwd", OUTSIDE),
    ("d20_scifi/out.yaml", "../../outside.yaml", OUTSIDE),
    ("d20_scifi/fifo.yaml", "../../outside/fifo.yaml", OUTSIDE),
    ("d20_scifi/abs.yaml", "{project}/outside.yaml", OUTSIDE),
    ("d20_scifi/dangling.yaml", "nowhere.yaml", NOWHERE),
    ("d20_scifi/dangling_outside.yaml", "/nonexistent/x.yaml", NOWHERE),
    ("d20_scifi/self.yaml", "self.yaml", LOOP),
    ("d20_scifi/ping.yaml", "pong.yaml", LOOP),
    ("evil", "../outside", OUTSIDE),
    ("etc", "/etc", OUTSIDE),
    ("gone", "../gone", NOWHERE),
    ("round", "round", LOOP),
]


@pytest.mark.parametrize("link,target,message", SHAPES, ids=[s[0] for s in SHAPES])
def test_a_link_out_of_the_rules_folder_is_refused_unread(
    linked: Path,
    link: str,
    target: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    place = linked / link
    place.symlink_to(target.format(project=linked.parent))
    if link.endswith("ping.yaml"):
        (place.parent / "pong.yaml").symlink_to("ping.yaml")
    with pytest.raises(RulesError) as caught:
        load_sources(linked)
    shown = f"rules/{link}"
    assert [
        (d.line, d.col, d.message) for d in caught.value.diagnostics if d.file == shown
    ] == [(1, 1, message)]
    for fmt in ("text", "json", "github"):
        code = main(["validate", "--rules", str(linked), "--format", fmt])
        out, err = capsys.readouterr()
        assert code == 1
        assert shown in out + err
        assert SECRET not in out + err
        assert "root:" not in out + err  # /etc/passwd's first line
        assert str(linked.parent / "outside") not in out + err


def test_a_link_inside_the_rules_folder_is_followed(linked: Path) -> None:
    (linked / "d20_scifi" / "cover_again.yaml").symlink_to("cover.yaml")
    (linked / "mirror").symlink_to("d20_scifi")
    (linked / "mirror2").symlink_to(linked / "d20_scifi")  # absolute, still inside
    shown = {
        source.path for meta, files in load_sources(linked) for source in (meta, *files)
    }
    assert {
        "rules/d20_scifi/cover_again.yaml",
        "rules/mirror/cover.yaml",
        "rules/mirror2/cover_again.yaml",
    } <= shown


# -- digits of other scripts in dice notation ---------------------------------------

OTHER_DIGITS = [
    chr(code)
    for code in range(0x80, sys.maxunicode + 1)
    if unicodedata.category(chr(code)) in ("Nd", "No")
]
POSITIONS = ("{}d6", "1{}d6", "1d{}", "1d1{}", "3d6+{}", "3d6-1{}", "2d6x{}", "{}")


def test_there_are_many_other_digits() -> None:
    assert len(OTHER_DIGITS) > 1000


@pytest.mark.parametrize("shape", POSITIONS)
def test_every_other_digit_is_refused_where_it_stands(shape: str) -> None:
    for digit in OTHER_DIGITS:
        text = shape.format(digit)
        for bare in (False, True):
            with pytest.raises(DiceSyntaxError) as caught:
                parse_dice(text, bare_d6=bare)
            exc = caught.value
            assert exc.offset == text.index(digit), (text, exc.offset)
            assert f"{digit!r} is not an ASCII digit (U+{ord(digit):04X}" in exc.message


DIGIT_SAMPLE = OTHER_DIGITS[:: len(OTHER_DIGITS) // 12]


@pytest.mark.parametrize(
    "digit", DIGIT_SAMPLE, ids=[f"U+{ord(d):04X}" for d in DIGIT_SAMPLE]
)
def test_in_a_rules_file_the_caret_is_under_the_digit(
    tmp_path: Path, digit: str
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(RULES / "d20_scifi", rules / "d20_scifi")
    for index, shape in enumerate(POSITIONS[:-1]):
        dice = shape.format(digit)
        (rules / "d20_scifi" / f"broken{index}.yaml").write_text(
            HEAD
            + f"""system: d20_scifi
rules:
  - id: broken{index}
    kind: dice
    title: A dice rule
    summary: Bad notation.
    source: {{section: Nowhere}}
    constant: BROKEN{index}
    dice: "{dice}"
""",
            encoding="utf-8",
        )
    from rulesc.pipeline import load_systems

    with pytest.raises(RulesError) as caught:
        load_systems(rules)
    found = {d.file: d for d in caught.value.diagnostics}
    assert len(found) == len(POSITIONS) - 1
    for index, shape in enumerate(POSITIONS[:-1]):
        dice = shape.format(digit)
        d = found[f"rules/d20_scifi/broken{index}.yaml"]
        # the error is at the digit itself (the text starts after the quote at
        # column 11), one character wide; the hint is advice, no quote of it
        at = 12 + dice.index(digit)
        assert (d.line, d.col, d.end_col) == (10, at, at + 1)
        assert "is not an ASCII digit" in d.message
        assert d.hint is not None and "\n" not in d.hint and dice not in d.hint
        # on a terminal, the caret under the YAML line's own character
        lines = [""] * 9 + [f'    dice: "{dice}"']
        snippet = display.snippet(d, lines)
        assert snippet[2].index("^") - snippet[1].index("dice") == 7 + dice.index(digit)
