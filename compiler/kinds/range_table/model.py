"""The model of a range_table rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    CellValue,
    Column,
    EnumType,
    Loc,
    Param,
    RuleBase,
)
from ...runtime.dice import Dice


@dataclass(frozen=True, slots=True)
class RangeRow:
    lo: int
    hi: int | None  # None: open-ended
    label: str | None
    cells: tuple[CellValue, ...]
    loc: Loc


@dataclass(frozen=True, slots=True)
class RangeTableRule(RuleBase):
    """A table keyed by ranges of an integer (a damage total, a spin, a 3d roll)."""

    function: str
    param: Param
    param_title: str
    below: Literal["none", "error"]
    row_class: str | None  # the row dataclass, or None for a mapping result
    mapping_enum: EnumType | None  # columns become this enum's members
    columns: tuple[Column, ...]
    rows: tuple[RangeRow, ...]
    covers: Dice | None
    kind: Literal["range_table"] = "range_table"
