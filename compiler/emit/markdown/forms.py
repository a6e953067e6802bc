"""Forms: each rule page's "try it" form, described for the site's script as data.

A rule whose kind is in JavaScript gets a form on its page in the reference
site: a field for each of its inputs (a choice list for labels, a number field
with its bounds, a check box for a flag, a choice per key for a mapping), the
calls it can make (its answer; its answer rolling the dice; its answer with a
dice field of the answer rolled), and, for a call that rolls, the dice: a seed
for ``Random`` or the results to script. The page holds the description as
JSON in a ``data-form`` attribute of an empty ``<div>`` (which GitHub strips,
showing nothing); docsite/tryit.js builds the form from it and answers with
the JavaScript runtime in the page.

The inputs are those ``rulesc diff`` and the conformance tests use: the
parameters of the rule's generated function, as the rules declare them (their
labels, bounds and defaults); each call is the kind's call (``Kind.call``, in
the rules' names) spelt for JavaScript as a plan (compiler/emit/javascript/plan.py),
its arguments naming the form's fields.
The form starts with the rule's first worked example filled in. Its answers
are shown in the rule's own words (``words``: compiler/emit/markdown/form_words.py).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...common.visible import json_visible
from ...core.calls import function_call
from ...core.viewkit import View
from ...front.model import (
    Example,
    Rule,
    System,
)
from ...kinds.registry import kind_of
from ...lang.naming import odds_function
from ...lang.py_names import (
    py_kwargs,
    pyname,
    rules_name,
)
from ...workbench.common import (
    Input,
    humanize,
)
from ..javascript import views as js_views
from ..javascript.plan import js_plan
from .form_words import (
    answer_words,
    param_titles,
)

# The inputs a form has a field for (a rule with any other has no form).
FIELD_KINDS = ("int", "ints", "list", "bool", "choice", "mapping")
# What each call is called in the form's list of calls.
ANSWER, ROLLED, ROLL_FIELD = "Answer", "Answer, rolling the dice", "Answer, then roll: "
ODDS = "Exact odds"
# A label written as an identifier (``through_cover``): shown as its words.
_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
# What a single-quoted HTML attribute's text escapes (``&`` first).
_ATTRIBUTE = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#39;"))


@dataclass(frozen=True)
class _Field:
    """A plan's argument that the form fills: the field of this name."""

    name: str


@dataclass(frozen=True)
class _Run:
    """A run of numbers the form fills (the field of this name): a kind's plan
    makes one step per item of it, so it is given as one item, ``_Item``."""

    name: str

    def __iter__(self) -> Iterator[_Item]:
        return iter((_Item(self.name),))


@dataclass(frozen=True)
class _Item:
    """The item of a run (``_Run``) a step of the plan is made for."""

    name: str


class _Unplanned(ValueError):
    """A plan that uses a field some other way than a form can give it."""


def _plan(value: Any) -> Any:
    """A call plan with each of its arguments made from a field named as such
    (``"field"``); a step made once per item of a run is made so in the page
    (``"each_field"``, its argument that is the item marked ``"item"``)."""
    if isinstance(value, dict):
        if "each" in value and _items(value["each"]):
            (items,) = value["each"]  # the one item of a run (see _Run)
            (name,) = _items(items)
            rest = {k: _plan(v) for k, v in value.items() if k != "each"}
            return rest | {"each_field": name, "each": [_plan(items)]}
        item = {k: _plan(v) for k, v in value.items() if k != "value"}
        if "value" in value:
            given = value["value"]
            if isinstance(given, _Field):
                item["field"] = given.name
            elif isinstance(given, _Item):
                item["item"] = True
            else:
                item["value"] = _plan(given)
        return item
    if isinstance(value, list | tuple):
        return [_plan(v) for v in value]
    if isinstance(value, _Field | _Run | _Item):
        raise _Unplanned(value.name)
    return value


