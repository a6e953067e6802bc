"""The "try it" forms as the tests read them: each page's form description, and
how a worked example fills one (its fields' values, its call, its dice)."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from rulesc.core.calls import ROLL
from rulesc.emit.markdown.forms import call_of
from rulesc.front.model import Example
from rulesc.lang.py_names import rules_name

# A form's line in a page: an empty div whose data-form attribute holds its JSON.
FORM_LINE = re.compile(r"^<div class=\"rulebook-try\" [^\n]*></div>$", re.M)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        data = dict(attrs).get("data-form")
        if tag == "div" and data is not None:
            self.found.append(data)


def page_forms(markdown: str) -> list[dict[str, Any]]:
    """The form descriptions a page holds, read as a browser reads them."""
    reader = _Reader()
    for line in FORM_LINE.findall(markdown):
        reader.feed(line)
    reader.close()
    return [json.loads(text) for text in reader.found]


@dataclass(frozen=True)
class Filled:
    """A worked example as the form makes it: the value of every field (those
    it does not give at their defaults), the call, and the dice to script."""

    values: dict[str, Any]
    call: int
    dice: list[int] | None


def _label(labels: list[str], given: Any) -> str | None:
    if not isinstance(given, str):
        return None
    return next((x for x in labels if x.casefold() == given.casefold()), None)


def _value(field: dict[str, Any], given: Any) -> tuple[bool, Any]:
    """(whether the form can give ``given`` for the field, the value it gives)."""
    if given is None:
        return field["nullable"], None
    kind = field["kind"]
    if kind == "choice":
        label = _label(field["labels"], given)
        return label is not None, label
    if kind == "mapping":
        if not isinstance(given, dict):
            return False, None
        entries = {
            _label(field["labels"], k): _label(field["values"], v)
            for k, v in given.items()
        }
        whole = set(entries) == set(field["labels"]) and None not in entries.values()
        return whole, entries
    if kind == "bool":
        return isinstance(given, bool), given
    if kind == "ints":
        whole = isinstance(given, list) and all(type(x) is int for x in given)
        return whole, given
    return type(given) is int, given


def fill(form: dict[str, Any], ex: Example) -> Filled | None:
    """How the form makes the example's call, or None where it cannot (a label
    the rule does not have, which a choice list cannot give)."""
    args = dict(ex.args)
    names = {f["name"] for f in form["fields"]}
    if set(args) - names:
        return None
    values: dict[str, Any] = {}
    for field in form["fields"]:
        if field["name"] not in args:
            if field["required"]:
                return None
            values[field["name"]] = field["default"]
            continue
        ok, value = _value(field, args[field["name"]])
        if not ok:
            return None
        values[field["name"]] = value
    call = call_of(form["calls"], ex)
    chosen = form["calls"][call]
    if chosen["roll"] != ex.roll or chosen["rng"] != (
        ex.dice is not None or ex.roll is not None
    ):
        return None
    dice = list(ex.dice or ()) if chosen["rng"] else None
    return Filled(values, call, dice)


def _put(items: list[dict[str, Any]], values: dict[str, Any], each: Any) -> None:
    for item in items:
        if "field" in item:
            item["value"] = values[item.pop("field")]
        elif item.pop("item", False):
            item["value"] = each


def made_plan(form: dict[str, Any], filled: Filled) -> dict[str, Any]:
    """The call plan of a filled form, as the conformance tests make it: each
    field's value put in its place, a step made per item of a run made so."""
    plan: dict[str, Any] = copy.deepcopy(form["calls"][filled.call]["plan"])
    _put(plan["args"] or [], filled.values, None)
    for step in plan["then"]:
        if "each_field" in step:
            (items,) = step.pop("each")
            run = filled.values[step.pop("each_field")]
            step["each"] = [copy.deepcopy(items) for _ in run]
            for made, each in zip(step["each"], run, strict=True):
                _put(made, filled.values, each)
        elif "args" in step:
            _put(step["args"], filled.values, None)
    return plan


def plan_call(plan: dict[str, Any]) -> dict[str, Any]:
    """The rule's call (compiler/core/calls.py, as the conformance kit
    writes it) that a made plan spells: each name the rules' own again, read
    back from its Python spelling."""
    target = plan["target"]
    what = (
        "class"
        if target.get("new")
        else "function"
        if plan["args"] is not None
        else "constant"
    )
    call: dict[str, Any] = {what: rules_name(target["py"])}
    if plan["args"] is not None:
        call["args"] = [_argument(item) for item in plan["args"]]
    if plan["then"]:
        call["then"] = [_step(step) for step in plan["then"]]
    return call


def _argument(item: dict[str, Any]) -> dict[str, Any]:
    if item.get("skip"):
        return {"skip": True}
    found: dict[str, Any] = (
        {"rng": True}
        if item.get("rng")
        else {"name": rules_name(item["py"]), "value": item["value"]}
    )
    if item.get("option"):
        found["option"] = True
    return found


def _step(step: dict[str, Any]) -> dict[str, Any]:
    if "fields" in step:
        return {"fields": [f["key"] for f in step["fields"]]}
    if "each" in step:
        return {
            "method": step["py"],
            "each": [[_argument(i) for i in items] for items in step["each"]],
        }
    if "args" not in step:
        return {"field": rules_name(step["py"], "record")}
    args = [_argument(i) for i in step["args"]]
    if step.get("keep"):
        return {"member": rules_name(step["py"], "mutable"), "args": args}
    if step["py"] == step["js"] == ROLL:
        return {"method": ROLL, "args": args}
    return {"call": rules_name(step["py"], "record"), "args": args}
