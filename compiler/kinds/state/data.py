"""State: its part of rules.json (the levels' effects, the floor, every transition and flag)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
)
from ...front.model import System
from ...kinds.state.model import StateRule


def data_view(system: System, rule: StateRule, refs: Refs) -> View:
    return {
        "class_name": rule.class_name,
        "levels": [{"level": n, "effect": e} for n, e in enumerate(rule.effects, 1)],
        "floor": rule.floor,
        "cumulative": rule.cumulative,
        "transitions": [
            {
                "name": t.name,
                "step": t.step,
                "to": t.to,
                "by": t.by,
                "param": t.param,
                "default": t.default,
                "max": t.max,
                "description": t.description,
            }
            for t in rule.transitions
        ],
        "flags": [
            {"name": f.name, "from_level": f.from_level, "description": f.description}
            for f in rule.flags
        ],
    }
