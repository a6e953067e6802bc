"""A dice expression in JavaScript: one frozen Dice constant (and its alias)."""

from __future__ import annotations

from typing import Any

from ...js_kit import View, doc, js, where
from ...js_naming import camel
from ...js_plan import constant_plan
from ...kinds.dice.model import DiceRule
from ...model import System


def js_view(system: System, rule: DiceRule) -> View:
    return {
        "constant": rule.constant,
        "alias": camel(rule.id),
        "literal": js(rule.dice),
        "doc": doc(f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)}"),
    }


def js_plan(
    module: Any, rule: DiceRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """The constant, rolled when the call rolls (as a worked example does)."""
    plan = constant_plan(rule.constant, None)
    if rolls:
        plan["then"] = [{"py": "roll", "js": "roll", "args": [{"rng": True}]}]
    return plan
