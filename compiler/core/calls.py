"""Rule calls: how a rule is called, said once in the rules' own names, which every target spells its own way.

A call is plain JSON, the conformance kit's form (compiler/emit/conformance/kit.py
writes it, a left-out argument's name aside), with no language's spelling of a
name: each target spells it where it makes or prints the call (the Python
runtime's by its names table, compiler/emit/python/calls.py; the reference's
forms for JavaScript, compiler/emit/javascript/plan.py)::

    {"function": "lookup",
     "args": [{"name": "size", "value": "Large"}, {"rng": true}],
     "then": [{"field": "damage"}, {"method": "roll", "args": [{"rng": true}]}]}

What is called: a ``function`` or a ``class`` (constructed), with ``args``, or
a ``constant``. The arguments go in the order of the parameters: one given by
the parameter's ``name`` and its ``value``, or the ``rng``; one marked
``option`` is keyword-only (in JavaScript, in the trailing options object); a
parameter left out before a given one, or before the options, is ``skip``
(with its ``name``, or ``rng`` for the rng's own); the rng given a ``value``
of its own (``RNG_VALUE``) is a test's, of what the runtime refuses. The steps taken on the
answer: a record's ``field`` read, or its method ``call``ed; a state's
``member`` called, the state kept; a ``method`` of the runtime called (a dice's
``roll``, its ``args`` positional; a track's ``apply`` once per argument list
in ``each``, answering the list of answers); a state's ``fields`` gathered into
an object keyed by their names.

The parameters are read from the generated Python runtime's signatures (the
module every workbench hook is given), each by the rules' name for it.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any

from ..lang.py_names import (
    pyattr,
    rules_name,
)

Call = dict[str, Any]
# The key of ``args`` giving the rng parameter a value of its own, in a call
# that does not roll (what a test of its refusals gives): no name of the rules
# starts with ``_``.
RNG_VALUE = "_rng"
ROLL = "roll"  # the runtime's method rolling dice (a dice field's, a pool's)


def _is_rng(hint: Any) -> bool:
    args = typing.get_args(hint) or (hint,)
    return any(getattr(a, "__name__", "") == "RNG" for a in args)


@functools.lru_cache(maxsize=1024)
def _parameters(function: Callable[..., Any]) -> tuple[tuple[str, bool, bool], ...]:
    """Each parameter of ``function`` (a method's ``self`` left out; a class's
    constructor, which takes no rng): the rules' name of it, whether it is
    keyword-only, whether it is the rng (read once per function: a sample of a
    rule makes hundreds of calls of one)."""
    hints = {} if isinstance(function, type) else typing.get_type_hints(function)
    return tuple(
        (
            rules_name(param.name),
            param.kind is inspect.Parameter.KEYWORD_ONLY,
            _is_rng(hints.get(param.name)),
        )
        for param in inspect.signature(function).parameters.values()
        if param.name != "self"
    )


def arguments(
    function: Callable[..., Any], args: dict[str, Any], rolls: bool = False
) -> list[dict[str, Any]]:
    """The arguments of a call of ``function`` (a generated function, class or
    method) with ``args`` by the rules' names of its parameters; the rng given
    when the call ``rolls``."""
    items: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for name, option, rng in _parameters(function):
        item: dict[str, Any] = {"rng": True} if rng else {"name": name}
        key = RNG_VALUE if rng else name
        if rng and rolls:
            pass
        elif key in args:
            item["value"] = args[key]
        elif option:
            continue
        else:
            pending.append({**item, "skip": True})
            continue
        if option:
            item["option"] = True
        else:
            items += pending
            pending = []
        items.append(item)
    if any(item.get("option") for item in items):
        items += pending  # JavaScript's options object comes after every positional one
    return items


def _call(what: str, name: str, args: list[Any] | None, then: list[Any]) -> Call:
    call: Call = {what: name}
    if args is not None:
        call["args"] = args
    if then:
        call["then"] = then
    return call


def function_call(
    function: Callable[..., Any],
    name: str,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> Call:
    """The call of the generated function of the rules' ``name``, with ``args``
    by the rules' names; rolling its dice field ``roll`` of the answer, if given."""
    return _call("function", name, arguments(function, args, rolls), rolled(roll))


def instance_call(
    cls: type, name: str, args: dict[str, Any], then: list[dict[str, Any]]
) -> Call:
    """The call that makes an instance of the generated class of the rules'
    ``name`` (with ``args`` by the rules' names), then takes the steps ``then``."""
    return _call("class", name, arguments(cls, args), then)


def constant_call(name: str, roll: str | None) -> Call:
    """The call that reads a constant of the module (and rolls a field of it)."""
    return _call("constant", name, None, rolled(roll))


def member_step(cls: type, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A step calling the transition ``name`` of a state once (arguments by the
    rules' names), keeping the state (as a state's transitions are made)."""
    method = getattr(cls, pyattr(name, "mutable"))
    return {"member": name, "args": arguments(method, kwargs)}


def each_step(cls: type, method: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    """A step calling the runtime's ``method`` of the instance once for each of
    ``calls`` (arguments by name), answering the list of answers."""
    function = getattr(cls, method)
    return {"method": method, "each": [arguments(function, c) for c in calls]}


def fields_step(names: list[str]) -> dict[str, Any]:
    """A step answering a plain object of a state's fields ``names``."""
    return {"fields": list(names)}


def roll_step() -> dict[str, Any]:
    """A step rolling the answer (dice, a pool) with the call's rng."""
    return {"method": ROLL, "args": [{"rng": True}]}


def rolled(roll: str | None) -> list[dict[str, Any]]:
    """Read the dice field ``roll`` of a record, and roll it."""
    return [] if roll is None else [{"field": roll}, roll_step()]
