"""The model of a exposure_schedule rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    EnumType,
    RuleBase,
)
from ..dice.model import DiceRule
from ..shift.model import ShiftRule
from ..table.model import TableRule


@dataclass(frozen=True, slots=True)
class ExposureScheduleRule(RuleBase):
    """Which exposures one contact causes: an immediate one, then a full or a lesser one."""

    function: str
    table: TableRule
    full_time: DiceRule
    record: str
    kind_enum: EnumType  # members: instant, half, full (labels from the rules)
    instant: ShiftRule
    half: ShiftRule
    half_fraction: tuple[int, int]
    stayed_param: str  # how long the subject stayed in contact
    full_param: str  # the rolled time to a full exposure
    start_field: str  # the record field: when its course starts
    kind: Literal["exposure_schedule"] = "exposure_schedule"
