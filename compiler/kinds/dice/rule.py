"""Dice: one dice expression with a unit, lowered to a constant of the core."""

from __future__ import annotations

from ...core.docs import rule_doc
from ...core.ir import Const, Unit
from ...front.model import System
from ...kinds.dice.model import DiceRule


def lower(system: System, rule: DiceRule) -> Unit:
    """The dice as a constant, also named by the rule's id."""
    const = Const(rule.constant, "dice", rule.dice, rule_doc(rule), (rule.id,))
    return Unit((const,), rule.constant)
