"""Recovery in JavaScript: each heal as a frozen [minute, amount] pair."""

from __future__ import annotations

from ...expr_emit_js import MAX_SAFE
from ...js_kit import View, doc, js, where
from ...js_naming import camel
from ...kinds.recovery.model import RecoveryRule
from ...model import System
from ...runtime._support import LIMIT_NOTE, MAX_ENTRIES


def js_view(system: System, rule: RecoveryRule) -> View:
    most = rule.amount * MAX_ENTRIES
    return {
        "function": camel(rule.function),
        "amount": js(rule.amount),
        "interval": js(rule.interval_minutes),
        # Past Number.MAX_SAFE_INTEGER no argument is taken anyway.
        "most_points": js(most) if most < MAX_SAFE else None,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Answers [minute, "
            "points healed] for each heal, counting minutes like readyAtMinutes. "
            "Throws RuleInputError for negative arguments, for a heal past minute "
            f"Number.MAX_SAFE_INTEGER, and for points above {most}: {LIMIT_NOTE}."
        ),
    }
