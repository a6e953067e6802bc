"""States: a level on a ladder, moved by named transitions between a floor and a
ceiling; or a record of named fields, changed by transitions."""

from __future__ import annotations

from typing import ClassVar

from ._support import shown
from .errors import RuleInputError
from .json import JSON, to_data

__all__ = ["LevelState", "RecordState"]


class LevelState:
    """One subject's level on a ladder of levels, each with an effect.

    Level 0 is none; the levels the rules list are 1, 2, ... up to the ceiling.
    Effects are cumulative (every level's effect up to the current one) or not
    (only the current level's). A generated subclass fills in the class
    attributes and names the transitions as methods.
    """

    __slots__ = ("_level",)

    _floor: ClassVar[int] = 0
    _ceiling: ClassVar[int] = 0
    _effects: ClassVar[tuple[str, ...]] = ()  # level 1 first
    _cumulative: ClassVar[bool] = True

    def __init__(self, level: int | None = None) -> None:
        if level is None:
            level = self._floor
        self._level = self._checked(level, "level", self._floor, self._ceiling)

    @classmethod
    def _checked(cls, value: object, name: str, lo: int, hi: int | None) -> int:
        if type(value) is not int or value < lo or (hi is not None and value > hi):
            most = "" if hi is None else f"..{hi}"
            raise RuleInputError(
                f"{name} must be an int in {lo}{most or ' or more'}, not {shown(value)}"
            )
        return value

    @property
    def level(self) -> int:
        """The current level (0: none)."""
        return self._level

    @property
    def effects(self) -> tuple[str, ...]:
        """What the current level means, lowest level first."""
        if not self._level:
            return ()
        if self._cumulative:
            return self._effects[: self._level]
        return (self._effects[self._level - 1],)

    def to_dict(self) -> dict[str, JSON]:
        """The state as plain JSON-able data: its level and what it means."""
        return {"level": self._level, "effects": list(self.effects)}

    def _move(self, steps: int) -> int:
        self._level = min(max(self._level + steps, self._floor), self._ceiling)
        return self._level

    def _set(self, level: int) -> int:
        self._level = level
        return level

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, LevelState)
        return other._level == self._level

    __hash__: ClassVar[None] = None  # type: ignore[assignment]  # a state changes: not a dict key

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self._level})"


class RecordState:
    """One subject's state as a record of named fields (numbers, flags, and
    values of any type the rules declare: a state held is a copy of its own).

    A generated subclass names the fields in ``_fields``, keeps each in a slot
    of its own (``_`` and the field's name), reads it as a property, and names
    the transitions as methods.
    """

    __slots__ = ()

    _fields: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()  # derived properties its data gives too
    # the JSON keys of the fields and the properties shown, where one is named
    # otherwise in Python (``class_`` for the rules' ``class``)
    _keys: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, "_" + name) for name in self._fields)

    def to_dict(self) -> dict[str, JSON]:
        """The state as plain JSON-able data: each field by its name, then the
        derived properties it shows (a list of texts as a list)."""
        values = [
            *(to_data(value) for value in self._values()),
            *(to_data(getattr(self, n)) for n in self._shown),
        ]
        keys = self._keys or (*self._fields, *self._shown)
        return dict(zip(keys, values, strict=True))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, RecordState)
        return other._values() == self._values()

    __hash__: ClassVar[None] = None  # type: ignore[assignment]  # a state changes: not a dict key

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(self._fields, self._values(), strict=True)
        )
        return f"{type(self).__name__}({fields})"
