"""Data of the formula language: AST nodes, value types, integer ranges, and
the reference evaluator.

Package-private helper of compiler.lang.expr, which re-exports the public names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, TypeAlias

Rounding: TypeAlias = Literal["down", "up"]
COMPARE_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
# Comparisons written with words: membership in a list, and tests for null.
WORD_OPS = frozenset({"in", "not in", "is", "is not"})
# The comparisons with null, and whether each is true when the value is null.
NULL_TESTS = {"==": True, "is": True, "!=": False, "is not": False}
# The functions that round the exact quotient ``a / b`` written as their one
# argument (``floor(a / b)``); of a whole number, the number itself.
ROUNDING_FUNCTIONS = ("floor", "ceil", "round")
# Built-in functions and their arity (least, most); min and max also take one list.
FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "min": (2, None),
    "max": (2, None),
    "clamp": (3, 3),
    "abs": (1, 1),
    # a whole number of a quotient a / b (exact): rounded down, up, half up
    "floor": (1, 1),
    "ceil": (1, 1),
    "round": (1, 1),
    "len": (1, 1),
    "sum": (1, 1),
    "any": (1, 1),
    "all": (1, 1),
    "text": (1, 1),
    "sorted": (1, 2),  # a list of ints, lowest first; of records by a field
    "count": (2, 3),  # how many of a list's ints equal one, or lie within two
    "tally": (2, 2),  # how many times a symbol shows on faces of dice (expr_dice)
    "roll": (1, 1),  # a roll of a dice value (with the caller's rng)
    "reversed": (1, 1),  # a list, last first
}
# The functions that take one list: what its elements must be, what they give.
LIST_FUNCTIONS: dict[str, tuple[str | None, str]] = {
    "len": (None, "int"),
    "sum": ("int", "int"),
    "any": ("bool", "bool"),
    "all": ("bool", "bool"),
}
ValueType: TypeAlias = Literal[
    "int", "bool", "text", "choice", "dice", "list", "record", "state"
]
# What a list may hold (one type, never null): a record's its ``record`` names;
# "symbols" are the faces of a die of the rules' own that shows symbols (each
# face a tuple of them).
ItemType: TypeAlias = Literal["int", "bool", "text", "choice", "record", "symbols"]
# What ``describe`` says of a type that holds a record or a state of a class.
NAMED_TYPES = ("record", "state")
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
    # a list: its elements' type (min, max, choices and enum then are theirs),
    # and the range of its length (None: any length)
    items: ItemType | None = None
    length: Interval | None = None
    # a record or a state (or a list of records): the class's name
    record: str | None = None


@dataclass(frozen=True, slots=True)
class RecordType:
    """A record type (or, ``state``, a state's class) as expressions see it:
    its fields in order, each typed; ``X(...)`` makes one (a record: a value
    for each field, those that may be null left out as null; a state: its
    constructor's ``params``), ``x.f`` reads a field, and a state's
    ``transitions`` (each by its parameters) answer a new state,
    ``x.take(...)``. ``shown``: the fields a state's fields are (the rest are
    derived), in order."""

    name: str
    fields: tuple[tuple[str, Field], ...]
    state: bool = False
    params: tuple[Param, ...] = ()
    transitions: tuple[tuple[str, tuple[Param, ...]], ...] = ()
    rule: str = ""  # the rule declaring it, for messages

    def field(self, name: str) -> Field | None:
        return next((f for n, f in self.fields if n == name), None)

    @property
    def required(self) -> tuple[str, ...]:
        """The fields a record's constructor must be given (those never null)."""
        return tuple(n for n, f in self.fields if not f.nullable)


@dataclass(frozen=True, slots=True)
class Param:
    """A formula parameter as declared in the rules data.

    Two choices are of one enum when their enum class names match or, if either
    has no enum, when their labels do. A nullable parameter may be None.

    A mapping parameter is used only as `name[key]`: key_enum/key_labels are its
    key choice (like a table's key), value the type of its values.
    """

    name: str
    type: Literal["int", "bool", "choice", "mapping", "text", "list", "record", "state"]
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
    # a parameter of any other type (text, a list, a record, a state): its type
    slot: Field | None = None


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
    # It rolls and has an odds function of its whole answer (a caller's odds
    # follow a call of it through that function's chances)
    chances: bool = True


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
    text: bool = field(default=False, compare=False)  # checked as a text, no label

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
    # `==`, `!=` of two records or states: field by field (set by check())
    deep: bool = field(default=False, compare=False)


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
    # the names the call gives its last arguments by (``X(a, b=2)``: ("b",))
    names: tuple[str, ...] = ()
    # the highest or lowest of a list that may be empty: the runtime refuses
    # an empty one (set by check())
    checks: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Attr:
    """`obj.name`: a field of a table row or of a record a rule answers, or
    (``part``) a part of a dice value; the name ends at `end`."""

    obj: Node
    name: str
    start: int = field(compare=False)
    end: int = field(compare=False)
    part: bool = field(default=False, compare=False)  # check() sets it
    state: bool = field(default=False, compare=False)  # a state's (check() sets it)


@dataclass(frozen=True, slots=True)
class Index:
    """`obj[index]`: a mapping parameter's value for a key, or an item of a
    list by its position (from 0; -1 the last); ends at the `]`.

    check() sets nullable_key when the index may be null (the value is then
    null); ``item`` on a list's item, and ``safe`` where the ranges prove the
    position within the list (else the runtime refuses one outside it).
    """

    obj: Node
    index: Node
    start: int = field(compare=False)
    end: int = field(compare=False)
    nullable_key: bool = field(default=False, compare=False)
    item: bool = field(default=False, compare=False)
    safe: bool = field(default=False, compare=False)


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


@dataclass(frozen=True, slots=True)
class Construct:
    """``X(...)`` checked: a new record of the type ``record`` of a value for
    each of its fields in order (``fields``; ``held``: which hold lists), or,
    ``state``, a new state of that class from its constructor's arguments
    (``fields`` then names its parameters). Made by check() from a call."""

    record: str
    fields: tuple[str, ...]
    args: tuple[Node, ...]
    start: int = field(compare=False)
    end: int = field(compare=False)
    state: bool = False
    held: tuple[bool, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Method:
    """``x.take(a, b)``: the state ``x`` after its transition ``name`` with
    ``args`` (a new state: ``x`` is not changed); ``names``: those the last
    arguments are given by. check() sets ``record`` (the state's class) and
    puts the arguments in the transition's order (``names`` then empty)."""

    obj: Node
    name: str
    args: tuple[Node, ...]
    start: int = field(compare=False)
    end: int = field(compare=False)
    names: tuple[str, ...] = ()
    record: str = field(default="", compare=False)
    # the transition's parameters, in order, and those taken by name only
    params: tuple[str, ...] = field(default=(), compare=False)
    keywords: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Comp:
    """``[body for name in items if test]``: a list of ``body`` for each item
    of ``items`` (``name`` its value, local to the comprehension) for which
    ``test`` (if any) holds, worked out item by item in order."""

    body: Node
    name: str
    items: Node
    test: Node | None
    start: int = field(compare=False)
    end: int = field(compare=False)


Node: TypeAlias = (
    Dice
    | Construct
    | Method
    | Comp
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
    type: Literal[
        "int", "bool", "text", "choice", "dice", "null", "list", "record", "state"
    ]
    interval: Interval | None
    nullable: bool = False
    enum: str | None = None
    choices: tuple[str, ...] = ()
    parts: tuple[tuple[str, int, int], ...] = ()  # dice: see Field.parts
    item: ItemType | None = None  # list: the type of its elements
    length: Interval | None = None  # list: how many elements it may have
    # a record or a state, or a list of records: the class's name
    record: str | None = None
    # as a call can give it (check(..., exact=True)): see expr_exact
    exact: Checked | None = field(default=None, compare=False)
    # what check() checked it against, so that it can be checked again over
    # other ranges of its names (expr.rechecked)
    context: Context | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Context:
    """What an expression was checked against: the node as parsed, its names,
    tables, rules and ladders, and the condition known to hold there."""

    node: Node
    params: Mapping[str, Param]
    tables: Mapping[str, Table]
    functions: Mapping[str, Function]
    ladders: Mapping[str, Ladder]
    given: Node | None
    records: Mapping[str, RecordType]
    dies: Mapping[str, DieFaces]

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        # a build's own: a model stored (the build cache) keeps none of it
        return _lost, ()


def _lost() -> None:
    return None


def describe(item: Checked | Field) -> str:
    """A type as messages show it: int, int?, null, list of int, a record's or
    a state's class (OngoingRound), list of OngoingRound."""
    if item.type == "list":
        element = item.item if isinstance(item, Checked) else item.items
        if element is None:
            return "empty list"
        return f"list of {item.record if element == 'record' else element}"
    nullable = item.nullable and item.type != "null"
    shown = item.record if item.type in NAMED_TYPES and item.record else item.type
    return f"{shown}{'?' * nullable}"


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
    gives = _type_word(checked) + " or null" * (
        checked.nullable and checked.type != "null"
    )
    want = _type_word(slot) + " or null" * slot.nullable
    if checked.type == "null":
        return None if slot.nullable else f"gives null, but the field is {want}"
    if checked.type != slot.type or (checked.nullable and not slot.nullable):
        return f"gives {gives}, but the field is {want}"
    if checked.type == "list":
        return _fits_list(checked, slot, describe(checked), describe(slot))
    if checked.type in NAMED_TYPES and checked.record != slot.record:
        return f"gives {gives}, but the field is {want}"
    return _fits_value(checked.type, checked, slot)


def _type_word(item: Checked | Field) -> str:
    """A type in one word: its own (int, list), or a record's class."""
    return item.record if item.type in NAMED_TYPES and item.record else item.type


def _fits_value(kind: str, checked: Checked, slot: Field) -> str | None:
    """Whether a value (or a list's elements) of type ``kind`` fits the slot's
    choices or range: None, else why not."""
    if kind == "choice" and not same_choice(
        checked.enum, checked.choices, slot.enum, slot.choices
    ):
        mine = choice_name(checked.enum, checked.choices)
        theirs = choice_name(slot.enum, slot.choices)
        return f"gives a choice of {mine}, but the field is a choice of {theirs}"
    if kind == "int":
        iv = checked.interval or Interval(None, None)
        allowed = Interval(slot.min, slot.max)
        low = slot.min is not None and (iv.lo is None or iv.lo < slot.min)
        high = slot.max is not None and (iv.hi is None or iv.hi > slot.max)
        if low or high:
            return f"gives an int in {iv}, but the field allows only {allowed}"
    return None


def _fits_list(checked: Checked, slot: Field, gives: str, want: str) -> str | None:
    """Whether a list fits a list slot: its elements' type and range, and its
    length (the empty list fits any list of a length that may be 0)."""
    length = checked.length or Interval(0, None)
    allowed = slot.length or Interval(0, None)
    if not _within(length, allowed):
        return f"gives a list of {length} items, but the field allows only {allowed}"
    if checked.item is None:  # the empty list: of any type
        return None
    if checked.item != slot.items or checked.record != slot.record:
        return f"gives {gives}, but the field is {want}"
    problem = _fits_value(checked.item, checked, slot)
    return None if problem is None else problem.replace("an int", "ints", 1)


def _within(iv: Interval, allowed: Interval) -> bool:
    """Whether every value of ``iv`` is within ``allowed``."""
    low = allowed.lo is None or (iv.lo is not None and iv.lo >= allowed.lo)
    return low and (allowed.hi is None or (iv.hi is not None and iv.hi <= allowed.hi))


# --- interval arithmetic (None ends are infinities) ---


def _sign(value: int | None, infinity: int) -> int:
    return infinity if value is None else (value > 0) - (value < 0)


def _ends(iv: Interval) -> tuple[tuple[int | None, int], ...]:
    """Both ends, each with the sign of the infinity it stands for if None."""
    return ((iv.lo, -1), (iv.hi, 1))


def _hull(
    corners: list[tuple[int, Fraction]],
    low: Callable[[Fraction], int] = math.floor,
    high: Callable[[Fraction], int] = math.ceil,
) -> Interval:
    """Hull of (infinity sign, finite value) corners, its ends made whole by
    ``low`` and ``high`` (by default floor and ceil: sound for any rounding)."""
    (lo_inf, lo), (hi_inf, hi) = min(corners), max(corners)
    return Interval(None if lo_inf else low(lo), None if hi_inf else high(hi))


# What floor, ceil and round (a half up) make of an exact value.
ROUNDED: dict[str, Callable[[Fraction], int]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": lambda x: math.floor(x + Fraction(1, 2)),
}


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
    return _hull(_quotients(a, b))


def iv_rounded(func: str, a: Interval, b: Interval) -> Interval:
    """The range of floor, ceil or round (``func``) of a / b; b excludes 0
    (each is monotonic: its ends are those of the exact quotient's)."""
    return _hull(_quotients(a, b), ROUNDED[func], ROUNDED[func])


def _quotients(a: Interval, b: Interval) -> list[tuple[int, Fraction]]:
    """The corners of a / b (b excludes 0), as ``_hull`` takes them."""
    corners: list[tuple[int, Fraction]] = []
    for x, x_inf in _ends(a):
        for y, y_inf in _ends(b):
            if x is not None and y is not None:
                corners.append((0, Fraction(x, y)))
            elif x is not None:  # finite / infinite tends to 0
                corners.append((0, Fraction(0)))
            elif y is not None:  # infinite / finite; inf / inf adds nothing new
                corners.append((x_inf * _sign(y, y_inf), Fraction(0)))
    return corners


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


# --- walking the tree ---


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
        case Construct():
            return node.args
        case Method():
            return (node.obj, *node.args)
        case Comp():
            return (node.items, node.body, *(() if node.test is None else (node.test,)))
    return ()


def names_used(node: Node) -> frozenset[str]:
    """Every parameter name the formula refers to (mappings it indexes too),
    but the names its comprehensions bind for each item (which no name of the
    rule's may be: the checker refuses one)."""
    names, local = set(), set()
    for sub in walk(node):
        if isinstance(sub, Name):
            names.add(sub.name)
        elif isinstance(sub, Comp):
            local.add(sub.name)
    return frozenset(names - local)


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


def uses_values(node: Node, target: Literal["python", "javascript"]) -> bool:
    """Whether a target's code of the formula calls the runtime's ``_values``:
    an item of a list not proved within it, the highest or lowest of a list
    that may be empty, a state after a transition; in JavaScript also a list
    of records sorted, the record with the highest field, two records
    compared, a record or a state made."""
    for sub in walk(node):
        if isinstance(sub, Index) and sub.item and not sub.safe:
            return True
        if (isinstance(sub, Call) and sub.checks) or isinstance(sub, Method):
            return True
        if target == "python":
            continue
        if isinstance(sub, Binary) and sub.deep:
            return True
        if isinstance(sub, Call) and _keyed(sub):
            return True
    return False


def _keyed(call: Call) -> bool:
    """``sorted``, ``max`` or ``min`` of records, by a field's name."""
    return (
        call.func in ("sorted", "max", "min")
        and len(call.args) == 2
        and isinstance(call.args[1], StrLit)
    )
