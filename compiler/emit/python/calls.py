"""Python calls: a rule's call (compiler/core/calls.py) made on a generated Python runtime, each name spelt by the Python names table.

Every argument with a name goes by its Python name (``lang/py_names.py``), the
rng as ``rng``; a runtime method's arguments (a dice's ``roll``) go in order.
The conformance kit (compiler/emit/conformance/kit.py) answers its cases so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...lang.py_names import (
    RNG,
    pyattr,
    pyname,
)


def _made(
    function: Callable[..., Any],
    items: Iterable[dict[str, Any]],
    rng: Any,
    in_order: bool = False,
) -> Any:
    """``function`` called with a call's arguments: by name (the rng as ``rng``),
    or ``in_order`` (a runtime method's); those left out not at all."""
    args = []
    kwargs = {}
    for item in items:
        if item.get("skip"):
            continue
        value = item.get("value", rng)
        if in_order:
            args.append(value)
        else:
            kwargs[pyname(item["name"]) if "name" in item else RNG] = value
    return function(*args, **kwargs)


def run_call(module: Any, call: dict[str, Any], rng: Any) -> Any:
    """The answer of ``call`` made on a generated Python ``module``, rolling
    with ``rng``."""
    if "constant" in call:
        value = getattr(module, pyname(call["constant"]))
    else:
        target = getattr(module, pyname(call.get("function") or call["class"]))
        value = _made(target, call["args"], rng)
    for step in call.get("then", ()):
        if "field" in step:
            value = getattr(value, pyattr(step["field"]))
        elif "call" in step:
            value = _made(getattr(value, pyattr(step["call"])), step["args"], rng)
        elif "fields" in step:
            value = {n: getattr(value, pyattr(n, "mutable")) for n in step["fields"]}
        elif "member" in step:
            member = getattr(value, pyattr(step["member"], "mutable"))
            _made(member, step["args"], rng)
        elif "each" in step:
            method = getattr(value, step["method"])
            value = [_made(method, items, rng) for items in step["each"]]
        else:
            method = getattr(value, step["method"])
            value = _made(method, step["args"], rng, in_order=True)
    return value
