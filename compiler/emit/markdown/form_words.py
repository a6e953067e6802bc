"""The words a "try it" form shows its answers in, taken from the rule's rules.json entry.

A rule's answer is the runtime's value (as rulebook.json writes it): a row, a
record, a run's events, a number. The site's script shows it as the rule reads
at the table, so the form carries, for each name the rule's data titles (a
table's column, a record's field, a key), its title, unit, the words the table
uses for an empty cell and whether its numbers are signed (or, with no title,
its description); and the rule's title, unit and the words for no answer at
all. All of it is read from the rule's entry in rules.json (``rule_data``),
whatever its kind: any object there with a name and a title or description
names an answer's field (a rule's declared answer fields, its ``slots``, add
the unit and sign rules.json leaves out).

A rule that keeps time on a clock (``ticks``: each unit's length in the
clock's ticks) gives its units (``clock``, largest first) and marks each
field that is a time on it (``time``: an event's time, a total of ``of:
time``): the site shows those as ``rulesc simulate`` does (``3h 07m``,
compiler/kinds/process/workbench.py's ``clock``).
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
            found[name] = _about(title, about, value)
    return found


def _about(title: str | None, about: str | None, value: dict[str, Any]) -> View:
    """What the form says of a field: its title, description, unit, words for
    none, whether it is signed and whether it is a time on the clock."""
    return {
        "title": title,
        "description": about,
        "unit": _text(value.get("unit")),
        "empty": _text(value.get("null_label")),
        "signed": value.get("signed") is True,
        "time": False,
    }


def _times(data: View) -> set[str]:
    """The names of the fields that are times on the rule's clock: an event's
    time field and each total that is a time."""
    found: set[str] = set()
    for value in _objects(data):
        event = value.get("event")
        if isinstance(event, dict) and isinstance(event.get("time"), str):
            found.add(event["time"])
        if value.get("of") == "time" and isinstance(value.get("name"), str):
            found.add(value["name"])
    return found


def _clock(data: View) -> list[list[Any]]:
    """The rule's clock units, largest first, as [name, ticks] (none without
    a clock): the units ``rulesc simulate`` shows its times in."""
    ticks = data.get("ticks")
    if not isinstance(ticks, dict):
        return []
    units = [[n, t] for n, t in ticks.items() if type(t) is int and t >= 1]
    return sorted(units, key=lambda unit: -unit[1])


def _declared(rule: Rule, names: dict[str, View]) -> None:
    """Each answer field the rule declares (its ``slots``) with its unit and
    whether it is signed, as the rules give them."""
    for slot in getattr(rule, "slots", ()):
        info = names.get(slot.name)
        if info is not None:
            info["unit"] = info["unit"] or slot.unit
            info["signed"] = info["signed"] or slot.signed


def _plain(value: tuple[str, Any]) -> tuple[bool, Any]:
    """A case's value as its answer's JSON holds it, when it is a constant
    (a number, a flag, a text, none or a label): (True, it), else (False, None)."""
    kind, given = value
    if kind == "member" and isinstance(getattr(given, "label", None), str):
        return True, given.label
    if kind == "literal" and (given is None or isinstance(given, bool | int | str)):
        return True, given
    return False, None


def _cases(rule: Rule) -> list[View]:
    """Each case of a rule by cases answering fields, the first that matches
    (its guards' too; read from the rule's model, whatever its kind):
    the fields its ``then`` gives (what applies in that case; the others keep
    their defaults) and the constants it answers, which tell it in an answer."""
    if getattr(rule, "shape", None) != "fields":
        return []
    if getattr(rule, "hit_policy", None) != "first":
        return []
    guards = (g.case for g in getattr(rule, "guards", ()))
    found = []
    for case in (*guards, *getattr(rule, "cases", ())):
        if getattr(case, "values", None) is None or not getattr(case, "given", ()):
            continue
        fixed = {n: v for n, (ok, v) in ((n, _plain(v)) for n, v in case.values) if ok}
        found.append({"given": list(case.given), "fixed": fixed})
    return found


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def param_titles(system: System, rule: Rule) -> dict[str, str]:
    """The title of each parameter the rule's data titles (its own ``title``,
    or as its page shows it: a table's key column), by name."""
    found: dict[str, str] = {}
    data = rule_data(system, rule, refs(system))
    for param in data.get("params") or ():  # a parameter's own title first
        if isinstance(param, dict) and _text(param.get("title")) is not None:
            found[param["name"]] = param["title"]
    for value in _objects(data):
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
    _declared(rule, names)
    for name in _times(data):
        names.setdefault(name, _about(None, None, {}))["time"] = True
    return {
        "title": data["title"],
        "unit": _text(data.get("unit")),
        "empty": next(
            (data[k] for k in _EMPTY_KEYS if _text(data.get(k)) is not None), None
        ),
        "names": names,
        "clock": _clock(data),
        "cases": _cases(rule),
    }
