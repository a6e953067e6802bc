"""A ladder state's call: a state at the example's level, its actions made in order, read as its level, effects and flags."""

from __future__ import annotations

from typing import Any

from ...core.calls import (
    fields_step,
    instance_call,
    member_step,
)
from ...kinds.state.model import StateRule
from ...lang.py_names import pyname


def call(
    module: Any, rule: StateRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A state (at the example's level), its actions made in order; answered as
    its level, effects and flags."""
    cls = getattr(module, pyname(rule.class_name))
    start = {"level": args["level"]} if "level" in args else {}
    steps = []
    for action in args.get("actions", ()):
        if isinstance(action, str):
            steps.append(member_step(cls, action, {}))
        else:
            ((name, kwargs),) = action.items()
            steps.append(member_step(cls, name, dict(kwargs or {})))
    names = ["level", "effects", *(f.name for f in rule.flags)]
    return instance_call(cls, rule.class_name, start, [*steps, fields_step(names)])
