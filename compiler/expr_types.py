"""Data of the formula language: AST nodes, value types, integer ranges, and
the reference evaluator.

Package-private helper of compiler.expr, which re-exports the public names.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

Rounding: TypeAlias = Literal["down", "up"]
COMPARE_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
# Comparisons written with words: membership in a list, and tests for null.
WORD_OPS = frozenset({"in", "not in", "is", "is not"})
# The comparisons with null, and whether each is true when the value is null.
NULL_TESTS = {"==": True, "is": True, "!=": False, "is not": False}
# Built-in functions and their arity (least, most); min and max also take one list.
FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "min": (2, None),
    "max": (2, None),
    "clamp": (3, 3),
    "abs": (1, 1),
    "len": (1, 1),
    "sum": (1, 1),
    "any": (1, 1),
    "all": (1, 1),
    "text": (1, 1),
    "sorted": (1, 1),  # a list of ints, lowest first (expr_dice)
    "count": (2, 3),  # how many of a list's ints equal one, or lie within two
    "tally": (2, 2),  # how many times a symbol shows on faces of dice (expr_dice)
    "roll": (1, 1),  # a roll of a dice value (with the caller's rng)
}
# The functions that take one list: what its elements must be, what they give.
LIST_FUNCTIONS: dict[str, tuple[str | None, str]] = {
    "len": (None, "int"),
    "sum": ("int", "int"),
    "any": ("bool", "bool"),
    "all": ("bool", "bool"),
}
_NO_ROWS: Mapping[str, Mapping[str, Mapping[str, object]]] = MappingProxyType({})
ValueType: TypeAlias = Literal["int", "bool", "text", "choice", "dice"]
# What a list may hold (one type, never null): "symbols" are the faces of a
# die of the rules' own that shows symbols (each face a tuple of them).
ItemType: TypeAlias = Literal["int", "bool", "text", "choice", "symbols"]
# The integer parts of a dice value an expression may read: `damage.min`.
DICE_PARTS = ("min", "max", "count", "sides", "modifier", "multiplier")
Value: TypeAlias = int | bool | str | None
# A parameter's value for evaluate(): a mapping parameter's is keyed by label.
EnvValue: TypeAlias = Value | Mapping[str, Value]


@dataclass(frozen=True, slots=True)
class Interval:
    """An integer range; None means unbounded on that side."""

    lo: int | None
    hi: int | None

    @property
    def bounded(self) -> bool:
        return self.lo is not None and self.hi is not None

    def contains(self, value: int) -> bool:
        above = self.lo is None or self.lo <= value
        return above and (self.hi is None or value <= self.hi)

    def __str__(self) -> str:
        lo = "-inf" if self.lo is None else str(self.lo)
        return f"{lo}..{'inf' if self.hi is None else self.hi}"


@dataclass(frozen=True, slots=True)
class Field:
    """A typed value slot: a table row's field, or a decision's result field."""

    type: ValueType
    nullable: bool = False
    min: int | None = None  # ints: the smallest non-null value (None = unbounded)
    max: int | None = None
    choices: tuple[str, ...] = ()  # choice: its labels
    enum: str | None = None  # choice: the enum's class name
    # dice: the range of each part (DICE_PARTS) over the values the slot can hold
    parts: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Param:
    """A formula parameter as declared in the rules data.

    Two choices are of one enum when their enum class names match or, if either
    has no enum, when their labels do. A nullable parameter may be None.

    A mapping parameter is used only as `name[key]`: key_enum/key_labels are its
    key choice (like a table's key), value the type of its values.
    """

    name: str
    type: Literal["int", "bool", "choice", "mapping"]
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    enum: str | None = None
    nullable: bool = False
    key_enum: str | None = None  # mapping: class name of the key enum
    key_labels: tuple[str, ...] = ()  # mapping: the key's labels
    value: Field | None = None  # mapping: the type of its values
    bound: Checked | None = None  # a name a rule binds (`let`): its value's type
    keyword_only: bool = False  # a rule's parameter a call names (`extra=2`)
    has_default: bool = False  # a rule's parameter a call may leave out


@dataclass(frozen=True, slots=True)
class Table:
    """A table rule usable in formulas as `name(key).field`."""

    name: str  # the rule's function name, used in the formula text: cover(level)
    key_enum: str  # class name of the key enum
    key_labels: tuple[str, ...]
    fields: Mapping[str, Field]  # the row's fields usable in formulas


@dataclass(frozen=True, slots=True)
class Function:
    """Another rule of the system, callable in expressions by its function name.

    Its arguments are checked against its parameters (an int argument's range
    must lie within the parameter's); it answers ``result``.
    """

    name: str
    rule: str  # the rule id, for messages
    params: tuple[Param, ...]
    result: Field
    rolls: bool = False  # it rolls dice with the caller's rng
    odds: str = ""  # its odds function's name, when not ``<name>_odds``
    # It answers a record instead of one value: its fields, each read as
    # name(args).field (``result`` is then not read).
    fields: Mapping[str, Field] | None = None


@dataclass(frozen=True, slots=True)
class Ladder:
    """An ordered enum: expressions may step along it (`level - 2`)."""

    enum: str
    labels: tuple[str, ...]  # lowest first
    past_end: str  # none (null), clamp (the end member) or error


# AST nodes. Offsets do not take part in equality: nodes compare by structure.


@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class StrLit:
    """A string: a text value, or a label naming a choice.

    check() fills enum/param on labels (the choice's enum, and the choice
    parameter it is compared with) so that emitters can name the enum member.
    A key label of a mapping whose key has no enum and no choice parameter
    names the mapping parameter itself.
    """

    value: str
    start: int = field(compare=False)
    end: int = field(compare=False)
    enum: str | None = field(default=None, compare=False)
    param: str | None = field(default=None, compare=False)

    @property
    def is_label(self) -> bool:
        return self.enum is not None or self.param is not None


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class NullLit:
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "not"
    operand: Node
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    # + - * // and or ?? == != < <= > >= in, not in, is, is not (null on the right)
    op: str
    left: Node
    right: Node
    start: int = field(compare=False)
    end: int = field(compare=False)
    # an ordering (< <= > >=) of two labels of an ordered enum (set by check())
    ladder: Ladder | None = field(default=None, compare=False)
    # `+` of two lists: their concatenation, in order (set by check())
    concat: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Cond:
    body: Node  # `body if test else orelse`
    test: Node
    orelse: Node
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class ListLit:
    """`[a, b, c]`: a list of values of one type; ends at the `]`."""

    items: tuple[Node, ...]
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    """A built-in function call, or a table lookup `table(key)`.

    check() sets nullable_key on a lookup whose key may be null: the row (and
    so any field of it) is then null when the key is.
    """

    func: str
    args: tuple[Node, ...]
    start: int = field(compare=False)
    end: int = field(compare=False)
    nullable_key: bool = field(default=False, compare=False)
    rule: bool = field(default=False, compare=False)  # a call of another rule
    rolls: bool = field(default=False, compare=False)  # ... that rolls dice (the rng)
    odds: str = field(default="", compare=False)  # its odds function, if not func_odds
    # ... the names of its keyword-only parameters, which the last arguments are
    keywords: tuple[str, ...] = field(default=(), compare=False)
    # ... how many of its arguments come before the rng (where it rolls)
    rng_at: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Attr:
    """`obj.name`: a field of a table row or of a record a rule answers, or
    (``part``) a part of a dice value; the name ends at `end`."""

    obj: Node
    name: str
    start: int = field(compare=False)
    end: int = field(compare=False)
    part: bool = field(default=False, compare=False)  # check() sets it


@dataclass(frozen=True, slots=True)
class Index:
    """`obj[index]`: a mapping parameter's value for a key; ends at the `]`.

    check() sets nullable_key when the index may be null (the value is then null).
    """

    obj: Node
    index: Node
    start: int = field(compare=False)
    end: int = field(compare=False)
    nullable_key: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Step:
    """`level - 2`: the member that many steps along an ordered enum (set by check())."""

    operand: Node
    by: Node  # an int expression; negative steps down
    ladder: Ladder
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class DieFaces:
    """A die of the rules' own (a ``die`` rule): its ``faces`` in order, numbers
    or tuples of ``symbols`` (a die of numbers has none)."""

    name: str
    faces: tuple[int, ...] | tuple[tuple[str, ...], ...]
    symbols: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Dice:
    """Dice in notation, rolled where the expression stands (``expr_dice``).

    ``written``: the notation as written (``4d6dl1``, ``d20``; from the ``d``
    on when the count is an expression, ``(n)d6``; the options after it, or
    nothing, when the sides are one, ``d(sides)!``); ``count``, ``sides``:
    those expressions, or None. ``results``: ``rolls(...)``, the list of the
    dice it keeps, not their total. ``die``: where the sides name a die of the
    rules' own (``d(good_die)``), that die (check() sets it, and the sides to
    its count of faces).
    """

    written: str
    count: Node | None
    sides: Node | None
    start: int = field(compare=False)
    end: int = field(compare=False)
    results: bool = False
    die: DieFaces | None = None


Node: TypeAlias = (
    Dice
    | Step
    | IntLit
    | StrLit
    | BoolLit
    | NullLit
    | Name
    | Unary
    | Binary
    | Cond
    | Call
    | Attr
    | Index
    | ListLit
)


DiceRoller: TypeAlias = Callable[[Dice, int | None, int | None], Any]
"""evaluate()'s dice: a roll of a dice node, given its count and sides when
expressions give them (its total, or its list for ``rolls``)."""

RuleCaller: TypeAlias = Callable[[Call, Callable[[Any], Any]], Any]
"""evaluate()'s calls of rules that roll: the call node, and the call as a
function of the rng to roll with."""


@dataclass(frozen=True, slots=True)
class Checked:
    """The result of check(): the root node, its type and its integer range.

    type is "null" only for an expression that is always null. For ints,
    interval is the range of the non-null values; choices carry their enum
    (None if the choice has none) and labels. A list (never null) has its
    elements' type in item, their interval, enum and choices as above, and the
    range of its length in length; the empty list ``[]`` has no item (its type
    is that of the list it meets) and a length of 0.
    """

    node: Node
    type: Literal["int", "bool", "text", "choice", "dice", "null", "list"]
    interval: Interval | None
    nullable: bool = False
    enum: str | None = None
    choices: tuple[str, ...] = ()
    parts: tuple[tuple[str, int, int], ...] = ()  # dice: see Field.parts
    item: ItemType | None = None  # list: the type of its elements
    length: Interval | None = None  # list: how many elements it may have
    # as a call can give it (check(..., exact=True)): see expr_exact
    exact: Checked | None = field(default=None, compare=False)


def describe(item: Checked | Field) -> str:
    """A type as messages show it: int, int?, null, list of int."""
    if isinstance(item, Checked) and item.type == "list":
        return "empty list" if item.item is None else f"list of {item.item}"
    nullable = item.nullable and item.type != "null"
    return item.type + "?" * nullable


def same_choice(
    a_enum: str | None,
    a_choices: tuple[str, ...],
    b_enum: str | None,
    b_choices: tuple[str, ...],
) -> bool:
    """Whether two choices are of one enum (by labels when either has no enum)."""
    if a_enum is not None and b_enum is not None:
        return a_enum == b_enum
    return a_choices == b_choices


def choice_name(enum: str | None, choices: tuple[str, ...]) -> str:
    return enum if enum is not None else f"({', '.join(choices)})"


def fits(checked: Checked, slot: Field) -> str | None:
    """None if a checked expression can be stored in the slot, else why not."""
    gives = checked.type + " or null" * (checked.nullable and checked.type != "null")
    want = slot.type + " or null" * slot.nullable
    if checked.type == "null":
        return None if slot.nullable else f"gives null, but the field is {want}"
    if checked.type != slot.type or (checked.nullable and not slot.nullable):
        return f"gives {gives}, but the field is {want}"
    if checked.type == "choice" and not same_choice(
        checked.enum, checked.choices, slot.enum, slot.choices
    ):
        mine = choice_name(checked.enum, checked.choices)
        theirs = choice_name(slot.enum, slot.choices)
        return f"gives a choice of {mine}, but the field is a choice of {theirs}"
    if checked.type == "int":
        iv = checked.interval or Interval(None, None)
        allowed = Interval(slot.min, slot.max)
        low = slot.min is not None and (iv.lo is None or iv.lo < slot.min)
        high = slot.max is not None and (iv.hi is None or iv.hi > slot.max)
        if low or high:
            return f"gives an int in {iv}, but the field allows only {allowed}"
    return None


# --- interval arithmetic (None ends are infinities) ---


def _sign(value: int | None, infinity: int) -> int:
    return infinity if value is None else (value > 0) - (value < 0)


def _ends(iv: Interval) -> tuple[tuple[int | None, int], ...]:
    """Both ends, each with the sign of the infinity it stands for if None."""
    return ((iv.lo, -1), (iv.hi, 1))


def _hull(corners: list[tuple[int, Fraction]]) -> Interval:
    """Hull of (infinity sign, finite value) corners; floor/ceil keep it sound."""
    (lo_inf, lo), (hi_inf, hi) = min(corners), max(corners)
    return Interval(
        None if lo_inf else math.floor(lo), None if hi_inf else math.ceil(hi)
    )


def iv_mul(a: Interval, b: Interval) -> Interval:
    corners: list[tuple[int, Fraction]] = []
    for x, x_inf in _ends(a):
        for y, y_inf in _ends(b):
            if x is not None and y is not None:
                corners.append((0, Fraction(x * y)))
            else:  # infinity times a 0 end is 0: that infinity is never reached
                corners.append((_sign(x, x_inf) * _sign(y, y_inf), Fraction(0)))
    return _hull(corners)


def iv_div(a: Interval, b: Interval) -> Interval:
    """Sound hull of a // b rounded either way; b must exclude 0."""
    corners: list[tuple[int, Fraction]] = []
    for x, x_inf in _ends(a):
        for y, y_inf in _ends(b):
            if x is not None and y is not None:
                corners.append((0, Fraction(x, y)))
            elif x is not None:  # finite / infinite tends to 0
                corners.append((0, Fraction(0)))
            elif y is not None:  # infinite / finite; inf / inf adds nothing new
                corners.append((x_inf * _sign(y, y_inf), Fraction(0)))
    return _hull(corners)


def iv_add(a: Interval, b: Interval) -> Interval:
    lo = None if a.lo is None or b.lo is None else a.lo + b.lo
    return Interval(lo, None if a.hi is None or b.hi is None else a.hi + b.hi)


def iv_neg(a: Interval) -> Interval:
    return Interval(None if a.hi is None else -a.hi, None if a.lo is None else -a.lo)


def iv_abs(a: Interval) -> Interval:
    """The range of abs(x) for x in a: 0 at the least if a spans zero."""
    if a.lo is not None and a.lo >= 0:
        return a
    if a.hi is not None and a.hi <= 0:
        return iv_neg(a)
    highest = None if a.lo is None or a.hi is None else max(-a.lo, a.hi)
    return Interval(0, highest)


def iv_min(ivs: Sequence[Interval]) -> Interval:
    los = [iv.lo for iv in ivs if iv.lo is not None]
    his = [iv.hi for iv in ivs if iv.hi is not None]
    return Interval(min(los) if len(los) == len(ivs) else None, min(his, default=None))


def iv_max(ivs: Sequence[Interval]) -> Interval:
    return iv_neg(iv_min([iv_neg(iv) for iv in ivs]))


def iv_hull(a: Interval, b: Interval) -> Interval:
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    return Interval(lo, None if a.hi is None or b.hi is None else max(a.hi, b.hi))


IV_ARITH: dict[str, Callable[[Interval, Interval], Interval]] = {
    "+": iv_add,
    "-": lambda a, b: iv_add(a, iv_neg(b)),
    "*": iv_mul,
    "//": iv_div,
}


# --- reference evaluator and AST walking ---

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
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
    "len": len,
    "sum": sum,
    "any": any,
    "all": all,
    "text": str,  # a choice is its label here
}


