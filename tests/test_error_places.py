"""Every error once, at its own place: the culprit inside a value, notes, closed sets.

- a span inside a scalar (a name in a formula, a digit in dice) is placed on the
  file's own line and column, in every YAML style a value can be written in;
- notes (the uses of a wrong declaration) print in every format;
- every closed set of words in the schemas (an ``enum``) answers a near miss with
  "did you mean".
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
    format_diagnostics,
)
from rulesc.front.loader import load_text
from rulesc.front.validate import (
    SCHEMA_DIR,
    closed_set_hint,
    validate,
)
from rulesc.pipeline import load_systems
from rulesc.workbench.display import github, print_diagnostics

from .conftest import RULES

# -- a span inside a value ------------------------------------------------------

WORDS = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
OPS = st.sampled_from([" + ", " - ", " * ", " // ", " == ", " and "])


def _write(style: str, parts: list[str], indent: int) -> tuple[str, str]:
    """A mapping ``key:`` holding the formula ``parts`` in ``style``, and the
    formula as the loader reads it."""
    pad = " " * indent
    formula = "".join(parts)
    if style == "plain":
        return f"{pad}key: {formula}\n", formula
    if style == "single":
        return f"{pad}key: '{formula}'\n", formula
    if style == "double":
        return f'{pad}key: "{formula}"\n', formula
    # a block scalar, one operand per line: literal keeps the line breaks,
    # folded turns them into spaces
    lines = [p.strip() for p in parts if p.strip()]
    body = "".join(f"{pad}  {line}\n" for line in lines)
    if style == "literal":
        return f"{pad}key: |-\n{body}", "\n".join(lines)
    return f"{pad}key: >-\n{body}", " ".join(lines)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(WORDS, OPS), min_size=1, max_size=6),
    WORDS,
    st.sampled_from(["plain", "single", "double", "literal", "folded"]),
    st.integers(0, 6),
    st.data(),
)
def test_a_span_is_placed_at_its_characters_in_every_style(
    pairs: list[tuple[str, str]],
    last: str,
    style: str,
    indent: int,
    data: st.DataObject,
) -> None:
    parts = [piece for word, op in pairs for piece in (word, op)] + [last]
    yaml, formula = _write(style, parts, indent)
    head = "# a comment\n" + ("outer:\n" if indent else "")
    path: tuple[str, ...] = ("outer", "key") if indent else ("key",)
    source = load_text((head + yaml).encode(), "rules/s/f.yaml")
    node: Any = source.data
    for part in path:
        node = node[part]
    assert node == formula
    # any name of the formula, found where the file writes it
    names = [p for p in parts if p.strip() and p.strip()[0].isalpha() and " " not in p]
    word = data.draw(st.sampled_from(names))
    at = formula.index(word)
    place = source.inside(path, formula, at, at + len(word))
    assert place is not None, (style, yaml)
    line, col, end = place
    shown = (head + yaml).split("\n")[line - 1]
    assert shown[col - 1 : end - 1] == word, (style, yaml, place)
    error = source.error(path, "a problem", span=(formula, at, at + len(word)))
    assert (error.line, error.col, error.end_col) == place


@pytest.mark.parametrize(
    "written",
    ['"a\\tb + c"', '"\\u0061 + c"'],
    ids=["escape", "unicode-escape"],
)
def test_a_value_not_written_as_read_keeps_the_node_place(written: str) -> None:
    source = load_text(f"key: {written}\n".encode(), "rules/s/f.yaml")
    value = source.data["key"]
    at = value.index("c")
    assert source.inside(("key",), value, at, at + 1) is None
    error = source.error(("key",), "a problem", span=(value, at, at + 1))
    assert (error.line, error.col) == (1, 6)


HEAD = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
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
    expression: {expression}
"""


