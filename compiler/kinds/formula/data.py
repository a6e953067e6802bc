"""Formula: its part of rules.json (the parameters and the expression as a tree)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    expression,
    params,
)
from ...front.model import (
    Param,
    System,
)
from ...kinds.formula.model import FormulaRule, Let


def data_view(system: System, rule: FormulaRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "params": params(rule.params, refs),
        "unit": rule.unit,
        "let": lets(rule.lets, refs, rule.params),
        "expression": expression(rule.checked, refs, rule.params),
        "unbounded_because": rule.unbounded_because,
    }


def lets(bound: tuple[Let, ...], refs: Refs, params: tuple[Param, ...]) -> list[View]:
    """The names a rule binds, in order, each with its value's trees."""
    return [
        {
            "name": let.name,
            "description": let.description,
            "value": expression(let.checked, refs, params),
        }
        for let in bound
    ]