def evaluate(
    node: Node,
    env: Mapping[str, EnvValue],
    *,
    rounding: Rounding,
    tables: Mapping[str, Mapping[str, Mapping[str, object]]] = _NO_ROWS,
    functions: Mapping[str, Callable[..., Any]] = MappingProxyType({}),
    dice: DiceRoller | None = None,
    calls: RuleCaller | None = None,
) -> Value | list[Value]:
    """Evaluate a checked formula; choices are their labels, null is None;
    ``dice`` rolls its dice, and ``calls`` calls the rules that roll.

    tables[name][key_label][field] is a row's field value; env[mapping] maps
    each key label to a value (a label for a choice). A null key gives null.
    functions[name] answers a call of another rule. A list (only a part of a
    formula is one) is a Python list.
    """
    value: Value | list[Value] = _eval(
        node, env, rounding, tables, functions, dice, calls
    )
    return value


def _eval(
    node: Node,
    env: Mapping[str, EnvValue],
    rounding: Rounding,
    tables: Mapping[str, Mapping[str, Mapping[str, object]]],
    functions: Mapping[str, Callable[..., Any]],
    dice: DiceRoller | None = None,
    calls: RuleCaller | None = None,
) -> Any:
    def sub(child: Node) -> Any:
        return _eval(child, env, rounding, tables, functions, dice, calls)

    match node:
        case IntLit() | StrLit() | BoolLit():
            return node.value
        case NullLit():
            return None
        case Name():
            return env[node.name]
        case Unary():
            return -sub(node.operand) if node.op == "-" else not sub(node.operand)
        case Binary(op="and"):
            return bool(sub(node.left)) and bool(sub(node.right))
        case Binary(op="or"):
            return bool(sub(node.left)) or bool(sub(node.right))
        case Binary(op="??"):
            value = sub(node.left)
            return sub(node.right) if value is None else value
        case Binary(op="//"):
            a, b = sub(node.left), sub(node.right)
            return a // b if rounding == "down" else -(-a // b)
        case Binary(concat=True):
            return [*sub(node.left), *sub(node.right)]
        case Binary() if node.ladder is not None:  # labels by their rank
            ranks = [x.casefold() for x in node.ladder.labels]
            a, b = (
                ranks.index(str(sub(n)).casefold()) for n in (node.left, node.right)
            )
            return _OPERATORS[node.op](a, b)
        case Binary():
            return _OPERATORS[node.op](sub(node.left), sub(node.right))
        case Cond():
            return sub(node.body) if sub(node.test) else sub(node.orelse)
        case Call(rule=True):
            function = functions[node.func]
            args = [sub(arg) for arg in node.args]
            at = len(args) - len(node.keywords)
            named = dict(zip(node.keywords, args[at:], strict=True))
            if not node.rolls:
                return function(*args[:at], **named)
            if calls is None:
                raise ValueError(f"no rng for {node.func}(), which rolls dice")
            before, after = args[: node.rng_at], args[node.rng_at : at]
            return calls(node, lambda rng: function(*before, rng, *after, **named))
        case Call() if node.func not in FUNCTIONS:
            key = sub(node.args[0])
            return None if key is None else tables[node.func][key]
        case ListLit():
            return [sub(item) for item in node.items]
        case Dice():
            if dice is None:
                raise ValueError(f"no dice roller for {node.written or 'd(...)'}")
            count = None if node.count is None else sub(node.count)
            return dice(node, count, None if node.sides is None else sub(node.sides))
        case Call(func="sorted"):
            return sorted(sub(node.args[0]))
        case Call(func="count"):
            items, *values = (sub(arg) for arg in node.args)
            return sum(values[0] <= x <= values[-1] for x in items)
        case Call(func="tally"):
            faces, symbol = (sub(arg) for arg in node.args)
            return sum(face.count(symbol) for face in faces)
        case Call():
            args = [sub(arg) for arg in node.args]
            if node.func == "clamp":
                return min(max(args[0], args[1]), args[2])
            if node.func in _ONE_ARG:
                return _ONE_ARG[node.func](args[0])
            if len(args) == 1:  # min or max of a list
                args = args[0]
            return min(args) if node.func == "min" else max(args)
        case Attr():
            row = sub(node.obj)
            if row is None:
                return None
            return (
                row[node.name] if isinstance(row, Mapping) else getattr(row, node.name)
            )
        case Index():
            key = sub(node.index)
            return None if key is None else sub(node.obj)[key]
        case Step():
            label, by = sub(node.operand), sub(node.by)
            if label is None:
                return None
            labels = node.ladder.labels
            at = [x.casefold() for x in labels].index(str(label).casefold()) + by
            if 0 <= at < len(labels):
                return labels[at]
            if node.ladder.past_end == "clamp":
                return labels[0] if at < 0 else labels[-1]
            if node.ladder.past_end == "error":
                raise ValueError(
                    f"{label} {by:+d} steps is past the end of {node.ladder.enum}"
                )
            return None
    raise AssertionError(node)


