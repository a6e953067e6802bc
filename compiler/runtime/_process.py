"""Processes: a seeded, time-ordered simulation of courses, checks and scores.

A process runs one or more courses on one clock. A course may wait out an
onset (rolled when the process starts, in course order); then it is checked: a
die plus a bonus against its target, where declared natural results always fail
or always succeed. A course may roll a pool before its check (a success
divides it), dealt to a score a roll at a time at a fixed interval; it may deal
dice to scores at once on a failed check; it may be checked again at an
interval until enough successes in a row end it. Every so many points dealt to
a score, a staged track is rolled. Once the source is left and nothing more is
owed, a score recovers at a fixed rate, less the points the track marked.

Every figure, event name and unit comes from the rules data: this module holds
none. Events happen in time order; events at the same time in the order they
were scheduled. A run records at most ``MAX_ENTRIES`` events (a limit of the
runtime, not of the rules): past it, it raises ``RuleInputError``.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Generic, NamedTuple, TypeVar

from ._support import MAX_ENTRIES, shown, too_many
from .dice import RNG, Dice
from .errors import RuleInputError
from .json import JSON, record

__all__ = ["Course", "ProcessRun", "ProcessSpec", "run_process"]

_LEAVE, _ONSET, _CHECK, _DEAL = 0, 1, 2, 3

EventT = TypeVar("EventT")  # the generated module's event class


class Course(NamedTuple):
    """One course of a process, with its figures in clock units."""

    labels: tuple[Any, ...]  # copied into each of its events
    start: int  # when its onset (or, without one, its first check) starts
    onset: Dice | None
    target: int
    pool: Dice | None  # rolled at onset, before the check
    every: int | None  # checked again this often, until ``until`` or forever
    until: int | None  # this many successes in a row end the course
    on_failure: tuple[tuple[int, Dice], ...]  # (score, dice) dealt at once
    check_limit: int | None = None  # at most this many checks
    steps: tuple[str, ...] = ()  # transitions of the state made on a failure

    def to_dict(self) -> dict[str, JSON]:
        """The course as plain JSON-able data, keyed by its field names."""
        return record(self)


class ProcessSpec(NamedTuple):
    """Every figure and name a process runs on (all from the rules data)."""

    ticks: dict[str, int]  # clock ticks per unit, for onset dice
    check: Dice
    always_fails: int | None  # a natural roll at or below this fails
    always_succeeds: int | None  # a natural roll at or above this succeeds
    enter_event: str | None  # at time 0, when the source is met
    leave_event: str | None  # when the source is left
    onset_event: str
    check_event: str
    end_event: str | None  # a course ended by successes in a row
    score_events: tuple[str, ...]  # one per score
    pool_score: int
    pool_deal: Dice | None
    pool_interval: int
    pool_divide: Callable[[int], int] | None  # a pool after a successful check
    track_score: int | None
    track_every: int
    track_roll: Dice | None
    track_event: str | None
    recover_score: int | None
    recover_amount: int
    recover_interval: int
    recover_event: str | None
    label_count: int
    outcome_count: int  # fields of a track outcome in each event
    state_event: str | None = None  # a transition of the subject's state


class ProcessRun(NamedTuple, Generic[EventT]):
    """What a run gives: its events and the figures its totals are made of."""

    events: tuple[EventT, ...]
    dealt: tuple[int, ...]  # per score
    marked: int  # track outcomes that marked a point
    conditions: tuple[Any, ...]  # every condition a track roll gave, in order
    state: Any = None  # the subject's state at the end, if the process has one

    def to_dict(self) -> dict[str, JSON]:
        """The run as plain JSON-able data, keyed by its field names."""
        return record(self)


def run_process(
    spec: ProcessSpec,
    courses: Sequence[Course],
    leave_at: int | None,
    bonus: int,
    track: Any,
    make: Callable[[tuple[Any, ...]], EventT],
    rng: RNG,
    state: Any = None,
) -> ProcessRun[EventT]:
    """Run ``courses`` (onsets are rolled first, in course order).

    ``make`` builds one event from (time, kind, *labels, amount, roll, total,
    target, success, pool, *outcome[, level]); ``track`` is a fresh staged track
    (its ``step(roll)`` answers effect, stage, condition, roll again, marked), or
    None; ``state`` is the subject's state (its transitions are methods answering
    the new level), or None. Raises ``RuleInputError`` for a bad ``rng`` and for a
    run of more than ``MAX_ENTRIES`` events (before the recovery, when it alone
    would pass the limit; else as the event past it is recorded).
    """
    run = _Run(spec, courses, bonus, track, make, rng)
    run.state = state
    if leave_at is not None and spec.leave_event is not None:
        run.push(leave_at, _LEAVE, -1)
    for index, course in enumerate(courses):
        onset = course.onset
        if onset is None:
            run.push(course.start, _CHECK, index)
        else:
            per = spec.ticks.get(onset.unit or "")
            if per is None:
                raise RuleInputError(
                    f"the onset of course {index + 1} is in {shown(onset.unit)}, "
                    "not a time unit of the process"
                )
            ticks = onset.roll(rng) * per
            run.push(course.start + ticks, _ONSET, index)
    if spec.enter_event is not None:
        run.emit(0, spec.enter_event, ())
    queue = run.queue
    while queue:
        time, _, action, index = heapq.heappop(queue)
        if action == _LEAVE:
            run.emit(time, spec.leave_event or "", ())
        elif action == _ONSET:
            run.onset(time, index)
        elif action == _CHECK:
            run.check(time, index)
        else:
            run.deal(time, index)
    if spec.recover_score is not None:
        run.recover(max(leave_at or 0, run.last_dealt))
    return ProcessRun(
        tuple(run.events),
        tuple(run.dealt),
        run.marked,
        tuple(run.conditions),
        state,
    )


class _Run(Generic[EventT]):
    __slots__ = (
        "after_amount",
        "blank",
        "bonus",
        "checks",
        "conditions",
        "courses",
        "dealt",
        "events",
        "last_dealt",
        "make",
        "marked",
        "no_labels",
        "pools",
        "queue",
        "rng",
        "seq",
        "spec",
        "state",
        "streak",
        "track",
    )

    def __init__(
        self,
        spec: ProcessSpec,
        courses: Sequence[Course],
        bonus: int,
        track: Any,
        make: Callable[[tuple[Any, ...]], EventT],
        rng: RNG,
    ) -> None:
        self.spec = spec
        self.courses = courses
        self.bonus = bonus
        self.track = track
        self.make = make
        self.rng = rng
        self.queue: list[tuple[int, int, int, int]] = []
        self.seq = 0
        self.events: list[EventT] = []
        self.dealt = [0] * len(spec.score_events)
        self.pools: dict[int, int] = {}
        self.streak: dict[int, int] = {}
        self.checks: dict[int, int] = {}
        self.marked = 0
        self.last_dealt = 0
        self.conditions: list[Any] = []
        self.state: Any = None
        self.blank = (None,) * (spec.outcome_count + (spec.state_event is not None))
        self.no_labels = (None,) * spec.label_count
        # what follows the amount in an event that only carries an amount
        self.after_amount = (None,) * 5 + self.blank

    def push(self, time: int, action: int, index: int) -> None:
        heapq.heappush(self.queue, (time, self.seq, action, index))
        self.seq += 1

    def emit(
        self,
        time: int,
        kind: str,
        labels: tuple[Any, ...],
        amount: int | None = None,
        roll: int | None = None,
        total: int | None = None,
        target: int | None = None,
        success: bool | None = None,
        pool: int | None = None,
        outcome: tuple[Any, ...] | None = None,
    ) -> None:
        if not labels:
            labels = self.no_labels
        if len(self.events) >= MAX_ENTRIES:
            raise _too_many()
        self.events.append(
            self.make(
                (
                    time,
                    kind,
                    *labels,
                    amount,
                    roll,
                    total,
                    target,
                    success,
                    pool,
                    *(outcome if outcome is not None else self.blank),
                )
            )
        )

    def onset(self, time: int, index: int) -> None:
        course = self.courses[index]
        pool = None if course.pool is None else course.pool.roll(self.rng)
        self.emit(time, self.spec.onset_event, course.labels, pool=pool)
        self.check(time, index, pool)

    def check(self, time: int, index: int, pool: int | None = None) -> None:
        spec, course = self.spec, self.courses[index]
        if course.pool is not None and pool is None:
            pool = course.pool.roll(self.rng)
        roll = spec.check.roll(self.rng)
        total = roll + self.bonus
        if spec.always_succeeds is not None and roll >= spec.always_succeeds:
            success = True
        elif spec.always_fails is not None and roll <= spec.always_fails:
            success = False
        else:
            success = total >= course.target
        if success and pool and spec.pool_divide is not None:
            pool = spec.pool_divide(pool)
        self.emit(
            time,
            spec.check_event,
            course.labels,
            None,
            roll,
            total,
            course.target,
            success,
            pool,
        )
        self.checks[index] = made = self.checks.get(index, 0) + 1
        if pool:
            self.pools[index] = pool
            self.push(time, _DEAL, index)
        if not success:
            for score, dice in course.on_failure:
                self.add(time, course.labels, score, dice.roll(self.rng))
            self.last_dealt = max(self.last_dealt, time)
            for name in course.steps:
                level = getattr(self.state, name)()
                self.emit(
                    time,
                    spec.state_event or "",
                    course.labels,
                    outcome=(*self.blank[:-1], level),
                )
        streak = self.streak[index] = self.streak.get(index, 0) + 1 if success else 0
        if course.until is not None and streak >= course.until:
            if spec.end_event is not None:
                self.emit(time, spec.end_event, course.labels)
            return
        if course.every is not None and (
            course.check_limit is None or made < course.check_limit
        ):
            self.push(time + course.every, _CHECK, index)

    def deal(self, time: int, index: int) -> None:
        spec = self.spec
        left = self.pools[index]
        amount = min(spec.pool_deal.roll(self.rng), left) if spec.pool_deal else left
        self.pools[index] = left = left - amount
        self.add(time, self.courses[index].labels, spec.pool_score, amount)
        if left:
            self.push(time + spec.pool_interval, _DEAL, index)
        else:
            self.last_dealt = max(self.last_dealt, time)

    def add(self, time: int, labels: tuple[Any, ...], score: int, amount: int) -> None:
        spec = self.spec
        if len(self.events) >= MAX_ENTRIES:
            raise _too_many()
        self.events.append(
            self.make(
                (time, spec.score_events[score], *labels, amount, *self.after_amount)
            )
        )
        before = self.dealt[score]
        self.dealt[score] = before + amount
        if score == spec.track_score:
            every = spec.track_every
            for _ in range((before + amount) // every - before // every):
                self.roll_track(time)

    def roll_track(self, time: int) -> None:
        spec = self.spec
        assert spec.track_roll is not None and spec.track_event is not None
        while True:
            roll = spec.track_roll.roll(self.rng)
            # a track's outcome: its effect, stage, condition, reroll and mark
            effect, stage, condition, again, marked = _fields(self.track.apply(roll))
            self.emit(
                time,
                spec.track_event,
                (),
                None,
                roll,
                outcome=(
                    effect,
                    stage,
                    condition,
                    again,
                    marked,
                    *self.blank[spec.outcome_count :],
                ),
            )
            if marked:
                self.marked += 1
            if condition is not None:
                self.conditions.append(condition)
            if not again:
                return

    def recover(self, ready: int) -> None:
        spec = self.spec
        assert spec.recover_score is not None and spec.recover_event is not None
        left = self.dealt[spec.recover_score] - self.marked
        time = ready
        append, make, kind = self.events.append, self.make, spec.recover_event
        head, tail = self.no_labels, self.after_amount
        interval, most = spec.recover_interval, spec.recover_amount
        if left > 0 and len(self.events) + -(-left // most) > MAX_ENTRIES:
            raise _too_many()
        while left > 0:
            time += interval
            amount = most if most < left else left
            left -= amount
            append(make((time, kind, *head, amount, *tail)))


def _too_many() -> RuleInputError:
    return too_many(
        "events (an rng that keeps rolling the same, or figures too large, "
        "can make a run that long)"
    )


_READERS: dict[type, attrgetter[Any]] = {}


def _fields(record: object) -> Any:
    """A record's fields' values, in order (a tuple)."""
    kind: Any = type(record)  # a record class: its FIELDS name them in order
    read = _READERS.get(kind)
    if read is None:
        names: tuple[str, ...] = kind.FIELDS
        read = _READERS[kind] = attrgetter(*names)
    return read(record)
