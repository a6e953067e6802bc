"""recovery: points that heal an amount at a time at a fixed interval, lowered to a procedure of the core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...common.limits import MAX_EXACT
from ...core.exprs import checked
from ...core.ir import Emit, Local, Procedure, Prose, Set, Unit, While
from ...core.viewkit import where_doc
from ...front.model import (
    Param,
    System,
)
from ...kinds.recovery.model import RecoveryRule
from ...lang.expr import Checked
from ...runtime._support import MAX_ENTRIES

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


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
    if minutes * MAX_ENTRIES > MAX_EXACT:
        b.err(
            src,
            (*path, "every"),
            f"{MAX_ENTRIES:,} heals {minutes} minutes apart pass {MAX_EXACT:,} "
            "minutes (2**53 - 1), the largest whole number both runtimes hold exactly",
            "heal more often",
        )
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


def params(rule: RecoveryRule) -> dict[str, Param]:
    """Its function's parameters: the points, and the minute healing can start."""
    points = Param(
        "points",
        "int",
        0,
        None,
        None,
        False,
        "The points to heal.",
        None,
        limit=rule.amount * MAX_ENTRIES,
    )
    ready = Param(
        "ready_at_minutes",
        "int",
        0,
        _latest(rule),
        None,
        False,
        "The minute from which healing can start.",
        None,
    )
    return {"points": points, "ready_at_minutes": ready}


def _latest(rule: RecoveryRule) -> int:
    """The latest minute healing can start at: its most heals (one a point
    dealt at the least) then all fall within ``MAX_EXACT`` minutes."""
    return MAX_EXACT - rule.interval_minutes * MAX_ENTRIES


def lower(system: System, rule: RecoveryRule) -> Unit:
    """The heals as a procedure: from the minute healing can start, every
    interval heal the amount (or what is left) until no point is left."""
    points, ready = params(rule).values()
    names = (Local("minute", 0, MAX_EXACT), Local("amount", 0, rule.amount))

    def c(text: str) -> Checked:
        return checked(text, (points, ready), names)

    heal = (
        Set("minute", c(f"minute + {rule.interval_minutes}")),
        Set("amount", c(f"min({rule.amount}, points)")),
        Emit((c("minute"), c("amount"))),
        Set("points", c("points - amount")),
    )
    procedure = Procedure(
        name=rule.function,
        params=(points, ready),
        locals=names,
        body=(
            Set("minute", c("ready_at_minutes")),
            While(c("points > 0"), heal, MAX_ENTRIES),
        ),
        answer="heals",
        item=2,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        rule_id=rule.qualified_id,
        answer_doc="Answers (minute, points healed) for each heal, its minute "
        "counted as the start minute is.",
    )
    plural = rule.amount != 1
    said = (
        f"Once healing can start, {rule.amount} point{'s' if plural else ''} "
        f"heal{'' if plural else 's'} {rule.every_text}, the first "
        f"{rule.interval_text} after healing becomes possible, until none is left."
    )
    return Unit((procedure,), rule.function, (Prose(said),))
