"""A formula, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ...front.scope import table_values
from ...kinds.formula.model import FormulaRule
from ...kinds.formula.rule import rule_nodes
from ...lang.naming import odds_function
from ...lang.py_names import pyname
from ...workbench import steps as steps_mod
from ...workbench.context import Context, agree, functions_called, runtime_values
from ...workbench.dice_replay import Replay
from ...workbench.lets import bind_lets
from ...workbench.odds_lines import odds_section


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FormulaRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    env = {p.name: given.get(pyname(p.name), p.default) for p in rule.params}
    tables, rows = table_values(ctx.system)
    stepper = steps_mod.Stepper(
        env,
        rounding=ctx.system.rounding,
        tables=tables,
        rows=rows,
        functions={
            name: function
            for node in rule_nodes(rule)
            for name, function in functions_called(ctx, node).items()
        },
        dice=Replay([face for _, face in ctx.rng.rolled]) if ctx.rng else None,
        values=runtime_values(ctx),
    )
    # each worked out once, in order, before the formula
    bound = bind_lets(stepper, [(let.name, let.checked.node) for let in rule.lets], env)
    value = stepper.run(rule.checked.node)
    if bound:
        ctx.out.section("First, in order", bound)
    ctx.out.section(
        f"Formula, written at {ctx.ws.where(rule, _written_as(ctx))}",
        ["  " + stepper.math(rule.checked.node)],
    )
    ctx.out.section("Steps, innermost first", steps_mod.lines(stepper.steps))
    ctx.out.section("Limits", [f"  {x}" for x in stepper.limits])
    unit = f" {rule.unit}" if rule.unit else ""
    ctx.out.section("Answer", [f"  {answer}{unit}"])
    agree(ctx, value, answer)
    odds = getattr(ctx.module, pyname(odds_function(rule.function)), None)
    if callable(odds):  # it rolls: the chances of each answer, worked out
        odds_section(ctx, odds, given, "its answer")


def _written_as(ctx: Context) -> str:
    """Where the formula's expression is: ``expression``, or its ``cases``."""
    try:
        raw, _ = ctx.ws.raw(ctx.rule)
    except LookupError:
        return "expression"
    return "cases" if "cases" in raw else "expression"
