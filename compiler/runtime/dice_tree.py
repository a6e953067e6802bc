"""Dice tree: the nodes of a dice expression beyond pools and sums (products, calls, groups, tests, labels).

A dice expression (``rulebook.dice_notation`` reads one) is a tree whose
leaves are pools (``rulebook.dice_terms.Pool``) and numbers (an ``int``, or an
exact ``Fraction`` when not whole), joined by sums (``DiceSum``) and by the
nodes here: :class:`Binary` multiplies or divides exactly, :class:`Call`
applies ``floor``, ``ceil``, ``round`` (half up), ``abs``, ``max`` or ``min``,
:class:`Group` rolls expressions together and keeps or counts their totals
(``{1d20, 1d20}kh1``), :class:`Test` is 1 when a comparison of two totals
holds and 0 otherwise (``3d6 >= 10``), :class:`Labeled` shows a label beside
a node and changes nothing (``1d20+5[STR]``). Each shows itself as the
notation writes it, reading back as an equal tree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal, TypeAlias, cast

from . import _dice_spec as spec
from .dice_terms import (
    COMPARISONS,
    KEEPS,
    AnyNode,
    AnyOf,
    Branch,
    Compare,
    Condition,
    DiceSum,
    Keep,
    Op,
    Pool,
    counting_text,
    holds,
    is_node,
    number,
    written,
)
from .errors import RuleInputError

__all__ = [
    "CALLS",
    "Binary",
    "Call",
    "CallName",
    "Group",
    "Labeled",
    "Node",
    "Test",
]

Node: TypeAlias = (
    "Pool | int | Fraction | DiceSum | Binary | Call | Group | Test | Labeled"
)
"""A node of a dice expression."""
CallName: TypeAlias = Literal["floor", "ceil", "round", "abs", "max", "min"]
CALLS: dict[CallName, tuple[int, int | None]] = {
    "floor": (1, 1),
    "ceil": (1, 1),
    "round": (1, 1),
    "abs": (1, 1),
    "max": (2, None),
    "min": (2, None),
}
"""Each function's least and most arguments (None: no most)."""


def _node(what: str, value: object) -> Node:
    if not is_node(value):
        raise RuleInputError(f"{what} is a node of a dice expression, not {value!r}")
    return cast("Node", number(value) if isinstance(value, Fraction) else value)


def _expr(node: Node) -> str:
    """A node written where a whole expression may stand (an argument, an item)."""
    return str(node) if isinstance(node, DiceSum) else written(node, 0)


def _side(node: Node) -> str:
    """A side of a comparison of totals: a sum, or anything tighter."""
    return str(node) if isinstance(node, DiceSum) else written(node, 1)


class Binary(Branch):
    """``left * right`` or ``left / right`` (exact: a fraction when not whole)."""

    __slots__ = ("left", "op", "right")
    FIELDS: ClassVar[tuple[str, ...]] = ("op", "left", "right")
    PRECEDENCE: ClassVar[int] = 2

    op: Literal["*", "/"]
    left: Node
    right: Node

    def __init__(self, op: Literal["*", "/"], left: AnyNode, right: AnyNode) -> None:
        if op not in ("*", "/"):
            raise RuleInputError(f"a Binary's op is '*' or '/', not {op!r}")
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "left", _node("a Binary's left", left))
        object.__setattr__(self, "right", _node("a Binary's right", right))

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return (self.left, self.right)

    def __str__(self) -> str:
        return f"{written(self.left, 2)}{self.op}{written(self.right, 3)}"


class Call(Branch):
    """A function of its arguments' totals: ``floor(2d6/2)``, ``max(1d6, 1d8)``."""

    __slots__ = ("args", "name")
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "args")
    PRECEDENCE: ClassVar[int] = 3

    name: CallName
    args: tuple[Node, ...]

    def __init__(self, name: CallName, args: tuple[AnyNode, ...]) -> None:
        if name not in CALLS:
            raise RuleInputError(
                f"a Call's name is one of {tuple(CALLS)}, not {name!r}"
            )
        found = tuple(_node(f"an argument of {name}", a) for a in args)
        least, most = CALLS[name]
        if len(found) < least or (most is not None and len(found) > most):
            many = f"{least}" if most == least else f"{least} or more"
            raise RuleInputError(f"{name} takes {many} arguments, not {len(found)}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", found)

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return self.args

    def __str__(self) -> str:
        return f"{self.name}({','.join(map(_expr, self.args))})"


