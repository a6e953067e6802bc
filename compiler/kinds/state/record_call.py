"""A record state's call: a new state, its actions made in order, read as its fields and derived properties."""

from __future__ import annotations

from typing import Any

from ...core.calls import (
    fields_step,
    instance_call,
    member_step,
)
from ...kinds.state.record_model import RecordStateRule
from ...kinds.state.record_workbench import action
from ...lang.py_names import pyname


def call(
    module: Any,
    rule: RecordStateRule,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> dict[str, Any]:
    """A new state, its actions made in order; answered as its fields and
    derived properties."""
    cls = getattr(module, pyname(rule.class_name))
    steps = []
    for item in args.get("actions", ()):
        name, kwargs = action(item)
        steps.append(member_step(cls, name, kwargs))
    names = [*(f.name for f in rule.fields), *(d.name for d in rule.derived)]
    made = dict(args.get("create") or {})
    return instance_call(cls, rule.class_name, made, [*steps, fields_step(names)])
