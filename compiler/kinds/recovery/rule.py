"""recovery: points that heal an amount at a time at a fixed interval."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.recovery.model import RecoveryRule
from ...literals import code, docstring
from ...model import System
from ...runtime._support import LIMIT_NOTE, MAX_ENTRIES
from ...viewkit import View, api, where_doc

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> RecoveryRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    minutes = b.interval(src, (*path, "every"), raw["every"])
    examples = b.examples(
        src, path, raw, {"points", "ready_at_minutes"}, roll_columns=set()
    )
    if minutes is None:
        return None
    return RecoveryRule(
        **common,
        examples=examples,
        function=raw["function"],
        amount=raw["amount"],
        interval_minutes=minutes,
        interval_text=b.duration_text(raw["every"]),
        every_text=b.every_text(raw["every"]),
    )


def python_view(system: System, rule: RecoveryRule) -> View:
    return {
        "id": rule.qualified_id,
        "function": rule.function,
        "amount": rule.amount,
        "interval": rule.interval_minutes,
        "most_points": rule.amount * MAX_ENTRIES,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Answers (minute, "
            "points healed) for each heal, counting minutes like ready_at_minutes. "
            "Raises RuleInputError for negative arguments, and for points above "
            f"{rule.amount * MAX_ENTRIES}: {LIMIT_NOTE}.",
            "    ",
        ),
        "imports": [
            ("rulebook._support", "bad_int"),
            ("rulebook._support", "past_limit"),
        ],
        "exports": [rule.function],
    }


def docs_view(system: System, rule: RecoveryRule, common: View) -> View:
    return common | {
        "api": api(
            common,
            "Call: "
            + code(
                f"{rule.function}(points, ready_at_minutes) -> list[tuple[int, int]]"
            )
            + ": each heal as (minute, points).",
        ),
        "amount": rule.amount,
        "interval": rule.interval_text,
        "every": rule.every_text,
    }
