"""A staged track, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...core.calls import each_step, instance_call
from ...front.model import Example
from ...kinds.track.model import TrackRule
from ...kinds.track.rule import lower
from ...lang.py_names import pyname
from ...workbench.common import Input, UsageError, plain, show
from ...workbench.context import Context
from ...workbench.samples import SEEDS, Sample
from ...workbench.trace import traced_call
from ...workbench.usage import whole_number


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, TrackRule)
    track = getattr(ctx.module, pyname(rule.class_name))()
    try:
        rolls = [whole_number(x, "a die result") for x in ctx.args.inputs]
    except UsageError as exc:
        raise UsageError(
            f"{rule.qualified_id} takes die results ({rule.roll}), e.g. 3 5 3",
            exc.message,
        ) from None
    ctx.out.section(
        "Inputs", [f"  rolls of {rule.roll}: {', '.join(map(str, rolls)) or '(none)'}"]
    )
    unit = lower(ctx.system, rule)
    records = []
    for index, roll in enumerate(rolls, start=1):
        try:
            outcome, lines = traced_call(ctx, unit, "apply", track, {"roll": roll})
        except ctx.runtime.input_error as exc:
            raise UsageError(
                f"{rule.qualified_id} refuses roll {roll}: {exc}"
            ) from None
        ctx.out.section(f"Roll {index} ({roll}): the steps of apply", lines)
        records.append(outcome)
    lines = []
    for roll, outcome in zip(rolls, records, strict=True):
        parts = [f"{show(outcome.effect)} stage {outcome.stage}"]
        if outcome.condition is not None:
            parts.append(f"-> {show(outcome.condition)}")
        if outcome.reroll:
            parts.append(f"({rule.reroll_label})")
        if getattr(outcome, rule.mark_field):
            parts.append("(a point marked)")
        lines.append(f"  roll {roll}: " + " ".join(parts))
    ctx.out.section("Outcomes, in order", lines or ["  (no rolls given)"])


def call_text(rule: TrackRule, ex: Example) -> str:
    rolls = dict(ex.args).get("rolls", [])
    return f"[{pyname(rule.class_name)}().apply(roll) for roll in {rolls!r}]"


def run_example(module: Any, rule: TrackRule, ex: Example, rng: Any) -> Any:
    track = getattr(module, pyname(rule.class_name))()
    return [track.apply(roll) for roll in dict(ex.args).get("rolls", [])]


def call_name(rule: TrackRule) -> str:
    return f"{pyname(rule.class_name)}().apply"


def inputs(rule: TrackRule, module: Any) -> list[Input]:
    """A run of die results, applied to a fresh track in order."""
    return [
        Input(
            "rolls",
            "ints",
            True,
            None,
            description=f"Results of {rule.roll}, applied in order.",
            lo=rule.roll.min,
            hi=rule.roll.max,
        )
    ]


def samples(rule: TrackRule, specs: Sequence[Input]) -> list[Sample]:
    """Every single roll, then seeded runs of eight rolls."""
    sides = rule.roll.max
    singles = [Sample((("rolls", (r,)),)) for r in range(rule.roll.min, sides + 1)]
    runs = []
    for seed in SEEDS:
        rng = random.Random(seed)
        seq = tuple(rng.randint(rule.roll.min, sides) for _ in range(8))
        runs.append(Sample((("rolls", seq),)))
    return singles + runs


def sample_answer(
    runtime: Any, module: Any, rule: TrackRule, kwargs: dict[str, Any], seed: int | None
) -> Any:
    track = getattr(module, pyname(rule.class_name))()
    return plain([track.apply(r) for r in kwargs.get("rolls", [])])


def call(
    module: Any, rule: TrackRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A fresh track, and each roll applied to it in order: the outcomes."""
    cls = getattr(module, pyname(rule.class_name))
    calls = [{"roll": r} for r in args.get("rolls", [])]
    return instance_call(cls, rule.class_name, {}, [each_step(cls, "apply", calls)])