def _items(value: Any) -> set[str]:
    """The runs whose items ``value`` holds."""
    if isinstance(value, _Item):
        return {value.name}
    if isinstance(value, dict):
        return set().union(*(_items(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_items(v) for v in value))
    return set()


def _rolls(plan: Any) -> bool:
    """Whether a plan calls for the dice (an argument that is the rng)."""
    if isinstance(plan, dict):
        return bool(plan.get("rng")) or any(_rolls(v) for v in plan.values())
    if isinstance(plan, list):
        return any(_rolls(v) for v in plan)
    return False


def _plain(value: Any) -> Any:
    """A default of the runtime's signature as JSON (a label as its text)."""
    if isinstance(value, enum.Enum):
        return value.value
    return value


def _label(labels: Sequence[str], given: Any) -> str | None:
    """The label ``given`` names, in any case, or None when it names none."""
    if not isinstance(given, str):
        return None
    return next((x for x in labels if x.casefold() == given.casefold()), None)


def _start(spec: Input, ex: Example | None) -> Any:
    """A field's first value: the first worked example's, else the default."""
    given = py_kwargs(dict(ex.args)).get(spec.name) if ex is not None else None
    fallback = _plain(spec.default)
    if spec.kind == "choice":
        found = _label(spec.labels, given)
        if found is not None:
            return found
        if fallback is None and not spec.nullable and spec.labels:
            return spec.labels[0]
        return fallback
    if spec.kind == "mapping":
        if isinstance(given, dict):
            chosen = {
                _label(spec.labels, k): _label(spec.values, v) for k, v in given.items()
            }
            if None not in chosen and None not in chosen.values():
                return chosen
        return fallback
    if spec.kind == "bool":
        return given if isinstance(given, bool) else fallback
    if spec.kind in ("ints", "list"):
        if isinstance(given, list | tuple) and all(type(x) is int for x in given):
            return list(given)
        return []
    if type(given) is int:
        return given
    return fallback


def label_words(label: str) -> str:
    """A label as a reader reads it: the label itself, or, written as an
    identifier (``through_cover``), its words (``through cover``)."""
    return label.replace("_", " ") if _IDENTIFIER.fullmatch(label) else label


def field_title(name: str, title: str | None) -> str:
    """A field's title: the rules' title, else its name in words, capitalised
    (``warhead_penetrates``: ``Warhead penetrates``)."""
    if title:
        return title
    words = humanize(rules_name(name))
    return words[:1].upper() + words[1:]


def _field(spec: Input, ex: Example | None, title: str | None) -> View:
    view: View = {
        "name": spec.name,
        "label": field_title(spec.name, title),
        "kind": spec.kind,
        "description": spec.description,
        "required": spec.required,
        "default": None if spec.required else _plain(spec.default),
        "nullable": spec.nullable,
        "start": _start(spec, ex),
    }
    if spec.kind == "choice":
        view["labels"] = list(spec.labels)
        view["options"] = [label_words(x) for x in spec.labels]
    elif spec.kind == "mapping":
        view["labels"] = list(spec.labels)
        view["values"] = list(spec.values)
        view["options"] = [label_words(x) for x in spec.labels]
        view["value_options"] = [label_words(x) for x in spec.values]
    elif spec.kind in ("int", "ints", "list"):
        view["min"], view["max"] = spec.lo, spec.hi
        if spec.one_of:  # a list of them to choose from
            view["one_of"] = list(spec.one_of)
    return view


def rule_form(system: System, rule: Rule, module: ModuleType) -> View | None:
    """The form of a rule whose JavaScript is in its system's module, made with
    the rule's generated Python ``module``; None for a rule a form cannot call
    (an input that is not a label, a number, a run of numbers, a flag or a
    mapping, or that its call uses otherwise)."""
    kind = kind_of(rule)
    specs = kind.inputs(rule, module)
    if specs is None:
        return None
    fields = [s for s in specs if s.kind != "rng"]
    if any(s.kind not in FIELD_KINDS for s in fields):
        return None
    args = {
        rules_name(s.name): _Run(s.name) if s.kind == "ints" else _Field(s.name)
        for s in fields
    }
    calls: list[View] = []

    def add(label: str, call: Any, roll: str | None, odds: bool = False) -> None:
        plan = _plan(js_plan(call))
        if all(c["plan"] != plan for c in calls):
            rng = _rolls(plan)
            calls.append(
                {"label": label, "plan": plan, "rng": rng, "roll": roll, "odds": odds}
            )

    try:
        if not any(s.kind == "rng" for s in specs):  # a call without dice
            add(ANSWER, kind.call(module, rule, args, False, None), None)
        rolled = kind.call(module, rule, args, True, None)
        if _rolls(_plan(js_plan(rolled))):  # else the rule rolls no dice
            add(ROLLED, rolled, None)
        odds = odds_function_of(rule, module)
        if odds is not None:  # its derived odds: each answer with its chance
            odds_call = function_call(
                getattr(module, pyname(odds)), odds, args, False, None
            )
            add(ODDS, odds_call, None, odds=True)
        for column in kind.columns(rule).values():
            if column.type == "dice":
                rolling = kind.call(module, rule, args, False, column.name)
                add(ROLL_FIELD + column.title, rolling, column.name)
    except _Unplanned:
        return None
    first = rule.examples[0] if rule.examples else None
    titles = param_titles(system, rule)
    call = call_of(calls, first) if first is not None else 0
    dice = list(first.dice) if first is not None and first.dice is not None else None
    return {
        "rule": rule.qualified_id,
        "module": system.id,
        "fields": [_field(s, first, titles.get(rules_name(s.name))) for s in fields],
        "calls": calls,
        "start": {"call": call, "dice": dice if calls[call]["rng"] else None},
        "words": answer_words(system, rule),
    }


def odds_function_of(rule: Rule, module: ModuleType) -> str | None:
    """The name of the rule's odds function in ``module``, if it has one."""
    function = getattr(rule, "function", None)
    if not isinstance(function, str) or getattr(rule, "odds", None) is None:
        return None
    name = getattr(rule, "odds_name", None) or odds_function(function)
    return name if callable(getattr(module, pyname(name), None)) else None


def call_of(calls: Sequence[View], ex: Example) -> int:
    """The index of the call that makes a worked example's call: the one that
    rolls its dice field, or rolls its dice, or neither, as it does."""
    rng = ex.dice is not None or ex.roll is not None
    found = (i for i, c in enumerate(calls) if c["roll"] == ex.roll and c["rng"] == rng)
    return next(found, 0)


def system_forms(
    system: System, module: ModuleType, ported: Collection[str] | None = None
) -> dict[str, View]:
    """The form of each rule of a system that is in JavaScript, by rule id;
    ``ported``: the qualified ids of those rules, when the caller has them
    (from the JavaScript module's view)."""
    if ported is None:
        view, _ = js_views.module_view(system)
        ported = {r["id"] for r in view["rules"]}
    found = {}
    for rule in system.rules:
        if rule.qualified_id in ported:
            form = rule_form(system, rule, module)
            if form is not None:
                found[rule.id] = form
    return found


def widget(form: View | None) -> View | None:
    """What a rule's page prints of its form: the rule and the form's JSON, as
    the text of a single-quoted HTML attribute."""
    if form is None:
        return None
    # every character that acts on text or hides in it as a \u escape
    text = json_visible(json.dumps(form, ensure_ascii=False, separators=(",", ":")))
    for char, entity in _ATTRIBUTE:
        text = text.replace(char, entity)
    return {"rule": form["rule"], "data": text}
