"""Values: arguments of any type checked (lists, records, texts), a list's item by its position, the highest of a list, and a state changed as a value.

Arguments. A parameter that is a list, a record or a text is checked by its
``Spec``, which answers the value as the rule reads it or refuses it with
``RuleInputError`` naming the parameter (``saves[2]``, ``attacker.bonus``):
a list (any sequence but a text) as a tuple of its checked items, between a
least and a most of them; a record as an instance of its class (given as one,
or as a mapping of its fields by the rules' names); a text as a ``str``; a
whole number, a flag and a label as every function checks its own. The
JavaScript runtime's ``_values.js`` checks alike and says the same.

A state held as a value (a field of another state, a value a loop carries) is
changed by ``changed``, which answers a changed copy: a state is a value,
never shared.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, Generic, TypeVar, cast

from ._state import RecordState
from ._support import MAX_EXACT, bad_bool, bad_int, choice, shown
from .errors import RuleInputError

__all__ = [
    "Bool",
    "Choice",
    "Fields",
    "Int",
    "Listed",
    "Maybe",
    "Spec",
    "StateOf",
    "Text",
    "changed",
    "held",
    "item",
    "least",
    "most",
]

T = TypeVar("T")
E = TypeVar("E", bound=Enum)
S = TypeVar("S", bound=RecordState)


class Spec(Generic[T]):
    """How an argument of one type is checked: ``check(value, name)`` answers
    it as the rule reads it, or raises ``RuleInputError`` naming ``name``."""

    def check(self, value: object, name: str) -> T:
        raise NotImplementedError


class Int(Spec[int]):
    """A whole number within ``lo`` and ``hi`` (None: no limit that way)."""

    def __init__(self, lo: int | None, hi: int | None) -> None:
        self.lo, self.hi = lo, hi

    def check(self, value: object, name: str) -> int:
        if type(value) is not int:
            raise bad_int(value, name, self.lo, self.hi)
        low = -MAX_EXACT if self.lo is None else self.lo
        high = MAX_EXACT if self.hi is None else self.hi
        if not low <= value <= high:
            raise bad_int(value, name, self.lo, self.hi)
        return value


class Bool(Spec[bool]):
    """A flag."""

    def check(self, value: object, name: str) -> bool:
        if type(value) is not bool:
            raise bad_bool(value, name)
        return value


class Text(Spec[str]):
    """A text (its plain ``str``)."""

    def check(self, value: object, name: str) -> str:
        if not isinstance(value, str):
            raise RuleInputError(f"{name} must be a text, not {shown(value)}")
        return str.__str__(value)


class Choice(Spec[E]):
    """A label of a set (a member, or its label in any case)."""

    def __init__(self, kind: type[E], by_label: Mapping[str, E]) -> None:
        self.kind, self.by_label = kind, by_label

    def check(self, value: object, name: str) -> E:
        return choice(self.kind, self.by_label, value, name)


class Maybe(Spec[T | None]):
    """A value of ``inner``'s type, or None."""

    def __init__(self, inner: Spec[T]) -> None:
        self.inner = inner

    def check(self, value: object, name: str) -> T | None:
        return None if value is None else self.inner.check(value, name)


class StateOf(Spec[S]):
    """A state of the class ``kind`` (a copy of it: a state is a value)."""

    def __init__(self, kind: type[S]) -> None:
        self.kind = kind

    def check(self, value: object, name: str) -> S:
        if not isinstance(value, self.kind):
            raise RuleInputError(f"{name} must be a state {self.kind.__name__}")
        return copy.copy(value)


class Listed(Spec[tuple[T, ...]]):
    """A list of ``item``s, between ``lo`` and ``hi`` of them (None: no most)."""

    def __init__(self, item: Spec[T], lo: int, hi: int | None) -> None:
        self.item, self.lo, self.hi = item, lo, hi

    def check(self, value: object, name: str) -> tuple[T, ...]:
        if not isinstance(value, list | tuple):
            raise RuleInputError(f"{name} must be a list, not {shown(value)}")
        items = cast("Sequence[object]", value)
        count = len(items)
        if count < self.lo or (self.hi is not None and count > self.hi):
            most = "" if self.hi is None else str(self.hi)
            raise RuleInputError(
                f"{name} must hold {self.lo}..{most} items, not {count}"
            )
        return tuple(self.item.check(v, f"{name}[{i}]") for i, v in enumerate(items))


class Fields(Spec[T]):
    """A record of the class ``kind``: an instance of it, or a mapping of its
    fields by the rules' names; each field (the rules' name, the attribute
    that holds it, its spec) checked."""

    def __init__(
        self,
        kind: type[T],
        fields: Callable[[], tuple[tuple[str, str, Spec[Any]], ...]],
    ) -> None:
        self.kind, self.made = kind, fields
        self.known: tuple[tuple[str, str, Spec[Any]], ...] | None = None

    @property
    def fields(self) -> tuple[tuple[str, str, Spec[Any]], ...]:
        """Each field's name in the rules, its attribute and its spec (made
        when first asked for: records may hold each other)."""
        if self.known is None:
            self.known = self.made()
        return self.known

    def check(self, value: object, name: str) -> T:
        given: dict[str, object] = {}
        if isinstance(value, self.kind):
            for key, attr, _ in self.fields:
                given[key] = getattr(value, attr)
        elif isinstance(value, Mapping):
            found = _entries(cast("Mapping[object, object]", value), name)
            for key, attr, _ in self.fields:
                if key not in found and attr not in found:
                    raise RuleInputError(f"{name} has no field {key!r}")
                given[key] = found[key] if key in found else found[attr]
        else:
            raise RuleInputError(
                f"{name} must be a record of its fields, not {shown(value)}"
            )
        made = {
            attr: spec.check(given[key], f"{name}.{key}")
            for key, attr, spec in self.fields
        }
        return self.kind(**made)


def _entries(value: Mapping[object, object], name: str) -> dict[object, object]:
    """A mapping's items, as a dict (reading them may fail: refused)."""
    try:
        return dict(value.items())
    except RuleInputError:
        raise
    except Exception as error:
        raise RuleInputError(
            f"{name} must be a record of its fields: reading its items raised "
            f"{type(error).__name__}"
        ) from error


def item(items: Sequence[T], at: int) -> T:
    """The item at position ``at`` (from 0; negative: from the end), or
    ``RuleInputError`` where the list has none there."""
    if not -len(items) <= at < len(items):
        raise RuleInputError(f"a list of {len(items)} items has no item {at}")
    return items[at]


def most(items: Sequence[T], key: Callable[[T], int] | None = None) -> T:
    """The highest item (by ``key``: the first of those), or ``RuleInputError``
    for an empty list."""
    return _extreme(items, key, "highest")


def least(items: Sequence[T], key: Callable[[T], int] | None = None) -> T:
    """The lowest item (by ``key``: the first of those), or ``RuleInputError``
    for an empty list."""
    return _extreme(items, key, "lowest")


def _extreme(items: Sequence[T], key: Callable[[T], int] | None, which: str) -> T:
    if not items:
        raise RuleInputError(f"the {which} of an empty list has no value")
    read: Callable[[T], Any] = (lambda item: item) if key is None else key
    pick = max if which == "highest" else min
    return pick(items, key=read)


def changed(state: S, change: Callable[[S], object]) -> S:
    """A copy of ``state`` after ``change`` (a transition called on it):
    ``state`` itself does not change."""
    after = copy.copy(state)
    change(after)
    return after


def held(state: S) -> S:
    """A copy of a state a value holds, to hand out (a change to it changes
    nothing that holds it)."""
    return copy.copy(state)