class Group(Branch):
    """Expressions rolled together: with no option, the sum of their totals;
    ``keep``/``keep_count`` keep or drop item totals (ties: the first written
    ranks first); ``target`` counts the items whose total meets it, less those
    meeting ``failure``."""

    __slots__ = ("failure", "items", "keep", "keep_count", "target")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "items",
        "keep",
        "keep_count",
        "target",
        "failure",
    )
    PRECEDENCE: ClassVar[int] = 3

    items: tuple[Node, ...]
    keep: Keep | None
    keep_count: int
    target: Condition | None
    failure: Condition | None

    def __init__(
        self,
        items: tuple[AnyNode, ...],
        *,
        keep: Keep | None = None,
        keep_count: int = 0,
        target: Condition | None = None,
        failure: Condition | None = None,
    ) -> None:
        found = tuple(_node("a group's item", i) for i in items)
        _set = object.__setattr__
        _set(self, "items", found)
        _set(self, "keep", keep)
        _set(self, "keep_count", keep_count)
        _set(self, "target", target)
        _set(self, "failure", failure)
        problem = self.problem()
        if problem is not None:
            raise RuleInputError(f"{self}: {problem}")

    def problem(self) -> str | None:
        """Why the group cannot be rolled, or None."""
        if not self.items:
            return "a group has one item or more"
        if self.keep is not None and self.keep not in KEEPS:
            return f"keep is one of {KEEPS}"
        if type(self.keep_count) is not int or (self.keep is None) != (
            self.keep_count == 0
        ):
            return "keep and keep_count go together (keep_count 1 or more)"
        if self.keep_count < 0:
            return "keep_count must be 0 or more"
        if self.keep is not None and len(self.items) == 1:
            return spec.CHECKS["group_keep_one"]
        for name in ("target", "failure"):
            if not isinstance(getattr(self, name), Compare | AnyOf | None):
                return f"{name} must be a Compare or an AnyOf"
        if self.failure is not None and self.target is None:
            return spec.CHECKS["failure_needs_target"]
        return None

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return self.items

    def __str__(self) -> str:
        items = ",".join(map(_expr, self.items))
        options = counting_text(self.keep, self.keep_count, self.target, self.failure)
        return "{" + items + "}" + options


class Test(Branch):
    """1 when ``left op right`` holds of the two totals, else 0 (``3d6 >= 10``)."""

    __slots__ = ("left", "op", "right")
    FIELDS: ClassVar[tuple[str, ...]] = ("op", "left", "right")
    PRECEDENCE: ClassVar[int] = 0

    op: Op
    left: Node
    right: Node

    def __init__(self, op: Op, left: AnyNode, right: AnyNode) -> None:
        if op not in COMPARISONS:
            raise RuleInputError(f"a comparison is one of {COMPARISONS}, not {op!r}")
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "left", _node("a Test's left", left))
        object.__setattr__(self, "right", _node("a Test's right", right))

    def holds(self, left: Fraction | int, right: Fraction | int) -> bool:
        """Whether the comparison holds of these totals."""
        return holds(self.op, left, right)

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return (self.left, self.right)

    def __str__(self) -> str:
        return f"{_side(self.left)} {self.op} {_side(self.right)}"


class Labeled(Branch):
    """A node shown with a label (``1d20+5[STR]``): its value is the node's."""

    __slots__ = ("label", "node")
    FIELDS: ClassVar[tuple[str, ...]] = ("node", "label")
    PRECEDENCE: ClassVar[int] = 3

    node: Node
    label: str

    def __init__(self, node: AnyNode, label: str) -> None:
        if type(label) is not str or "]" in label or "\n" in label or "\r" in label:
            raise RuleInputError(
                f"a label is a str with no ']' and no line break, not {label!r}"
            )
        object.__setattr__(self, "node", _node("a Labeled's node", node))
        object.__setattr__(self, "label", label)

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return (self.node,)

    def __str__(self) -> str:
        node = self.node
        shown = f"({node})" if isinstance(node, Labeled) else written(node, 3)
        return f"{shown}[{self.label}]"
