"""Shift: its part of rules.json (the table, the step, the cells replaced, each level's answer)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    label,
    value,
)
from ...front.model import System
from ...kinds.shift.model import ShiftRule
from ...kinds.shift.rule import shifted_cells


def data_view(system: System, rule: ShiftRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "table": rule.table.id,
        "offset": rule.offset,
        "applies_from": label(rule.applies_from),
        "overrides": {name: value(cell) for name, cell in rule.overrides},
        "levels": [
            {
                "level": level.label,
                "uses": label(target),
                "values": None
                if target is None
                else {name: value(cell) for name, cell in shifted_cells(rule, target)},
            }
            for level, target in rule.shifted
        ],
    }
