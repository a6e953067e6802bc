"""A record type, in the workbench: ``rulesc explain`` lists its fields; it has nothing to call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.viewkit import type_words
from ...front.model import (
    Column,
    Example,
)
from ...kinds.record.model import RecordRule
from ...workbench.common import UsageError, aligned
from ...workbench.context import Context


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, RecordRule)
    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs: it is a record type")
    rows = [(f.column.name, type_words(f.column)) for f in rule.fields]
    ctx.out.section(f"Fields of {rule.class_name}", aligned(rows))


def call_text(rule: RecordRule, ex: Example) -> str:
    return rule.class_name


def run_example(module: Any, rule: RecordRule, ex: Example, rng: Any) -> Any:
    raise TypeError(f"{rule.qualified_id} is a record type: it has no examples")


def no_samples(rule: RecordRule, specs: Sequence[Any]) -> list[Any]:
    """A record type has no answer to compare: nothing to call."""
    return []


def call(
    module: Any, rule: RecordRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A record type is not called (it has no samples and no examples):
    asking how it is called is a mistake."""
    raise TypeError(f"{rule.qualified_id} is a record type: nothing calls it")


def call_name(rule: RecordRule) -> str:
    return rule.class_name


def sample_answer(
    runtime: Any,
    module: Any,
    rule: RecordRule,
    kwargs: dict[str, Any],
    seed: int | None,
) -> Any:
    return None


def columns(rule: RecordRule) -> dict[str, Column]:
    return {f.column.name: f.column for f in rule.fields}