@pytest.mark.parametrize(
    ("expression", "culprit"),
    [
        ("2 + bonus + climb", "climb"),
        ("'2 + bonus + climb'", "climb"),
        ('"max(bonus, 1) * pow(2)"', "pow"),
        ("|-\n      2 +\n      bonus // climb", "climb"),
        (">-\n      clamp(bonus,\n      0, 4) + 1 + nope", "nope"),
    ],
)
def test_a_formula_error_is_at_its_culprit_and_its_hint_is_advice(
    tmp_path: Path, expression: str, culprit: str
) -> None:
    rules = tmp_path / "rules"
    (rules / "d20_scifi").mkdir(parents=True)
    shutil.copy(RULES / "d20_scifi" / "system.yaml", rules / "d20_scifi")
    text = HEAD + FORMULA.format(expression=expression)
    (rules / "d20_scifi" / "broken.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_systems(rules)
    [d] = caught.value.diagnostics
    line = text.split("\n")[d.line - 1]
    assert d.end_col is not None
    assert line[d.col - 1 : d.end_col - 1] == culprit, (d, line)
    assert culprit in d.message
    assert d.hint is None or "\n" not in d.hint
    assert "^" not in format_diagnostics([d])


# -- notes in every format --------------------------------------------------------

NOTED = Diagnostic(
    "rules/s/f.yaml",
    4,
    9,
    "parameter 'cover' has the name of a table (at rules/s/t.yaml:3)",
    "rename the parameter",
    "/rules/0/parameters/0/name",
    14,
    ("used at rules/s/f.yaml:9:15", "used at rules/s/f.yaml:11:19"),
)


def test_notes_follow_the_hint_in_text_piped_or_not() -> None:
    err = io.StringIO()
    print_diagnostics([NOTED], ["validate"], stderr=err)
    assert err.getvalue() == (
        "rules/s/f.yaml:4:9: error: parameter 'cover' has the name of a table"
        " (at rules/s/t.yaml:3)\n"
        "  at /rules/0/parameters/0/name\n"
        "  hint: rename the parameter\n"
        "  note: used at rules/s/f.yaml:9:15\n"
        "  note: used at rules/s/f.yaml:11:19\n"
        "1 error\n"
    )


def test_json_carries_the_span_and_the_notes_as_a_list() -> None:
    out = io.StringIO()
    print_diagnostics([NOTED], ["validate", "--format", "json"], stdout=out)
    assert json.loads(out.getvalue()) == [
        {
            "file": "rules/s/f.yaml",
            "line": 4,
            "col": 9,
            "end_col": 14,
            "message": NOTED.message,
            "hint": "rename the parameter",
            "pointer": "/rules/0/parameters/0/name",
            "notes": ["used at rules/s/f.yaml:9:15", "used at rules/s/f.yaml:11:19"],
        }
    ]


def test_github_folds_the_notes_into_the_message() -> None:
    assert github([NOTED]) == (
        "::error file=rules/s/f.yaml,line=4,col=9,endColumn=14,title=rulesc::"
        "parameter 'cover' has the name of a table (at rules/s/t.yaml:3)"
        "%0Aat /rules/0/parameters/0/name%0Ahint: rename the parameter"
        "%0Anote: used at rules/s/f.yaml:9:15%0Anote: used at rules/s/f.yaml:11:19"
    )


# -- closed sets --------------------------------------------------------------------


def _enums(node: object) -> Iterator[list[str]]:
    if isinstance(node, dict):
        listed = node.get("enum")
        if isinstance(listed, list) and all(isinstance(x, str) for x in listed):
            yield listed
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


ENUMS = sorted(
    {
        tuple(found)
        for path in sorted(SCHEMA_DIR.glob("*.schema.json"))
        for found in _enums(json.loads(path.read_text(encoding="utf-8")))
    }
)


def test_the_schemas_have_closed_sets() -> None:
    assert len(ENUMS) >= 8
    assert ("down", "up") in ENUMS


@pytest.mark.parametrize("choices", ENUMS, ids=["-".join(e)[:40] for e in ENUMS])
def test_a_near_miss_of_every_schema_enum_gets_did_you_mean(
    choices: tuple[str, ...],
) -> None:
    for word in choices:
        if len(word) < 4:
            continue
        for slip in (word[:-1], word + "s", word[0] + word[2:], word.upper()):
            if slip in choices:
                continue
            hint = closed_set_hint(slip, list(choices), "use one of ")
            assert hint is not None
            if slip == word.upper():  # case is not a near miss to difflib
                continue
            assert hint.startswith("did you mean "), (slip, hint)
            meant = hint.removeprefix("did you mean ").removesuffix("?")
            assert meant.strip("'") in choices
    far = closed_set_hint("zzzzzzzzzzzz", list(choices), "use one of ")
    assert far == "use one of " + ", ".join(repr(c) for c in choices)


SYSTEM = (RULES / "d20_scifi" / "system.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("line", "slip", "meant"),
    [
        ("rounding: down", "rounding: dwn", "down"),
        ("dice_notation: d20", "dice_notation: d2O", "d20"),
    ],
)
def test_a_misspelt_system_setting_gets_did_you_mean(
    line: str, slip: str, meant: str
) -> None:
    assert line in SYSTEM
    source = load_text(
        SYSTEM.replace(line, slip).encode(), "rules/d20_scifi/system.yaml"
    )
    [d] = validate(source)
    assert d.message == f"{slip.split(': ')[1]!r} is not one of the allowed values"
    assert d.hint == f"did you mean {meant!r}?"
    at = SYSTEM.replace(line, slip).split("\n")[d.line - 1]
    assert d.end_col is not None
    assert at[d.col - 1 : d.end_col - 1] == slip.split(": ")[1]
