"""Formula emission: Python for the runtime (the plain core's Python printer), math text for docs, canonical source (the rules' own surface, as written)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as slot
from typing import Literal

from ..core.plain import lower
from ..lang.dice import dice_source
from ..lang.memo import (
    Seen,
    remembered,
)
from ..lang.nodes import (
    COMPARE_OPS,
    WORD_OPS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
    Index,
    IntLit,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    Rounding,
    Step,
    StrLit,
    Unary,
    names_used,
)
from ..lang.py_names import (
    pyattr,
    pyname,
)
from .printer import Names
from .python.printer import PythonPrinter

__all__ = ["to_math", "to_python", "to_source"]

_COND, _COALESCE, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _UNARY, _ATOM = range(10)
_PREC = {
    "??": _COALESCE,
    "or": _OR,
    "and": _AND,
    "+": _ADD,
    "-": _ADD,
    "*": _MUL,
    "//": _MUL,
}
_MATH_OPS = {
    "*": "\N{MULTIPLICATION SIGN}",
    "==": "=",
    "!=": "≠",
    "<=": "≤",
    ">=": "≥",
    "in": "∈",
    "not in": "∉",
    "is": "=",
    "is not": "≠",
}
_NULL = {"math": "none", "source": "null"}


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


@dataclass(slots=True)
class _Emitter:
    mode: Literal["math", "source"]
    rounding: Rounding = "down"
    emitted: Seen[tuple[str, int]] = slot(default_factory=dict)

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def operand(self, node: Node, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: `a - (-b)`, `-(-x)`."""
        text, own = self.emit(node)
        return f"({text})" if own < prec or own == _UNARY else text

    @staticmethod
    def bracket_and(node: Node, text: str) -> str:
        is_and = isinstance(node, Binary) and node.op == "and"
        return f"({text})" if is_and else text

    def sym(self, op: str) -> str:
        return _MATH_OPS.get(op, op) if self.mode == "math" else op

    def emit(self, node: Node) -> tuple[str, int]:
        """The node's text and its precedence, each node's worked out once."""
        return remembered(self.emitted, node, self.text)

    def text(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return str(node.value), _ATOM
            case BoolLit():
                return ("true" if node.value else "false"), _ATOM
            case NullLit():
                return _NULL[self.mode], _ATOM
            case StrLit():
                value = (
                    node.value.replace("`", "'") if self.mode == "math" else node.value
                )
                return f'"{value}"', _ATOM
            case Name():
                return node.name, _ATOM
            case Unary(op="-"):
                return "-" + self.operand(node.operand, _UNARY), _UNARY
            case Unary():
                return "not " + self.wrap(node.operand, _NOT), _NOT
            case Binary() if node.op in COMPARE_OPS or node.op in WORD_OPS:
                left, right = self.wrap(node.left, _ADD), self.wrap(node.right, _ADD)
                return f"{left} {self.sym(node.op)} {right}", _CMP
            case Binary(op="??"):
                left, right = (
                    self.wrap(node.left, _COALESCE),
                    self.wrap(node.right, _OR),
                )
                return f"{left} ?? {right}", _COALESCE
            case Binary(op="//") if self.mode == "math":
                return self.divide(node)
            case Binary():
                return self.binary(node)
            case Cond():
                body = self.wrap(node.body, _COALESCE)
                test = self.wrap(node.test, _COALESCE)
                return f"{body} if {test} else {self.wrap(node.orelse, _COND)}", _COND
            case Dice():
                return dice_source(node, lambda n: self.wrap(n, _COND)), _ATOM
            case Construct():
                fields = ", ".join(
                    f"{name}={self.wrap(arg, _COND)}"
                    for name, arg in zip(node.fields, node.args, strict=True)
                    if not isinstance(arg, NullLit) or node.state
                )
                return f"{node.record}({fields})", _ATOM
            case Method():
                return (
                    f"{self.wrap(node.obj, _ATOM)}.{node.name}({self.given(node.args, node.names)})",
                    _ATOM,
                )
            case Comp():
                return self.comprehension(node), _ATOM
            case Call(rule=True):
                args = [self.wrap(arg, _COND) for arg in node.args]
                return f"{node.func}({', '.join(args)})", _ATOM
            case Call():  # by name as written (``source``)
                return f"{node.func}({self.given(node.args, node.names)})", _ATOM
            case Step():
                return self.step(node), _ADD
            case Attr():
                return f"{self.wrap(node.obj, _ATOM)}.{node.name}", _ATOM
            case Index():
                index = self.wrap(node.index, _COND)
                return f"{self.wrap(node.obj, _ATOM)}[{index}]", _ATOM
            case ListLit():
                items = ", ".join(self.wrap(item, _COND) for item in node.items)
                return f"[{items}]", _ATOM
        raise AssertionError(node)

    def binary(self, node: Binary) -> tuple[str, int]:
        prec = _PREC[node.op]
        left = self.wrap(node.left, prec)
        right = self.operand(node.right, prec + 1)
        if node.op == "or":  # `a or (b and c)`: brackets that help readers
            left, right = (
                self.bracket_and(node.left, left),
                self.bracket_and(node.right, right),
            )
        return f"{left} {self.sym(node.op)} {right}", prec

    def step(self, node: Step) -> str:
        """A step along a ladder, as written: ``level + 2``."""
        value = self.wrap(node.operand, _ADD)
        steps = node.by
        if isinstance(steps, Unary) and steps.op == "-":
            return f"{value} - {self.operand(steps.operand, _ADD + 1)}"
        return f"{value} + {self.operand(steps, _ADD + 1)}"

    def given(self, args: tuple[Node, ...], names: tuple[str, ...]) -> str:
        """Arguments as written: by position, then by name (``b=2``)."""
        texts = [self.wrap(arg, _COND) for arg in args]
        at = len(texts) - len(names)
        named = [f"{k}={v}" for k, v in zip(names, texts[at:], strict=True)]
        return ", ".join([*texts[:at], *named])

    def comprehension(self, node: Comp) -> str:
        """``[body for x in items if test]``."""
        body, items = self.wrap(node.body, _COND), self.wrap(node.items, _OR)
        test = "" if node.test is None else f" if {self.wrap(node.test, _OR)}"
        return f"[{body} for {node.name} in {items}{test}]"

    def divide(self, node: Binary) -> tuple[str, int]:
        left, right = self.wrap(node.left, _MUL), self.operand(node.right, _UNARY)
        opening, closing = ("⌊", "⌋") if self.rounding == "down" else ("⌈", "⌉")
        return f"{opening}{left} ÷ {right}{closing}", _ATOM


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


def to_math(node: Node, *, rounding: Rounding) -> str:
    """Human-readable math text for docs (never contains a backtick)."""
    return _Emitter("math", rounding).emit(node)[0]


def to_source(node: Node) -> str:
    """Canonical formula source text: parse(to_source(node)) == node."""
    return _Emitter("source").emit(node)[0]
