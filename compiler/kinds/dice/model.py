"""The model of a dice rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import RuleBase
from ...runtime.dice import Dice


@dataclass(frozen=True, slots=True)
class DiceRule(RuleBase):
    constant: str
    dice: Dice
    kind: Literal["dice"] = "dice"
