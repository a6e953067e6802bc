"""Formula steps: a checked formula evaluated one operation at a time.

Each step is one operation (``5 * climb_bonus``, ``max([2], 5)``, a table
lookup), written as math with earlier steps as ``[n]``, then with the values put
in, then its value. Every value comes from the reference evaluator
(``expr.evaluate`` on the sub-expression); this module only decides the order,
and which parts are evaluated at all (``a if c else b``, ``and``, ``or`` and
``??`` evaluate as the generated code does). Floors and caps (``max``, ``min``,
``clamp``) and rounded divisions say when they changed a value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..front.model import Loc
from ..lang import expr
from ..lang.evaluate import Values
from ..lang.expr import (
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
    StrLit,
    Unary,
)
from .dice_replay import Replay
from .math import to_math

_LEAVES = (IntLit, StrLit, BoolLit, NullLit, Name)
RECORDS = Values()  # records made as dicts of their fields; no state made
Tables = Mapping[str, Mapping[str, Mapping[str, object]]]


@dataclass(frozen=True)
class Step:
    number: int
    text: str  # the operation, earlier steps as [n]
    shown: str  # the operation with the values put in
    value: Any
    note: str | None = None
    limit: str | None = None  # "floor" or "cap", when a limit changed the value


class Stepper:
    """Evaluate a checked formula step by step."""

    def __init__(
        self,
        env: Mapping[str, Any],
        *,
        rounding: expr.Rounding,
        tables: Tables | None = None,
        rows: Mapping[tuple[str, str], Loc] | None = None,
        functions: Mapping[str, Callable[..., Any]] | None = None,
        dice: Replay | None = None,
        values: Values = RECORDS,
    ) -> None:
        self.env = env
        self.dice = dice
        self.values = values
        self.functions = functions or {}
        self.rounding = rounding
        self.tables: Tables = tables or {}
        self.rows = rows or {}  # (table, key label) -> where the row is written
        self.steps: list[Step] = []
        self.limits: list[str] = []  # every floor or cap met, applied or not

    def value(self, node: Node) -> Any:
        return expr.evaluate(
            node,
            self.env,
            rounding=self.rounding,
            tables=self.tables,
            functions=self.functions,
            dice=self.dice,
            calls=None if self.dice is None else self.dice.call,
            values=self.values,
        )

    def run(self, node: Node) -> Any:
        """The formula's value; ``steps`` then holds how it was reached."""
        self.visit(node)
        return self.value(node)

    def math(self, node: Node) -> str:
        """The node as the docs show it (their math text)."""
        return to_math(node, rounding=self.rounding)

    # Each child becomes a reference: itself (a literal or a name), the [n] of
    # the step that computed it, or (not evaluated) its own math.

    def visit(self, node: Node) -> Node:
        """Record the steps of ``node``; the node that stands for its value."""
        if isinstance(node, _LEAVES):
            return node
        ref: Node
        match node:
            case Attr(obj=Call() as call) if (
                call.func not in expr.FUNCTIONS and not call.rule
            ):
                key = self.visit(call.args[0])
                ref = replace(node, obj=replace(call, args=(key,)))
                return self.lookup(node, ref, call.func, call.args[0])
            case Index(item=True):  # an item of a list: the list, its position
                ref = replace(
                    node, obj=self.visit(node.obj), index=self.visit(node.index)
                )
                return self.step(node, ref)
            case Index():
                key = self.visit(node.index)
                return self.lookup(node, replace(node, index=key), None, node.index)
            case expr.Construct():
                ref = replace(node, args=tuple(self.visit(a) for a in node.args))
                return self.step(node, ref)
            case expr.Method():
                args = tuple(self.visit(a) for a in node.args)
                return self.step(
                    node, replace(node, obj=self.visit(node.obj), args=args)
                )
            case expr.Comp():  # one step: its items, then each item's value
                items = self.visit(node.items)
                return self.step(node, replace(node, items=items))
            case Binary(op="and" | "or" | "??"):
                left = self.visit(node.left)
                left_value = self.value(node.left)
                stops = (
                    (node.op == "and" and not left_value)
                    or (node.op == "or" and bool(left_value))
                    or (node.op == "??" and left_value is not None)
                )
                right = node.right if stops else self.visit(node.right)
                ref = replace(node, left=left, right=right)
                note = None
                if node.op == "??":
                    note = "has a value" if stops else "no value, so the default"
                elif stops:
                    note = f"the right side is not needed ({node.op})"
                return self.step(node, ref, {node.left: left_value}, note)
            case Cond():
                test = self.visit(node.test)
                taken = bool(self.value(node.test))
                branch = node.body if taken else node.orelse
                visited = self.visit(branch)
                ref = replace(
                    node,
                    test=test,
                    body=visited if taken else node.body,
                    orelse=node.orelse if taken else visited,
                )
                note = "the condition is " + ("true" if taken else "false")
                known = {node.test: taken, branch: self.value(branch)}
                return self.step(node, ref, known, note, skip_unknown=True)
            case Unary():
                return self.step(node, replace(node, operand=self.visit(node.operand)))
            case Binary():
                ref = replace(
                    node, left=self.visit(node.left), right=self.visit(node.right)
                )
                return self.step(node, ref, note=self.division(node))
            case expr.Step():  # along an ordered key
                by = node.by if _constant(node.by) else self.visit(node.by)
                ref = replace(node, operand=self.visit(node.operand), by=by)
                past = self.value(node) is None and self.value(node.operand) is not None
                note = f"past the end of {node.ladder.enum}: no value" if past else None
                return self.step(node, ref, note=note)
            case Call(rule=True):
                ref = replace(node, args=tuple(self.visit(a) for a in node.args))
                note = f"rule {node.func}"
                if node.rolls and self.dice is not None:
                    self.value(node)  # its dice, rolled once
                    note += f", {self.dice.note(node)}"
                return self.step(node, ref, note=note)
            case Call(func="floor" | "ceil" | "round", args=(Binary(op="/") as q,)):
                quotient = replace(
                    q, left=self.visit(q.left), right=self.visit(q.right)
                )
                ref = replace(node, args=(quotient,))
                return self.step(node, ref, note=self.rounded(node.func, q))
            case Call():
                ref = replace(node, args=tuple(self.visit(a) for a in node.args))
                note, limit = self.limit(node)
                return self.step(node, ref, note=note, limit=limit)
            case Attr():  # a part of a dice value
                return self.step(node, replace(node, obj=self.visit(node.obj)))
            case expr.Dice():  # its count and sides first, then the roll
                count = None if node.count is None else self.visit(node.count)
                sides = None if node.sides is None else self.visit(node.sides)
                self.value(node)
                note = self.dice.note(node) if self.dice is not None else None
                return self.step(
                    node, replace(node, count=count, sides=sides), note=note
                )
            case ListLit():  # not a step: its elements are, and it shows them
                return replace(node, items=tuple(self.visit(i) for i in node.items))
        raise AssertionError(node)

    def step(
        self,
        node: Node,
        ref: Node,
        known: Mapping[Node, Any] | None = None,
        note: str | None = None,
        *,
        limit: str | None = None,
        skip_unknown: bool = False,
    ) -> Node:
        number = len(self.steps) + 1
        value = self.value(node)
        shown = self.math(self.filled(node, ref, skip_unknown, known or {}))
        self.steps.append(Step(number, self.math(ref), shown, value, note, limit))
        return Name(f"[{number}]", node.start, node.end)

    def filled(
        self, node: Node, ref: Node, skip_unknown: bool, known: Mapping[Node, Any]
    ) -> Node:
        """``ref`` with the value of every evaluated child put in."""

        def put(original: Node, child: Node) -> Node:
            if isinstance(child, IntLit | StrLit | BoolLit | NullLit):
                return child
            if child is original and not isinstance(child, Name):
                return Name("…", 0, 0)  # not evaluated
            if skip_unknown and original not in known:
                return child
            return literal(self.value(original))

        match node, ref:
            case Unary(), Unary():
                return replace(ref, operand=put(node.operand, ref.operand))
            case Binary(), Binary():
                return replace(
                    ref,
                    left=put(node.left, ref.left),
                    right=put(node.right, ref.right),
                )
            case Cond(), Cond():
                return replace(
                    ref,
                    test=put(node.test, ref.test),
                    body=put(node.body, ref.body),
                    orelse=put(node.orelse, ref.orelse),
                )
            case expr.Step(), expr.Step():
                by = ref.by if _constant(ref.by) else put(node.by, ref.by)
                return replace(ref, operand=put(node.operand, ref.operand), by=by)
            case Call(), Call():
                return replace(
                    ref,
                    args=tuple(
                        put(a, b) for a, b in zip(node.args, ref.args, strict=True)
                    ),
                )
        return ref

    def lookup(self, node: Node, ref: Node, table: str | None, key_node: Node) -> Node:
        key = self.value(key_node)
        note = None
        if table is not None and key is not None and (table, key) in self.rows:
            loc = self.rows[(table, key)]
            note = f"row {key} at {loc.file}:{loc.line}"
        elif key is None:
            note = "no key, so no value"
        filled = self.filled_lookup(ref, key)
        number = len(self.steps) + 1
        self.steps.append(
            Step(number, self.math(ref), self.math(filled), self.value(node), note)
        )
        return Name(f"[{number}]", node.start, node.end)

    def filled_lookup(self, ref: Node, key: Any) -> Node:
        if isinstance(ref, Attr) and isinstance(ref.obj, Call):
            return replace(ref, obj=replace(ref.obj, args=(literal(key),)))
        if isinstance(ref, Index):
            return replace(ref, index=literal(key))
        return ref

    def division(self, node: Binary) -> str | None:
        if node.op != "//":
            return None
        a, b = self.value(node.left), self.value(node.right)
        if not isinstance(a, int) or not isinstance(b, int) or b == 0 or a % b == 0:
            return None
        exact = Fraction(a, b)
        way = "down" if self.rounding == "down" else "up"
        return f"{_decimal(exact)} rounded {way}"

    def rounded(self, func: str, quotient: Binary) -> str | None:
        """What floor, ceil or round did to a quotient that is not whole."""
        exact = self.value(quotient)
        if exact.denominator == 1:
            return None
        way = {"floor": "down", "ceil": "up", "round": "half up"}[func]
        return f"{_decimal(exact)} rounded {way}"

    def limit(self, node: Call) -> tuple[str | None, str | None]:
        """Whether a floor or cap changed the value (and remember every one met)."""
        if node.func not in expr.FUNCTIONS or node.func in ("sorted", "count"):
            return None, None
        values = [self.value(a) for a in node.args]
        if node.func == "clamp":
            x, lo, hi = values
            what = f"floor {lo} and cap {hi}"
            if x < lo:
                self.limits.append(f"{what}: the floor applied, {x} raised to {lo}")
                return f"floor {lo} applied: {x} raised to {lo}", "floor"
            if x > hi:
                self.limits.append(f"{what}: the cap applied, {x} lowered to {hi}")
                return f"cap {hi} applied: {x} lowered to {hi}", "cap"
            self.limits.append(f"{what}: not needed, {x} is within them")
            return None, None
        fixed = [v for a, v in zip(node.args, values, strict=True) if _constant(a)]
        moving = [v for a, v in zip(node.args, values, strict=True) if not _constant(a)]
        if not fixed or not moving:
            return None, None
        if node.func == "max":
            bound, natural = max(fixed), max(moving)
            if natural < bound:
                self.limits.append(
                    f"floor {bound}: applied, {natural} raised to {bound}"
                )
                return f"floor {bound} applied: {natural} raised to {bound}", "floor"
            self.limits.append(f"floor {bound}: not needed, {natural} is not below it")
            return None, None
        bound, natural = min(fixed), min(moving)
        if natural > bound:
            self.limits.append(f"cap {bound}: applied, {natural} lowered to {bound}")
            return f"cap {bound} applied: {natural} lowered to {bound}", "cap"
        self.limits.append(f"cap {bound}: not needed, {natural} is not above it")
        return None, None


