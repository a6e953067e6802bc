"""Names a rule binds (``let``), in the workbench: each worked out once, in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import expr
from ..expr_types import walk
from .steps import Stepper

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
        math = expr.to_math(node, rounding=stepper.rounding)
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
        if isinstance(n, expr.Call)
        and n.rolls
        and (dice.part, n.start, n.end) in dice.called
    ]
    return f"   ({'; '.join(notes)})" if notes else ""


def shown(value: object) -> str:
    """A value a name is bound to, as the steps show values."""
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
