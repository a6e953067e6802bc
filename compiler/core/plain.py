"""Plain core: the few forms every target prints, and the one lowering of a checked expression into them.

A checked expression (``lang.nodes``) is written in the rules' own surface:
``a ?? b``, a label compared along its ladder, a step along a ladder, a lookup
whose key may be null, ``[x] + items``, dice in notation. ``lower`` turns each
of those into plain forms once, so that a target's printer (``emit.printer``)
prints conditionals, calls, operators, literals and reads, never the surface:

- ``Lit`` (a number, flag, text or null), ``Label`` (a label of a set), ``Var``
  (a parameter, local or a comprehension's item), ``Temp`` (a value ``Let``
  binds once; ``hint`` says what it holds: ``default``, ``key``, ``count``);
- ``Op`` (``+ - * and or == != < <= > >=``), ``Neg``, ``Not``, ``If``;
- ``Helper``: a call of one of the runtime's named helpers (``HELPERS``),
  ``RuleCall`` (another rule), ``Row`` (a table's row by its key), ``Field``,
  ``Index``, ``Reader`` (the function reading a record's field);
- ``List`` (items, each spread or not), ``Record``, ``New``, ``Change``,
  ``Each`` (a comprehension), ``Roll`` (dice: a pool and what it reads).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from ..lang.dice import pool_of
from ..lang.lists import (
    concat_parts,
    keyed,
)
from ..lang.nodes import (
    FUNCTIONS,
    ROUNDING_FUNCTIONS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
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
)
from ..lang.nodes import Index as IndexNode
from ..runtime.dice_terms import Pool

# The runtime's helpers a plain expression calls, and what each answers.
HELPERS = {
    "abs": "the absolute value",
    "max": "the highest of two or more numbers",
    "min": "the lowest of two or more numbers",
    "clamp": "a number within a low and a high",
    "highest": "the highest of a list",
    "lowest": "the lowest of a list",
    "most": "the highest of a list that may be empty (refused), or by a reader",
    "least": "the lowest of a list that may be empty (refused), or by a reader",
    "max_by": "the highest of a list of records by a reader",
    "min_by": "the lowest of a list of records by a reader",
    "len": "a list's length",
    "sum": "a list's total",
    "any": "whether any of a list is true",
    "all": "whether all of a list is true",
    "text": "a value as text",
    "sorted": "a list of numbers, lowest first",
    "sorted_by": "a list of records by a reader",
    "reversed": "a list, last first",
    "count": "how many of a list equal a value",
    "count_within": "how many of a list lie within a low and a high",
    "tally": "how many times a symbol shows on faces",
    "roll": "a roll of a dice value",
    "step": "the label steps along a ladder (its enum), past its end as said",
    "rank": "a label's place along a ladder (its enum)",
    "equal": "two records or states, field by field",
    "in": "whether a value is an item of a list",
    "item": "a list's item by its position, refused outside it",
    "at": "a list's item by a position within it",
    "floor_div": "a division rounded down",
    "ceil_div": "a division rounded up",
    "round_div": "a division rounded half up (a half up: floor(a / b + 1/2))",
}


@dataclass(frozen=True, slots=True)
class Lit:
    value: int | bool | str | None


@dataclass(frozen=True, slots=True)
class Label:
    """A label of a set: ``enum`` its set, or ``param`` the choice it is of."""

    value: str
    enum: str | None = None
    param: str | None = None


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Temp:
    hint: str


@dataclass(frozen=True, slots=True)
class Let:
    """``body`` reading ``value`` (computed once) as ``Temp(hint)``."""

    hint: str
    value: Plain
    body: Plain


@dataclass(frozen=True, slots=True)
class Op:
    op: str
    left: Plain
    right: Plain


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Plain


@dataclass(frozen=True, slots=True)
class Not:
    operand: Plain


@dataclass(frozen=True, slots=True)
class If:
    test: Plain
    then: Plain
    orelse: Plain


@dataclass(frozen=True, slots=True)
class Helper:
    """A call of the runtime's helper ``name`` (``HELPERS``); ``enum`` the set
    it reads (a ladder's)."""

    name: str
    args: tuple[Plain, ...]
    enum: str | None = None


@dataclass(frozen=True, slots=True)
class Reader:
    """The function that reads a record's field ``name``."""

    name: str


@dataclass(frozen=True, slots=True)
class RuleCall:
    """A call of another rule: its arguments, the last ``keywords`` by name;
    where it ``rolls``, the caller's rng after ``rng_at`` of them."""

    func: str
    args: tuple[Plain, ...]
    keywords: tuple[str, ...] = ()
    rolls: bool = False
    rng_at: int = 0


@dataclass(frozen=True, slots=True)
class Row:
    table: str
    key: Plain


@dataclass(frozen=True, slots=True)
class Field:
    """``obj.name``: ``of`` says of what: a record's, a state's, dice's part."""

    obj: Plain
    name: str
    of: str = "record"


@dataclass(frozen=True, slots=True)
class Index:
    obj: Plain
    index: Plain


@dataclass(frozen=True, slots=True)
class List:
    items: tuple[Plain, ...]
    spread: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Record:
    """A new record: a value for each field (``held``: those holding lists)."""

    record: str
    fields: tuple[str, ...]
    args: tuple[Plain, ...]
    held: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class New:
    """A new state of class ``record`` from its constructor's arguments."""

    record: str
    params: tuple[str, ...]
    args: tuple[Plain, ...]


@dataclass(frozen=True, slots=True)
class Change:
    """The state ``obj`` after its transition ``name`` (arguments by
    ``params``, the ``keywords`` of them given by name)."""

    obj: Plain
    name: str
    params: tuple[str, ...]
    args: tuple[Plain, ...]
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Each:
    """``[body for name in items if test]``."""

    name: str
    items: Plain
    body: Plain
    test: Plain | None


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll of ``pool`` (its count and sides given by expressions where
    they are not None) with the caller's rng: its total, or (``results``) the
    list of the dice it keeps."""

    pool: Pool
    results: bool
    count: Plain | None
    sides: Plain | None


Plain: TypeAlias = (
    Lit
    | Label
    | Var
    | Temp
    | Let
    | Op
    | Neg
    | Not
    | If
    | Helper
    | Reader
    | RuleCall
    | Row
    | Field
    | Index
    | List
    | Record
    | New
    | Change
    | Each
    | Roll
)
NULL = Lit(None)


def lower(node: Node, rounding: Rounding) -> Plain:
    """The checked expression ``node`` in plain forms (each part lowered once)."""
    return _Lowering(rounding).lower(node)


def guarded(hint: str, value: Plain, body: Plain) -> Let:
    """``body`` (reading ``value`` as ``Temp(hint)``), or null where the value is."""
    return Let(hint, value, If(Op("!=", Temp(hint), NULL), body, NULL))


@dataclass(slots=True)
class _Lowering:
    rounding: Rounding
    seen: dict[int, tuple[Node, Plain]]

    def __init__(self, rounding: Rounding) -> None:
        self.rounding = rounding
        self.seen = {}

    def lower(self, node: Node) -> Plain:
        found = self.seen.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        plain = _LOWER[type(node)](self, node)
        self.seen[id(node)] = (node, plain)
        return plain

    def all(self, nodes: tuple[Node, ...]) -> tuple[Plain, ...]:
        return tuple(self.lower(n) for n in nodes)

    def string(self, node: StrLit) -> Plain:
        if node.text and not node.is_label:
            return Lit(node.value)
        # a label (of no known set where the tree was not checked)
        return Label(node.value, node.enum, node.param)

    def unary(self, node: Unary) -> Plain:
        operand = self.lower(node.operand)
        return Neg(operand) if node.op == "-" else Not(operand)

    def binary(self, node: Binary) -> Plain:
        left, right = self.lower(node.left), self.lower(node.right)
        if node.op == "??":
            test = Op("!=", Temp("default"), NULL)
            return Let("default", left, If(test, Temp("default"), right))
        if node.concat:
            parts = concat_parts(node)
            items = tuple(self.lower(part) for _, part in parts)
            return List(items, tuple(spread for spread, _ in parts))
        if node.op in ("in", "not in"):
            found = Helper("in", (left, right))
            return found if node.op == "in" else Not(found)
        if node.op == "//":
            helper = "floor_div" if self.rounding == "down" else "ceil_div"
            return Helper(helper, (left, right))
        op = {"is": "==", "is not": "!="}.get(node.op, node.op)
        if node.deep:
            equal = Helper("equal", (left, right))
            return equal if op == "==" else Not(equal)
        if node.ladder is not None:
            enum = node.ladder.enum
            left = Helper("rank", (left,), enum)
            right = Helper("rank", (right,), enum)
        if isinstance(node.left, NullLit) and op in _COMPARED:
            left, right = right, left  # `null == x` reads better as `x == null`
        return Op(op, left, right)

    def cond(self, node: Cond) -> Plain:
        test, then = self.lower(node.test), self.lower(node.body)
        return If(test, then, self.lower(node.orelse))

    def call(self, node: Call) -> Plain:
        if node.func in ROUNDING_FUNCTIONS and not node.rule:
            return self.rounded(node.func, node.args[0])
        args = self.all(node.args)
        if node.rule:
            return RuleCall(node.func, args, node.keywords, node.rolls, node.rng_at)
        field = keyed(node)
        if field is not None:
            name = {"sorted": "sorted_by", "max": "max_by", "min": "min_by"}[node.func]
            if node.checks:
                name = "most" if node.func == "max" else "least"
            return Helper(name, (args[0], Reader(field)))
        return self.builtin(node, args)

    def rounded(self, func: str, arg: Node) -> Plain:
        """floor, ceil or round of an exact quotient (a division rounded down,
        up or half up), or of a whole number (the number)."""
        if not (isinstance(arg, Binary) and arg.op == "/"):
            return self.lower(arg)
        helper = {"floor": "floor_div", "ceil": "ceil_div", "round": "round_div"}
        return Helper(helper[func], (self.lower(arg.left), self.lower(arg.right)))

    def builtin(self, node: Call, args: tuple[Plain, ...]) -> Plain:
        func = node.func
        if func in ("max", "min") and len(args) == 1:
            if node.checks:
                return Helper("most" if func == "max" else "least", args)
            return Helper("highest" if func == "max" else "lowest", args)
        if func == "count" and len(args) == 3:
            return Helper("count_within", args)
        if func in FUNCTIONS:
            return Helper(func, args)
        (key,) = args
        return Row(func, key)  # a table's row

    def attr(self, node: Attr) -> Plain:
        lookup = node.obj
        if isinstance(lookup, Call) and lookup.nullable_key:
            row = Row(lookup.func, Temp("key"))
            return guarded("key", self.lower(lookup.args[0]), Field(row, node.name))
        of = "state" if node.state else "part" if node.part else "record"
        return Field(self.lower(node.obj), node.name, of)

    def index(self, node: IndexNode) -> Plain:
        held, place = self.lower(node.obj), self.lower(node.index)
        if node.item:
            return Helper("at" if node.safe else "item", (held, place))
        if node.nullable_key:
            return guarded("key", place, Index(held, Temp("key")))
        return Index(held, place)

    def step(self, node: Step) -> Plain:
        args = (self.lower(node.operand), self.lower(node.by))
        return Helper("step", (*args, Lit(node.ladder.past_end)), node.ladder.enum)

    def construct(self, node: Construct) -> Plain:
        args = self.all(node.args)
        if node.state:
            return New(node.record, node.fields, args)
        held = node.held or (False,) * len(args)
        return Record(node.record, node.fields, args, held)

    def method(self, node: Method) -> Plain:
        keywords = tuple(node.keywords)
        args = self.all(node.args)
        return Change(self.lower(node.obj), node.name, node.params, args, keywords)

    def comp(self, node: Comp) -> Plain:
        test = None if node.test is None else self.lower(node.test)
        return Each(node.name, self.lower(node.items), self.lower(node.body), test)

    def dice(self, node: Dice) -> Plain:
        pool = pool_of(node)
        sides = None if node.sides is None else self.lower(node.sides)
        if node.count is None:
            return Roll(pool, node.results, None, sides)
        empty: Plain = List((), ()) if node.results else Lit(0)
        rolled = Roll(pool, node.results, Temp("count"), sides)
        test = Op("==", Temp("count"), Lit(0))
        return Let("count", self.lower(node.count), If(test, empty, rolled))


_COMPARED = frozenset({"==", "!=", "<", "<=", ">", ">="})


def _leaf(make: Callable[[Any], Plain]) -> Callable[[_Lowering, Any], Plain]:
    return lambda _, node: make(node)


_LOWER: dict[type, Callable[[_Lowering, Any], Plain]] = {
    IntLit: _leaf(lambda n: Lit(n.value)),
    BoolLit: _leaf(lambda n: Lit(n.value)),
    NullLit: _leaf(lambda n: NULL),
    Name: _leaf(lambda n: Var(n.name)),
    StrLit: _Lowering.string,
    Unary: _Lowering.unary,
    Binary: _Lowering.binary,
    Cond: _Lowering.cond,
    Call: _Lowering.call,
    Attr: _Lowering.attr,
    IndexNode: _Lowering.index,
    Step: _Lowering.step,
    Construct: _Lowering.construct,
    Method: _Lowering.method,
    Comp: _Lowering.comp,
    Dice: _Lowering.dice,
    ListLit: lambda self, n: List(self.all(n.items), (False,) * len(n.items)),
}
