"""track: staged effects rolled on a die, each roll moving one effect a stage on."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...kinds.track.model import TrackEffect, TrackRule
from ...literals import code, docstring, md_cell, py
from ...model import EnumMember, System
from ...naming import private_constant
from ...viewkit import View, api, dice_stats, enum_imports, enum_view, where_doc

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder

# The outcome's fields before the one the rules name (see ``mark``).
OUTCOME_FIELDS = ("effect", "stage", "condition", "reroll")


def member_name(label: str) -> str:
    """An UPPER_CASE member name for a condition label ("Flat-Footed" -> FLAT_FOOTED)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_").upper()


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> TrackRule | None:
    b.claim(src, (*path, "class"), raw["class"], "class")
    b.claim(src, (*path, "outcome"), raw["outcome"], "class")
    effect_enum = b.enum(
        src,
        (*path, "effects"),
        raw["effect_enum"],
        [{"name": e["name"], "label": e["label"]} for e in raw["effects"]],
        False,
        name_at=(*path, "effect_enum"),
        members_at=(*path, "effects"),
    )
    labels: list[str] = []
    for index, effect in enumerate(raw["effects"]):
        epath = (*path, "effects", index)
        staged, marks = "stages" in effect, effect.get("marks", False)
        if staged == bool(marks):
            b.err(
                src,
                epath,
                f"effect {effect['label']!r} needs exactly one of 'stages' and 'marks: true'",
            )
        elif marks and "description" not in effect:
            b.err(
                src,
                epath,
                f"effect {effect['label']!r} has no stages, so it needs a 'description' for the docs",
            )
        labels += [s for s in effect.get("stages", []) if s not in labels]
    condition_enum = b.enum(
        src,
        (*path, "condition_enum"),
        raw["condition_enum"],
        [{"name": member_name(label), "label": label} for label in labels],
        False,
        name_at=(*path, "condition_enum"),
    )
    conditions = {m.label: m for m in condition_enum.members}
    # A member written twice is reported (b.enum) and kept once: its first effect.
    first: dict[str, dict[str, Any]] = {}
    for raw_effect in raw["effects"]:
        first.setdefault(raw_effect["name"], raw_effect)
    effects = tuple(
        TrackEffect(
            member,
            tuple(
                conditions[s]
                for s in first[member.name].get("stages", [])
                if s in conditions
            ),
            bool(first[member.name].get("marks", False)),
            first[member.name].get("description"),
        )
        for member in effect_enum.members
    )
    roll = b.dice(src, (*path, "roll"), raw["roll"], None)
    if roll is not None and (
        roll.min != 1 or roll.max != len(effects) or roll.count != 1
    ):
        b.err(
            src,
            (*path, "roll"),
            f"{roll} must be one die with a side per effect (1d{len(effects)})",
        )
    mark = raw.get("mark")
    ok_mark = mark is None or b.local_name(src, (*path, "mark"), mark, "field name")
    if ok_mark and mark in OUTCOME_FIELDS:
        b.err(src, (*path, "mark"), f"{mark!r} is already a field of the outcome")
    examples = b.examples(src, path, raw, {"rolls"}, roll_columns=set())
    if roll is None:
        return None
    return TrackRule(
        **common,
        examples=examples,
        class_name=raw["class"],
        outcome=raw["outcome"],
        effect_enum=effect_enum,
        condition_enum=condition_enum,
        effects=effects,
        roll=roll,
        every=raw["every"],
        reroll_label=raw["reroll_label"],
        mark_field=raw.get("mark", "marked"),
    )


def python_view(system: System, rule: TrackRule) -> View:
    effects = rule.effect_enum.name
    conditions = rule.condition_enum.name

    def member(m: EnumMember, enum: str) -> str:
        return f"{enum}.{m.name}"

    data = [
        f"({member(e.member, effects)}, ("
        + "".join(f"{member(s, conditions)}, " for s in e.stages)
        + "))"
        for e in rule.effects
    ]
    constant = private_constant(rule.id, "effects")
    return {
        "id": rule.qualified_id,
        "effect_enum": enum_view(
            rule.effect_enum,
            f"The effects of rule ``{rule.qualified_id}``, in die order",
        ),
        "condition_enum": enum_view(
            rule.condition_enum, f"The conditions of rule ``{rule.qualified_id}``"
        ),
        "class_name": rule.class_name,
        "outcome": rule.outcome,
        "outcome_doc": docstring(
            f"What one roll on :class:`{rule.class_name}` did.", "    "
        ),
        "mark": rule.mark_field,
        "effects_name": constant,
        "effects": data,
        "roll_name": f"{rule.id.upper()}_ROLL",
        "roll": py(rule.roll),
        "every_name": f"{rule.id.upper()}_EVERY",
        "every": rule.every,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} One instance holds one "
            f"character's state; ``apply(roll)`` takes a {rule.roll} result.",
            "    ",
        ),
        "imports": [
            *enum_imports(rule.effect_enum),
            *enum_imports(rule.condition_enum),
            ("typing", "Final"),
            ("rulebook.json", "Record"),
            ("typing", "ClassVar"),
            ("rulebook._track", "StagedTrack"),
            ("rulebook.dice", "Dice"),
        ],
        "exports": [
            rule.class_name,
            rule.outcome,
            rule.effect_enum.name,
            rule.condition_enum.name,
            f"{rule.id.upper()}_ROLL",
            f"{rule.id.upper()}_EVERY",
        ],
    }


def docs_view(system: System, rule: TrackRule, common: View) -> View:
    width = max(len(e.stages) for e in rule.effects)
    rows = []
    for index, e in enumerate(rule.effects, start=1):
        if e.marks:
            cells = [md_cell(e.description or "")] + [" "] * width
        else:
            pad = [" "] * (width - len(e.stages))
            cells = (
                [md_cell(s.label) for s in e.stages]
                + pad
                + [md_cell(rule.reroll_label)]
            )
        rows.append([str(index), md_cell(e.member.label), *cells])
    return common | {
        "api": api(
            common,
            "Call: "
            + code(f"{rule.class_name}().apply(roll) -> {rule.outcome}")
            + ": a track of one subject, and what one roll on it gives.",
        ),
        "roll": code(str(rule.roll)),
        "every": rule.every,
        "headers": ["Roll", "Effect", *(f"Stage {n}" for n in range(1, width + 2))],
        "rows": rows,
        "reroll_stage": width + 1,
        "dice": [dice_stats(rule.roll)],
    }
