"""A decision, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import expr
from ...kinds.decision.model import DecisionCase, DecisionRule
from ...model import Column
from ...scope import table_values
from ...workbench import steps as steps_mod
from ...workbench.common import aligned, plain, show
from ...workbench.context import Context, agree, functions_called
from ...workbench.dice_replay import Replay
from ...workbench.lets import bind_lets
from ...workbench.trace import explain_lowered
from .lower import lower, lowers
from .trace import take_turns


def explain(ctx: Context) -> None:
    """``rulesc explain``: the core's tracing interpreter over a decision the
    core says (``lower``), this kind's own explanation of the rest."""
    rule = ctx.rule
    assert isinstance(rule, DecisionRule)
    if lowers(rule):
        explain_lowered(ctx, lower)
        return
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    env: dict[str, Any] = {}
    for p in rule.params:
        if p.name in given:
            env[p.name] = given[p.name]
        elif p.default_call is not None:
            name, call_args = p.default_call
            env[p.name] = plain(ctx.function(name)(**dict(call_args)))
        else:
            env[p.name] = p.default
    tables, rows = table_values(ctx.system)
    functions: dict[str, Callable[..., Any]] = {}
    for let in rule.lets + (rule.repeat.lets if rule.repeat else ()):
        functions |= functions_called(ctx, let.checked.node)
    for case in rule.cases:
        for node in [case.when, *(v for _, (k, v) in case.values or () if k == "expr")]:
            if node is not None:
                functions |= functions_called(ctx, node.node)

    def stepper(dice: Replay | None = None) -> steps_mod.Stepper:
        return steps_mod.Stepper(
            env,
            rounding=ctx.system.rounding,
            tables=tables,
            rows=rows,
            functions=functions,
            dice=dice,
        )

    # a decision that rolls is called first: its lets replay the dice it rolled
    early = ctx.attempt(function, given, specs) if rule.rolls else None
    if rule.lets:  # each worked out once, in order, before the cases
        dice = Replay([f for _, f in ctx.rng.rolled]) if ctx.rng and early else None
        s = stepper(dice)
        bound = bind_lets(s, [(let.name, let.checked.node) for let in rule.lets], env)
        ctx.out.section("First, in order", bound)
        if s.steps:
            ctx.out.section("Steps of the names", steps_mod.lines(s.steps))

    if rule.repeat is not None:  # the turns, their dice replayed as rolled
        dice = Replay([f for _, f in ctx.rng.rolled]) if ctx.rng and early else None
        ctx.out.section("Turns", take_turns(rule, stepper(dice), env))

    raw, _ = ctx.ws.raw(rule)
    lines: list[str] = []
    matched: list[tuple[int, DecisionCase]] = []
    for index, case in enumerate(rule.cases):
        if case.when is None:
            continue
        always = case.when_text == "true"
        holds = True if always else bool(stepper().run(case.when.node))
        when = (
            "otherwise"
            if always
            else expr.to_math(case.when.node, rounding=ctx.system.rounding)
        )
        mark = "yes: this case answers" if holds else "no"
        lines.append(f"  {index + 1}. when {when}")
        lines.append(f"       → {mark}   ({ctx.ws.where(rule, 'cases', index)})")
        if not always and (holds or _reads_tables(case.when.node)):
            s = stepper()
            s.run(case.when.node)
            if len(s.steps) > 1 or any(st.note for st in s.steps):
                lines += steps_mod.lines(s.steps, indent="       ")
        if holds:
            matched.append((index, case))
            left = len(rule.cases) - index - 1
            if rule.hit_policy == "first" and left:
                rest = (
                    "the case after it is"
                    if left == 1
                    else f"the {left} cases after it are"
                )
                lines.append(f"  ({rest} not looked at)")
                break
    ctx.out.section(_POLICY_TITLE[rule.hit_policy], lines)
    if not matched:
        if rule.hit_policy == "collect":
            ctx.out.section("Answer", ["  no case matched: an empty list"])
        return
    refused = [case for _, case in matched if case.refuse is not None]
    if refused and rule.hit_policy != "collect":
        ctx.out.section("Answer", [f"  refused: {refused[0].refuse}"])
        if early is None:
            early = ctx.attempt(function, given, specs)
        if early[0] is None:
            agree(ctx, "refused", "an answer")
        return
    answer = ctx.call(function, given, specs) if early is None else early[1]
    references: list[Any] = []
    for index, case in matched:
        body, reference = _case_answer(ctx, rule, raw, index, case, stepper)
        title = f"Answer (case {index + 1})"
        if rule.hit_policy == "collect":
            title = f"Answer {len(references) + 1} (case {index + 1})"
        ctx.out.section(title, body)
        references.append(reference)
    expected: Any = references if rule.hit_policy == "collect" else references[0]
    agree(ctx, expected, plain(answer))


_POLICY_TITLE = {
    "first": "Cases, first match wins",
    "collect": "Cases, every match answers (in order)",
    "unique": "Cases, at most one may match",
}


def _case_answer(
    ctx: Context,
    rule: DecisionRule,
    raw: Any,
    index: int,
    case: DecisionCase,
    stepper: Callable[[], steps_mod.Stepper],
) -> tuple[list[str], Any]:
    """A matched case's answer as lines, and its value from the reference steps."""
    written = raw["cases"][index].get("then")
    named = set(written) if isinstance(written, dict) else {"value"}
    slots = {s.name: s for s in rule.slots}
    cols = columns(rule)
    out_lines: list[str] = []
    rows_out: list[tuple[str, str]] = []
    reference: dict[str, Any] = {}
    for name, (kind, item) in case.values or ():
        slot = slots[name]
        title = slot.title if rule.shape != "mapping" else name
        label = f"{title} ({name})" if rule.shape == "fields" else title
        origin = (
            ""
            if name in named or rule.shape != "fields"
            else "   (the field's default)"
        )
        if kind == "expr":
            s = stepper()
            value = s.run(item.node)
            reference[name] = value
            math = expr.to_math(item.node, rounding=ctx.system.rounding)
            rows_out.append((label, f"{_slot_text(value, cols.get(name))}   = {math}"))
            if s.steps and not (len(s.steps) == 1 and s.steps[0].note is None):
                out_lines.append(f"  {label}:")
                out_lines += steps_mod.lines(s.steps, indent="    ")
        else:
            value = item.label if kind == "member" else item
            reference[name] = value
            rows_out.append((label, _slot_text(value, cols.get(name)) + origin))
    value_of: Any = reference["value"] if rule.shape == "value" else reference
    return aligned(rows_out) + out_lines, plain(value_of)


def _reads_tables(node: expr.Node) -> bool:
    return bool(expr.tables_used(node)) or any(
        isinstance(n, expr.Index) for n in _walk(node)
    )


def _walk(node: expr.Node) -> list[expr.Node]:
    from ...expr_types import walk

    return list(walk(node))


def _slot_text(value: Any, column: Any) -> str:
    if isinstance(value, str):
        return value
    return show(value, column)


def columns(rule: DecisionRule) -> dict[str, Column]:
    """An answer's fields are the decision's slots."""
    return {
        s.name: Column(
            s.name,
            "text",
            s.nullable,
            s.null_label,
            False,
            None,
            s.title,
            s.description,
        )
        for s in rule.slots
    }
