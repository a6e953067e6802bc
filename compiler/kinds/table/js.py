"""Table in JavaScript: the key's labels, the row interface, the rows and the lookup."""

from __future__ import annotations

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
from ...js_naming import camel
from ...kinds.table.model import TableRule
from ...model import System
from ...naming import private_constant


def js_view(system: System, rule: TableRule) -> View:
    record = record_view(
        rule.row_class,
        rule.columns,
        f"A row of `{camel(rule.function)}`. {where(rule)}",
    )
    rows = [
        {
            "key": member(rule.enum, row.key.label),
            "value": record_literal(
                record["shape"],
                [(c.name, js(v)) for c, v in zip(rule.columns, row.cells, strict=True)],
                "  ",
            ),
        }
        for row in rule.rows
    ]
    return {
        "enum": enum_view(
            rule.enum,
            f"The key of rule `{rule.qualified_id}`; values are the source's labels",
        ),
        "record": record,
        "rows_name": private_constant(rule.id, "rows"),
        "rows": rows,
        "function": camel(rule.function),
        "param": camel(rule.key_param),
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Throws RuleInputError "
            "for a label the table does not have."
        ),
        "rolls": _rolls_view(rule),
    }


def _rolls_view(rule: TableRule) -> View | None:
    """The roll-on-the-table function of a table keyed by a roll's results."""
    if rule.rolls is None:
        return None
    index = [c.name for c in rule.columns].index(rule.rolls.column)
    by_roll = []
    for row in rule.rows:
        cell = row.cells[index]
        if isinstance(cell, tuple):
            by_roll += [
                (value, member(rule.enum, row.key.label))
                for value in range(cell[0], cell[1] + 1)
            ]
    return {
        "function": camel(rule.rolls.function),
        "dice_name": f"{rule.rolls.function.upper()}_DICE",
        "dice": js(rule.rolls.dice),
        "by_roll": private_constant(rule.id, "by_roll"),
        "entries": [{"roll": js(v), "member": m} for v, m in sorted(by_roll)],
        "doc": doc(
            f"Roll {rule.rolls.dice} and answer the {rule.key_title.lower()} whose "
            f"{rule.rolls.column} range holds the result. {where(rule)}"
        ),
    }
