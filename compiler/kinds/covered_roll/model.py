"""The model of a covered_roll rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    EnumMember,
    EnumType,
    RuleBase,
)
from ...runtime.dice import Dice
from ..table.model import TableRule


@dataclass(frozen=True, slots=True)
class CoveredRollRule(RuleBase):
    """A location rolled on a table, then checked against what cover hides."""

    function: str
    result: str
    table: TableRule
    exposure_function: str  # the rule answering each location's exposure
    value_enum: EnumType
    covered: EnumMember
    half: EnumMember
    check: Dice
    strikes_from: int
    strikes_to: int
    exposure_title: str = ""  # that rule's title
    kind: Literal["covered_roll"] = "covered_roll"
