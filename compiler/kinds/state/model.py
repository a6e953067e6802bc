"""The model of a state rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import RuleBase


@dataclass(frozen=True, slots=True)
class StateTransition:
    """A method that moves a state's level."""

    name: str
    step: Literal["up", "down"] | None  # a step by ``by`` levels, or
    to: Literal["floor", "ceiling", "param"] | None  # a move to a level
    by: int | None  # a fixed number of levels
    param: str | None  # the method's parameter (for ``by`` or ``to``)
    default: int | None
    max: int | None
    description: str


@dataclass(frozen=True, slots=True)
class StateFlag:
    name: str
    from_level: int
    description: str


@dataclass(frozen=True, slots=True)
class StateRule(RuleBase):
    """A level on a ladder, each level with an effect, moved by named transitions."""

    class_name: str
    effects: tuple[str, ...]  # level 1 first
    floor: int
    cumulative: bool
    transitions: tuple[StateTransition, ...]
    flags: tuple[StateFlag, ...]
    kind: Literal["state"] = "state"
