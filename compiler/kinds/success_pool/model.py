"""The model of a success_pool rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...model import RuleBase
from ...runtime._success_pool import SuccessPool


@dataclass(frozen=True, slots=True)
class SuccessPoolRule(RuleBase):
    """A dice pool that counts successes."""

    constant: str
    roll_function: str
    distribution_function: str
    pool: SuccessPool
    chart_pools: tuple[int, ...] | None
    chart_beat: tuple[int, ...] | None
    chart_title: str | None
    kind: Literal["success_pool"] = "success_pool"

    @property
    def function(self) -> str:
        """The function examples call: the roll."""
        return self.roll_function
