"""House rules in the docs: the note on a rule's page, and each changed table cell beside the book's."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...front.model import (
    Rule,
    System,
)
from ..literals import (
    code,
    md,
)
from .house_words import change_words

_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def is_house_rule(system: System, rule: Rule) -> bool:
    """Whether ``rule`` is a house rule: added by the system's house rules, or
    marked ``house: true``."""
    return system.house is not None and rule.id in system.house.rules


def notes(system: System, rule: Rule) -> list[str]:
    """The lines of a rule page's house-rule note (Markdown, escaped): what the
    house rules add or change, each change beside what the book says."""
    house = system.house
    if house is None:
        return []
    if rule.id in house.rules:
        return ["A house rule: it is not in the book."]
    return [
        f"House rule: {md(change_words(system, rule, c))}"
        for c in house.changes
        if c.rule == rule.id
    ]


def overview(
    system: System,
    base_title: str | None,
    base_page: str | None,
    links: Mapping[str, str] | None = None,
) -> list[str]:
    """The lines of a system overview's house-rule note (Markdown, escaped);
    ``links`` are the Markdown links to the system's rules, by rule id."""
    shown = links or {}
    house = system.house
    if house is None:
        return []
    lines = []
    if house.base is not None and base_title is not None and base_page is not None:
        lines.append(
            f"House rules: this system extends [{md(base_title)}]({base_page}); "
            "the rules below are the book's except where marked."
        )
    elif not house.source:
        lines.append("House rules: this system names no published source.")
    changed = sorted({c.rule for c in house.changes})
    if changed:
        lines.append(
            "Changed by house rules: "
            + ", ".join(shown.get(r, code(r)) for r in changed)
            + "."
        )
    if house.rules:
        lines.append(
            "House rules: "
            + ", ".join(shown.get(r, code(r)) for r in house.rules)
            + "."
        )
    return lines


def _cells(line: str) -> list[str] | None:
    text = line.strip()
    if not (text.startswith("|") and text.endswith("|")):
        return None
    return [c.strip() for c in _CELL_SPLIT.split(text[1:-1])]


def _tables(text: str) -> list[list[int]]:
    """The line numbers of each Markdown table of ``text``, header first."""
    lines = text.split("\n")
    tables: list[list[int]] = []
    current: list[int] = []
    for number, line in enumerate(lines):
        if _cells(line) is not None:
            current.append(number)
            continue
        if len(current) > 2:
            tables.append(current)
        current = []
    if len(current) > 2:
        tables.append(current)
    return tables


def _unique_rows(rows: list[list[str] | None]) -> dict[str, list[str]]:
    """The rows whose first cell no other row has, by it (a row is matched with
    the book's by its first cell alone)."""
    firsts = [r[0] for r in rows if r]
    return {r[0]: r for r in rows if r and firsts.count(r[0]) == 1}


def mark_cells(page: str, book: str) -> str:
    """``page`` (a house rule's page) with every table cell that differs from the
    same cell of the book's page (the same table by header, the same row by its
    first cell) marked, the book's value beside it."""
    lines = page.split("\n")
    book_lines = book.split("\n")
    book_tables = {book_lines[t[0]]: t for t in _tables(book)}
    for table in _tables(page):
        other = book_tables.get(lines[table[0]])
        if other is None:
            continue
        rows = _unique_rows([_cells(book_lines[n]) for n in other[2:]])
        mine = _unique_rows([_cells(lines[n]) for n in table[2:]])
        for number in table[2:]:
            cells = _cells(lines[number])
            was = rows.get(cells[0]) if cells and cells[0] in mine else None
            if cells is None or was is None or len(was) != len(cells) or was == cells:
                continue
            marked = [
                c if c == w else f"house rule: {c}, the book says {w}"
                for c, w in zip(cells, was, strict=True)
            ]
            lines[number] = "| " + " | ".join(marked) + " |"
    return "\n".join(lines)
