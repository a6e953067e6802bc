"""Math text of the core's expressions, as a reference page shows them."""

from __future__ import annotations

from typing import Protocol

from ...core.viewkit import (
    View,
)
from ...front.model import System
from ...lang import expr
from ..literals import md
from .math import display_parts
from .reads import (
    Reads,
)

ROUNDING = {
    "down": "A division rounds down (⌊ ⌋).",
    "up": "A division rounds up (⌈ ⌉).",
}
# The note of a formula that rounds with round(): which way a half goes.
HALF_UP = "round() rounds a half up (2.5 to 3, -2.5 to -2)."


class Bound(Protocol):
    """A name bound to a checked expression (a core ``Bind``, a rule's ``let``)."""

    @property
    def name(self) -> str: ...

    @property
    def checked(self) -> expr.Checked: ...

    @property
    def description(self) -> str | None: ...


def let_view(system: System, let: Bound, reads: Reads) -> View:
    """A bound name, as its page shows it: ``name = value``."""
    value, where = display_parts(
        let.checked.node, rounding=system.rounding, field=reads.latex
    )
    name = display_parts(expr.Name(let.name, 0, 0), rounding=system.rounding)[0]
    return {
        "math": f"{name} = {value}",
        "where": where,
        "description": md(let.description) if let.description else None,
    }


def range_text(lo: int | None, hi: int | None) -> str:
    """The whole numbers from ``lo`` to ``hi`` (either may be open), in words."""
    if lo is None and hi is None:
        return "any whole number"
    if lo is None:
        return f"at most {hi}"
    if hi is None:
        return f"at least {lo}"
    return f"from {lo} to {hi}"
