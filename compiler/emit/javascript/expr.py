"""Formula emission for JavaScript: a checked expression lowered to the plain core and printed as JavaScript.

The printing is ``emit.javascript.printer``'s (over the base printer); this
module keeps the entry point the emitters call, with their ways of naming.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.plain import lower
from ...lang.nodes import (
    Interval,
    Node,
    Rounding,
)
from ..printer import Names
from .printer import (
    MAX_SAFE,
    JavaScriptPrinter,
    safe_literal,
    string_literal,
)

__all__ = ["MAX_SAFE", "safe_literal", "string_literal", "to_javascript"]


def _no_lookup(table: str, key: str) -> str:
    raise ValueError(f"no lookup emitter for table {table!r}")


def _no_label(enum: str, label: str) -> str:
    raise ValueError(f"no label emitter for {enum} label {label!r}")


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


def to_javascript(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str],
    field: Callable[[str], str],
    bounds: Callable[[str], Interval],
    lookup: Callable[[str, str], str] = _no_lookup,
    label: Callable[[str, str], str] = _no_label,
    choice: Callable[[str, str], str] = _no_choice,
    function: Callable[[str], str] = str,
) -> str:
    """A JavaScript expression for a checked formula.

    ``name(param)`` names a parameter's checked value; ``field(name)`` a row's
    field; ``bounds(param)`` the range of an int parameter (within the safe
    integers: the runtime refuses any other); ``lookup(table, key)`` a row of a
    table by a key expression; ``label(enum, label)`` and ``choice(param,
    label)`` a label (as ``emit.expr.to_python`` has them); ``function(name)``
    another rule's function.
    """
    names = Names(name, field, label, choice, lookup, function, bounds)
    return JavaScriptPrinter(names).print(lower(node, rounding))
