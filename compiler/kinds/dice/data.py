"""Dice: its part of rules.json (the constant and its dice)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    value,
)
from ...front.model import System
from ...kinds.dice.model import DiceRule


def data_view(system: System, rule: DiceRule, refs: Refs) -> View:
    return {"constant": rule.constant, "dice": value(rule.dice)}
