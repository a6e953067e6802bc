"""Math text: a formula's surface as ``rulesc explain`` shows it (``a ≤ b``, ``⌊a ÷ b⌋``).

The rules' own source text (``lang.source``) with some operators spelled as
math: the workbench's display of a formula and of each step it works out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..lang.nodes import (
    Binary,
    Node,
    Rounding,
)
from ..lang.source import SourcePrinter

__all__ = ["to_math"]

_MATH_OPS = {
    "*": "\N{MULTIPLICATION SIGN}",
    "/": "÷",  # exact (floor, ceil or round's argument)
    "==": "=",
    "!=": "≠",
    "<=": "≤",
    ">=": "≥",
    "in": "∈",
    "not in": "∉",
    "is": "=",
    "is not": "≠",
}


@dataclass(slots=True)
class MathPrinter(SourcePrinter):
    """The surface as math: the times sign, ``≤``, ``none``, and a division rounded
    ``⌊a ÷ b⌋`` (or ``⌈a ÷ b⌉``); a text never holds a backtick."""

    NULL: ClassVar[str] = "none"

    rounding: Rounding = "down"

    def sym(self, op: str) -> str:
        return _MATH_OPS.get(op, op)

    def string(self, value: str) -> str:
        return '"' + value.replace("`", "'") + '"'

    def binary(self, node: Binary) -> tuple[str, int]:
        if node.op != "//":
            return SourcePrinter.binary(self, node)
        left, right = (
            self.wrap(node.left, self.MUL),
            self.operand(node.right, self.UNARY),
        )
        opening, closing = ("⌊", "⌋") if self.rounding == "down" else ("⌈", "⌉")
        return f"{opening}{left} ÷ {right}{closing}", self.ATOM


def to_math(node: Node, *, rounding: Rounding) -> str:
    """Human-readable math text for the workbench (never contains a backtick)."""
    return MathPrinter(rounding=rounding).emit(node)[0]
