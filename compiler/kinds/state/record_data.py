"""A record state's part of rules.json."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    expression,
    params,
    value_type,
)
from ...front.model import System
from ...kinds.state.record_model import RecordStateRule


def data_view(system: System, rule: RecordStateRule, refs: Refs) -> View:
    fields = rule.fields
    return {
        "class_name": rule.class_name,
        "parameters": params(rule.params, refs),
        "fields": [
            {
                "name": f.name,
                "type": f.type,
                "start": expression(f.start, refs),
                "min": f.min,
                "max": f.max,
                "description": f.description,
                "value": None if f.held is None else value_type(f.held.column),
            }
            for f in fields
        ],
        "derived": [
            {
                "name": d.name,
                "type": d.type,
                "value": expression(d.checked, refs),
                "description": d.description,
                "held": None if d.held is None else value_type(d.held.column),
            }
            for d in rule.derived
        ],
        "transitions": [
            {
                "name": t.name,
                "description": t.description,
                "parameters": params(t.params, refs),
                "unless": None
                if t.unless is None
                else expression(t.unless, refs, t.params),
                "let": [
                    {
                        "name": let.name,
                        "value": expression(let.checked, refs, t.params),
                        "description": let.description,
                    }
                    for let in t.lets
                ],
                "set": [
                    {
                        "name": s.field,
                        "value": expression(s.checked, refs, t.params),
                        "clamped": s.clamp,
                    }
                    for s in t.sets
                ],
            }
            for t in rule.transitions
        ],
    }
