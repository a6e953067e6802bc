"""Error output: one line per error, nothing a terminal would act on, formats checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.cli import main
from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.front.validate import _validator

from .conftest import Editor


def test_hidden_and_control_characters_are_shown_as_escapes() -> None:
    d = Diagnostic(
        "rules/x/a.yaml",
        3,
        7,
        "unknown label 'red\x1b[31m\u202eevil\nline'",
        "labels: 'a'\n    bell\x07 line",
        "/rules/0/\x00",
    )
    text = d.format_text()
    assert text.splitlines() == [
        "rules/x/a.yaml:3:7: error: unknown label 'red\\x1b[31m\\u202eevil\\x0aline'",
        "  at /rules/0/\\x00",
        "  hint: labels: 'a'",
        "    bell\\x07 line",
    ]


def test_errors_that_differ_only_by_a_missing_hint_sort_and_print() -> None:
    first = Diagnostic("a.yaml", 1, 1, "same", None)
    second = Diagnostic("a.yaml", 1, 1, "same", "a hint")
    assert RulesError([second, first]).diagnostics == [first, second]


def test_format_keywords_are_asserted_not_just_annotated() -> None:
    # Draft 2020-12 only annotates "format" unless a format checker is given.
    checked = _validator("rules.schema.json").evolve(schema={"format": "date"})
    assert checked.is_valid("2024-05-01")
    assert not checked.is_valid("2024-13-45")


def test_the_readme_error_example_is_what_a_build_prints(
    rules_copy: Path, edit: Editor, capsys: pytest.CaptureFixture[str]
) -> None:
    """The errors guide's climb example, piped (no snippet)."""
    edit("d20_scifi/zero_g.yaml", "10 + 5 * climb_bonus", "10 + 5 * climb")
    guide = Path(__file__).resolve().parent.parent / "docsite" / "guides" / "errors.md"
    shown = guide.read_text("utf-8").split(
        "rules/d20_scifi/zero_g.yaml:28:36: error:", 1
    )[1]
    wanted = ["rules/d20_scifi/zero_g.yaml:28:36: error:" + shown.split("\n", 1)[0]]
    wanted += shown.split("\n")[1:3]
    assert main(["validate", "--rules", str(rules_copy)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == wanted[:2]
    assert err[2].startswith(wanted[2].removesuffix(" ..."))
    assert err[-1] == "1 error"
