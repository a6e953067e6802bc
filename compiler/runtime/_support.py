"""Support for the generated rule modules: argument checks, labels and the runtime's limit.

Labels. Every function that takes a choice reads a ``str`` by its plain string
value, folded with ``str.casefold`` called on the base class: a member of the
choice's own enum, its label in any case, a member of *another* ``StrEnum``
whose value is the label, and a ``str`` subclass (whatever its ``casefold``,
``__eq__`` or ``__hash__`` do) are all the same choice. Anything else is refused
with ``RuleInputError``. (The generated signatures name the exact labels, so a
type checker flags the other spellings that run time accepts.)

Label enums. Every generated enum is a :class:`Label` (a ``StrEnum``): a member
equals its exact label and hashes as it. An unordered one does not order
(``TypeError``, as for any ``Enum``); a :class:`Ladder` orders along its ladder.

The limits. No call of the runtime produces more than ``MAX_ENTRIES`` entries
(list items, events, die rolls, calls of rules by rules), so that no argument
can make a call run out of memory or time; nor does it take more than
``MAX_WORK`` steps working out exact odds. They are engineering limits of the
runtime, not figures of any rules: an argument that would pass one is refused
with ``RuleInputError`` (stating the argument's allowed range where the count
can be worked out up front), before the work. ``CALL`` keeps the count of the
outermost call under way in a thread: a generated function that calls another
rule, is called by one, or works out odds is a ``runtime_call``, and each
function of the odds engine counts its steps by ``spend`` before it takes them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import Enum, StrEnum
from functools import wraps
from itertools import accumulate, islice
from typing import (
    Any,
    ClassVar,
    Final,
    Never,
    ParamSpec,
    Protocol,
    Self,
    TypeVar,
    cast,
    dataclass_transform,
)

from . import _dice_spec as spec
from ._messages import say
from .errors import RuleInputError

__all__ = [
    "CALL",
    "LIMIT_NOTE",
    "MAX_ENTRIES",
    "MAX_EXACT",
    "MAX_NESTING",
    "MAX_WORK",
    "Frozen",
    "Label",
    "LabelMapping",
    "Ladder",
    "bad_bool",
    "bad_int",
    "choice",
    "count_sums",
    "folded",
    "mapping",
    "not_one_of",
    "past_limit",
    "runtime_call",
    "shown",
    "spend",
    "step",
    "too_many",
    "weighed",
]

MAX_ENTRIES: Final = 100_000
"""The most entries (list items, events, die rolls) one call of the runtime makes."""

MAX_NESTING: Final = 100
"""The most levels of arrays and objects one within another ``rulebook.json``
writes (a value nested deeper is refused, as in JavaScript, whose stack it
would overflow): no value of the rules comes near it."""
MAX_EXACT: Final = 2**53 - 1
"""The largest whole number both runtimes hold exactly (JavaScript's
Number.MAX_SAFE_INTEGER): an argument past it is refused, in both, and the
build proves that no rule works out a number past it."""
_SAFE_NOTE: Final = (
    "JavaScript numbers are exact integers only up to Number.MAX_SAFE_INTEGER"
)

LIMIT_NOTE: Final = (
    f"one call makes at most {MAX_ENTRIES:,} entries "
    "(a limit of the runtime, not of the rules)"
)

MAX_WORK: Final = spec.ODDS_WORK_PER_ENTRY * MAX_ENTRIES
"""The most steps one call takes working out exact odds (about: values x
values combined, each step weighed by the size of the numbers it multiplies:
see ``weighed``)."""

WORK_NOTE: Final = (
    f"the exact odds take more than {MAX_WORK:,} steps to work out "
    "(a limit of the runtime, not of the rules)"
)

E = TypeVar("E", bound=Enum)
P = ParamSpec("P")
R = TypeVar("R")


class _Call(threading.local):
    """The outermost call of the runtime under way in this thread: how many
    calls of rules it has made inside it, and the steps of odds work it has
    taken (both counted from naught at each outermost call)."""

    depth = 0
    calls = 0
    work = 0


CALL: Final = _Call()


def enter_call() -> None:
    """A call of a rule begins: counted (and refused past ``MAX_ENTRIES``)
    when another call is under way, else the start of a new count."""
    call = CALL
    if call.depth:
        if call.calls >= MAX_ENTRIES:
            raise too_many("calls of rules")
        call.calls += 1
    else:
        call.calls = call.work = 0
    call.depth += 1


def leave_call() -> None:
    """A call of a rule ends (however it ends)."""
    CALL.depth -= 1


def runtime_call(function: Callable[P, R]) -> Callable[P, R]:
    """``function``, each of its calls counted as a call of the runtime (``CALL``)."""

    @wraps(function)
    def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        enter_call()
        try:
            return function(*args, **kwargs)
        finally:
            leave_call()

    return counted


def weighed(steps: int, bits: int, *, products: bool = True) -> int:
    """``steps`` that each multiply (or, not ``products``, add) whole numbers
    of up to ``bits`` bits, as steps of small numbers: a step on numbers of
    512 more bits counts once more, and a product of numbers of 2,048 bits
    counts four times more again (it grows as the square); an addition on
    4,096 more bits counts once more."""
    if not products:  # the figures: the dice spec's work budget
        return steps * (1 + bits // spec.SUM_BITS)
    return steps * (1 + bits // spec.PRODUCT_BITS + (bits // spec.SQUARE_BITS) ** 2)


def spend(steps: int, hint: str = "") -> None:
    """Count ``steps`` of odds work before taking them: refused with
    ``RuleInputError`` where they would bring the call past ``MAX_WORK`` (the
    outermost call's steps so far counted in, when one is under way)."""
    call = CALL
    work = steps + call.work if call.depth else steps
    if work > MAX_WORK:
        raise RuleInputError(WORK_NOTE + hint)
    if call.depth:
        call.work = work


def count_sums(count: int, sides: int) -> list[int]:
    """How many ways each sum of ``count`` dice of ``sides`` faces (1 to
    ``sides``) comes up: item i counts the sum ``count + i``.

    Each die adds a sliding window of ``sides`` to the counts so far (a
    difference of prefix sums), so ``count`` dice take about count² x sides
    additions, not count² x sides²."""
    ways = [1]
    for _ in range(count):
        prefix = list(accumulate(ways, initial=0))
        width = len(ways)
        ways = [
            prefix[min(t + 1, width)] - prefix[max(t + 1 - sides, 0)]
            for t in range(width + sides - 1)
        ]
    return ways


@dataclass_transform(eq_default=True, frozen_default=True)
class Frozen:
    """The base of every record of the runtime (rows, results, dice): a plain
    slotted class whose methods the generated code writes out.

    A record is immutable (assigning or deleting an attribute raises
    ``AttributeError``, as for a frozen dataclass), slotted, equal to a record of
    the same class with equal fields, hashable by those fields, and its
    ``repr`` names every field. ``FIELDS`` names its fields in order (the
    runtime's own, whose names start with ``_``, left out), as do positional
    patterns (``case CoverRow(coverage, modifier):``); ``replace(**changes)`` (and
    ``copy.replace`` on Python 3.13) answers a copy with some fields changed;
    ``copy``, ``deepcopy`` and ``pickle`` work. No ``dataclasses`` machinery is
    involved: ``dataclasses.fields``, ``asdict`` and ``replace`` do not apply
    (``FIELDS``, ``to_dict()`` or ``{name: getattr(record, name) for name in
    record.FIELDS}``, and ``replace`` do their work).
    """

    __slots__: ClassVar[tuple[str, ...]] = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The record's fields, in order (its ``repr``, equality, hash and JSON)."""
    _SETTERS: ClassVar[tuple[Callable[[Any, Any], None], ...]] = ()
    """What sets each of the class's own slots, in order (its ``__init__``
    sets its fields with them: assigning raises, and these are quicker than
    ``object.__setattr__``)."""

    def __init_subclass__(cls) -> None:
        # positional patterns (case Row(a, b)) match the fields, as a dataclass's do;
        # set here, so that type checkers take them from the fields
        type.__setattr__(cls, "__match_args__", cls.FIELDS)
        slots = cls.__dict__.get("__slots__", ())
        setters = tuple(cls.__dict__[name].__set__ for name in slots)
        type.__setattr__(cls, "_SETTERS", setters)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def replace(self, **changes: Any) -> Self:
        """A copy with the fields ``changes`` names set (checked as when made)."""
        values = {name: getattr(self, name) for name in self.__slots__}
        for name in changes:
            if name not in values:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
        values.update(changes)
        made: Self = cast("Any", type(self))(**values)
        return made

    def __replace__(self, **changes: Any) -> Self:
        """``copy.replace(record, **changes)`` (Python 3.13): see ``replace``."""
        return self.replace(**changes)

    def __reduce__(self) -> tuple[object, ...]:
        values = {name: getattr(self, name) for name in self.__slots__}
        return _rebuild, (type(self), values)


def _rebuild(kind: type[Frozen], values: dict[str, object]) -> Frozen:
    """A record made again from its fields by name (how ``pickle`` and ``copy`` make one)."""
    made: Frozen = cast("Any", kind)(**values)
    return made


def folded(value: object) -> str | None:
    """The case-folded plain string value of a ``str`` (None for anything else).

    ``str.casefold`` is called on the base class, so a subclass's own
    ``casefold`` is never trusted, and the answer is a plain ``str`` (its
    ``__eq__`` and ``__hash__`` are the base class's too).
    """
    # isinstance asks __class__, which an object can fake; type() cannot be faked
    if isinstance(value, str) and issubclass(type(value), str):  # pyright: ignore[reportUnnecessaryIsInstance]
        return str.casefold(value)
    return None


_SHOWN_DIGITS: Final = 30
_SHOWN_CHARS: Final = 200


def shown(value: object) -> str:
    """``repr(value)`` for an error message, never raising: a ``str`` (a member of
    any enum, a subclass) shows its plain string value, an ``int`` (a ``bool``, a
    subclass) its plain value, one of more than 30 digits by its digit count
    (Python refuses to write one of more than 4,300), and a long answer is cut."""
    if isinstance(value, str) and issubclass(type(value), str):  # pyright: ignore[reportUnnecessaryIsInstance]
        text = str.__repr__(value)
    elif isinstance(value, int) and issubclass(type(value), int):  # pyright: ignore[reportUnnecessaryIsInstance]
        text = _int_text(value)
    else:
        try:
            text = repr(value)
            if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise TypeError
        except Exception:  # a hostile __repr__ must not hide the real error
            text = f"<a {type(value).__name__}>"
    if len(text) > _SHOWN_CHARS:
        return f"{text[: _SHOWN_CHARS - 5]}...{text[-2:]}"
    return text


def _int_text(value: int) -> str:
    """An int's digits, or its digit count past ``_SHOWN_DIGITS`` digits."""
    if isinstance(value, bool):
        return "True" if value else "False"
    number = int.__index__(value)  # the plain value, whatever the subclass says
    size = abs(number)
    if size < 10**_SHOWN_DIGITS:
        return int.__repr__(number)
    digits = (size.bit_length() - 1) * 30103 // 100000  # 10 ** digits <= size
    while 10**digits <= size:  # a step or two
        digits += 1
    sign = "a negative" if number < 0 else "an"
    return f"{sign} int of {digits:,} digits"


def choice(kind: type[E], by_label: Mapping[str, E], value: object, name: str) -> E:
    """Return the member ``value`` names: a member, or any ``str`` whose plain value
    is its label in any case (a member of another enum included)."""
    if type(value) is kind:
        return value
    key = folded(value)
    if key is not None:
        member = by_label.get(key)
        if member is not None:
            return member
    labels = ", ".join(repr(m.value) for m in kind)
    raise RuleInputError(say("not_label", name=name, labels=labels, value=shown(value)))


def bad_int(value: object, name: str, lo: int | None, hi: int | None) -> RuleInputError:
    """The error for an argument that is not an int within ``lo..hi`` (nor
    within ``MAX_EXACT`` of 0, where ``lo`` or ``hi`` is None)."""
    if type(value) is not int:
        return RuleInputError(say("not_int", name=name, value=shown(value)))
    if not -MAX_EXACT <= value <= MAX_EXACT:  # as JavaScript refuses it
        least = -MAX_EXACT if lo is None else lo
        most = MAX_EXACT if hi is None else hi
        return RuleInputError(
            say(
                "outside_because",
                name=name,
                low=least,
                high=most,
                value=shown(value),
                note=_SAFE_NOTE,
            )
        )
    low = "" if lo is None else str(lo)
    high = "" if hi is None else str(hi)
    return RuleInputError(
        say("outside", name=name, low=low, high=high, value=shown(value))
    )


def not_one_of(value: int, name: str, values: tuple[int, ...]) -> RuleInputError:
    """The error for an int argument within its range that is not one of the
    ``values`` its parameter takes."""
    listed = ", ".join(str(v) for v in values)
    return RuleInputError(say("not_one_of", name=name, values=listed, value=value))


def past_limit(value: int, name: str, lo: int, hi: int) -> RuleInputError:
    """The error for an int argument that would make a call pass ``MAX_ENTRIES``."""
    return RuleInputError(
        say(
            "outside_because",
            name=name,
            low=lo,
            high=hi,
            value=shown(value),
            note=LIMIT_NOTE,
        )
    )


def too_many(what: str) -> RuleInputError:
    """The error for a call that would make more than ``MAX_ENTRIES`` ``what``."""
    return RuleInputError(
        f"the call would make more than {MAX_ENTRIES:,} {what}: {LIMIT_NOTE}"
    )


def bad_bool(value: object, name: str) -> RuleInputError:
    """The error for an argument that is not a bool."""
    return RuleInputError(
        say("not_flag", name=name, true="True", false="False", value=shown(value))
    )


class Label(StrEnum):
    """A label enum: each member's value is a label the rules give.

    A member is the ``str`` of its label: it equals that exact label (case and
    all) and hashes as it, so a member and its label are the same dict key.
    ``Kind("label")`` also finds a member by its label in any case, as every
    function that takes a choice does. An unordered label enum does not order:
    ``<``, ``<=``, ``>`` and ``>=`` raise ``TypeError`` against a member or any
    ``str``, on either side, as for any ``Enum`` (as a ``str`` a member would
    compare alphabetically, which means nothing); type checkers flag a comparison
    of two members.
    """

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        key = folded(value)
        if key is not None:
            for member in cls:
                if str.casefold(member.value) == key:
                    return member
        return None

    # The parameter type Never makes type checkers refuse a comparison of two
    # members; run time raises TypeError for any str (a str on the left asks the
    # member first, its type being a subclass of str) and leaves other types to
    # Python, which raises TypeError too.
    def __lt__(self, other: Never, /) -> bool:  # type: ignore[override]
        _refuse_order(self, other)
        return NotImplemented

    def __le__(self, other: Never, /) -> bool:  # type: ignore[override]
        _refuse_order(self, other)
        return NotImplemented

    def __gt__(self, other: Never, /) -> bool:  # type: ignore[override]
        _refuse_order(self, other)
        return NotImplemented

    def __ge__(self, other: Never, /) -> bool:  # type: ignore[override]
        _refuse_order(self, other)
        return NotImplemented


def _refuse_order(member: Label, other: object) -> None:
    """TypeError for an ordering comparison of an unordered label with a ``str``."""
    if isinstance(other, str):
        raise TypeError(
            f"{type(member).__name__} is not ordered: its members and labels "
            "compare with == and != only, not <, <=, > or >="
        )


class Ladder(Label):
    """A label enum whose members compare by rank (lowest first), not alphabetically.

    Ordering comparisons (``<``, ``<=``, ``>``, ``>=``) accept a member or any
    ``str`` whose plain value is a label in any case, as :func:`choice` does,
    on either side (a plain ``str`` on the left asks the member). ``==`` is the
    ``str`` equality of the label, case and all, so hashing stays that of the
    label. A member of an unordered label enum is refused with ``TypeError``, a
    ``str`` that is none of the labels with ``RuleInputError``.
    """

    @property
    def rank(self) -> int:
        """The member's position, 0 for the lowest."""
        return type(self)._member_names_.index(self.name)

    def _other(self, other: str) -> int:
        kind = type(self)
        if type(other) is kind:
            return other.rank
        if isinstance(other, Label) and not isinstance(other, Ladder):
            _refuse_order(other, self)  # an unordered label orders on no side
        key = folded(other)
        for member in kind:
            if str.casefold(member.value) == key:
                return member.rank
        labels = ", ".join(repr(m.value) for m in kind)
        raise RuleInputError(f"cannot compare with {shown(other)}: use one of {labels}")

    def __lt__(self, other: str, /) -> bool:
        if not isinstance(other, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        return self.rank < self._other(other)

    def __le__(self, other: str, /) -> bool:
        if not isinstance(other, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        return self.rank <= self._other(other)

    def __gt__(self, other: str, /) -> bool:
        if not isinstance(other, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        return self.rank > self._other(other)

    def __ge__(self, other: str, /) -> bool:
        if not isinstance(other, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        return self.rank >= self._other(other)


K = TypeVar("K", bound=Enum)
V = TypeVar("V", bound=Enum)
K_co = TypeVar("K_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)


class LabelMapping(Protocol[K_co, V_co]):
    """The type of a mapping argument: a ``Mapping`` read-only, with its key type
    covariant too, so that a ``dict`` of members, one of labels and one of both
    all fit ``LabelMapping[Key | KeyLabel, Value | ValueLabel]`` (a ``Mapping``'s
    key type is invariant). Run time takes any ``Mapping``.
    """

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[K_co]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def keys(self) -> Iterable[K_co]:
        """The keys, as ``Mapping.keys``."""
        ...

    def values(self) -> Iterable[V_co]:
        """The values, as ``Mapping.values``."""
        ...

    def items(self) -> Iterable[tuple[K_co, V_co]]:
        """The (key, value) pairs, as ``Mapping.items``."""
        ...


def mapping(
    keys: type[K],
    key_by_label: Mapping[str, K],
    values: type[V],
    value_by_label: Mapping[str, V],
    value: object,
    name: str,
) -> dict[K, V]:
    """A complete mapping argument: every key member (or label) to a value.

    Keys and values are read as :func:`choice` reads them; two keys that name the
    same member (``"Left"`` and ``"LEFT"``, or a member and its label) are refused.
    """
    if not isinstance(value, Mapping):
        raise RuleInputError(
            say(
                "not_mapping",
                name=name,
                keys=keys.__name__,
                values=values.__name__,
                value=shown(value),
            )
        )
    items = cast("Mapping[object, object]", value)
    # one item more than there are keys is enough to refuse (a key twice or
    # unknown), however many a hostile mapping would go on giving
    try:
        pairs = [(k, v) for k, v in islice(items.items(), len(keys) + 1)]
    except RuleInputError:
        raise
    except Exception as error:
        raise RuleInputError(
            say(
                "unread_mapping",
                name=name,
                keys=keys.__name__,
                values=values.__name__,
                error=type(error).__name__,
            )
        ) from error
    result: dict[K, V] = {}
    given: dict[K, object] = {}
    for k, v in pairs:
        key = choice(keys, key_by_label, k, f"a key of {name}")
        if key in given:
            raise RuleInputError(
                say(
                    "two_keys",
                    name=name,
                    label=repr(key.value),
                    first=shown(given[key]),
                    second=shown(k),
                )
            )
        given[key] = k
        result[key] = choice(values, value_by_label, v, f"{name}[{shown(k)}]")
    missing = [m.value for m in keys if m not in result]
    if missing:
        listed = ", ".join(map(repr, missing))
        raise RuleInputError(say("no_value_for", name=name, missing=listed))
    return result


L = TypeVar("L", bound=Ladder)


def step(member: L | None, by: int, past_end: str) -> L | None:
    """The member ``by`` steps along ``member``'s ladder (negative: down).

    Past either end: None for ``"none"``, the end member for ``"clamp"``, and
    RuleInputError for ``"error"``, as the rules declare.
    """
    if member is None:
        return None
    members = list(type(member))
    at = members.index(member) + by
    if 0 <= at < len(members):
        return members[at]
    if past_end == "clamp":
        return members[0] if at < 0 else members[-1]
    if past_end == "error":
        raise RuleInputError(
            f"{member.value!r} {by:+d} steps is past the end of {type(member).__name__}"
        )
    return None
