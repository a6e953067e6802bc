"""exposure_schedule: which exposures one contact causes.

An immediate exposure from one shift of the table's ladder; then, after the
rolled full time, the key's own row, or after a fraction of it another shift.
The parameter names and the start field are the rules'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...common.limits import MAX_EXACT
from ...core.docs import ref
from ...core.exprs import checked
from ...core.ir import (
    Emit,
    Enum,
    If,
    Label,
    Local,
    Lookup,
    Make,
    Present,
    Procedure,
    Prose,
    Read,
    Record,
    Stmt,
    Unit,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    Param,
    System,
)
from ...kinds.dice.model import DiceRule
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.shift.model import ShiftRule
from ...kinds.shift.rule import shift_levels, shift_rows
from ...kinds.table.model import TableRule
from ...kinds.table.rule import rows_name
from ...lang.expr import Checked

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> ExposureScheduleRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "record"), raw["record"], "record class")
    table = b.reference(src, (*path, "table"), raw["table"], TableRule, "a table rule")
    full = b.reference(
        src, (*path, "full_time"), raw["full_time"], DiceRule, "a dice rule"
    )
    instant = b.reference(
        src, (*path, "instant"), raw["instant"], ShiftRule, "a shift rule"
    )
    half = b.reference(src, (*path, "half"), raw["half"], ShiftRule, "a shift rule")
    kinds = raw["kinds"]
    members = [
        {"name": k.upper(), "label": kinds[k]} for k in ("instant", "half", "full")
    ]
    kind_enum = b.enum(src, (*path, "kinds"), kinds["enum"], members, False)
    num, den = raw["half_fraction"]
    if num >= den:
        b.err(src, (*path, "half_fraction"), f"{num}/{den} is not less than the whole")
    if table is None or full is None or instant is None or half is None:
        return None
    for name, shift in (("instant", instant), ("half", half)):
        if shift.table != table:
            b.err(
                src,
                (*path, name),
                f"{shift.id!r} steps along {shift.table.id!r}, not {table.id!r}",
            )
    if full.dice.max * den > MAX_EXACT:
        # The half test multiplies a stay shorter than the full time by den
        # (and the full time by num < den): exact while the most it can be is.
        b.err(
            src,
            (*path, "half_fraction"),
            f"half_fraction {num}/{den} times the most {full.id!r} rolls "
            f"({full.dice.max}) passes {MAX_EXACT}, the largest whole number "
            "every runtime holds exactly (Number.MAX_SAFE_INTEGER)",
        )
    if full.dice.min < 1:
        b.err(
            src,
            (*path, "full_time"),
            f"{full.id!r} can roll {full.dice.min}; a time to full exposure must be at least 1",
        )
    names = raw["parameters"]
    for role in ("stayed", "full"):
        b.local_name(src, (*path, "parameters", role), names[role], "parameter name")
        if names[role] in LOCALS:
            b.err(
                src,
                (*path, "parameters", role),
                f"{names[role]!r} is a name the schedule's steps set",
                f"choose a name other than {', '.join(LOCALS)}",
            )
    if table.key_param in LOCALS:
        b.err(
            src,
            (*path, "table"),
            f"{table.id!r}'s key {table.key_param!r} is a name the schedule's "
            "steps set",
            f"give the table a key other than {', '.join(LOCALS)}",
        )
    if names["stayed"] == names["full"] or table.key_param in names.values():
        b.err(src, (*path, "parameters"), "the parameters need three different names")
    b.local_name(src, (*path, "start_field"), raw["start_field"], "field name")
    if raw["start_field"] in {
        "kind",
        "effective_level",
        *(c.name for c in table.columns),
    }:
        b.err(
            src,
            (*path, "start_field"),
            f"{raw['start_field']!r} is already a field of the record",
        )
    examples = b.examples(
        src, path, raw, {table.key_param, *names.values()}, roll_columns=set()
    )
    return ExposureScheduleRule(
        **common,
        examples=examples,
        function=raw["function"],
        table=table,
        full_time=full,
        record=raw["record"],
        kind_enum=kind_enum,
        instant=instant,
        half=half,
        half_fraction=(num, den),
        stayed_param=names["stayed"],
        full_param=names["full"],
        start_field=raw["start_field"],
    )


# The names the schedule's procedure sets: no parameter may take one.
LOCALS = (
    "exposures",
    "instant_level",
    "instant_row",
    "full_row",
    "half_level",
    "half_row",
)


def params(rule: ExposureScheduleRule) -> dict[str, Param]:
    """Its function's parameters: the key, how long the subject stayed, and the
    rolled time to a full exposure."""
    table, dice = rule.table, rule.full_time.dice
    unit = f", in {dice.unit}" if dice.unit else ""
    key = Param(
        table.key_param,
        "choice",
        None,
        None,
        None,
        False,
        f"The {table.key_title.lower()} of the contact.",
        table.enum,
        owns_enum=False,
    )
    stayed = Param(
        rule.stayed_param,
        "int",
        1,
        None,
        None,
        False,
        f"How long the subject stayed in contact{unit}.",
        None,
    )
    full = Param(
        rule.full_param,
        "int",
        dice.min,
        dice.max,
        None,
        False,
        f"The time to a full exposure{unit}, as {rule.full_time.title} rolls it.",
        None,
    )
    return {"key": key, "stayed": stayed, "full": full}


def lower(system: System, rule: ExposureScheduleRule) -> Unit:
    """The kinds of exposure as a label set, an exposure as a record, and the
    schedule as a procedure: the instant exposure, then the full one or else
    the lesser one."""
    table, kinds = rule.table, rule.kind_enum
    key, stayed, full = params(rule).values()
    where = where_doc(rule)
    said_of = {m.name.lower(): m.label for m in kinds.members}
    names = (
        Local("instant_level", None, None, table.enum, nullable=True),
        Local("instant_row", None, None, nullable=True, record=table.row_class),
        Local("full_row", None, None, record=table.row_class),
        Local("half_level", None, None, table.enum, nullable=True),
        Local("half_row", None, None, nullable=True, record=table.row_class),
    )

    def c(text: str) -> Checked:
        return checked(text, (key, stayed, full), names)

    def exposure(which: str, level: str, row: str, start: str) -> Emit:
        label = Label(kinds, said_of[which])
        columns = tuple(Read(row, col.name) for col in table.columns)
        return Emit(Make((label, c(level), *columns, c(start))))

    def shifted(shift: ShiftRule, at: str, which: str, start: str) -> tuple[Stmt, ...]:
        level, row = f"{at}_level", f"{at}_row"
        return (
            Lookup(level, f"{shift.function}_level", shift_levels(shift), c(key.name)),
            Lookup(row, shift.function, shift_rows(shift), c(key.name)),
            If(Present((level, row)), (exposure(which, level, row, start),)),
        )

    num, den = rule.half_fraction
    body = (
        *shifted(rule.instant, "instant", "instant", "0"),
        If(
            c(f"{stayed.name} >= {full.name}"),
            (
                Lookup("full_row", table.function, rows_name(table), c(key.name)),
                exposure("full", key.name, "full_row", full.name),
            ),
            (
                If(
                    c(f"{stayed.name} * {den} >= {full.name} * {num}"),
                    shifted(rule.half, "half", "half", stayed.name),
                ),
            ),
        ),
    )
    fields = (
        _field("kind", "Kind", "Which exposure this is.", kinds.name),
        _field(
            "effective_level",
            "Effective level",
            f"The {table.key_title.lower()} whose figures the exposure uses.",
            table.enum.name,
        ),
        *table.columns,
        Column(
            rule.start_field,
            "int",
            False,
            "-",
            False,
            None,
            "Starts",
            "When its course starts, counted from first contact.",
        ),
    )
    labels = {name: f"``{label}``" for name, label in said_of.items()}
    dice = rule.full_time.dice
    said = (
        Prose("For one contact, in this order:"),
        Prose(
            f"First, {labels['instant']}: what {ref(rule.instant.function)} gives "
            f"for the {table.key_title.lower()}, if anything; its course starts at "
            "first contact."
        ),
        Prose(
            f"Then {labels['full']}: if the subject stayed (``{stayed.name}``) at "
            f"least the rolled time (``{full.name}``, ``{dice}``"
            f"{' ' + dice.unit if dice.unit else ''}), the {table.key_title.lower()}'s "
            f"own row of {ref(table.function)}; its course starts when that time "
            "is reached."
        ),
        Prose(
            f"Otherwise {labels['half']}: if the subject stayed at least {num}/{den} "
            f"of that time, what {ref(rule.half.function)} gives; its course "
            "starts when the subject leaves."
        ),
        Prose(
            "The full and the lesser exposure never both apply to one contact; "
            "the immediate one can come with either."
        ),
    )
    decls = (
        Enum(kinds, f"The kinds of exposure of rule ``{rule.qualified_id}``"),
        Record(rule.record, f"One exposure and what it does. {where}", fields),
        Procedure(
            name=rule.function,
            params=(key, stayed, full),
            locals=names,
            body=body,
            answer="exposures",
            item=rule.record,
            doc=f"{rule.title}.\n\n{rule.summary}",
            origin=where,
            rule_id=rule.qualified_id,
            answer_doc=f"Answers the exposures in order: the {said_of['instant']} "
            f"one, if any, then the {said_of['full']} or the {said_of['half']} one, "
            "if any.",
        ),
    )
    needs = (
        table.qualified_id,
        rule.instant.qualified_id,
        rule.half.qualified_id,
    )
    return Unit(decls, rule.function, said, needs=tuple(dict.fromkeys(needs)))


def _field(name: str, title: str, description: str, enum: str) -> Column:
    return Column(name, "choice", False, "-", False, None, title, description, enum)