def _constant(node: Node) -> bool:
    return isinstance(node, IntLit) or (
        isinstance(node, Unary) and node.op == "-" and isinstance(node.operand, IntLit)
    )


def _decimal(value: Fraction) -> str:
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return text


def literal(value: Any) -> Node:
    """A node that shows ``value`` (negative numbers bracket as operands do)."""
    if value is None:
        return NullLit(0, 0)
    if isinstance(value, bool):
        return BoolLit(value, 0, 0)
    if isinstance(value, int):
        if value < 0:
            return Unary("-", IntLit(-value, 0, 0), 0, 0)
        return IntLit(value, 0, 0)
    if isinstance(value, str):
        return StrLit(value, 0, 0)
    if isinstance(value, list):
        return ListLit(tuple(literal(item) for item in value), 0, 0)
    return Name(str(value), 0, 0)


def shown(value: Any) -> str:
    """A formula value as the math text writes it (a list's items, a record
    by its fields: ``(round 1, damage 3)``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):  # a record, as the reference evaluator makes it
        return "(" + ", ".join(f"{k} {shown(v)}" for k, v in value.items()) + ")"
    if hasattr(type(value), "_fields") and hasattr(value, "to_dict"):  # a state
        return shown(dict(value.to_dict()))
    fields = getattr(type(value), "FIELDS", None)
    if fields is not None and type(value).__name__ != "Dice":  # the runtime's
        keys = getattr(type(value), "_KEYS", None) or fields
        pairs = zip(keys, fields, strict=True)
        return (
            "(" + ", ".join(f"{k} {shown(getattr(value, f))}" for k, f in pairs) + ")"
        )
    return str(value)


def lines(steps: list[Step], indent: str = "  ") -> list[str]:
    """The steps as aligned lines: ``[n] operation = with values = value  note``."""
    if not steps:
        return []
    width = min(max(len(s.text) for s in steps), 44)
    filled = min(max(len(s.shown) for s in steps), 32)
    out = []
    for s in steps:
        number = f"[{s.number}]".ljust(len(f"[{len(steps)}]"))
        note = f"   ({s.note})" if s.note else ""
        value = shown(s.value)
        middle = f" → {s.shown.ljust(filled)}" if s.shown not in (s.text, value) else ""
        if middle == "" and filled:
            middle = " " * (filled + 3)
        if len(s.text) > width:
            out.append(f"{indent}{number} {s.text}")
            out.append(
                f"{indent}{' ' * len(number)} {' ' * width}{middle} → {value}{note}"
            )
        else:
            out.append(
                f"{indent}{number} {s.text.ljust(width)}{middle} → {value}{note}"
            )
    return [line.rstrip() for line in out]
