"""Pool in JavaScript: the deal and interval constants, the pool after a save, and the points dealt."""

from __future__ import annotations

from ...expr_emit_js import MAX_SAFE
from ...js_kit import OPTIONS, View, doc, js, signature, where
from ...js_naming import camel
from ...kinds.pool.model import PoolRule
from ...model import System
from ...runtime._support import LIMIT_NOTE, MAX_ENTRIES


def _param(name: str, ts: str, default: str | None = None) -> View:
    """A parameter the kind itself names (a pool rule declares none)."""
    return {
        "name": name,
        "keyword_only": default is not None,
        "optional": default is not None,
        "default": default,
        "ts": ts,
    }


def js_view(system: System, rule: PoolRule) -> View:
    function = camel(rule.function)
    constant = rule.function.upper()
    most = rule.deal.min * MAX_ENTRIES
    params = [
        _param("pool", "number"),
        _param("rng", "$dice.RNG"),
        _param("saved", "boolean", "false"),
    ]
    return {
        "function": function,
        "after_save": camel(f"{rule.function}_after_save"),
        "signature": signature(params, function),
        "options": OPTIONS,
        "deal_name": f"{constant}_DEAL",
        "deal": js(rule.deal),
        "interval_name": f"{constant}_INTERVAL_MINUTES",
        "interval": js(rule.interval_minutes),
        "divide": "floorDiv" if system.rounding == "down" else "ceilDiv",
        "divisor": js(rule.save_divisor),
        "minimum": js(rule.save_minimum),
        # Past Number.MAX_SAFE_INTEGER no argument is taken anyway.
        "most_pool": js(most) if most < MAX_SAFE else None,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Answers the points "
            f"dealt each time, the first at once and then one {rule.every_text}. "
            "Throws RuleInputError for a negative pool, and for a pool above "
            f"{most}: {LIMIT_NOTE}."
        ),
        "save_doc": doc(f"The pool left after a successful save. {where(rule)}"),
        "deal_doc": doc(f"What each deal of `{function}` rolls. {where(rule)}"),
        "interval_doc": doc(f"Minutes between deals of `{function}`. {where(rule)}"),
    }
