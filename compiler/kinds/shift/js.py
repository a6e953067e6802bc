"""Shift in JavaScript: the shifted rows (the table's row shape) and the levels they come from."""

from __future__ import annotations

from ...js_kit import View, doc, js, member, record_literal, where
from ...js_naming import camel
from ...kinds.shift.model import ShiftRule
from ...kinds.shift.rule import shifted_cells
from ...model import System
from ...naming import private_constant


def js_view(system: System, rule: ShiftRule) -> View:
    table = rule.table
    shape = private_constant(table.row_class, "fields")
    entries = []
    for level, target in rule.shifted:
        if target is None:
            entries.append(
                {"key": member(table.enum, level.label), "row": "null", "level": "null"}
            )
            continue
        row = record_literal(
            shape, [(n, js(v)) for n, v in shifted_cells(rule, target)], "  "
        )
        entries.append(
            {
                "key": member(table.enum, level.label),
                "row": row,
                "level": member(table.enum, target.label),
            }
        )
    function = camel(rule.function)
    return {
        "needs": [table.qualified_id],
        "enum": table.enum.name,
        "row_class": table.row_class,
        "rows_name": private_constant(rule.id, "rows"),
        "levels_name": private_constant(rule.id, "levels"),
        "entries": entries,
        "function": function,
        "level_function": camel(f"{rule.function}_level"),
        "param": camel(table.key_param),
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Answers null where the rule "
            "does not apply or the step falls off the ladder. Throws RuleInputError "
            "for a label the table does not have."
        ),
        "level_doc": doc(
            f"The level whose row `{function}` reads, or null. {where(rule)}"
        ),
    }
