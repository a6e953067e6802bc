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
- an exact ``Fraction`` is a ``"n/d"`` string (``"3"`` when whole);
- a mapping is an object keyed by its keys as strings (a label's string, an
  int's digits), so a distribution is keyed by each value; a distribution's own
  figures (a success pool's ``tail`` and ``dramatic_failure``) follow its values;
- a tuple or a list is an array.

Every record class of the generated package has ``to_dict()``, which answers
``to_data(self)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from fractions import Fraction
from itertools import islice
from typing import Any, TypeAlias, TypeVar, cast

from ._support import MAX_ENTRIES, Frozen, shown, too_many
from .dice import Dice
from .errors import RuleInputError, RuleTypeError

_T = TypeVar("_T")

__all__ = ["JSON", "Record", "dumps", "record", "to_data"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A value ``json.dumps`` writes as it is."""


def to_data(obj: object) -> JSON:
    """``obj`` as plain JSON-able data (see the module's doc for the format).

    Raises ``RuleTypeError`` (a ``RuleInputError`` and a ``TypeError``) for a
    value that is not of the runtime, or one that raises as it is read.
    """
    return _guarded(_data, obj)


def _guarded(read: Callable[[object], _T], obj: object) -> _T:
    """``read(obj)``, any error of reading ``obj`` a ``RuleTypeError``."""
    try:
        return read(obj)
    except RuleInputError:
        raise
    except Exception as error:  # a hostile value (its __getattr__, items, to_dict)
        raise RuleTypeError(
            f"{shown(obj)} could not be read as a value of the rules runtime: "
            f"{type(error).__name__} raised"
        ) from error


def _data(obj: object) -> JSON:
    if obj is None:
        return None
    if isinstance(obj, Enum):
        return _data(obj.value)
    if isinstance(obj, bool):
        return bool(obj)
    if isinstance(obj, int):
        return int.__index__(obj)
    if isinstance(obj, float):
        return float(obj)
    if isinstance(obj, str):
        return str.__str__(obj)
    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, Dice):
        data: dict[str, JSON] = {}
        data.update(obj.to_dict())
        return data
    found = _record(obj)
    if found is not None:
        return found
    if isinstance(obj, Mapping):
        pairs = cast("Mapping[object, object]", obj)
        items = {_key(k): _data(v) for k, v in _entries(pairs.items())}
        own: dict[str, object] = getattr(pairs, "__dict__", {})
        for name, value in own.items():
            if not name.startswith("_"):
                items[name] = _data(value)
        return items
    if isinstance(obj, list | tuple):
        return [_data(v) for v in cast("list[object] | tuple[object, ...]", obj)]
    to_dict = getattr(obj, "to_dict", None)
    if callable(to_dict):
        answer: JSON = cast("Callable[[], JSON]", to_dict)()
        return answer
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


def _record(obj: object) -> dict[str, JSON] | None:
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
        k: _data(getattr(item, n))
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
        return str(key)
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


class Record(Frozen):
    """The base of every record class of the generated package (rows, results):
    a ``Frozen`` record (see ``rulebook._support``) with ``to_dict()``."""

    __slots__ = ()

    def to_dict(self) -> dict[str, JSON]:
        """This record as plain JSON-able data, keyed by its field names."""
        return record(self)
