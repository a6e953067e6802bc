"""Core expressions: a lowering's own expressions, parsed and checked as the rules' are."""

from __future__ import annotations

from collections.abc import Sequence

from .. import expr
from ..model import Param
from ..scope import param_spec
from .ir import Local


def checked(
    text: str, params: Sequence[Param], names: Sequence[Local] = ()
) -> expr.Checked:
    """``text`` as a checked expression over ``params`` and the locals ``names``
    (whole numbers within their limits). A lowering writes it from the rules'
    figures; an error in it is the lowering's, so it is raised as it is."""
    scope = {p.name: param_spec(p) for p in params} | {
        n.name: expr.Param(n.name, "int", n.lo, n.hi) for n in names
    }
    return expr.compile_formula(text, scope)
