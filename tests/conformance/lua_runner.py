"""Conformance runner for the test-only Lua target: a kit's cases made on the Lua functions tests/lua_target.py prints.

A port's runner as the guide on rules.json describes it: each name of a call
spelt as the port's own code spells it (``lua_target.lua_name``), the call
made, and the answer's JSON, or the refusal with the kit's names put back in
it, compared with the case's. The Lua target prints functions that roll no
dice, so a case calling for dice, a seed, a constant, a class or a step but a
record's field is a failure here (its rule is not the Lua target's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import lupa

from rulesc.emit.conformance.kit import neutral_message

from ..lua_target import lua_name

LUA_WORDS = {"nil": "null"}  # Lua's words for values that JSON words otherwise
_ERROR = re.compile(r"(\w+Error): (.*)", re.DOTALL)


def lua_words(names: Iterable[str]) -> dict[str, str]:
    """Each Lua spelling of the kit's ``names`` that is not the name itself,
    to the name; and Lua's words for values, to JSON's."""
    spelt = dict(LUA_WORDS)
    for name in sorted(names):
        if lua_name(name) != name:
            spelt.setdefault(lua_name(name), name)
    return spelt


def to_data(value: Any) -> Any:
    """A Lua answer as JSON data: a table with keys a record (or dice: the
    parts expressions read left out, its unit null when it has none), one
    without a list."""
    if lupa.lua_type(value) != "table":
        return value
    items = dict(value.items())
    if all(isinstance(k, int) for k in items):
        return [to_data(items[k]) for k in sorted(items)]
    if "notation" in items:
        items = {k: v for k, v in items.items() if k not in ("min", "max")}
        items.setdefault("unit", None)
    return {k: to_data(v) for k, v in items.items()}


def make(functions: Any, call: dict[str, Any]) -> Any:
    """The answer of a kit's ``call`` on the Lua ``functions`` (the table the
    printed chunk answers): its arguments in order, then its fields read."""
    if set(call) - {"function", "args", "then"}:
        raise ValueError(f"the Lua target makes no call of {sorted(call)}")
    if any(set(item) - {"name", "value"} for item in call["args"]):
        raise ValueError("the Lua target passes no rng and leaves no default")
    function = functions[call["function"]]
    if function is None:
        raise ValueError(f"the Lua target prints no {call['function']}")
    value = function(*[item["value"] for item in call["args"]])
    for step in call.get("then", ()):
        if set(step) != {"field"}:
            raise ValueError(f"the Lua target takes no step {sorted(step)}")
        value = value[lua_name(step["field"])]
    return value


def refusal(error: Exception, words: dict[str, str]) -> dict[str, str] | None:
    """A Lua refusal as the kit writes it (its error class and message, the
    kit's names put back), or None for an error that is no refusal."""
    said = _ERROR.fullmatch(str(error).split("\nstack traceback:", 1)[0])
    if said is None:
        return None
    return {"error": said[1], "message": neutral_message(said[2], words)}


def check(functions: Any, case: dict[str, Any], words: dict[str, str]) -> str | None:
    """None when ``case`` holds on the Lua ``functions``, else what went wrong."""
    try:
        value = make(functions, case["call"])
    except lupa.LuaError as error:
        said = refusal(error, words)
        if said is not None and said == case.get("refusal"):
            return None
        return f"refused {said or str(error)!r}; the kit: {case.get('refusal') or case.get('answer')!r}"
    except ValueError as error:
        return str(error)
    if "refusal" in case:
        return f"answered, but the kit refuses: {case['refusal']}"
    data = json.dumps(to_data(value), sort_keys=True)
    if data != json.dumps(case["answer"], sort_keys=True):
        return f"answered {data}, the kit {json.dumps(case['answer'])}"
    return None


def run_kit(functions: Any, kit: dict[str, Any], rules: Iterable[str]) -> list[str]:
    """Every failing case of ``kit`` of the ``rules`` (qualified ids) the Lua
    ``functions`` print, with what went wrong (none: they conform)."""
    words = lua_words(kit["names"])
    only = set(rules)
    failed = []
    for case in kit["cases"]:
        if case["rule"] in only:
            problem = check(functions, case, words)
            if problem is not None:
                failed.append(f"{case['rule']} {case['case']}: {problem}")
    return failed
