"""Track: its part of rules.json (the die, how often it is rolled, each effect's stages)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    value,
)
from ...front.model import System
from ...kinds.track.model import TrackRule


def data_view(system: System, rule: TrackRule, refs: Refs) -> View:
    return {
        "class_name": rule.class_name,
        "outcome": rule.outcome,
        "effect_enum": rule.effect_enum.name,
        "condition_enum": rule.condition_enum.name,
        "roll": value(rule.roll),
        "every": rule.every,
        "reroll_label": rule.reroll_label,
        "mark_field": rule.mark_field,
        "effects": [
            {
                "effect": e.member.label,
                "stages": [s.label for s in e.stages],
                "marks": e.marks,
                "description": e.description,
            }
            for e in rule.effects
        ],
    }
