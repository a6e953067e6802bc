"""facts: a handful of typed facts, lowered to one constant record of the core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.docs import rule_doc
from ...core.ir import Const, Named, New, Record, Unit
from ...core.viewkit import where_doc
from ...front.model import System
from ...kinds.facts.model import FactsRule

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
) -> FactsRule | None:
    b.claim(src, (*path, "constant"), raw["constant"], "constant")
    b.claim(src, (*path, "class"), raw["class"], "class")
    columns = b.columns(
        src, path, [{k: v for k, v in f.items() if k != "value"} for f in raw["facts"]]
    )
    values = tuple(
        b.cell(src, (*path, "facts", index, "value"), fact["value"], col)
        for index, (fact, col) in enumerate(zip(raw["facts"], columns, strict=True))
    )
    examples = b.examples(src, path, raw, set(), roll_columns=set())
    return FactsRule(
        **common,
        examples=examples,
        constant=raw["constant"],
        class_name=raw["class"],
        fields=tuple(columns),
        values=values,
    )


def lower(system: System, rule: FactsRule) -> Unit:
    """The facts as one constant record, of a record type of their own."""
    what = f"The facts of rule ``{rule.qualified_id}``. {where_doc(rule)}"
    value = New(rule.class_name, tuple(zip(rule.fields, rule.values, strict=True)))
    return Unit(
        (
            Record(rule.class_name, what, rule.fields),
            Const(rule.constant, Named(rule.class_name), value, rule_doc(rule)),
        ),
        rule.constant,
    )
