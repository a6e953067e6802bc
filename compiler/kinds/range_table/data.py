"""Range table: its part of rules.json (the number it is keyed by, the columns, every range's answer)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    column,
    param,
    record,
    value,
)
from ...front.model import System
from ...kinds.range_table.model import RangeRow, RangeTableRule


def _answer(rule: RangeTableRule, row: RangeRow) -> View:
    """A row's answer as the runtime writes it: a record keyed by column name, or
    a mapping keyed by the labels of the mapping's enum (one a column)."""
    if rule.mapping_enum is None:
        return record(rule.columns, row.cells)
    return {
        m.label: value(cell)
        for m, cell in zip(rule.mapping_enum.members, row.cells, strict=True)
    }


def data_view(system: System, rule: RangeTableRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "param": param(rule.param, refs),
        "param_title": rule.param_title,
        "below": rule.below,
        "row_class": rule.row_class,
        "mapping_enum": None if rule.mapping_enum is None else rule.mapping_enum.name,
        "columns": [column(c) for c in rule.columns],
        "rows": [
            {
                "from": row.lo,
                "to": row.hi,
                "label": row.label,
                "values": _answer(rule, row),
            }
            for row in rule.rows
        ],
        "covers": None if rule.covers is None else value(rule.covers),
    }
