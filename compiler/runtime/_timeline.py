"""Timelines: a seeded, minute-by-minute simulation of an affliction.

Exposures incubate; at the end of each incubation its primary effect is rolled
as a pool, then the save that may shrink it; the pool is dealt a roll at a time
at a fixed interval; every so many points dealt a track is rolled; once the
character has left and every pool is dealt, the points heal at a fixed rate.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ._track import StagedTrack
from .dice import RNG, Dice

__all__ = ["Phase", "Timeline", "TimelineEvent", "TimelineSpec", "run_timeline"]


class TimelineEvent(NamedTuple):
    """One thing that happened, at a minute counted from first contact.

    ``kind`` says what; the other fields are the figures that kind has (None
    where a field does not apply to it). A named tuple: immutable, and cheap to
    make, since a timeline makes many.
    """

    minute: int
    kind: str
    exposure: str | None = None  # which exposure it belongs to
    level: str | None = None  # the exposure's effective level
    amount: int | None = None  # points dealt or healed
    roll: int | None = None  # the die result (save or track)
    total: int | None = None  # save: roll plus bonus
    dc: int | None = None
    success: bool | None = None
    pool: int | None = None  # incubation_end: as rolled; save: after the save
    effect: str | None = None
    stage: int | None = None
    condition: str | None = None
    reroll: bool | None = None
    permanent_point: bool | None = None


class Timeline(NamedTuple):
    """Every event in time order, and the totals."""

    events: tuple[TimelineEvent, ...]
    damage_dealt: int
    permanent: int
    conditions: tuple[str, ...]


class Phase(NamedTuple):
    """One exposure, as the timeline needs it."""

    kind: str
    level: str
    dc: int
    incubation: Dice
    primary_effect: Dice
    starts_at: int


@dataclass(frozen=True, slots=True)
class TimelineSpec:
    """Every figure a timeline runs on (all from the rules data)."""

    minutes_per_unit: Mapping[str, int]
    save: Dice
    auto_fail: int
    auto_succeed: int
    deal: Dice
    deal_interval: int
    save_divisor: int
    save_minimum: int
    track_roll: Dice
    every: int
    heal_amount: int
    heal_interval: int
    damage_event: str


def run_timeline(
    spec: TimelineSpec,
    phases: Sequence[Phase],
    exposed_minutes: int,
    bonus: int,
    track: StagedTrack[Any, Any],
    rng: RNG,
) -> Timeline:
    """Simulate ``phases`` (incubations are rolled first, in phase order)."""
    run = _Run(spec, track, rng)
    run.push(exposed_minutes, ("decontaminated", -1))
    for index, phase in enumerate(phases):
        minutes = (
            phase.incubation.roll(rng)
            * spec.minutes_per_unit[phase.incubation.unit or "minutes"]
        )
        run.push(phase.starts_at + minutes, ("incubation_end", index))
    run.events.append(TimelineEvent(0, "contaminated"))
    while run.queue:
        minute, _, (action, index) = heapq.heappop(run.queue)
        if action == "decontaminated":
            run.events.append(TimelineEvent(minute, "decontaminated"))
        elif action == "incubation_end":
            run.incubation_end(minute, index, phases[index], bonus)
        else:
            run.deal(minute, index, phases[index])
    run.heal(max(exposed_minutes, run.last_dealt))
    return Timeline(tuple(run.events), run.dealt, run.permanent, tuple(run.conditions))


class _Run:
    __slots__ = (
        "conditions",
        "dealt",
        "events",
        "last_dealt",
        "permanent",
        "queue",
        "remaining",
        "rng",
        "seq",
        "spec",
        "track",
    )

    def __init__(
        self, spec: TimelineSpec, track: StagedTrack[Any, Any], rng: RNG
    ) -> None:
        self.spec = spec
        self.track = track
        self.rng = rng
        self.queue: list[tuple[int, int, tuple[str, int]]] = []
        self.seq = 0
        self.events: list[TimelineEvent] = []
        self.remaining: dict[int, int] = {}
        self.dealt = 0
        self.permanent = 0
        self.last_dealt = 0
        self.conditions: list[str] = []

    def push(self, minute: int, action: tuple[str, int]) -> None:
        heapq.heappush(self.queue, (minute, self.seq, action))
        self.seq += 1

    def incubation_end(self, minute: int, index: int, phase: Phase, bonus: int) -> None:
        spec = self.spec
        pool = phase.primary_effect.roll(self.rng)
        self.events.append(  # positional: cheaper than keywords in this hot path
            TimelineEvent(
                minute, "incubation_end", phase.kind, phase.level,
                None, None, None, None, None, pool,
            )
        )  # fmt: skip
        roll = spec.save.roll(self.rng)
        total = roll + bonus
        success = roll >= spec.auto_succeed or (
            roll > spec.auto_fail and total >= phase.dc
        )
        if success and pool > 0:
            pool = max(pool // spec.save_divisor, spec.save_minimum)
        self.events.append(
            TimelineEvent(
                minute, "save", phase.kind, phase.level,
                None, roll, total, phase.dc, success, pool,
            )
        )  # fmt: skip
        self.remaining[index] = pool
        if pool > 0:
            self.push(minute, ("deal", index))

    def deal(self, minute: int, index: int, phase: Phase) -> None:
        spec = self.spec
        amount = min(spec.deal.roll(self.rng), self.remaining[index])
        self.remaining[index] -= amount
        self.events.append(
            TimelineEvent(minute, spec.damage_event, phase.kind, phase.level, amount)
        )
        before = self.dealt
        self.dealt = before + amount
        every = spec.every
        for _ in range(self.dealt // every - before // every):  # each 3rd point reached
            self.roll_track(minute)
        if self.remaining[index]:
            self.push(minute + spec.deal_interval, ("deal", index))
        else:
            self.last_dealt = max(self.last_dealt, minute)

    def roll_track(self, minute: int) -> None:
        while True:
            roll = self.spec.track_roll.roll(self.rng)
            outcome = self.track.apply(roll)
            self.events.append(
                TimelineEvent(
                    minute, "secondary_effect", None, None, None, roll, None, None,
                    None, None, outcome.effect, outcome.stage, outcome.condition,
                    outcome.reroll, outcome.permanent_point,
                )
            )  # fmt: skip
            if outcome.permanent_point:
                self.permanent += 1
            if outcome.condition is not None:
                self.conditions.append(outcome.condition)
            if not outcome.reroll:
                return

    def heal(self, ready: int) -> None:
        spec = self.spec
        interval, most = spec.heal_interval, spec.heal_amount
        append = self.events.append
        left = self.dealt - self.permanent
        minute = ready
        while left > 0:
            minute += interval
            amount = min(most, left)
            left -= amount
            append(TimelineEvent(minute, "heal", None, None, amount))
