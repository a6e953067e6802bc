"""A staged track in JavaScript: its labels, roll and effects, and a class extending StagedTrack."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ...js_kit import (
    View,
    doc,
    enum_view,
    js,
    member,
    record_literal,
    record_view,
    where,
)
from ...js_plan import each_step, instance_plan
from ...kinds.track.model import TrackRule
from ...kinds.track.rule import OUTCOME_FIELDS
from ...model import System
from ...naming import private_constant

# What each field of an outcome says (the Python runtime's docstrings, the same words).
FIELD_DOCS = {
    "effect": "The effect the roll hit.",
    "stage": "The stage it reached; one past the last means roll again.",
    "condition": "The condition of that stage, or null.",
    "reroll": "Whether to roll again.",
}
MARK_DOC = "Whether the roll marked a point."


def js_view(system: System, rule: TrackRule) -> View:
    effects, conditions = rule.effect_enum, rule.condition_enum
    types = {
        "effect": effects.name,
        "stage": "number",
        "condition": f"{conditions.name} | null",
        "reroll": "boolean",
    }
    columns = [
        SimpleNamespace(
            name=name, title="", description=FIELD_DOCS[name], ts=types[name]
        )
        for name in OUTCOME_FIELDS
    ] + [
        SimpleNamespace(
            name=rule.mark_field,
            title="",
            description=MARK_DOC,
            ts="boolean",
        )
    ]
    record = record_view(
        rule.outcome, columns, f"What one roll on `{rule.class_name}` did."
    )
    rows = []
    for e in rule.effects:
        stages = ", ".join(member(conditions, s.label) for s in e.stages)
        rows.append(
            f"Object.freeze([{member(effects, e.member.label)}, Object.freeze([{stages}])])"
        )
    return {
        "effect_enum": enum_view(
            effects, f"The effects of rule `{rule.qualified_id}`, in die order"
        ),
        "condition_enum": enum_view(
            conditions, f"The conditions of rule `{rule.qualified_id}`"
        ),
        "roll_name": f"{rule.id.upper()}_ROLL",
        "roll": js(rule.roll),
        "every_name": f"{rule.id.upper()}_EVERY",
        "every": js(rule.every),
        "effects_name": private_constant(rule.id, "effects"),
        "effects": rows,
        "record": record,
        "outcome": record_literal(
            record["shape"],
            [(c.name, f"outcome[{i}]") for i, c in enumerate(columns)],
            "    ",
        ),
        "class_name": rule.class_name,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} One instance holds one "
            f"character's state; `apply(roll)` takes a {rule.roll} result."
        ),
    }


def js_plan(
    module: Any, rule: TrackRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A fresh track, and each roll applied to it in order: the outcomes."""
    cls = getattr(module, rule.class_name)
    calls = [{"roll": r} for r in args.get("rolls", [])]
    return instance_plan(cls, {}, [each_step(cls, "apply", calls)])
