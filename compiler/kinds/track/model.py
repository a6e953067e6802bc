"""The model of a track rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import (
    EnumMember,
    EnumType,
    RuleBase,
)
from ...runtime.dice import Dice


@dataclass(frozen=True, slots=True)
class TrackEffect:
    member: EnumMember
    stages: tuple[EnumMember, ...]  # conditions, stage 1 first
    marks: bool  # instead of stages: each roll marks a point
    description: str | None


@dataclass(frozen=True, slots=True)
class TrackRule(RuleBase):
    """Staged effects rolled on a die: each roll moves one effect a stage on."""

    class_name: str
    outcome: str
    effect_enum: EnumType
    condition_enum: EnumType
    effects: tuple[TrackEffect, ...]
    roll: Dice
    every: int  # a roll every this many points
    reroll_label: str
    mark_field: str  # the outcome's field saying a roll marked a point
    kind: Literal["track"] = "track"

    @property
    def reroll_stage(self) -> int:
        return max(len(e.stages) for e in self.effects) + 1
