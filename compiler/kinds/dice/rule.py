"""Dice: one dice expression with a unit; its views."""

from __future__ import annotations

from ...kinds.dice.model import DiceRule
from ...literals import code, docstring, py
from ...model import System
from ...viewkit import (
    View,
    api,
    dice_stats,
    where_doc,
)


def python_view(system: System, rule: DiceRule) -> View:
    return {
        "id": rule.qualified_id,
        "constant": rule.constant,
        "alias": rule.id,
        "literal": py(rule.dice),
        "doc": docstring(f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)}"),
        "imports": [("rulebook.dice", "Dice")],
        "exports": [rule.constant, rule.id],
    }


def docs_view(system: System, rule: DiceRule, common: View) -> View:
    return common | {
        "dice": [dice_stats(rule.dice)],
        "api": api(
            common,
            f"Value: {code(f'{rule.constant}: Dice')}, also exported under the rule id.",
        ),
    }
