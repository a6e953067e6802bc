"""The reference evaluator: a checked formula worked out over Python values, as the runtimes work it out.

The generated code of every target answers what ``evaluate`` answers (the
tests compare them); ``rulesc explain`` shows its steps and the proofs of the
build (a unique decision's cover, a repeat's ending) try its answers. Choices
are their labels, null is None, a list is a Python list, a record a dict of
its fields by name (or a record of the generated runtime, read by its
attributes), a state whatever ``Values`` makes of one.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .nodes import (
    FUNCTIONS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
    DiceRoller,
    EnvValue,
    Index,
    IntLit,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    Rounding,
    RuleCaller,
    Step,
    StrLit,
    Unary,
    Value,
)

__all__ = ["OutOfRange", "Values", "evaluate", "field_value", "items_at"]

_NO_ROWS: Mapping[str, Mapping[str, Mapping[str, object]]] = MappingProxyType({})


# The item each comprehension under way is at (outermost first): a roll of a
# comprehension's body is a roll of its own for each item (``items_at``).
_ITEMS: ContextVar[tuple[int, ...]] = ContextVar("items", default=())


def items_at() -> tuple[int, ...]:
    """Where the evaluation is, in the comprehensions it is inside: the item
    each is at (a dice roller tells one roll of a body from another by it)."""
    return _ITEMS.get()


class OutOfRange(ValueError):
    """What a call the runtime refuses for a value it works out answers here:
    an item of a list at a position outside it, the highest or lowest of an
    empty list, a step past the end of a ladder that refuses it."""


@dataclass(frozen=True, slots=True)
class Values:
    """How ``evaluate`` makes what the expression makes: a record or a state
    (``make``: the node and its arguments' values), and a state after a
    transition (``method``: the node, the state and the arguments' values).
    Without them a record is a dict of its fields, and a state cannot be made."""

    make: Callable[[Construct, list[Any]], Any] | None = None
    method: Callable[[Method, Any, list[Any]], Any] | None = None


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": Fraction,  # exact: only floor, ceil or round's argument (checked)
    "==": operator.eq,
    "is": operator.is_,
    "is not": operator.is_not,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


_ONE_ARG: dict[str, Callable[[Any], Any]] = {
    "abs": abs,
    "floor": math.floor,
    "ceil": math.ceil,
    "round": lambda x: math.floor(x + Fraction(1, 2)),  # half up
    "len": len,
    "sum": sum,
    "any": any,
    "all": all,
    "text": str,  # a choice is its label here
    "reversed": lambda items: list(reversed(items)),
}


def field_value(record: Any, name: str) -> Any:
    """The field the rules call ``name`` of a record (or a state): a dict's
    entry, else the attribute the generated runtime holds it in."""
    if isinstance(record, Mapping):
        return record[name]
    from .py_names import field_of

    attribute = field_of(record, name)
    return getattr(record, attribute if hasattr(record, attribute) else name)


def evaluate(
    node: Node,
    env: Mapping[str, EnvValue],
    *,
    rounding: Rounding,
    tables: Mapping[str, Mapping[str, Mapping[str, object]]] = _NO_ROWS,
    functions: Mapping[str, Callable[..., Any]] = MappingProxyType({}),
    dice: DiceRoller | None = None,
    calls: RuleCaller | None = None,
    values: Values = Values(),
) -> Value | list[Value]:
    """Evaluate a checked formula; choices are their labels, null is None;
    ``dice`` rolls its dice, ``calls`` calls the rules that roll, ``values``
    makes records and states (see ``Values``).

    tables[name][key_label][field] is a row's field value; env[mapping] maps
    each key label to a value (a label for a choice). A null key gives null.
    functions[name] answers a call of another rule. A list is a Python list.
    Raises ``OutOfRange`` where the runtime refuses the call for a value it
    works out.
    """
    found: Value | list[Value] = _Evaluator(
        rounding, tables, functions, dice, calls, values
    ).value(node, env)
    return found


@dataclass(frozen=True, slots=True)
class _Evaluator:
    rounding: Rounding
    tables: Mapping[str, Mapping[str, Mapping[str, object]]]
    functions: Mapping[str, Callable[..., Any]]
    dice: DiceRoller | None
    calls: RuleCaller | None
    values: Values

    def value(self, node: Node, env: Mapping[str, Any]) -> Any:
        def sub(child: Node) -> Any:
            return self.value(child, env)

        match node:
            case IntLit() | StrLit() | BoolLit():
                return node.value
            case NullLit():
                return None
            case Name():
                return env[node.name]
            case Unary():
                return -sub(node.operand) if node.op == "-" else not sub(node.operand)
            case Binary():
                return self.binary(node, sub)
            case Cond():
                return sub(node.body) if sub(node.test) else sub(node.orelse)
            case Call(rule=True):
                return self.rule_call(node, sub)
            case Call() if node.func not in FUNCTIONS:
                key = sub(node.args[0])
                return None if key is None else self.tables[node.func][key]
            case ListLit():
                return [sub(item) for item in node.items]
            case Comp():
                return self.comprehension(node, env)
            case Construct():
                return self.make(node, [sub(arg) for arg in node.args])
            case Method():
                obj, args = sub(node.obj), [sub(arg) for arg in node.args]
                if self.values.method is None:
                    raise ValueError(f"no transitions of {node.record} to call")
                return self.values.method(node, obj, args)
            case Dice():
                if self.dice is None:
                    raise ValueError(f"no dice roller for {node.written or 'd(...)'}")
                count = None if node.count is None else sub(node.count)
                sides = None if node.sides is None else sub(node.sides)
                return self.dice(node, count, sides)
            case Call():
                return self.builtin(node, sub)
            case Attr():
                return self.attr(node, sub)
            case Index():
                return self.index(node, sub)
            case Step():
                return _step(node, sub(node.operand), sub(node.by))
        raise AssertionError(node)

    def binary(self, node: Binary, sub: Callable[[Node], Any]) -> Any:
        """An operator between two operands."""
        match node:
            case Binary(op="and"):
                return bool(sub(node.left)) and bool(sub(node.right))
            case Binary(op="or"):
                return bool(sub(node.left)) or bool(sub(node.right))
            case Binary(op="??"):
                value = sub(node.left)
                return sub(node.right) if value is None else value
            case Binary(op="//"):
                a, b = sub(node.left), sub(node.right)
                return a // b if self.rounding == "down" else -(-a // b)
            case Binary(concat=True):
                return [*sub(node.left), *sub(node.right)]
            case Binary() if node.ladder is not None:  # labels by their rank
                ranks = [x.casefold() for x in node.ladder.labels]
                a, b = (
                    ranks.index(str(sub(n)).casefold()) for n in (node.left, node.right)
                )
                return _OPERATORS[node.op](a, b)
        return _OPERATORS[node.op](sub(node.left), sub(node.right))

    def attr(self, node: Attr, sub: Callable[[Node], Any]) -> Any:
        """A field of a record (None of None) or a part of a dice value."""
        row = sub(node.obj)
        if row is None:
            return None
        if node.part:  # a part of a dice value
            return getattr(row, node.name)
        return field_value(row, node.name)

    def rule_call(self, node: Call, sub: Callable[[Node], Any]) -> Any:
        function = self.functions[node.func]
        args = [sub(arg) for arg in node.args]
        at = len(args) - len(node.keywords)
        named = dict(zip(node.keywords, args[at:], strict=True))
        if not node.rolls:
            return function(*args[:at], **named)
        if self.calls is None:
            raise ValueError(f"no rng for {node.func}(), which rolls dice")
        before, after = args[: node.rng_at], args[node.rng_at : at]
        return self.calls(node, lambda rng: function(*before, rng, *after, **named))

    def builtin(self, node: Call, sub: Callable[[Node], Any]) -> Any:
        """A function of the language (a list's by a field's name: ``sorted(x,
        "f")``, ``max(x, "f")``)."""
        if node.func == "count":
            items, *values = (sub(arg) for arg in node.args)
            return sum(values[0] <= x <= values[-1] for x in items)
        if node.func == "tally":  # a symbol's times over faces of symbols
            faces, symbol = (sub(arg) for arg in node.args)
            return sum(face.count(symbol) for face in faces)
        by = _key(node)
        if node.func == "sorted":
            items = sub(node.args[0])
            return sorted(items) if by is None else sorted(items, key=by)
        if by is not None:  # the record with the highest (lowest) field, the first
            items = sub(node.args[0])
            if not items:
                raise OutOfRange(_EMPTY[node.func])
            return max(items, key=by) if node.func == "max" else min(items, key=by)
        args = [sub(arg) for arg in node.args]
        if node.func == "clamp":
            return min(max(args[0], args[1]), args[2])
        if node.func in _ONE_ARG:
            return _ONE_ARG[node.func](args[0])
        if len(args) == 1:  # min or max of a list
            args = args[0]
            if not args:
                raise OutOfRange(_EMPTY[node.func])
        return min(args) if node.func == "min" else max(args)

    def comprehension(self, node: Comp, env: Mapping[str, Any]) -> list[Any]:
        found = []
        for index, item in enumerate(self.value(node.items, env)):
            inner = {**env, node.name: item}
            token = _ITEMS.set((*_ITEMS.get(), index))
            try:
                if node.test is None or self.value(node.test, inner):
                    found.append(self.value(node.body, inner))
            finally:
                _ITEMS.reset(token)
        return found

    def make(self, node: Construct, args: list[Any]) -> Any:
        if self.values.make is not None:
            return self.values.make(node, args)
        if node.state:
            raise ValueError(f"no state {node.record} to make")
        return dict(zip(node.fields, args, strict=True))

    def index(self, node: Index, sub: Callable[[Node], Any]) -> Any:
        key = sub(node.index)
        if key is None:
            return None
        held = sub(node.obj)
        if node.item and not -len(held) <= key < len(held):
            raise OutOfRange(f"a list of {len(held)} items has no item {key}")
        return held[key]


# What the runtime says where it refuses the highest or lowest of an empty list.
_EMPTY = {
    "max": "the highest of an empty list has no value",
    "min": "the lowest of an empty list has no value",
}


def _key(node: Call) -> Callable[[Any], Any] | None:
    """How ``sorted``, ``max`` or ``min`` of records reads each (its second
    argument, a field's name), or None."""
    if len(node.args) != 2 or node.func not in ("sorted", "max", "min"):
        return None
    name = node.args[1]
    if not isinstance(name, StrLit):  # max(a, b): two whole numbers
        return None
    return lambda record: field_value(record, name.value)


def _step(node: Step, label: Any, by: int) -> Any:
    if label is None:
        return None
    labels = node.ladder.labels
    at = [x.casefold() for x in labels].index(str(label).casefold()) + by
    if 0 <= at < len(labels):
        return labels[at]
    if node.ladder.past_end == "clamp":
        return labels[0] if at < 0 else labels[-1]
    if node.ladder.past_end == "error":
        raise ValueError(f"{label} {by:+d} steps is past the end of {node.ladder.enum}")
    return None
