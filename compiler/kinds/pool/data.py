"""Pool: its part of rules.json (the roll dealt, how often, and what a save does)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    value,
)
from ...front.model import System
from ...kinds.pool.model import PoolRule


def data_view(system: System, rule: PoolRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "deal": value(rule.deal),
        "every_minutes": rule.interval_minutes,
        "on_save": {"divide_by": rule.save_divisor, "minimum": rule.save_minimum},
    }
