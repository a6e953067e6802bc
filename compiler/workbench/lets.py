"""Names a rule binds (``let``), in the workbench: each worked out once, in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import expr
from .steps import Stepper

__all__ = ["bind_lets", "shown"]


def bind_lets(
    stepper: Stepper, lets: Sequence[tuple[str, expr.Node]], env: dict[str, Any]
) -> list[str]:
    """Work out each name in order into ``env`` (the stepper's environment), its
    dice replayed as the runtime rolled them; the lines ``name = math = value``."""
    lines: list[str] = []
    for name, node in lets:
        env[name] = stepper.run(node)
        math = expr.to_math(node, rounding=stepper.rounding)
        lines.append(f"  {name} = {math} = {shown(env[name])}")
        if stepper.dice is not None:
            stepper.dice.part += 1  # the next expression's dice start again at 0
    return lines


def shown(value: object) -> str:
    """A value a name is bound to, as the steps show values."""
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
