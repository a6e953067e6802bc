"""Time units named in the docs by number: "every hour", "1 day", "3 days".

A system's time_units may give each unit as its length in minutes, or as an
object with the length and the unit's ``singular``; an amount of 1 of a unit with
a singular is written with it. Each test writes a small system into a temporary
rules folder and reads the docs page the build makes of it, over many unit names
(none of them a game's) and amounts.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import build

from .probe import doc


def _system(units: str) -> str:
    return (
        "# yaml-language-server: $schema=../../schema/system.schema.json\n"
        "system: lab\ntitle: Lab\nsummary: Units.\n"
        "source: {file: lab.txt, work: A test}\n"
        "rounding: down\ndice_notation: d20\n"
        f"time_units: {units}\n"
    )


def _rules(unit: str, amount: int) -> str:
    body = f"""\
    - id: drain
      kind: pool
      title: Drain
      summary: Points drained a roll at a time.
      source: {{section: Curses}}
      function: drain
      deal: 2
      every: {{amount: {amount}, unit: {unit}}}
      on_save: {{divide_by: 2, minimum: 0}}
    - id: mend
      kind: recovery
      title: Mending
      summary: Points mended a few at a time.
      source: {{section: Curses}}
      function: mend
      amount: 1
      every: {{amount: {amount}, unit: {unit}}}
    """
    return (
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: lab\nrules:\n" + textwrap.indent(textwrap.dedent(body), "  ")
    )


def _page(tmp_path: Path, units: str, unit: str, amount: int) -> str:
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "system.yaml").write_text(_system(units), encoding="utf-8")
    (folder / "lab.yaml").write_text(_rules(unit, amount), encoding="utf-8")
    outputs = build(folder.parent)
    return doc(outputs, "lab")


# Unit names and singulars of no game; some singulars are not the plural less an
# "s", so the test proves the singular comes from the data.
UNITS = [
    ("beats", "beat"),
    ("watches", "watch"),
    ("moons", "moon"),
    ("cycles", "cycle"),
    ("aeons", "aeon"),
    ("geese", "goose"),
]


@settings(max_examples=40, deadline=None)
@given(
    which=st.integers(0, len(UNITS) - 1),
    amount=st.integers(1, 50),
    per=st.integers(1, 1000),
    with_singular=st.booleans(),
)
def test_amounts_name_the_unit_by_number(
    tmp_path_factory: pytest.TempPathFactory,
    which: int,
    amount: int,
    per: int,
    with_singular: bool,
) -> None:
    unit, singular = UNITS[which]
    spec = f"{{minutes: {per}, singular: {singular}}}" if with_singular else str(per)
    page = _page(tmp_path_factory.mktemp("u"), f"{{{unit}: {spec}}}", unit, amount)
    if amount == 1 and with_singular:
        assert f"then one every {singular}," in page
        assert f"heals every {singular}, the first 1 {singular} after" in page
        assert f"1 {unit}" not in page
    else:
        # Without a singular in the data the unit stays as it is named.
        assert f"then one every {amount} {unit}," in page
        assert f"heals every {amount} {unit}, the first {amount} {unit} after" in page


def test_mixed_forms_in_one_system(tmp_path: Path) -> None:
    units = "{beats: 1, watches: {minutes: 60, singular: watch}}"
    page = _page(tmp_path, units, "watches", 1)
    assert "then one every watch," in page
    assert "the first 1 watch after" in page


@pytest.mark.parametrize(
    ("spec", "col", "message"),
    [
        ("{minutes: 0, singular: beat}", 31, "0 is less than the minimum of 1"),
        ("{singular: beat}", 21, "missing required key 'minutes'"),
        ("{minutes: 5, plural: beats}", 34, "unknown key 'plural'"),
        ("{minutes: 5, singular: ''}", 44, "'' should be non-empty"),
        ("0", 21, "0 is less than the minimum of 1"),
        ("true", 21, "true is not of type integer or object"),
    ],
)
def test_bad_time_units_are_located_errors(
    tmp_path: Path, spec: str, col: int, message: str
) -> None:
    with pytest.raises(RulesError) as caught:
        _page(tmp_path, f"{{beats: {spec}}}", "beats", 2)
    found = [
        (d.line, d.col, d.message)
        for d in caught.value.diagnostics
        if d.file.endswith("system.yaml")
    ]
    assert found == [(8, col, message)]
