"""Error output: one line per error, nothing a terminal would act on, formats checked."""

from __future__ import annotations

from compiler.diagnostics import Diagnostic, RulesError
from compiler.validate import _validator


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
