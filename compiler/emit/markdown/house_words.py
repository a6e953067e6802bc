"""House words: a house rule's change said as the rule's page reads, in its titles, labels and units.

A change at ``(rows, 3/4, cover_ac)`` from 6 to 7 reads "Cover AC bonus for 3/4:
+7 AC at this table (the book: +6 AC)": the field by its title, the entry by
its label, each value as the rule's table shows it (its sign, unit and words
for an empty cell). A ruling or erratum the house rules add reads by its
question; a field the rule's data gives no title reads as its name in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...front.model import (
    Override,
    Rule,
    System,
)
from .form_words import answer_words

# The lists house rules may add entries to (front/house.py's OPEN_LISTS), as a
# reader names one entry.
_ENTRY = {"rulings": "A ruling", "errata": "An erratum"}


def change_words(system: System, rule: Rule, change: Override) -> str:
    """One change of ``rule`` by the house rules, as a sentence (plain text)."""
    names = answer_words(system, rule).get("names")
    words: Mapping[str, Any] = names if isinstance(names, dict) else {}
    where = change.where
    if change.was is None and isinstance(change.now, dict) and len(where) == 2:
        entry = _ENTRY.get(where[0], "An entry")
        said = _entry_text(change.now)
        return f"{entry} added at this table" + (f": {said}" if said else ".")
    field = where[-1]
    about = words.get(field) if isinstance(words.get(field), dict) else None
    subject = _title(about, field)
    context = [_label(rule, where[0], part, words) for part in where[1:-1]]
    if context:
        subject += " for " + ", ".join(context)
    now, was = _value(change.now, about), _value(change.was, about)
    unsaid = change.was is None and not (about and about.get("empty"))
    book = "the book has none" if unsaid else f"the book: {was}"
    return f"{subject}: {now} at this table ({book})."


def _title(about: Mapping[str, Any] | None, name: str) -> str:
    title = about.get("title") if about else None
    if isinstance(title, str) and title:
        return title
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def _label(rule: Rule, top: str, part: str, words: Mapping[str, Any]) -> str:
    """An entry's label or a field's title, as a reader names it (a ruling by
    its question)."""
    if top == "rulings":
        for ruling in rule.rulings:
            if ruling.id == part and ruling.question:
                return f"the ruling “{ruling.question}”"
    about = words.get(part)
    if isinstance(about, dict):
        return _title(about, part)
    return part


def _entry_text(entry: Mapping[str, Any]) -> str | None:
    for key in ("question", "title", "ruling", "summary", "rules_give"):
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return None


def _value(value: Any, about: Mapping[str, Any] | None) -> str:
    """A value as the rule's page shows it (``viewkit.cell_md``'s way, by the
    field's words: its sign, its unit, its words for an empty cell)."""
    if value is None:
        empty = about.get("empty") if about else None
        return empty if isinstance(empty, str) and empty else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        text = f"{value:+}" if about and about.get("signed") else f"{value}"
        unit = about.get("unit") if about else None
        if isinstance(unit, str) and unit:
            return f"{text}{'' if unit == '%' else ' '}{unit}"
        return text
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, list):
        return ", ".join(_value(item, None) for item in value)
    if isinstance(value, dict):
        return "; ".join(
            f"{_title(None, str(k))} {_value(v, None)}" for k, v in value.items()
        )
    return str(value)
