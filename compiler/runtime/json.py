"""JSON for every value of the runtime: ``to_data`` and ``dumps``.

One format, whatever the language that reads it:

- a record (a result, a row, an event) is an object keyed by its field names as
  the rules data names them (``_KEYS``, where a field's Python name is another,
  as ``class_`` for ``class``), every field present (``None`` is ``null``, never
  left out); a field whose name starts with ``_`` is the runtime's own and is
  left out;
- a label (a member of a ``StrEnum``) is its label string;
- dice are ``{"notation": "2d6x10", "count": 2, "sides": 6, "modifier": 0,
  "multiplier": 10, "unit": null}``;
- an exact ``Fraction`` is a ``"n/d"`` string (``"3"`` when whole), of any
  size: its digits are written (and ``fraction`` reads them back) however
  many they are, past Python's limit of 4,300 on turning an int into text,
  which neither is asked nor changed;
- a mapping is an object keyed by its keys as strings (a label's string, an
  int's digits, a tuple's JSON text: ``"[3, true]"``), so a distribution is
  keyed by each value (the odds of fields together by each tuple of them); a
  distribution's own figures (a success pool's ``tail`` and
  ``dramatic_failure``) follow its values;
- a tuple or a list is an array.

What JSON cannot say is refused with ``RuleTypeError``, as the JavaScript
runtime refuses it: a float that is NaN or an infinity (JSON has neither), a
value nested more than ``MAX_NESTING`` levels deep, and a mapping two of whose
keys are written as one JSON key (``{1: "a", "1": "b"}``: no key is lost).

Every record class of the generated package has ``to_dict()``, which answers
``to_data(self)``. ``loads`` reads JSON text back as that plain data (an
integer of any length too), and ``fraction`` a fraction's text as the
``Fraction`` it was: ``fraction`` of each chance of ``loads(dumps(odds))`` is
that chance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from itertools import islice
from typing import Any, TypeAlias, TypeVar, cast

from ._support import MAX_ENTRIES, MAX_NESTING, Frozen, shown, too_many
from .dice import Dice
from .errors import RuleInputError, RuleTypeError

_T = TypeVar("_T")

__all__ = ["JSON", "Record", "dumps", "fraction", "loads", "record", "to_data"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A value ``json.dumps`` writes as it is."""


def to_data(obj: object) -> JSON:
    """``obj`` as plain JSON-able data (see the module's doc for the format).

    Raises ``RuleTypeError`` (a ``RuleInputError`` and a ``TypeError``) for a
    value that is not of the runtime, or one that raises as it is read.
    """
    return _guarded(_data, obj)


_TOO_DEEP = (
    f"a value nested more than {MAX_NESTING} levels deep is not a value of the "
    "rules runtime"
)


def _guarded(read: Callable[[object], _T], obj: object) -> _T:
    """``read(obj)``, any error of reading ``obj`` a ``RuleTypeError``."""
    try:
        return read(obj)
    except RuleInputError:
        raise
    except RecursionError:  # nested deeper than the stack (a to_dict's answer)
        raise RuleTypeError(_TOO_DEEP) from None
    except Exception as error:  # a hostile value (its __getattr__, items, to_dict)
        raise RuleTypeError(
            f"{shown(obj)} could not be read as a value of the rules runtime: "
            f"{type(error).__name__} raised"
        ) from error


def _finite(value: float) -> float:
    """A float JSON can write: refused when NaN or an infinity."""
    if value != value or value in (float("inf"), float("-inf")):
        name = "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"
        raise RuleTypeError(
            f"{name} is not a value of the rules runtime: JSON has no NaN or infinity"
        )
    return value


def _data(obj: object, depth: int = 0) -> JSON:
    if depth > MAX_NESTING:
        raise RuleTypeError(_TOO_DEEP)
    if obj is None:
        return None
    if isinstance(obj, Enum):
        return _data(obj.value, depth)
    if isinstance(obj, bool):
        return bool(obj)
    if isinstance(obj, int):
        return int.__index__(obj)
    if isinstance(obj, float):
        return _finite(float(obj))
    if isinstance(obj, str):
        return str.__str__(obj)
    if isinstance(obj, Fraction):
        return _fraction_text(obj)
    if isinstance(obj, Dice):
        data: dict[str, JSON] = {}
        data.update(obj.to_dict())
        return data
    found = _record(obj, depth)
    if found is not None:
        return found
    if isinstance(obj, Mapping):
        pairs = cast("Mapping[object, object]", obj)
        own: dict[str, object] = getattr(pairs, "__dict__", {})
        entries = [*_entries(pairs.items())]
        entries += [(n, v) for n, v in own.items() if not n.startswith("_")]
        items: dict[str, JSON] = {}
        for name, value in entries:  # in order: its key, then its value
            key = _key(name)
            if key in items:
                raise RuleTypeError(
                    f"two keys of one mapping are both written as the JSON key "
                    f"{str.__repr__(key)}"
                )
            items[key] = _data(value, depth + 1)
        return items
    if isinstance(obj, list | tuple):
        items_of = cast("list[object] | tuple[object, ...]", obj)
        return [_data(v, depth + 1) for v in items_of]
    to_dict = getattr(obj, "to_dict", None)
    if callable(to_dict):  # its answer is JSON data, checked as any value is
        return _data(cast("Callable[[], object]", to_dict)(), depth)
    raise RuleTypeError(f"{type(obj).__name__} is not a value of the rules runtime")


