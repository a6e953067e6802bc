"""A set of facts, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ...front.model import Column
from ...kinds.facts.model import FactsRule
from ...lang.py_names import pyname
from ...workbench.common import UsageError, record_lines
from ...workbench.context import Context


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FactsRule)
    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    value = getattr(ctx.module, pyname(rule.constant))
    ctx.out.section("Facts", record_lines(value, ctx.kind.columns(rule)))


def columns(rule: FactsRule) -> dict[str, Column]:
    return {c.name: c for c in rule.fields}
