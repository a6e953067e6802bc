"""pool: points dealt a roll at a time at a fixed interval, shrunk by a save."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...core.docs import ref
from ...core.exprs import checked, notation
from ...core.ir import (
    Const,
    DiceShown,
    Emit,
    Function,
    Local,
    Procedure,
    Prose,
    Set,
    Unit,
    While,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Param,
    System,
)
from ...kinds.pool.model import PoolRule
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


def params(rule: PoolRule) -> dict[str, Param]:
    """Its function's parameters: the pool, and whether a save succeeded."""
    pool = Param(
        "pool",
        "int",
        0,
        None,
        None,
        False,
        "The points in the pool.",
        None,
        limit=rule.deal.min * MAX_ENTRIES,
    )
    saved = Param(
        "saved",
        "bool",
        None,
        None,
        False,
        True,
        "Whether a save against it succeeded.",
        None,
        keyword_only=True,
    )
    return {"pool": pool, "saved": saved}


def lower(system: System, rule: PoolRule) -> Unit:
    """The deal's dice and interval as constants; the pool left after a save
    as a function; and the dealing as a procedure: a roll at a time, never
    more than is left, until none is."""
    pool, saved = params(rule).values()
    plain = replace(pool, limit=None)
    constant = rule.function.upper()
    where = where_doc(rule)
    halved = f"max(pool // {rule.save_divisor}, {rule.save_minimum})"
    after_save = Function(
        name=f"{rule.function}_after_save",
        params=(plain,),
        binds=(),
        answer=checked(f"{halved} if pool > 0 else 0", (plain,)),
        doc="The pool left after a successful save.",
        origin=where,
        unit=None,
        unbounded_because=None,
        rule_id=rule.qualified_id,
    )
    names = (Local("amount", 0, rule.deal.max),)

    def c(text: str) -> Checked:
        return checked(text, (pool, saved), names)

    deal = (
        Set("amount", c(f"min({notation(rule.deal)}, pool)")),
        Emit((c("amount"),)),
        Set("pool", c("pool - amount")),
    )
    procedure = Procedure(
        name=rule.function,
        params=(pool, saved),
        locals=names,
        body=(
            Set("pool", c(f"({halved} if pool > 0 else 0) if saved else pool")),
            While(c("pool > 0"), deal, rule.deal.min * MAX_ENTRIES),
        ),
        answer="dealt",
        item=1,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where,
        rule_id=rule.qualified_id,
        answer_doc=f"Answers the points dealt each time, the first at once and then "
        f"one {rule.every_text}.",
    )
    fn = ref(rule.function)
    decls = (
        Const(
            f"{constant}_DEAL",
            "dice",
            rule.deal,
            f"What each deal of {fn} rolls. {where}",
        ),
        Const(
            f"{constant}_INTERVAL_MINUTES",
            "int",
            rule.interval_minutes,
            f"Minutes between deals of {fn}. {where}",
        ),
        after_save,
        procedure,
    )
    said = (
        f"The pool is dealt ``{rule.deal}`` points at a time: the first roll at "
        f"once, then one {rule.every_text}, never more than what is left, until "
        f"none is left. A successful save first divides the pool by "
        f"{rule.save_divisor} (rounded {system.rounding}, but never below "
        f"{rule.save_minimum})."
    )
    return Unit(decls, rule.function, (Prose(said), DiceShown("", (rule.deal,))))
