"""Names a rule binds (``let``), in the workbench: each worked out once, in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..lang import expr
from ..lang.nodes import walk
from .steps import Stepper
from .steps import shown as steps_shown

__all__ = ["bind_lets", "shown"]


def bind_lets(
    stepper: Stepper,
    lets: Sequence[tuple[str, expr.Node]],
    env: dict[str, Any],
    *,
    calls: bool = False,
) -> list[str]:
    """Work out each name in order into ``env`` (the stepper's environment), its
    dice replayed as the runtime rolled them; the lines ``name = math = value``
    (with ``calls``, and what each rule called that rolls rolled)."""
    lines: list[str] = []
    for name, node in lets:
        env[name] = stepper.run(node)
        math = stepper.math(node)
        line = f"  {name} = {math} = {shown(env[name])}"
        if calls and stepper.dice is not None:
            line += _rolled(stepper, node)
        lines.append(line)
        if stepper.dice is not None:
            stepper.dice.part += 1  # the next expression's dice start again at 0
    return lines


def _rolled(stepper: Stepper, node: expr.Node) -> str:
    """What the rules ``node`` called that roll rolled, as a note of its line."""
    dice = stepper.dice
    assert dice is not None
    notes = [
        f"{n.func} {dice.note(n)}"
        for n in walk(node)
        if isinstance(n, expr.Call) and n.rolls and dice.made(n)
    ]
    return f"   ({'; '.join(notes)})" if notes else ""


def shown(value: object) -> str:
    """A value a name is bound to, as the steps show values (a text as it is)."""
    if isinstance(value, list | dict):
        return steps_shown(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
