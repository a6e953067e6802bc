"""A dice pool, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ...kinds.success_pool.model import SuccessPoolRule
from ...model import Example
from ...workbench.common import Input, percent, plain
from ...workbench.context import Context
from ...workbench.samples import Sample, spread


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, SuccessPoolRule)
    function = ctx.function(rule.distribution_function)
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    dist = ctx.call(function, given, specs)
    pool = rule.pool
    lines = [
        f"  d{pool.sides}s; {pool.success_at} or more is a success; {pool.again_at} or "
        f"more rolls again; with no dice, one chance die: {pool.chance_success_at} "
        f"succeeds, {pool.chance_dramatic_at} is a dramatic failure",
    ]
    ctx.out.section("The pool", lines)
    from ...workbench.text import bar_chart

    rows = [(str(k), v) for k, v in dist.items()]
    rows.append((f"more than {max(dist)}", dist.tail))
    detail = [f"at least {percent(dist.at_least(int(k)))}" for k, _ in rows[:-1]] + [""]
    body = bar_chart(rows, detail=detail)
    body.append(f"  dramatic failure: {percent(dist.dramatic_failure)}")
    body.append(f"  mean successes: {float(pool.mean(given.get('dice', 0))):.3f}")
    ctx.out.section("Successes (exact chances)", body)


def call_text(rule: SuccessPoolRule, ex: Example) -> str:
    """A scripted example rolls the pool; one without dice asks its chances."""
    args = [f"{name}={value!r}" for name, value in ex.args]
    if ex.dice is not None:
        args.append(f"rng=Scripted({list(ex.dice)!r})")
        return f"{rule.roll_function}({', '.join(args)})"
    return f"{rule.distribution_function}({', '.join(args)})"


def run_example(module: Any, rule: SuccessPoolRule, ex: Example, rng: Any) -> Any:
    kwargs = dict(ex.args)
    if rng is not None:
        return getattr(module, rule.roll_function)(**kwargs, rng=rng)
    return getattr(module, rule.distribution_function)(**kwargs)


def entry(rule: SuccessPoolRule) -> str:
    return rule.distribution_function


def call_name(rule: SuccessPoolRule) -> str:
    return f"{rule.distribution_function}/{rule.roll_function}"


def samples(rule: SuccessPoolRule, specs: Sequence[Input]) -> list[Sample]:
    return spread(rule, specs, rolls=True)  # the pool rolls, though no input is an RNG


def sample_answer(
    runtime: Any,
    module: Any,
    rule: SuccessPoolRule,
    kwargs: dict[str, Any],
    seed: int | None,
) -> Any:
    dice = kwargs.get("dice", 0)
    return {
        "distribution": plain(getattr(module, rule.distribution_function)(dice)),
        "roll": plain(getattr(module, rule.roll_function)(dice, random.Random(seed))),
    }


def roller(rule: SuccessPoolRule, module: Any) -> Callable[..., Any]:
    found: Callable[..., Any] = getattr(module, rule.roll_function)
    return found
