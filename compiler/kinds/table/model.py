"""The model of a table rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    Column,
    EnumType,
    Row,
    RuleBase,
)
from ...runtime.dice import Dice


@dataclass(frozen=True, slots=True)
class TableRoll:
    """A table keyed by rolls: the dice, and the range column each row claims."""

    function: str
    column: str
    dice: Dice


@dataclass(frozen=True, slots=True)
class TableRule(RuleBase):
    function: str
    key_param: str
    key_title: str
    enum: EnumType
    row_class: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    rolls: TableRoll | None = None
    kind: Literal["table"] = "table"
