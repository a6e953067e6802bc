"""Exposure schedule in JavaScript: the kinds of exposure, the exposure record and the schedule."""

from __future__ import annotations

from types import SimpleNamespace

from ...expr_emit_js import MAX_SAFE
from ...js_kit import JsFigureError, View, doc, enum_view, js, record_view, where
from ...js_naming import camel
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.exposure_schedule.rule import lookups
from ...model import System


def js_view(system: System, rule: ExposureScheduleRule) -> View:
    table = rule.table
    function = camel(rule.function)
    dice = rule.full_time.dice
    num, den = rule.half_fraction
    # The half test multiplies a stay shorter than the full time by den (and the
    # full time by num < den): exact while full_max * den is a safe integer.
    if dice.max * den > MAX_SAFE:
        raise JsFigureError(
            f"half_fraction {num}/{den} times the most {rule.full_time.id!r} rolls "
            f"({dice.max}) passes Number.MAX_SAFE_INTEGER"
        )
    fields = [
        SimpleNamespace(
            name="kind",
            title="Which exposure this is.",
            description=None,
            ts=rule.kind_enum.name,
        ),
        SimpleNamespace(
            name="effective_level",
            title="The level whose figures the exposure uses.",
            description=None,
            ts=table.enum.name,
        ),
        *table.columns,
        SimpleNamespace(
            name=rule.start_field,
            title="When its course starts, counted from first contact.",
            description=None,
            ts="number",
        ),
    ]
    kinds = {
        m.name.lower(): f"{rule.kind_enum.name}.{m.name}"
        for m in rule.kind_enum.members
    }
    stayed, full = camel(rule.stayed_param), camel(rule.full_param)
    return {
        "needs": [
            table.qualified_id,
            rule.instant.qualified_id,
            rule.half.qualified_id,
        ],
        "kind_enum": enum_view(
            rule.kind_enum, f"The kinds of exposure of rule `{rule.qualified_id}`"
        ),
        "record": record_view(
            rule.record, fields, f"One exposure and what it does. {where(rule)}"
        ),
        "columns": [camel(c.name) for c in table.columns],
        "start": camel(rule.start_field),
        "level_enum": table.enum.name,
        "function": function,
        "param": camel(table.key_param),
        "stayed": stayed,
        "full": full,
        "full_min": js(dice.min),
        "full_max": js(dice.max),
        "kinds": kinds,
        **lookups(rule),
        "num": js(num),
        "den": js(den),
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Throws RuleInputError "
            f"for an unknown {camel(table.key_param)}, {stayed} below 1, or {full} "
            f"that {rule.full_time.constant} cannot roll."
        ),
    }
