"""Call plans: a rule's call (compiler/core/calls.py) spelt for the JavaScript runtime, as the reference's forms carry it.

A plan is the call with each name spelt as the JavaScript package spells it
(``js``, compiler/emit/javascript/names.py), and as the Python one does (``py``:
what a step's problem names); docsite/plan.js makes it in the browser (the
reference's "try it" forms, compiler/emit/markdown/forms.py) and in the tests
(tests/js/plan.mjs). It is plain JSON::

    {"target": {"py": "lookup", "js": "lookup"},
     "args": [{"py": "size", "js": "size", "option": false, "value": "Large"},
              {"py": "rng", "js": "rng", "option": false, "rng": true}],
     "then": [{"py": "damage", "js": "damage"},
              {"py": "roll", "js": "roll", "args": [{"rng": true}]}]}

``args`` is None for a constant; an argument left out is ``{"skip": true}``
(JavaScript passes ``undefined``: its default); one marked ``option`` goes in
the trailing options object. A class has ``"new": true`` in its target
(constructed with ``new``); a step with ``"each"`` (a list of argument lists)
calls the method once per list and answers the list of answers; one with
``"keep": true`` calls it and keeps the object (a state's transitions); one
with ``"fields"`` (a list of ``{"py", "js", "key"}``) answers a plain object of
those fields, keyed by their names in the rules (``key``). A runtime method's
arguments (a dice's ``roll``) go in order, unnamed.
"""

from __future__ import annotations

from typing import Any

from ...lang.py_names import (
    RNG,
    pyattr,
    pyname,
)
from .names import (
    jsattr,
    jsname,
)

Plan = dict[str, Any]


def js_plan(call: dict[str, Any]) -> Plan:
    """The plan of a rule's ``call``: its names spelt in JavaScript (and Python)."""
    name = call.get("function") or call.get("class") or call["constant"]
    target: dict[str, Any] = {"py": pyname(name), "js": jsname(name)}
    if "class" in call:
        target["new"] = True
    args = call.get("args")
    return {
        "target": target,
        "args": None if args is None else [_argument(item) for item in args],
        "then": [_step(step) for step in call.get("then", ())],
    }


def _argument(item: dict[str, Any]) -> dict[str, Any]:
    """A parameter's argument, named in both languages."""
    named = "name" in item
    found: dict[str, Any] = {
        "py": pyname(item["name"]) if named else RNG,
        "js": jsname(item["name"]) if named else RNG,
        "option": bool(item.get("option")),
    }
    if item.get("skip"):
        found["skip"] = True
    elif "value" in item:
        found["value"] = item["value"]
    else:
        found["rng"] = True
    return found


def _in_order(item: dict[str, Any]) -> dict[str, Any]:
    """A runtime method's argument (the rng): given in order."""
    return _argument(item) if "name" in item else {"rng": True}


def _step(step: dict[str, Any]) -> dict[str, Any]:
    if "fields" in step:
        return {
            "fields": [
                {"py": pyattr(n, "mutable"), "js": jsattr(n, "mutable"), "key": n}
                for n in step["fields"]
            ]
        }
    if "method" in step:
        found: dict[str, Any] = {"py": step["method"], "js": step["method"]}
        if "each" in step:
            found["each"] = [[_argument(i) for i in items] for items in step["each"]]
        else:
            found["args"] = [_in_order(i) for i in step["args"]]
        return found
    if "member" in step:
        name = step["member"]
        return {
            "py": pyattr(name, "mutable"),
            "js": jsattr(name, "mutable"),
            "args": [_argument(i) for i in step["args"]],
            "keep": True,
        }
    name = step.get("field") or step["call"]
    found = {"py": pyattr(name), "js": jsattr(name)}
    if "call" in step:
        found["args"] = [_argument(i) for i in step["args"]]
    return found
