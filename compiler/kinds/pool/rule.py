"""pool: points dealt a roll at a time at a fixed interval, shrunk by a save."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.pool.model import PoolRule
from ...literals import code, docstring, py
from ...model import System
from ...runtime._support import LIMIT_NOTE, MAX_ENTRIES
from ...viewkit import View, api, dice_stats, where_doc

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
) -> PoolRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "function"), f"{raw['function']}_after_save", "function")
    deal = b.dice(src, (*path, "deal"), raw["deal"], None)
    if deal is not None and deal.min < 1:
        b.err(
            src,
            (*path, "deal"),
            f"{deal} can deal {deal.min}; each roll must deal at least 1 point",
            "a pool must shrink every time",
        )
    minutes = b.interval(src, (*path, "every"), raw["every"])
    examples = b.examples(src, path, raw, {"pool", "saved"}, roll_columns=set())
    if deal is None or minutes is None:
        return None
    return PoolRule(
        **common,
        examples=examples,
        function=raw["function"],
        deal=deal,
        interval_minutes=minutes,
        interval_text=b.duration_text(raw["every"]),
        every_text=b.every_text(raw["every"]),
        save_divisor=raw["on_save"]["divide_by"],
        save_minimum=raw["on_save"]["minimum"],
    )


def python_view(system: System, rule: PoolRule) -> View:
    constant = rule.function.upper()
    return {
        "id": rule.qualified_id,
        "function": rule.function,
        "deal_name": f"{constant}_DEAL",
        "deal": py(rule.deal),
        "interval_name": f"{constant}_INTERVAL_MINUTES",
        "interval": rule.interval_minutes,
        "divisor": rule.save_divisor,
        "minimum": rule.save_minimum,
        "most_pool": rule.deal.min * MAX_ENTRIES,
        "divide": "//" if system.rounding == "down" else "ceil",
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Answers the points "
            f"dealt each time, the first at once and then one {rule.every_text}. "
            "Raises RuleInputError for a negative pool, and for a pool above "
            f"{rule.deal.min * MAX_ENTRIES}: {LIMIT_NOTE}.",
            "    ",
        ),
        "save_doc": docstring(
            f"The pool left after a successful save. {where_doc(rule)}", "    "
        ),
        "imports": [
            ("typing", "Final"),
            ("rulebook._support", "bad_bool"),
            ("rulebook._support", "bad_int"),
            ("rulebook._support", "past_limit"),
            ("rulebook.dice", "RNG"),
            ("rulebook.dice", "check_rng"),
            ("rulebook.dice", "Dice"),
        ],
        "exports": [
            rule.function,
            f"{rule.function}_after_save",
            f"{constant}_DEAL",
            f"{constant}_INTERVAL_MINUTES",
        ],
    }


def docs_view(system: System, rule: PoolRule, common: View) -> View:
    return common | {
        "api": api(
            common,
            "Call: "
            + code(f"{rule.function}(pool, rng, *, saved=False) -> list[int]")
            + ": the points dealt, one roll each, in order.",
        ),
        "deal": code(str(rule.deal)),
        "interval": rule.interval_text,
        "every": rule.every_text,
        "divisor": rule.save_divisor,
        "minimum": rule.save_minimum,
        "rounding": system.rounding,
        "dice": [dice_stats(rule.deal)],
    }
