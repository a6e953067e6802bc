"""A formula, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ... import expr
from ...kinds.formula.model import FormulaRule
from ...scope import table_values
from ...workbench import steps as steps_mod
from ...workbench.context import Context, agree, functions_called
from ...workbench.dice_replay import Replay


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FormulaRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    env = {p.name: given.get(p.name, p.default) for p in rule.params}
    tables, rows = table_values(ctx.system)
    stepper = steps_mod.Stepper(
        env,
        rounding=ctx.system.rounding,
        tables=tables,
        rows=rows,
        functions=functions_called(ctx, rule.checked.node),
        dice=Replay([face for _, face in ctx.rng.rolled]) if ctx.rng else None,
    )
    rounding = ctx.system.rounding
    bound: list[str] = []
    for let in rule.lets:  # each worked out once, in order, before the formula
        env[let.name] = stepper.run(let.checked.node)
        math = expr.to_math(let.checked.node, rounding=rounding)
        bound.append(f"  {let.name} = {math} = {_shown(env[let.name])}")
        if stepper.dice is not None:
            stepper.dice.part += 1
    value = stepper.run(rule.checked.node)
    if bound:
        ctx.out.section("First, in order", bound)
    ctx.out.section(
        f"Formula, written at {ctx.ws.where(rule, _written_as(ctx))}",
        ["  " + expr.to_math(rule.checked.node, rounding=rounding)],
    )
    ctx.out.section("Steps, innermost first", steps_mod.lines(stepper.steps))
    ctx.out.section("Limits", [f"  {x}" for x in stepper.limits])
    unit = f" {rule.unit}" if rule.unit else ""
    ctx.out.section("Answer", [f"  {answer}{unit}"])
    agree(ctx, value, answer)


def _shown(value: object) -> str:
    """A value a name is bound to, as the steps show values."""
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _written_as(ctx: Context) -> str:
    """Where the formula's expression is: ``expression``, or its ``cases``."""
    try:
        raw, _ = ctx.ws.raw(ctx.rule)
    except LookupError:
        return "expression"
    return "cases" if "cases" in raw else "expression"
