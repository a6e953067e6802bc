"""exposure_schedule: which exposures one contact causes.

An immediate exposure from one shift of the table's ladder; then, after the
rolled full time, the key's own row, or after a fraction of it another shift.
The parameter names and the start field are the rules'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.dice.model import DiceRule
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.shift.model import ShiftRule
from ...kinds.table.model import TableRule
from ...literals import code, docstring, md_cell
from ...model import System
from ...naming import private_constant
from ...viewkit import (
    View,
    api,
    column_type,
    enum_imports,
    enum_view,
    label_type,
    rule_link,
    where_doc,
)

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


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
    if full.dice.min < 1:
        b.err(
            src,
            (*path, "full_time"),
            f"{full.id!r} can roll {full.dice.min}; a time to full exposure must be at least 1",
        )
    names = raw["parameters"]
    for role in ("stayed", "full"):
        b.local_name(src, (*path, "parameters", role), names[role], "parameter name")
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


def lookups(rule: ExposureScheduleRule) -> dict[str, str]:
    """The names of the rows and levels the schedule reads (the same in every
    target): the two shifts' and the table's."""
    return {
        "instant_rows": private_constant(rule.instant.id, "rows"),
        "instant_levels": private_constant(rule.instant.id, "levels"),
        "half_rows": private_constant(rule.half.id, "rows"),
        "half_levels": private_constant(rule.half.id, "levels"),
        "table_rows": private_constant(rule.table.id, "rows"),
    }


def python_view(system: System, rule: ExposureScheduleRule) -> View:
    table = rule.table
    enum = table.enum
    kinds = {
        m.name.lower(): f"{rule.kind_enum.name}.{m.name}"
        for m in rule.kind_enum.members
    }
    dice = rule.full_time.dice
    return {
        "id": rule.qualified_id,
        "kind_enum": enum_view(
            rule.kind_enum, f"The kinds of exposure of rule ``{rule.qualified_id}``"
        ),
        "record": rule.record,
        "record_doc": docstring(
            f"One exposure and what it does. {where_doc(rule)}", "    "
        ),
        "stayed": rule.stayed_param,
        "full": rule.full_param,
        "start": rule.start_field,
        "level_enum": enum.name,
        "by_label": private_constant(enum.name, "by_label"),
        "level_type": label_type(enum),
        "columns": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in table.columns
        ],
        "function": rule.function,
        "param": table.key_param,
        "full_min": dice.min,
        "full_max": dice.max,
        "kinds": kinds,
        **lookups(rule),
        "num": rule.half_fraction[0],
        "den": rule.half_fraction[1],
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Raises "
            f"RuleInputError for an unknown {table.key_param}, {rule.stayed_param} "
            f"below 1, or {rule.full_param} that {rule.full_time.constant} cannot roll.",
            "    ",
        ),
        "imports": [
            *enum_imports(rule.kind_enum),
            *enum_imports(enum),
            ("rulebook.json", "Record"),
            ("typing", "ClassVar"),
            ("rulebook._support", "bad_int"),
            ("rulebook.dice", "Dice"),
        ],
        "exports": [rule.function, rule.record, rule.kind_enum.name],
    }


def docs_view(system: System, rule: ExposureScheduleRule, common: View) -> View:
    labels = {m.name.lower(): code(m.label) for m in rule.kind_enum.members}
    num, den = rule.half_fraction
    return common | {
        "api": api(
            common,
            "Call: "
            + code(
                f"{rule.function}({rule.table.key_param}, {rule.stayed_param}, "
                f"{rule.full_param}) -> list[{rule.record}]"
            )
            + ": the exposures, in the order below.",
        ),
        "kinds": labels,
        "fraction": f"{num}/{den}",
        "stayed": code(rule.stayed_param),
        "full": f"{rule_link(rule.full_time)} ({code(str(rule.full_time.dice))} {md_cell(rule.full_time.dice.unit or '')})",
        "instant": rule_link(rule.instant),
        "half": rule_link(rule.half),
        "table": rule_link(rule.table),
    }
