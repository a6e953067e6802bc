"""process, records: its events' and answer's records, and what it reads of the rules it uses."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.ir import (
    Record,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    EnumType,
    Param,
    System,
)
from ...kinds.decision.model import DecisionRule
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.state.record_model import RecordStateRule
from ...lang.expr import (
    DICE_PARTS,
    Checked,
    Name,
)
from ...runtime.dice import Dice
from .held import held_column
from .model import ProcessRule


def event_kinds(rule: ProcessRule) -> list[str]:
    """Every event name a run of ``rule`` can record (the values of ``kind``)."""
    names = (
        rule.enter_event,
        rule.leave_event,
        rule.onset_event,
        rule.check_event,
        rule.end_event,
        *rule.score_events,
        rule.track_event,
        rule.recover_event,
        rule.ends_event,
        rule.state_event,
    )
    return list(dict.fromkeys(n for n in names if n is not None))


def column(
    name: str,
    type_: str,
    description: str,
    enum: str | None = None,
    *,
    nullable: bool = True,
) -> Column:
    title = name.replace("_", " ").capitalize()
    return Column(name, type_, nullable, "-", False, None, title, description, enum)  # type: ignore[arg-type]


def result_record(rule: ProcessRule) -> Record:
    """What a run answers: its events, then its totals."""
    columns = [
        Column(
            "events",
            "list",
            False,
            "-",
            False,
            None,
            "Events",
            "Everything that happened, in time order.",
            rule.event_class,
        )
    ]
    for total in rule.totals:
        if total.of == "conditions":
            assert rule.track is not None
            made = column(
                total.name,
                "list",
                total.description,
                rule.track.condition_enum.name,
                nullable=False,
            )
        elif total.of == "state" and rule.held is not None:
            assert isinstance(rule.state, RecordStateRule)
            made = held_column(
                rule.held, rule.state, total.field, total.name, total.description
            )
        elif total.of == "state":
            assert rule.state is not None
            made = column(
                total.name,
                "choice",
                total.description,
                rule.state.class_name,
                nullable=False,
            )
        elif total.of == "time":
            made = column(total.name, "int", total.description)
        else:
            made = column(total.name, "int", total.description, nullable=False)
        columns.append(made)
    return Record(
        rule.result_class,
        f"What [[{rule.function}]] answers. {where_doc(rule)}",
        tuple(columns),
    )


Field = tuple[str, str | None, tuple[tuple[str, int, int], ...], bool]


def record_fields(callee: object) -> dict[str, Field]:
    """Each field of the records ``callee`` answers: its type, its set's name
    (a label), (dice) the range of each part over the values it can hold, and
    whether it may be null."""
    if isinstance(callee, ExposureScheduleRule):
        found: dict[str, Field] = {
            "kind": ("choice", callee.kind_enum.name, (), False),
            "effective_level": ("choice", callee.table.enum.name, (), False),
            callee.start_field: ("int", None, (), False),
        }
        for index, column in enumerate(callee.table.columns):
            cells = [row.cells[index] for row in callee.table.rows]
            found[column.name] = (
                column.type,
                column.enum,
                dice_parts(cells),
                column.nullable,
            )
        return found
    assert isinstance(callee, DecisionRule)
    return {
        s.name: (s.type, s.enum.name if s.enum else None, (), s.nullable)
        for s in callee.slots
    }


def dice_parts(cells: Sequence[object]) -> tuple[tuple[str, int, int], ...]:
    dice = [c for c in cells if isinstance(c, Dice)]
    if not dice:
        return ()
    return tuple(
        (part, min(getattr(d, part) for d in dice), max(getattr(d, part) for d in dice))
        for part in DICE_PARTS
    )


def dice_name(
    name: str, parts: tuple[tuple[str, int, int], ...], *, nullable: bool
) -> Checked:
    return Checked(Name(name, 0, 0), "dice", None, nullable, parts=parts)


def onset_units(rule: ProcessRule) -> list[tuple[str, int]]:
    """The time units the records' onsets are in, with their ticks."""
    origin = rule.origin
    assert origin is not None and origin.onset is not None
    ticks = dict(rule.ticks)
    callee = origin.rule
    units: list[str] = []
    if isinstance(callee, ExposureScheduleRule):
        index = [c.name for c in callee.table.columns].index(origin.onset)
        for row in callee.table.rows:
            cell = row.cells[index]
            if isinstance(cell, Dice) and cell.unit in ticks and cell.unit not in units:
                units.append(cell.unit)
    return [(u, ticks[u]) for u in units] or [(rule.clock, 1)]


def callee_params(callee: object) -> list[Param]:
    if isinstance(callee, ExposureScheduleRule):
        from ...kinds.exposure_schedule.rule import params

        return list(params(callee).values())
    assert isinstance(callee, DecisionRule)
    return list(callee.params)


def enum_named(system: System, name: str | None) -> EnumType | None:
    if name is None:
        return None
    return next((e for e in system.enums if e.name == name), None)
