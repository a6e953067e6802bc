"""A dice expression, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...front.model import Example
from ...kinds.dice.model import DiceRule
from ...lang.py_names import pyname
from ...runtime.dice import RNG
from ...workbench.common import UsageError, plain
from ...workbench.context import Context
from ...workbench.dicestats import stats_lines
from ..calls import scripted


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, DiceRule)

    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    ctx.out.section(f"{rule.dice}", [f"  {line}" for line in stats_lines(rule.dice)])


def call_text(rule: DiceRule, ex: Example) -> str:
    return f"{pyname(rule.constant)}.roll(Scripted({list(ex.dice or [])!r}))"


def run_example(module: Any, rule: DiceRule, ex: Example, rng: Any) -> Any:
    return getattr(module, pyname(rule.constant)).roll(rng or scripted(module, []))


def constant(rule: DiceRule) -> str:
    return rule.constant


def sample_answer(
    runtime: Any, module: Any, rule: DiceRule, kwargs: dict[str, Any], seed: int | None
) -> Any:
    return plain(getattr(module, pyname(rule.constant)))


def roller(rule: DiceRule, module: Any) -> Callable[..., Any]:
    """One roll of the dice, as a function of the RNG (simulate runs it)."""
    dice = getattr(module, pyname(rule.constant))

    def roll(rng: RNG) -> int:
        value: int = dice.roll(rng)
        return value

    return roll
