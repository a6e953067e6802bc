"""The model of a formula rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    Loc,
    Param,
    RuleBase,
)
from ...lang.expr import Checked


@dataclass(frozen=True, slots=True)
class Let:
    """A name the rule binds to an expression's value, worked out (and rolled)
    once, in order, before the rule's expression."""

    name: str
    text: str
    checked: Checked
    description: str | None
    loc: Loc


@dataclass(frozen=True, slots=True)
class FormulaRule(RuleBase):
    function: str
    unit: str | None
    params: tuple[Param, ...]
    expression: str
    checked: Checked
    unbounded_because: str | None = None
    lets: tuple[Let, ...] = ()
    kind: Literal["formula"] = "formula"
