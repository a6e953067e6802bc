"""A success pool in JavaScript: the pool's figures, its roll and its distribution."""

from __future__ import annotations

from typing import Any

from ...js_kit import View, doc, js, where
from ...js_naming import camel
from ...js_plan import call_plan
from ...kinds.success_pool.model import SuccessPoolRule
from ...model import System


def js_view(system: System, rule: SuccessPoolRule) -> View:
    p = rule.pool
    figures = (
        p.sides,
        p.success_at,
        p.again_at,
        p.chance_success_at,
        p.chance_dramatic_at,
        p.listed_beyond,
        p.max_dice,
    )
    return {
        "constant": rule.constant,
        "value": f"new $success_pool.SuccessPool({', '.join(js(v) for v in figures)})",
        "const_doc": doc(f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)}"),
        "roll": camel(rule.roll_function),
        "roll_doc": doc(
            f"Roll a pool of `dice` dice (a chance die for 0 or fewer). {where(rule)}"
        ),
        "distribution": camel(rule.distribution_function),
        "distribution_doc": doc(
            "The exact chance of each success count; `tail` holds the chance of "
            f"more than the counts listed. {where(rule)}"
        ),
    }


def js_plan(
    module: Any,
    rule: SuccessPoolRule,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> dict[str, Any]:
    """A call that rolls rolls the pool; one that does not asks its chances."""
    name = rule.roll_function if rolls else rule.distribution_function
    return call_plan(getattr(module, name), name, args, rolls, roll)
