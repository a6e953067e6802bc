"""The model of a record state: named fields, derived properties and transitions
whose logic is expressions (the checked, immutable record its outputs come from)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.declared import Declared
from ...front.model import (
    EnumType,
    Param,
    RuleBase,
)
from ...kinds.formula.model import Let
from ...lang.nodes import Checked


@dataclass(frozen=True, slots=True)
class RecordField:
    """A field of the record: an int between its bounds (clamped to them), a
    flag, or (``held``) a value of any type the rules declare (a label, a
    text, a list, a record, a state)."""

    name: str
    type: str
    start: Checked  # an expression of the constructor's parameters
    min: int | None
    max: int | None
    description: str | None
    held: Declared | None = None


@dataclass(frozen=True, slots=True)
class Derived:
    """A read-only property: an expression of the fields (of any type: ``held``)."""

    name: str
    type: str
    checked: Checked
    description: str | None
    held: Declared | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """One field's new value, from the values before the transition; ``clamp``
    when the checker cannot prove the value within the field's bounds."""

    field: str
    checked: Checked
    clamp: bool


@dataclass(frozen=True, slots=True)
class RecordTransition:
    """A method: checked parameters, an optional ``unless`` (then nothing
    changes), names bound in order, then every assignment at once."""

    name: str
    params: tuple[Param, ...]
    unless: Checked | None
    lets: tuple[Let, ...]
    sets: tuple[Assignment, ...]
    description: str


@dataclass(frozen=True, slots=True)
class RecordStateRule(RuleBase):
    """A state that is a record of named fields, changed by transitions."""

    class_name: str
    fields: tuple[RecordField, ...]
    derived: tuple[Derived, ...]
    transitions: tuple[RecordTransition, ...]
    params: tuple[Param, ...] = ()  # what a new state takes (its fields start from)
    owned_enums: tuple[EnumType, ...] = ()  # the sets of labels it defines
    kind: Literal["state"] = "state"

    def field(self, name: str) -> RecordField:
        return next(f for f in self.fields if f.name == name)
