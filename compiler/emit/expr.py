"""Formula emission: a checked formula as Python for the runtime (lowered to the plain core, then the Python printer)."""

from __future__ import annotations

from collections.abc import Callable

from ..core.plain import lower
from ..lang.nodes import (
    Node,
    Rounding,
    names_used,
)
from ..lang.py_names import (
    pyattr,
    pyname,
)
from .printer import Names
from .python.printer import PythonPrinter

__all__ = ["to_python"]


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


def to_python(
    node: Node,
    *,
    name: Callable[[str], str],
    choice: Callable[[str, str], str] = _no_choice,
    rounding: Rounding,
    lookup: Callable[[str, str], str] | None = None,
    label: Callable[[str, str], str] | None = None,
    avoid: frozenset[str] = frozenset(),
) -> str:
    """A Python expression for a checked formula, with minimal parentheses.

    name(param) names a parameter (a mapping parameter too: it is indexed as
    `name(param)[key]`); choice(param, label) and label(enum, label) name an
    enum member (label is preferred when the enum is known; choice gets a
    choice parameter of the label's enum or, for a key of a mapping without
    one, the mapping parameter); lookup(table, key) gives a primary expression
    for a table's row, to which `.field` is appended. `a ?? b`, and a lookup or
    index whose key may be null, assign walrus temporaries _t1, _t2, ...:
    place the expression in a function body; ``avoid`` names temporaries the
    function already uses.
    """
    taken = frozenset(name(n) for n in names_used(node)) | avoid
    names = Names(name, pyattr, label, choice, lookup, pyname)
    return PythonPrinter(names, taken).print(lower(node, rounding))
