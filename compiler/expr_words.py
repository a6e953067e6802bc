"""Condition emission in words: a decision's "when" as a rulebook would say it.

The third emitter of the expression language, beside ``expr_emit`` (Python) and
``expr_math`` (LaTeX): comparisons, and/or/not, labels and "is one of" become
Markdown words (``mode == "at_cover" and not warhead`` reads *mode* is at_cover
and not *warhead*); arithmetic inside a condition is left to the math emitter,
set inline between ``$`` signs. Parameters are set in italic words, labels as
they are written; every piece of rules text is Markdown-escaped, so the result
is safe in a table cell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .expr_lists import concat_parts
from .expr_math import to_latex, words_of
from .expr_types import (
    FUNCTIONS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Cond,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    NullLit,
    Rounding,
    StrLit,
    Unary,
)
from .literals import md_cell

__all__ = ["to_words", "value_words"]

_OR, _AND, _NOT, _ATOM = range(4)
_COMPARE = {
    "==": "is",
    "is": "is",
    "!=": "is not",
    "is not": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}


def _name(name: str) -> str:
    return f"*{md_cell(words_of(name))}*"


def _field(table: str, field: str, key: str) -> str:
    return f"{md_cell(words_of(field))} at {key}"


def _one_of(items: list[str], joiner: str) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


@dataclass(slots=True)
class _Words:
    rounding: Rounding
    name: Callable[[str], str]
    field: Callable[[str, str, str], str]
    latex_field: Callable[[str, str, str], str] | None

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def emit(self, node: Node) -> tuple[str, int]:
        match node:
            case BoolLit():
                return ("always" if node.value else "never"), _ATOM
            case Binary(op="and" | "or"):
                # `a or (b and c)`: the brackets that words cannot do without
                prec = _OR if node.op == "or" else _AND
                inner = _AND + 1 if node.op == "or" else prec
                left, right = self.wrap(node.left, inner), self.wrap(node.right, inner)
                return f"{left} {node.op} {right}", prec
            case Unary(op="not"):
                return f"not {self.wrap(node.operand, _NOT + 1)}", _NOT
            case Binary(op="in" | "not in", right=ListLit() as items):
                values = [self.value(item) for item in items.items]
                if node.op == "in":
                    one_of = _one_of(values, "or")
                    return f"{self.value(node.left)} is {one_of}", _ATOM
                return (
                    f"{self.value(node.left)} is none of {_one_of(values, 'or')}",
                    _ATOM,
                )
            case (
                Binary(left=NullLit(), right=other)
                | Binary(right=NullLit(), left=other)
            ) if node.op in ("==", "!=", "is", "is not"):
                given = node.op in ("!=", "is not")
                return (
                    f"{self.value(other)} is {'given' if given else 'not given'}",
                    _ATOM,
                )
            case Binary() if node.op in _COMPARE:
                left, right = self.value(node.left), self.value(node.right)
                return f"{left} {_COMPARE[node.op]} {right}", _ATOM
        return self.value(node), _ATOM

    def value(self, node: Node) -> str:
        """A compared value in words, or as inline math when it is a calculation."""
        match node:
            case Name():
                return self.name(node.name)
            case StrLit():
                return md_cell(node.value)
            case IntLit():
                return str(node.value)
            case BoolLit():
                return "yes" if node.value else "no"
            case NullLit():
                return "none"
            case Attr(obj=Call(rule=False, args=(key,)) as lookup) if (
                lookup.func not in FUNCTIONS
            ):
                return self.field(lookup.func, node.name, self.value(key))
            case Index(obj=Name() as mapping):
                return f"{self.name(mapping.name)} of {self.value(node.index)}"
            case Binary(concat=True):  # lists one after the other, [x] as x
                return ", then ".join(self.value(p) for _, p in concat_parts(node))
        if self.latex_field is None:
            return "$" + to_latex(node, rounding=self.rounding) + "$"
        return (
            "$" + to_latex(node, rounding=self.rounding, field=self.latex_field) + "$"
        )


def to_words(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
    latex_field: Callable[[str, str, str], str] | None = None,
) -> str:
    """Markdown words for a checked condition (safe in a table cell).

    ``name(param)`` says a parameter (italic words by default); ``field(table,
    field, key)`` a field of a table's row, given the key in words;
    ``latex_field`` the same for the math of a calculation in the condition.
    """
    return _Words(rounding, name, field, latex_field).emit(node)[0]


def value_words(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
    latex_field: Callable[[str, str, str], str] | None = None,
) -> str:
    """Markdown words for a value that is a label, a text or yes/no: a choice
    between values reads "a if t; b if u; otherwise c"."""
    words = _Words(rounding, name, field, latex_field)
    parts: list[str] = []
    current = node
    while isinstance(current, Cond):
        parts.append(f"{words.value(current.body)} if {words.emit(current.test)[0]}")
        current = current.orelse
    if not parts:
        return words.value(current)
    return "; ".join([*parts, f"otherwise {words.value(current)}"])
