"""Recovery: its part of rules.json (how much heals, and how often)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
)
from ...front.model import System
from ...kinds.recovery.model import RecoveryRule


def data_view(system: System, rule: RecoveryRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "amount": rule.amount,
        "every_minutes": rule.interval_minutes,
    }
