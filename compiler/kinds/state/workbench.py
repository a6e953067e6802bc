"""A state ladder, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from ...kinds.state.model import StateRule
from ...kinds.state.rule import lower
from ...lang.py_names import (
    field_of,
    pyname,
)
from ...workbench.common import Input, UsageError, show
from ...workbench.context import Context
from ...workbench.samples import Sample
from ...workbench.trace import traced_call
from ...workbench.usage import whole_number

T = TypeVar("T")


def transition_word(rule_id: str, names: dict[str, T], word: str) -> tuple[str, str, T]:
    """A word of explain's input, NAME or NAME=N: the name, the number's text
    (empty without one) and the transition it names."""
    name, _, amount = word.partition("=")
    transition = names.get(name)
    if transition is None:
        raise UsageError(
            f"{rule_id} has no transition {name!r}",
            "transitions: "
            + ", ".join(names)
            + " (with NAME=N for one that takes a number)",
        )
    return name, amount, transition


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, StateRule)
    state = getattr(ctx.module, pyname(rule.class_name))()
    names = {t.name: t for t in rule.transitions}
    unit = lower(ctx.system, rule)
    lines = []
    for word in ctx.args.inputs:
        name, amount, transition = transition_word(rule.qualified_id, names, word)
        args = {}
        if amount:
            if transition.param is None:
                raise UsageError(f"{name} takes no number: {word!r}")
            args[transition.param] = whole_number(amount, name)
        try:
            level, steps = traced_call(ctx, unit, name, state, args)
        except ctx.runtime.input_error as exc:
            raise UsageError(f"{rule.qualified_id} refuses {word}: {exc}") from None
        lines.append(f"  {word}: level {level}")
        lines += [f"  {line}" for line in steps]
    ctx.out.section("Transitions, in order", lines or ["  (none given)"])
    body = [f"  level {state.level}"]
    body += [f"  effect: {effect}" for effect in state.effects] or ["  no effects"]
    body += [
        f"  {f.name}: {show(getattr(state, field_of(state, f.name)))}"
        for f in rule.flags
    ]
    ctx.out.section("State", body)


def samples(rule: StateRule, specs: Sequence[Input]) -> list[Sample]:
    """Each transition once and past the ceiling, then each pair in turn."""
    names = [
        t.name
        for t in rule.transitions
        if t.to != "param" and (t.param is None or t.default is not None)
    ]
    top = len(rule.effects) + 1  # enough steps to reach the ceiling and go past it
    moves = [Sample((("actions", ()),))]
    moves += [Sample((("actions", (n,) * k),)) for n in names for k in (1, top)]
    moves += [
        Sample((("actions", (a,) * top + (b,)),))
        for a in names
        for b in names
        if a != b
    ]
    return moves


def state_plain(rule: StateRule, state: Any) -> Any:
    """A state as plain JSON: its level, effects and flags."""
    return {
        "level": state.level,
        "effects": list(state.effects),
        **{f.name: getattr(state, field_of(state, f.name)) for f in rule.flags},
    }


def sample_answer(
    runtime: Any, module: Any, rule: StateRule, kwargs: dict[str, Any], seed: int | None
) -> Any:
    state = getattr(module, pyname(rule.class_name))()
    for action in kwargs.get("actions", ()):
        getattr(state, field_of(state, action))()
    return state_plain(rule, state)


def call_name(rule: StateRule) -> str:
    return rule.class_name
