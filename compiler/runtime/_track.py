"""Staged tracks: effects rolled on a die, each roll moving one effect a stage on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Generic, TypeVar

from ._support import folded, shown
from .errors import RuleInputError
from .json import JSON, to_data

__all__ = ["StagedTrack"]

E = TypeVar("E", bound=StrEnum)
C = TypeVar("C", bound=StrEnum)


class StagedTrack(Generic[E, C]):
    """One character's place on every effect of a track.

    ``effects`` lists, in die order, each effect with its conditions (stage 1
    first); an effect with no stages marks a point every time. An
    effect the character already has, or whose next condition the character
    already suffers, moves on a stage; past the last stage the roll is a reroll
    and the effect stays at its last stage.
    """

    __slots__ = ("_effects", "_stage")

    def __init__(self, effects: Sequence[tuple[E, Sequence[C]]]) -> None:
        self._effects = tuple((effect, tuple(stages)) for effect, stages in effects)
        self._stage: dict[E, int] = {}

    def stage(self, effect: E) -> int:
        """The stage the character is at on ``effect`` (0: not yet): a member, or
        its label in any case."""
        key = folded(effect)
        for known, _ in self._effects:
            if effect is known or key == str.casefold(known.value):
                return self._stage.get(known, 0)
        labels = ", ".join(repr(known.value) for known, _ in self._effects)
        raise RuleInputError(f"effect must be one of {labels}, not {shown(effect)}")

    @property
    def stages(self) -> Mapping[E, int]:
        """Every effect the character has, with its stage."""
        return dict(self._stage)

    @property
    def conditions(self) -> tuple[C, ...]:
        """The conditions the character suffers now, one per staged effect."""
        found: list[C] = []
        for effect, stages in self._effects:
            at = self._stage.get(effect, 0)
            if stages and at and stages[at - 1] not in found:
                found.append(stages[at - 1])
        return tuple(found)

    def to_dict(self) -> dict[str, JSON]:
        """The track as plain JSON-able data: each effect's stage, the conditions."""
        return {
            "stages": {effect.value: stage for effect, stage in self._stage.items()},
            "conditions": [to_data(c) for c in self.conditions],
        }

    def step(self, roll: int) -> tuple[E, int, C | None, bool, bool]:
        """Advance the track; answer (effect, stage, condition, roll again, marked)."""
        if type(roll) is not int or not 1 <= roll <= len(self._effects):
            raise RuleInputError(
                f"roll must be an int in 1..{len(self._effects)}, not {shown(roll)}"
            )
        effect, stages = self._effects[roll - 1]
        if not stages:
            self._stage[effect] = 1
            return effect, 1, None, False, True
        stage = self._stage.get(effect, 0) + 1
        if stage <= len(stages):  # else past the last stage already: no need to look
            suffered = self.conditions
            while stage <= len(stages) and stages[stage - 1] in suffered:
                stage += 1
        if stage > len(stages):
            self._stage[effect] = len(stages)
            return effect, len(stages) + 1, None, True, False
        self._stage[effect] = stage
        return effect, stage, stages[stage - 1], False, False
