"""Core expressions: a lowering's own expressions, parsed and checked as the rules' are."""

from __future__ import annotations

from collections.abc import Sequence

from .. import expr
from ..model import Param
from ..runtime.dice import Dice
from ..scope import param_spec
from .ir import Local


def checked(
    text: str, params: Sequence[Param], names: Sequence[Local] = ()
) -> expr.Checked:
    """``text`` as a checked expression over ``params`` and the locals ``names``
    (whole numbers within their limits, or labels of their set). A lowering
    writes it from the rules' figures; an error in it is the lowering's, so it
    is raised as it is."""
    scope = {p.name: param_spec(p) for p in params} | {
        n.name: param_spec(local_param(n)) for n in names if n.record is None
    }
    return expr.compile_formula(text, scope)


def local_params(names: Sequence[Local]) -> list[Param]:
    """The locals expressions read, as parameters are seen (``local_param``)."""
    return [local_param(n) for n in names if n.record is None]


def local_param(name: Local) -> Param:
    """A local as a parameter is seen (its type and limits), for the emitters'
    and checker's tables of names."""
    if name.enum is not None:
        return Param(
            name.name,
            "choice",
            None,
            None,
            None,
            False,
            "",
            name.enum,
            nullable=name.nullable,
        )
    return Param(name.name, "int", name.lo, name.hi, None, False, "", None)


def notation(dice: Dice) -> str:
    """Dice as the expression language writes a roll of them."""
    text = f"{dice.count}d{dice.sides}" if dice.count else "0"
    if dice.multiplier != 1:
        text = f"{text} * {dice.multiplier}"
    return f"({text} + {dice.modifier})" if dice.modifier else text
