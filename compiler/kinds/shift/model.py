"""The model of a shift rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    CellValue,
    EnumMember,
    RuleBase,
)
from ..table.model import TableRule


@dataclass(frozen=True, slots=True)
class ShiftRule(RuleBase):
    """A step up or down an ordered table's ladder, with cells overridden."""

    function: str
    table: TableRule
    offset: int
    applies_from: EnumMember | None
    overrides: tuple[tuple[str, CellValue], ...]
    shifted: tuple[tuple[EnumMember, EnumMember | None], ...]  # level -> level used
    kind: Literal["shift"] = "shift"
