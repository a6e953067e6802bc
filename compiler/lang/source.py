"""Formula source: a checked or parsed expression as the rules write it (canonical source text).

``to_source`` gives the text a rules editor reads in an error message and in
the docs: ``parse(to_source(node)) == node``, with the fewest brackets that
keep it so. ``SourcePrinter`` is the surface's printer; the docs' math text
(``emit.expr.to_math``) is a subclass that spells some operators its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as slot
from typing import ClassVar

from .memo import (
    Seen,
    remembered,
)
from .nodes import (
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
    Step,
    StrLit,
    Unary,
)

__all__ = ["SourcePrinter", "dice_source", "to_source"]


def dice_source(node: Dice, wrap: Callable[[Node], str]) -> str:
    """The notation as written: ``4d6dl1``, ``(n)d6>=5``, ``d(sides)!``."""
    count = "" if node.count is None else f"({wrap(node.count)})"
    if node.sides is None:
        text = count + node.written
    else:  # the options after the sides (of a die of the rules' own: its name)
        sides = wrap(node.sides) if node.die is None else node.die.name
        text = f"{count}d({sides}){node.written}"
    return f"rolls({text})" if node.results else text


@dataclass(slots=True)
class SourcePrinter:
    """The surface printer: each node's text and its precedence (``ATOM``
    binds tightest); ``NULL``, ``string`` and ``sym`` are how it spells null,
    a text and an operator, and ``binary`` an arithmetic or logical operation."""

    COND, COALESCE, OR, AND, NOT, CMP, ADD, MUL, UNARY, ATOM = range(10)
    PREC: ClassVar[dict[str, int]] = {
        "??": COALESCE,
        "or": OR,
        "and": AND,
        "+": ADD,
        "-": ADD,
        "*": MUL,
        "//": MUL,
        "/": MUL,
    }
    NULL: ClassVar[str] = "null"

    emitted: Seen[tuple[str, int]] = slot(default_factory=dict)

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def operand(self, node: Node, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: `a - (-b)`, `-(-x)`."""
        text, own = self.emit(node)
        return f"({text})" if own < prec or own == self.UNARY else text

    @staticmethod
    def bracket_and(node: Node, text: str) -> str:
        is_and = isinstance(node, Binary) and node.op == "and"
        return f"({text})" if is_and else text

    def sym(self, op: str) -> str:
        return op

    def string(self, value: str) -> str:
        return f'"{value}"'

    def emit(self, node: Node) -> tuple[str, int]:
        """The node's text and its precedence, each node's worked out once."""
        return remembered(self.emitted, node, self.text)

    def text(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return str(node.value), self.ATOM
            case BoolLit():
                return ("true" if node.value else "false"), self.ATOM
            case NullLit():
                return self.NULL, self.ATOM
            case StrLit():
                return self.string(node.value), self.ATOM
            case Name():
                return node.name, self.ATOM
            case Unary(op="-"):
                return "-" + self.operand(node.operand, self.UNARY), self.UNARY
            case Unary():
                return "not " + self.wrap(node.operand, self.NOT), self.NOT
            case Binary() if node.op in COMPARE_OPS or node.op in WORD_OPS:
                left = self.wrap(node.left, self.ADD)
                right = self.wrap(node.right, self.ADD)
                return f"{left} {self.sym(node.op)} {right}", self.CMP
            case Binary(op="??"):
                left = self.wrap(node.left, self.COALESCE)
                right = self.wrap(node.right, self.OR)
                return f"{left} ?? {right}", self.COALESCE
            case Binary():
                return self.binary(node)
            case Cond():
                body = self.wrap(node.body, self.COALESCE)
                test = self.wrap(node.test, self.COALESCE)
                orelse = self.wrap(node.orelse, self.COND)
                return f"{body} if {test} else {orelse}", self.COND
            case Dice():
                return dice_source(node, lambda n: self.wrap(n, self.COND)), self.ATOM
            case Construct():
                return self.construct(node), self.ATOM
            case Method():
                obj, given = (
                    self.wrap(node.obj, self.ATOM),
                    self.given(node.args, node.names),
                )
                return f"{obj}.{node.name}({given})", self.ATOM
            case Comp():
                return self.comprehension(node), self.ATOM
            case Call(rule=True):
                args = [self.wrap(arg, self.COND) for arg in node.args]
                return f"{node.func}({', '.join(args)})", self.ATOM
            case Call():  # by name as written (``source``)
                return f"{node.func}({self.given(node.args, node.names)})", self.ATOM
            case Step():
                return self.step(node), self.ADD
            case Attr():
                return f"{self.wrap(node.obj, self.ATOM)}.{node.name}", self.ATOM
            case Index():
                index = self.wrap(node.index, self.COND)
                return f"{self.wrap(node.obj, self.ATOM)}[{index}]", self.ATOM
            case ListLit():
                items = ", ".join(self.wrap(item, self.COND) for item in node.items)
                return f"[{items}]", self.ATOM
        raise AssertionError(node)

    def binary(self, node: Binary) -> tuple[str, int]:
        prec = self.PREC[node.op]
        left = self.wrap(node.left, prec)
        right = self.operand(node.right, prec + 1)
        if node.op == "or":  # `a or (b and c)`: brackets that help readers
            left, right = (
                self.bracket_and(node.left, left),
                self.bracket_and(node.right, right),
            )
        return f"{left} {self.sym(node.op)} {right}", prec

    def construct(self, node: Construct) -> str:
        """``Record(a=1, b=2)``: a record's null fields left out (a state's kept)."""
        fields = ", ".join(
            f"{name}={self.wrap(arg, self.COND)}"
            for name, arg in zip(node.fields, node.args, strict=True)
            if not isinstance(arg, NullLit) or node.state
        )
        return f"{node.record}({fields})"

    def step(self, node: Step) -> str:
        """A step along a ladder, as written: ``level + 2``."""
        value = self.wrap(node.operand, self.ADD)
        steps = node.by
        if isinstance(steps, Unary) and steps.op == "-":
            return f"{value} - {self.operand(steps.operand, self.ADD + 1)}"
        return f"{value} + {self.operand(steps, self.ADD + 1)}"

    def given(self, args: tuple[Node, ...], names: tuple[str, ...]) -> str:
        """Arguments as written: by position, then by name (``b=2``)."""
        texts = [self.wrap(arg, self.COND) for arg in args]
        at = len(texts) - len(names)
        named = [f"{k}={v}" for k, v in zip(names, texts[at:], strict=True)]
        return ", ".join([*texts[:at], *named])

    def comprehension(self, node: Comp) -> str:
        """``[body for x in items if test]``."""
        body, items = self.wrap(node.body, self.COND), self.wrap(node.items, self.OR)
        test = "" if node.test is None else f" if {self.wrap(node.test, self.OR)}"
        return f"[{body} for {node.name} in {items}{test}]"


def to_source(node: Node) -> str:
    """Canonical formula source text: parse(to_source(node)) == node."""
    return SourcePrinter().emit(node)[0]
