"""A record state in the workbench: ``rulesc explain`` (transitions given as
NAME, or NAME=N for one that takes one number), rulesc diff's samples and answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...kinds.state.record import lower
from ...kinds.state.record_model import RecordStateRule
from ...kinds.state.workbench import transition_word
from ...py_names import field_of, pyname
from ...workbench.common import Input, UsageError, show
from ...workbench.context import Context
from ...workbench.samples import Sample, thawed
from ...workbench.trace import traced_call
from ...workbench.usage import whole_number


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, RecordStateRule)
    state = getattr(ctx.module, pyname(rule.class_name))()
    names = {t.name: t for t in rule.transitions}
    unit = lower(ctx.system, rule)
    lines = []
    for word in ctx.args.inputs:
        name, amount, transition = transition_word(rule.qualified_id, names, word)
        kinds = [p.type for p in transition.params]
        if kinds not in ([], ["int"]):
            raise UsageError(
                f"{name} takes {len(kinds)} arguments, not all one number: "
                "explain gives only transitions without arguments or with one number"
            )
        if bool(amount) != bool(kinds):
            raise UsageError(
                f"{name} takes a number: {name}=N"
                if kinds
                else f"{name} takes no number: {word!r}"
            )
        args = {transition.params[0].name: whole_number(amount, name)} if amount else {}
        try:
            _, steps = traced_call(ctx, unit, name, state, args)
        except ctx.runtime.input_error as exc:
            raise UsageError(f"{rule.qualified_id} refuses {word}: {exc}") from None
        lines.append(f"  {word}: " + _fields(rule, state))
        lines += [f"  {line}" for line in steps]
    ctx.out.section("Transitions, in order", lines or ["  (none given)"])
    body = [
        f"  {f.name}: {show(getattr(state, field_of(state, f.name)))}"
        for f in rule.fields
    ]
    body += [
        f"  {d.name}: {show(getattr(state, field_of(state, d.name)))}"
        for d in rule.derived
    ]
    ctx.out.section("State", body)


def _fields(rule: RecordStateRule, state: Any) -> str:
    return ", ".join(
        f"{f.name} {show(getattr(state, field_of(state, f.name)))}" for f in rule.fields
    )


def _calls(rule: RecordStateRule) -> list[Any]:
    """An action of each transition: its arguments at their highest (lowest
    where unbounded above; 0 where unbounded; true for a flag)."""
    calls: list[Any] = []
    for t in rule.transitions:
        args = {
            p.name: True
            if p.type == "bool"
            else (p.max if p.max is not None else p.min if p.min is not None else 0)
            for p in t.params
        }
        # frozen, as a sample's inputs are: ((name, ((argument, value), ...)),)
        calls.append(((t.name, tuple(args.items())),) if args else t.name)
    return calls


def action(item: Any) -> tuple[str, dict[str, Any]]:
    """An action (a name, a name with its arguments, or that frozen) as the
    transition's name and its arguments by name."""
    if isinstance(item, str):
        return item, {}
    if isinstance(item, tuple):
        item = thawed(item)
    ((name, kwargs),) = item.items()
    return str(name), dict(kwargs or {})


def samples(rule: RecordStateRule, specs: Sequence[Input]) -> list[Sample]:
    """Each transition once and five times, then each pair in turn."""
    calls = _calls(rule)
    moves = [Sample((("actions", ()),))]
    moves += [Sample((("actions", (c,) * k),)) for c in calls for k in (1, 5)]
    moves += [
        Sample((("actions", (a,) * 5 + (b,)),))
        for a in calls
        for b in calls
        if a is not b
    ]
    return moves


def state_plain(rule: RecordStateRule, state: Any) -> Any:
    """A state as plain JSON: its fields and derived properties."""
    return {
        **{f.name: getattr(state, field_of(state, f.name)) for f in rule.fields},
        **{d.name: getattr(state, field_of(state, d.name)) for d in rule.derived},
    }


def sample_answer(
    runtime: Any,
    module: Any,
    rule: RecordStateRule,
    kwargs: dict[str, Any],
    seed: int | None,
) -> Any:
    state = getattr(module, pyname(rule.class_name))()
    for item in kwargs.get("actions", ()):
        name, args = action(item)
        getattr(state, field_of(state, name))(**args)
    return state_plain(rule, state)
