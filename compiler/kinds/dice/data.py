"""Dice: its part of rules.json (the constant and its dice)."""

from __future__ import annotations

from ...jsonkit import Refs, View, value
from ...kinds.dice.model import DiceRule
from ...model import System


def data_view(system: System, rule: DiceRule, refs: Refs) -> View:
    return {"constant": rule.constant, "dice": value(rule.dice)}
