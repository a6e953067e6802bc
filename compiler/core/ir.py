"""Core IR: types, values and declarations of the one language every kind lowers to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..model import Column
from ..runtime.dice import Dice

# -- types -----------------------------------------------------------------------------

Prim = Literal["int", "bool", "text", "dice", "range"]


@dataclass(frozen=True, slots=True)
class Named:
    """A record declared by a unit (by its class name)."""

    name: str


Type = Prim | Named


# -- values ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class New:
    """A record made of its fields' values, in the record's order."""

    record: str
    fields: tuple[tuple[Column, Value], ...]


Scalar = None | bool | int | str | Dice | tuple[int, int]
Value = Scalar | New


# -- declarations ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Record:
    """A record type: named, typed fields (``Column``: type, nullability, title,
    description, unit, sign and null label as a reader sees them)."""

    name: str
    doc: str
    fields: tuple[Column, ...]


@dataclass(frozen=True, slots=True)
class Const:
    """A named value of the module; ``aliases`` are further names for it."""

    name: str
    type: Type
    value: Value
    doc: str
    aliases: tuple[str, ...] = ()


Decl = Record | Const


@dataclass(frozen=True, slots=True)
class Unit:
    """One rule, lowered: its declarations in the order a module gives them, and
    the one a call of the rule reads (``entry``, the name of a ``Const``).

    Docs text (a ``doc``) is plain text whose inline code is written
    ``` ``so`` ```; each emitter writes it in its own markup.
    """

    decls: tuple[Decl, ...]
    entry: str

    def const(self, name: str) -> Const:
        return next(d for d in self.decls if isinstance(d, Const) and d.name == name)

    def record(self, name: str) -> Record:
        return next(d for d in self.decls if isinstance(d, Record) and d.name == name)

    @property
    def main(self) -> Const:
        """The declaration a call of the rule reads."""
        return self.const(self.entry)
