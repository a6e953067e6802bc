"""A set of facts, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from typing import Any

from ...kinds.facts.model import FactsRule
from ...model import Column, Example
from ...py_names import pyname
from ...workbench.common import UsageError, plain, record_lines
from ...workbench.context import Context


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FactsRule)
    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    value = getattr(ctx.module, pyname(rule.constant))
    ctx.out.section("Facts", record_lines(value, ctx.kind.columns(rule)))


def call_text(rule: FactsRule, ex: Example) -> str:
    return pyname(rule.constant)


def run_example(module: Any, rule: FactsRule, ex: Example, rng: Any) -> Any:
    return getattr(module, pyname(rule.constant))


def constant(rule: FactsRule) -> str:
    return rule.constant


def sample_answer(
    runtime: Any, module: Any, rule: FactsRule, kwargs: dict[str, Any], seed: int | None
) -> Any:
    return plain(getattr(module, pyname(rule.constant)))


def columns(rule: FactsRule) -> dict[str, Column]:
    return {c.name: c for c in rule.fields}
