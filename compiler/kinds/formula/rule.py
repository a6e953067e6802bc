"""Formula: typed parameters and one checked expression, lowered to a function of the core."""

from __future__ import annotations

from ...core.ir import Bind, Function, Unit
from ...core.viewkit import where_doc
from ...front.model import System
from ...kinds.formula.model import FormulaRule
from ...lang import expr


def lower(system: System, rule: FormulaRule) -> Unit:
    """The formula as a function: its parameters, its lets bound in order, and
    its expression as the answer."""
    function = Function(
        name=rule.function,
        params=rule.params,
        binds=tuple(Bind(let.name, let.checked, let.description) for let in rule.lets),
        answer=rule.checked,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        unit=rule.unit,
        unbounded_because=rule.unbounded_because,
        rule_id=rule.qualified_id,
    )
    return Unit((function,), rule.function)


def rule_nodes(rule: FormulaRule) -> list[expr.Node]:
    """The expressions of a formula, in order: its lets' values, then its own."""
    return [*(let.checked.node for let in rule.lets), rule.checked.node]
