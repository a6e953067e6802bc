"""Table: its part of rules.json (the key, the columns, every row, the roll that picks one)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    column,
    record,
    value,
)
from ...front.model import System
from ...kinds.table.model import TableRule


def data_view(system: System, rule: TableRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "key": {
            "param": rule.key_param,
            "title": rule.key_title,
            "enum": rule.enum.name,
        },
        "row_class": rule.row_class,
        "columns": [column(c) for c in rule.columns],
        "rows": [
            {"key": row.key.label, "values": record(rule.columns, row.cells)}
            for row in rule.rows
        ],
        "rolls": None
        if rule.rolls is None
        else {
            "function": rule.rolls.function,
            "column": rule.rolls.column,
            "dice": value(rule.rolls.dice),
        },
    }
