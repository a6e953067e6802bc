"""The model of a pool rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import RuleBase
from ...runtime.dice import Dice


@dataclass(frozen=True, slots=True)
class PoolRule(RuleBase):
    """A pool of points dealt a roll at a time, at a fixed interval."""

    function: str
    deal: Dice
    interval_minutes: int
    interval_text: str  # "1 hour", "2 hours"
    every_text: str  # "every hour", "every 2 hours"
    save_divisor: int
    save_minimum: int
    kind: Literal["pool"] = "pool"
