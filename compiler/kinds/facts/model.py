"""The model of a facts rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    CellValue,
    Column,
    RuleBase,
)


@dataclass(frozen=True, slots=True)
class FactsRule(RuleBase):
    """A few typed facts, exported as one constant record."""

    constant: str
    class_name: str
    fields: tuple[Column, ...]
    values: tuple[CellValue, ...]
    kind: Literal["facts"] = "facts"
