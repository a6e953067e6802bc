"""The model of a recovery rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import RuleBase


@dataclass(frozen=True, slots=True)
class RecoveryRule(RuleBase):
    """Points that heal an amount at a time, at a fixed interval."""

    function: str
    amount: int
    interval_minutes: int
    interval_text: str  # "1 day", "2 days"
    every_text: str  # "every day", "every 2 days"
    kind: Literal["recovery"] = "recovery"
