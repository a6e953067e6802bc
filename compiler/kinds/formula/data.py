"""Formula: its part of rules.json (the parameters and the expression as a tree)."""

from __future__ import annotations

from ...jsonkit import Refs, View, expression, params
from ...kinds.formula.model import FormulaRule
from ...model import System


def data_view(system: System, rule: FormulaRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "params": params(rule.params, refs),
        "unit": rule.unit,
        "let": [
            {
                "name": let.name,
                "description": let.description,
                "value": expression(let.checked, refs, rule.params),
            }
            for let in rule.lets
        ],
        "expression": expression(rule.checked, refs, rule.params),
        "unbounded_because": rule.unbounded_because,
    }
