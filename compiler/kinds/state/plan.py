"""A ladder state's call plan: a state at the example's level, its actions made
in order, read as its level, effects and flags."""

from __future__ import annotations

from typing import Any

from ...emit.javascript.plan import (
    call_step,
    fields_step,
    instance_plan,
)
from ...kinds.state.model import StateRule
from ...lang.py_names import pyname


def js_plan(
    module: Any, rule: StateRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A state (at the example's level), its actions made in order; answered as
    its level, effects and flags."""
    cls = getattr(module, pyname(rule.class_name))
    start = {"level": args["level"]} if "level" in args else {}
    steps = []
    for action in args.get("actions", ()):
        if isinstance(action, str):
            steps.append(call_step(cls, action, {}))
        else:
            ((name, kwargs),) = action.items()
            steps.append(call_step(cls, name, dict(kwargs or {})))
    names = ["level", "effects", *(f.name for f in rule.flags)]
    return instance_plan(cls, start, [*steps, fields_step(names)])
