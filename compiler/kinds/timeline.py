"""timeline: a seeded simulation of an affliction from contact to full recovery."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..literals import code, docstring, md_cell, py
from ..model import (
    ExposureScheduleRule,
    PoolRule,
    RecoveryRule,
    System,
    TimelineRule,
    TrackRule,
)
from ..naming import name_problem, private_constant
from ..runtime.dice import Dice
from ..views import View, dice_stats, where_doc

if TYPE_CHECKING:
    from ..diagnostics import Path
    from ..loader import SourceFile
    from ..semantics import SystemBuilder

RESULT_FIELDS = ("events", "permanent", "conditions")


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> TimelineRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "result"), raw["result"], "result class")
    exposures = b.reference(
        src,
        (*path, "exposures"),
        raw["exposures"],
        ExposureScheduleRule,
        "an exposure_schedule rule",
    )
    pool = b.reference(src, (*path, "pool"), raw["pool"], PoolRule, "a pool rule")
    track = b.reference(src, (*path, "track"), raw["track"], TrackRule, "a track rule")
    recovery = b.reference(
        src, (*path, "recovery"), raw["recovery"], RecoveryRule, "a recovery rule"
    )
    save = raw["save"]
    dice = b.dice(src, (*path, "save", "dice"), save["dice"], None)
    if (
        dice is not None
        and not dice.min <= save["auto_fail"] < save["auto_succeed"] <= dice.max
    ):
        b.err(
            src,
            (*path, "save"),
            f"auto_fail {save['auto_fail']} and auto_succeed {save['auto_succeed']} must be results of {dice}, the first below the second",
        )
    bonus = save["bonus"]
    if problem := name_problem(bonus):
        b.err(src, (*path, "save", "bonus"), f"parameter name {problem}")
    damage = raw["damage"]
    if damage["total"] in RESULT_FIELDS:
        b.err(
            src,
            (*path, "damage", "total"),
            f"{damage['total']!r} is already a field of the result",
        )
    columns = raw["columns"]
    if exposures is not None:
        table = exposures.table
        types = {c.name: c.type for c in table.columns}
        for role, want in (("dc", "int"), ("incubation", "dice"), ("effect", "dice")):
            name = columns[role]
            if types.get(name) != want:
                b.err(
                    src,
                    (*path, "columns", role),
                    f"table {table.id!r} has no {want} column {name!r}",
                    "columns: " + ", ".join(f"{n} ({t})" for n, t in types.items()),
                )
        for unit in sorted(
            _incubation_units(exposures, columns["incubation"]) - b.time_units.keys()
        ):
            b.err(
                src,
                (*path, "exposures"),
                f"incubation unit {unit!r} is not a time unit of the system",
                "add it to time_units in system.yaml",
            )
    examples = b.examples(
        src,
        path,
        raw,
        {exposures.table.key_param if exposures else "level", "exposed_minutes", bonus},
        roll_columns=set(),
    )
    if (
        exposures is None
        or pool is None
        or track is None
        or recovery is None
        or dice is None
    ):
        return None
    return TimelineRule(
        **common,
        examples=examples,
        function=raw["function"],
        result_class=raw["result"],
        event_class="TimelineEvent",
        exposures=exposures,
        pool=pool,
        track=track,
        recovery=recovery,
        save_dice=dice,
        auto_fail=save["auto_fail"],
        auto_succeed=save["auto_succeed"],
        bonus_param=bonus,
        minutes_per_unit=tuple(sorted(b.time_units.items())),
        damage_event=damage["event"],
        damage_total=damage["total"],
        dc_column=columns["dc"],
        incubation_column=columns["incubation"],
        effect_column=columns["effect"],
    )


def _incubation_units(exposures: ExposureScheduleRule, column: str) -> set[str]:
    index = [c.name for c in exposures.table.columns].index(column)
    cells = [row.cells[index] for row in exposures.table.rows]
    for shift in (exposures.instant, exposures.half):
        cells += [v for n, v in shift.overrides if n == column]
    return {c.unit or "minutes" for c in cells if isinstance(c, Dice)}


def python_view(system: System, rule: TimelineRule) -> View:
    table = rule.exposures.table
    pool = rule.pool.function.upper()
    track = rule.track.id.upper()
    return {
        "template": "timeline.py.j2",
        "id": rule.qualified_id,
        "function": rule.function,
        "result": rule.result_class,
        "result_doc": docstring(
            f"What :func:`{rule.function}` answers. {where_doc(rule)}", "    "
        ),
        "total": rule.damage_total,
        "spec_name": private_constant(rule.id, "spec"),
        "minutes_per_unit": "{"
        + ", ".join(f"{py(u)}: {m}" for u, m in rule.minutes_per_unit)
        + "}",
        "save": py(rule.save_dice),
        "auto_fail": rule.auto_fail,
        "auto_succeed": rule.auto_succeed,
        "deal": f"{pool}_DEAL",
        "deal_interval": f"{pool}_INTERVAL_MINUTES",
        "save_divisor": rule.pool.save_divisor,
        "save_minimum": rule.pool.save_minimum,
        "track_roll": f"{track}_ROLL",
        "every": f"{track}_EVERY",
        "heal_amount": rule.recovery.amount,
        "heal_interval": rule.recovery.interval_minutes,
        "damage_event": py(rule.damage_event),
        "level_enum": table.enum.name,
        "by_label": private_constant(table.enum.name, "by_label"),
        "param": table.key_param,
        "bonus": rule.bonus_param,
        "full_time": rule.exposures.full_time.constant,
        "exposures": rule.exposures.function,
        "dc": rule.dc_column,
        "incubation": rule.incubation_column,
        "effect": rule.effect_column,
        "track_class": rule.track.class_name,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} The same rng state "
            "gives the same timeline. Raises RuleInputError for an unknown level, "
            f"exposed_minutes below 1, or a {rule.bonus_param} that is not an int.",
            "    ",
        ),
        "imports": [
            ("dataclasses", "dataclass"),
            ("typing", "Final"),
            ("rulebook._support", "bad_int"),
            ("rulebook._support", "choice"),
            ("rulebook._timeline", "Phase"),
            ("rulebook._timeline", "TimelineEvent"),
            ("rulebook._timeline", "TimelineSpec"),
            ("rulebook._timeline", "run_timeline"),
            ("rulebook.dice", "RNG"),
            ("rulebook.dice", "Dice"),
        ],
        "exports": [rule.function, rule.result_class, "TimelineEvent"],
    }


def duration(minutes: int, units: tuple[tuple[str, int], ...]) -> str:
    """A minute count in the system's own time units, largest first."""
    parts = []
    for name, size in sorted(units, key=lambda u: -u[1]):
        count, minutes = divmod(minutes, size)
        if count:
            parts.append(f"{count} {name.removesuffix('s') if count == 1 else name}")
    return " ".join(parts) or "0"


