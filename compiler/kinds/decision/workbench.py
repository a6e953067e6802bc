"""A decision, in the workbench: the columns of its answer (``rulesc explain`` is the core's trace)."""

from __future__ import annotations

from ...front.model import Column
from ...kinds.decision.model import DecisionRule


def columns(rule: DecisionRule) -> dict[str, Column]:
    """An answer's fields are the decision's slots."""
    return {
        s.name: Column(
            s.name,
            "text",
            s.nullable,
            s.null_label,
            False,
            None,
            s.title,
            s.description,
        )
        for s in rule.slots
    }
