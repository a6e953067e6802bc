"""Call plans: one call of a rule, written once and made in both languages.

A plan names what to call in the Python module and in the JavaScript one, with
the arguments in the Python signature's order (keyword-only ones marked: in
JavaScript they go in the trailing options object), where the rng goes, and
what to do with the answer (read a field, call a method such as ``roll``).
``run_python`` makes the call on the generated Python runtime; the JavaScript
twin is docsite/plan.js (the reference's forms make plans). The conformance kit
(compiler/emit/conformance/kit.py) writes each plan by the rules' names, with the
answer ``run_python`` gives.

A plan is plain JSON::

    {"target": {"py": "lookup", "js": "lookup"},
     "args": [{"py": "size", "js": "size", "option": false, "value": "Large"},
              {"py": "rng", "js": "rng", "option": false, "rng": true}],
     "then": [{"py": "damage", "js": "damage"},
              {"py": "roll", "js": "roll", "args": [{"rng": true}]}]}

``args`` is None for a constant; a positional argument left out before a given
one, or any left out before the options, is ``{"skip": true}`` (JavaScript passes
``undefined``: its default).

A rule that builds an instance (a track, a state) has ``"new": true`` in its
target (JavaScript constructs a class with ``new``), and steps that work on it:
a step with ``"each"`` (a list of argument lists) calls the method once per
list and answers the list of answers; one with ``"keep": true`` calls it and
keeps the object (a state's transitions); one with ``"fields"`` (a list of
``{"py", "js", "key"}``) answers a plain object of those fields, keyed by their
names in the rules (``key``). A step's arguments are items as the target's are (one with ``"py"``
goes by name in Python, in the options object in JavaScript when ``option``).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any

from ...lang.py_names import (
    RNG,
    py_kwargs,
    pyattr,
    pyname,
    rules_name,
)
from .names import (
    jsattr,
    jsname,
)

Plan = dict[str, Any]


def _is_rng(hint: Any) -> bool:
    args = typing.get_args(hint) or (hint,)
    return any(getattr(a, "__name__", "") == "RNG" for a in args)


@functools.lru_cache(maxsize=1024)
def _parameters(function: Callable[..., Any]) -> tuple[tuple[str, bool, bool], ...]:
    """Each parameter of ``function`` (a method's ``self`` left out; a class's
    constructor, which takes no rng): its name, whether it is keyword-only,
    whether it is the rng (read once per function: a sample of a rule makes
    hundreds of plans of one)."""
    hints = {} if isinstance(function, type) else typing.get_type_hints(function)
    return tuple(
        (
            param.name,
            param.kind is inspect.Parameter.KEYWORD_ONLY,
            _is_rng(hints.get(param.name)),
        )
        for param in inspect.signature(function).parameters.values()
        if param.name != "self"
    )


def arguments(
    function: Callable[..., Any], args: dict[str, Any], rolls: bool = False
) -> list[dict[str, Any]]:
    """The argument items of a call of ``function`` (by its Python signature;
    a method's ``self`` left out; a class's constructor, which takes no rng)
    with ``args`` by Python name (``py_names``; the rules' own where they are
    the same)."""
    items: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for name, option, rng in _parameters(function):
        item: dict[str, Any] = {
            "py": name,
            "js": RNG if name == RNG else jsname(rules_name(name)),
            "option": option,
        }
        if rng and rolls:
            item["rng"] = True
        elif name in args:
            item["value"] = args[name]
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
    return items


def call_plan(
    function: Callable[..., Any],
    name: str,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> Plan:
    """The plan of a call of a generated function, by its Python signature."""
    return {
        "target": {"py": pyname(name), "js": jsname(name)},
        "args": arguments(function, args, rolls),
        "then": _then(roll),
    }


def instance_plan(cls: type, args: dict[str, Any], then: list[dict[str, Any]]) -> Plan:
    """The plan that makes an instance of a generated class (with ``args`` by
    Python name), then takes the steps ``then`` on it."""
    name = cls.__name__
    return {
        "target": {"py": name, "js": jsname(rules_name(name)), "new": True},
        "args": arguments(cls, args),
        "then": then,
    }


def call_step(cls: type, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A step calling the transition ``name`` (the rules' name) of a state once
    (arguments by the rules' names), keeping the instance (as a state's
    transitions are made)."""
    py = pyattr(name, "mutable")
    args = arguments(getattr(cls, py), py_kwargs(kwargs))
    return {"py": py, "js": jsattr(name, "mutable"), "args": args, "keep": True}


def each_step(cls: type, name: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    """A step calling method ``name`` of the instance once for each of ``calls``
    (arguments by Python name), answering the list of answers."""
    method = getattr(cls, name)
    return {
        "py": name,
        "js": jsname(name),
        "each": [arguments(method, kwargs) for kwargs in calls],
    }


def fields_step(names: list[str]) -> dict[str, Any]:
    """A step answering a plain object of a state's fields ``names`` (the
    rules' names), keyed by those names."""
    return {
        "fields": [
            {"py": pyattr(n, "mutable"), "js": jsattr(n, "mutable"), "key": n}
            for n in names
        ]
    }


def constant_plan(name: str, roll: str | None) -> Plan:
    """The plan that reads a constant of the module (and rolls a field of it)."""
    return {
        "target": {"py": pyname(name), "js": jsname(name)},
        "args": None,
        "then": _then(roll),
    }


def _then(roll: str | None) -> list[dict[str, Any]]:
    """Read the dice field ``roll`` (the rules' name) of a record, and roll it."""
    if roll is None:
        return []
    return [
        {"py": pyattr(roll), "js": jsattr(roll)},
        {"py": "roll", "js": "roll", "args": [{"rng": True}]},
    ]


def _call(function: Callable[..., Any], items: list[dict[str, Any]], rng: Any) -> Any:
    """Call ``function`` with plan items: by name those that have a Python name."""
    args = []
    kwargs = {}
    for item in items:
        if item.get("skip"):
            continue
        value = rng if item.get("rng") else item["value"]
        if "py" in item:
            kwargs[item["py"]] = value
        else:
            args.append(value)
    return function(*args, **kwargs)


def run_python(module: Any, plan: Plan, rng: Any) -> Any:
    """Make the plan's call on a generated Python module; its answer."""
    value = getattr(module, plan["target"]["py"])
    if plan["args"] is not None:
        value = _call(value, plan["args"], rng)
    for step in plan["then"]:
        if "fields" in step:
            value = {f["key"]: getattr(value, f["py"]) for f in step["fields"]}
        elif "each" in step:
            method = getattr(value, step["py"])
            value = [_call(method, items, rng) for items in step["each"]]
        elif "args" in step:
            answer = _call(getattr(value, step["py"]), step["args"], rng)
            if not step.get("keep"):
                value = answer
        else:
            value = getattr(value, step["py"])
    return value