def walk(node: Node) -> Iterator[Node]:
    """The node and all its descendants, depth first (from a stack of its own,
    so each node costs the same however deep it is)."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(reversed(children(node)))


def children(node: Node) -> tuple[Node, ...]:
    """The node's operands, in order (none for a leaf)."""
    match node:
        case Unary():
            return (node.operand,)
        case Binary():
            return (node.left, node.right)
        case Cond():
            return (node.body, node.test, node.orelse)
        case Call():
            return node.args
        case Attr():
            return (node.obj,)
        case Index():
            return (node.obj, node.index)
        case Step():
            return (node.operand, node.by)
        case Dice():
            return tuple(part for part in (node.count, node.sides) if part is not None)
        case ListLit():
            return node.items
    return ()


def names_used(node: Node) -> frozenset[str]:
    """Every parameter name the formula refers to (mappings it indexes too)."""
    return frozenset(sub.name for sub in walk(node) if isinstance(sub, Name))


def tables_used(node: Node) -> frozenset[str]:
    """Every table the formula looks up (calls that are not built-ins)."""
    return frozenset(
        sub.func
        for sub in walk(node)
        if isinstance(sub, Call) and sub.func not in FUNCTIONS and not sub.rule
    )


def rules_called(node: Node) -> frozenset[str]:
    """Every other rule the formula calls, by function name."""
    return frozenset(
        sub.func for sub in walk(node) if isinstance(sub, Call) and sub.rule
    )


def uses_steps(node: Node) -> bool:
    """Whether the formula steps along an ordered enum (the runtime's ``step``)."""
    return any(isinstance(sub, Step) for sub in walk(node))