def _details(event: Any) -> str:
    """What one timeline event says, in words."""
    kind = event.kind
    if kind == "contaminated":
        return "first contact: contaminated"
    if kind == "decontaminated":
        return "leaves the radiation: no longer contaminated"
    if kind == "incubation_end":
        return f"{event.exposure} exposure ({event.level}): incubation over, pool of {event.pool} rolled"
    if kind == "save":
        verdict = "success" if event.success else "failure"
        return f"{event.exposure} exposure: save {event.roll} (total {event.total}) against DC {event.dc}, {verdict}; pool {event.pool}"
    if event.amount is not None and kind != "heal":
        return f"{event.exposure} exposure: {event.amount} dealt"
    if kind == "heal":
        return f"{event.amount} healed"
    if kind == "secondary_effect":
        text = f"rolled {event.roll}: {event.effect}, stage {event.stage}"
        if event.condition:
            text += f", {event.condition}"
        if event.reroll:
            text += ", roll again"
        if event.permanent_point:
            text += ", a point becomes permanent"
        return text
    return ""


def docs_view(system: System, rule: TimelineRule, common: View) -> View:
    def link(r: Any) -> str:
        return f"[{md_cell(r.title)}](#{r.id})"

    answer = common.get("first_answer")
    example = rule.examples[0] if rule.examples else None
    events = [
        [
            duration(e.minute, rule.minutes_per_unit),
            code(e.kind, in_table=True),
            md_cell(_details(e)),
        ]
        for e in (answer.events if answer is not None else ())
    ]
    return common | {
        "example_name": code(example.name) if example else None,
        "example_call": code(", ".join(f"{k}={v!r}" for k, v in example.args))
        if example
        else None,
        "example_dice": code(", ".join(map(str, example.dice or ())))
        if example
        else None,
        "events": events,
        "signature": code(
            f"{rule.function}({rule.exposures.table.key_param}, exposed_minutes, "
            f"{rule.bonus_param}, rng) -> {rule.result_class}"
        ),
        "exposures": link(rule.exposures),
        "full_time": link(rule.exposures.full_time),
        "pool": link(rule.pool),
        "track": link(rule.track),
        "recovery": link(rule.recovery),
        "save": code(str(rule.save_dice)),
        "dice": [dice_stats(rule.save_dice)],
        "bonus": code(rule.bonus_param),
        "auto_fail": rule.auto_fail,
        "auto_succeed": rule.auto_succeed,
        "every": rule.track.every,
        "damage_event": code(rule.damage_event),
        "total": code(rule.damage_total),
    }