def _entries(items: Iterable[tuple[object, object]]) -> list[tuple[object, object]]:
    """A mapping's items, refused past ``MAX_ENTRIES`` (a mapping of the caller's
    may never end)."""
    found = list(islice(items, MAX_ENTRIES + 1))
    if len(found) > MAX_ENTRIES:
        raise too_many("entries of one mapping")
    return found


def record(obj: object) -> dict[str, JSON]:
    """A record (of the runtime, a dataclass or a named tuple) as an object of its
    public fields.

    Raises ``RuleTypeError`` (a ``RuleInputError`` and a ``TypeError``) for
    anything else.
    """
    found = _guarded(_record, obj)
    if found is None:
        raise RuleTypeError(f"{type(obj).__name__} is not a record")
    return found


def _record(obj: object, depth: int = 0) -> dict[str, JSON] | None:
    item: object = obj  # read as it is, whatever the checks below narrow obj to
    fields: object = getattr(obj, "_fields", None)  # a named tuple's field names
    keys: object = None  # the JSON keys, where a field's name is not its key
    if isinstance(obj, Frozen):
        names = list(obj.FIELDS)
        keys = getattr(type(obj), "_KEYS", None)
    elif hasattr(type(obj), "__dataclass_fields__"):  # a dataclass of the caller's
        import dataclasses

        names = [f.name for f in dataclasses.fields(cast("Any", obj))]
    elif isinstance(obj, tuple) and isinstance(fields, tuple):
        names = [str(n) for n in cast("tuple[object, ...]", fields)]
    else:
        return None
    shown = list(cast("tuple[str, ...]", keys)) if keys else names
    return {
        k: _data(getattr(item, n), depth + 1)
        for n, k in zip(names, shown, strict=True)
        if not n.startswith("_")
    }


def _key(key: object) -> str:
    if isinstance(key, Enum):
        key = key.value
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, str):
        return str.__str__(key)
    if isinstance(key, int):
        return int.__repr__(int.__index__(key))
    if isinstance(key, Fraction):
        return _fraction_text(key)
    if isinstance(key, tuple):  # an answer of fields together: its JSON text
        import json

        items = cast("tuple[object, ...]", key)
        return json.dumps([_data(item) for item in items])
    raise RuleTypeError(f"a {type(key).__name__} key is not a key of the rules runtime")


def dumps(obj: object, **kwargs: Any) -> str:
    """``json.dumps(to_data(obj), **kwargs)``: ``obj`` as JSON text.

    Raises ``RuleTypeError`` as ``to_data`` does, and for what ``json.dumps``
    refuses (an int too long to write, a wrong keyword).
    """
    import json

    data = to_data(obj)
    try:
        return json.dumps(data, **kwargs)
    except RuleInputError:
        raise
    except Exception as error:
        raise RuleTypeError(
            f"{shown(obj)} could not be written as JSON: {type(error).__name__} raised"
        ) from error


_SHORT = 4000  # digits Python turns into text and back itself (its limit: 4,300)
_WHOLE = re.compile(r"-?[0-9]+")


def _digits(number: int) -> str:
    """``number``'s decimal digits, however many: past ``_SHORT`` by the
    ``decimal`` module, whose conversions Python does not limit."""
    if -(10**_SHORT) < number < 10**_SHORT:
        return int.__repr__(number)
    return str(Decimal(number))


def _whole(text: str) -> int:
    """The int of ASCII decimal digits ``text`` (a minus sign first, at most),
    however many."""
    if _WHOLE.fullmatch(text) is None:
        raise ValueError(f"not a whole number: {shown(text)}")
    return int(text) if len(text) <= _SHORT else int(Decimal(text))


def _fraction_text(value: Fraction) -> str:
    if value.denominator == 1:
        return _digits(value.numerator)
    return f"{_digits(value.numerator)}/{_digits(value.denominator)}"


def fraction(text: object) -> Fraction:
    """The exact ``Fraction`` a fraction's JSON text (``"n/d"``, or ``"n"``
    when whole) writes, however many digits it has.

    Raises ``RuleInputError`` for anything else.
    """
    if isinstance(text, str) and issubclass(type(text), str):  # pyright: ignore[reportUnnecessaryIsInstance]
        top, slash, bottom = str.__str__(text).partition("/")
        try:
            return Fraction(_whole(top), _whole(bottom) if slash else 1)
        except (ValueError, ZeroDivisionError):
            pass
    raise RuleInputError(f"a fraction is text 'n/d' or 'n', not {shown(text)}")


def loads(text: str | bytes) -> JSON:
    """JSON text (``dumps``'s, or any) as plain data: ``json.loads``, an
    integer of any length read whole.

    Raises ``RuleInputError`` for text that is not JSON.
    """
    import json

    try:
        data: JSON = json.loads(text, parse_int=_whole)
    except (ValueError, TypeError, RecursionError) as error:
        raise RuleInputError(f"not JSON text: {type(error).__name__} raised") from None
    return data


class Record(Frozen):
    """The base of every record class of the generated package (rows, results):
    a ``Frozen`` record (see ``rulebook._support``) with ``to_dict()``."""

    __slots__ = ()

    def to_dict(self) -> dict[str, JSON]:
        """This record as plain JSON-able data, keyed by its field names."""
        return record(self)
