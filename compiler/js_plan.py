"""Call plans: one call of a rule, written once and made in both languages.

A plan names what to call in the Python module and in the JavaScript one, with
the arguments in the Python signature's order (keyword-only ones marked: in
JavaScript they go in the trailing options object), where the rng goes, and
what to do with the answer (read a field, call a method such as ``roll``).
``run_python`` makes the call on the generated Python runtime; the JavaScript
twin is tests/js/plan.mjs. The conformance tests compare the two answers.

A plan is plain JSON::

    {"target": {"py": "lookup", "js": "lookup"},
     "args": [{"py": "size", "js": "size", "option": false, "value": "Large"},
              {"py": "rng", "js": "rng", "option": false, "rng": true}],
     "then": [{"py": "damage", "js": "damage"},
              {"py": "roll", "js": "roll", "args": [{"rng": true}]}]}

``args`` is None for a constant; a positional argument left out before a given
one, or any left out before the options, is ``{"skip": true}`` (JavaScript passes
``undefined``: its default).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from .js_naming import camel

Plan = dict[str, Any]


def _is_rng(hint: Any) -> bool:
    args = typing.get_args(hint) or (hint,)
    return any(getattr(a, "__name__", "") == "RNG" for a in args)


def call_plan(
    function: Callable[..., Any],
    name: str,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> Plan:
    """The plan of a call of a generated function, by its Python signature."""
    hints = typing.get_type_hints(function)
    items: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for param in inspect.signature(function).parameters.values():
        option = param.kind is inspect.Parameter.KEYWORD_ONLY
        item: dict[str, Any] = {
            "py": param.name,
            "js": camel(param.name),
            "option": option,
        }
        if _is_rng(hints.get(param.name)) and rolls:
            item["rng"] = True
        elif param.name in args:
            item["value"] = args[param.name]
        elif option:
            continue
        else:
            pending.append({**item, "skip": True})
            continue
        if not option:
            items += pending
            pending = []
        items.append(item)
    if any(item["option"] for item in items):
        items += pending  # JavaScript's options object comes after every positional one
    return {
        "target": {"py": name, "js": camel(name)},
        "args": items,
        "then": _then(roll),
    }


def constant_plan(name: str, roll: str | None) -> Plan:
    """The plan that reads a constant of the module (and rolls a field of it)."""
    return {
        "target": {"py": name, "js": camel(name)},
        "args": None,
        "then": _then(roll),
    }


def _then(roll: str | None) -> list[dict[str, Any]]:
    if roll is None:
        return []
    return [
        {"py": roll, "js": camel(roll)},
        {"py": "roll", "js": "roll", "args": [{"rng": True}]},
    ]


def run_python(module: Any, plan: Plan, rng: Any) -> Any:
    """Make the plan's call on a generated Python module; its answer."""
    value = getattr(module, plan["target"]["py"])
    if plan["args"] is not None:
        kwargs = {
            a["py"]: rng if a.get("rng") else a["value"]
            for a in plan["args"]
            if not a.get("skip")
        }
        value = value(**kwargs)
    for step in plan["then"]:
        value = getattr(value, step["py"])
        if "args" in step:
            value = value(*(rng if a.get("rng") else a["value"] for a in step["args"]))
    return value
