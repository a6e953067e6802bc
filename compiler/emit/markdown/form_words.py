"""The words a "try it" form shows its answers in, taken from the rule's rules.json entry.

A rule's answer is the runtime's value (as rulebook.json writes it): a row, a
record, a run's events, a number. The site's script shows it as the rule reads
at the table, so the form carries, for each name the rule's data titles (a
table's column, a record's field, a key), its title, unit, the words the table
uses for an empty cell and whether its numbers are signed (or, with no title,
its description); and the rule's title, unit and the words for no answer at
all. All of it is read from the rule's entry in rules.json (``rule_data``),
whatever its kind: any object there with a name and a title or description
names an answer's field.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...core.jsonkit import View
from ...front.model import (
    Rule,
    System,
)
from ..json.rules_json import (
    refs,
    rule_data,
)

# The keys an object of rules.json names a field by, in the order they are tried.
_NAME_KEYS = ("name", "field", "param")
# What a rule's entry says of the value a rule gives when it gives none.
_EMPTY_KEYS = ("below", "null_label")


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every object in ``value``, itself first, then depth first in order (the
    worked examples left out: their arguments are no names of the rule's)."""
    if isinstance(value, dict):
        yield value
        for key, item in value.items():
            if key != "examples":
                yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


def _named(data: View) -> dict[str, View]:
    """Each object of a rule's data that has a title or description and names
    a field, by name (the first one found for a name; the rule itself left out)."""
    found: dict[str, View] = {}
    for value in _objects({k: v for k, v in data.items() if k != "title"}):
        title, about = _text(value.get("title")), _text(value.get("description"))
        name = next(
            (value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None
        )
        if (title or about) and name is not None and name not in found:
            found[name] = {
                "title": title,
                "description": about,
                "unit": _text(value.get("unit")),
                "empty": _text(value.get("null_label")),
                "signed": value.get("signed") is True,
            }
    return found


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def param_titles(system: System, rule: Rule) -> dict[str, str]:
    """The title of each parameter the rule's data titles (as its page shows
    it: a table's key column), by name."""
    found: dict[str, str] = {}
    for value in _objects(rule_data(system, rule, refs(system))):
        # a table's key: {param, title}; a table of ranges: {param: {name}, param_title}
        param = value.get("param")
        if isinstance(param, dict):
            param, title = param.get("name"), _text(value.get("param_title"))
        else:
            title = _text(value.get("title"))
        if isinstance(param, str) and title is not None:
            found.setdefault(param, title)
    return found


def answer_words(system: System, rule: Rule) -> View:
    """The words of a rule's answers: its title, unit and words for no answer,
    and each field its data names, by name."""
    data = rule_data(system, rule, refs(system))
    names = _named(data)
    return {
        "title": data["title"],
        "unit": _text(data.get("unit")),
        "empty": next(
            (data[k] for k in _EMPTY_KEYS if _text(data.get(k)) is not None), None
        ),
        "names": names,
    }
