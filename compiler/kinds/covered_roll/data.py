"""Covered roll: its part of rules.json (the table rolled on, what covered and half exposed mean, the check)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    value,
)
from ...front.model import System
from ...kinds.covered_roll.model import CoveredRollRule


def data_view(system: System, rule: CoveredRollRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "result": rule.result,
        "table": rule.table.id,
        "exposure_enum": rule.value_enum.name,
        "covered": rule.covered.label,
        "half": rule.half.label,
        "half_check": {
            "dice": value(rule.check),
            "strikes_cover": [rule.strikes_from, rule.strikes_to],
        },
    }
