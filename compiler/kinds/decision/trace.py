"""A repeating decision's turns, traced for ``rulesc explain``: the start, each turn, the ending."""

from __future__ import annotations

from typing import Any

from ... import expr
from ...kinds.decision.model import TURNS, DecisionRule
from ...workbench.lets import bind_lets, shown
from ...workbench.steps import Stepper

__all__ = ["MAX_TRACED", "take_turns"]

MAX_TRACED = 200
"""The turns shown one by one (the rest are taken, and counted, unshown)."""


def take_turns(rule: DecisionRule, stepper: Stepper, env: dict[str, Any]) -> list[str]:
    """Take the turns into ``env`` (the stepper's environment: the state as it
    ends, and ``turns``); the lines that show them."""
    repeat = rule.repeat
    assert repeat is not None
    rounding = stepper.rounding
    for v in rule.state:
        env[v.name] = stepper.value(v.start.node)
    env[TURNS] = 0

    def state() -> str:
        return ", ".join(f"{v.name} = {shown(env[v.name])}" for v in rule.state)

    lines = [f"  start: {state()}"]
    until = expr.to_math(repeat.until.node, rounding=rounding)
    while not stepper.value(repeat.until.node):
        if repeat.max_turns is not None and env[TURNS] == repeat.max_turns:
            lines.append(f"  stopped after {repeat.max_turns} turns (max_turns)")
            break
        env[TURNS] += 1
        lets = [(let.name, let.checked.node) for let in repeat.lets]
        bound = bind_lets(stepper, lets, env, calls=True)
        values = {s.name: stepper.value(s.clamped.node) for s in repeat.sets}
        env.update(values)
        if env[TURNS] <= MAX_TRACED:
            lines.append(f"  turn {env[TURNS]}:")
            lines += ["  " + line for line in bound]
            lines.append(f"    then {state()}")
    else:
        lines.append(f"  ended after {env[TURNS]} turns: {until}")
    if env[TURNS] > MAX_TRACED:
        lines.append(f"  (turns after {MAX_TRACED} not shown)")
    return lines
