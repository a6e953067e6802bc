"""The model of a process rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...front.model import (
    Param,
    RuleBase,
)
from ...lang.nodes import Checked
from ...runtime.dice import Dice
from ..pool.model import PoolRule
from ..recovery.model import RecoveryRule
from ..state.model import StateRule
from ..state.record_model import RecordStateRule
from ..track.model import TrackRule
from .held import Held


@dataclass(frozen=True, slots=True)
class ProcessStep:
    """A transition of the process's state on a failed check: a state of
    levels stepped with no argument (``call`` None), or a state with fields
    given the state its transition answers (``call``, with its arguments)."""

    name: str
    call: Checked | None = None
    args_text: str = ""  # its arguments, as written (for the page)


@dataclass(frozen=True, slots=True)
class ProcessCourse:
    """One course of a process, written out in the rules (times in clock ticks)."""

    labels: tuple[str, ...]
    start: int
    onset: Dice | None
    target: int
    pool: Dice | None
    every: int | None
    until: int | None
    on_failure: tuple[tuple[int, Dice], ...]  # (score index, dice)
    check_limit: int | None
    steps: tuple[ProcessStep, ...]  # transitions of the process's state on a failure


@dataclass(frozen=True, slots=True)
class ProcessSource:
    """Courses answered by another rule: one per record of its answer."""

    rule: Any  # the rule called
    function: str
    args: tuple[tuple[str, Any], ...]  # its parameter <- a parameter name or a DiceRule
    labels: tuple[tuple[str, str], ...]  # event label field <- record field
    start: str
    onset: str | None
    target: str
    pool: str | None
    every: int | None
    until: int | None
    on_failure: tuple[tuple[int, Dice], ...]
    check_limit: int | None
    steps: tuple[ProcessStep, ...]


@dataclass(frozen=True, slots=True)
class ProcessTotal:
    name: str
    of: Literal["dealt", "count", "time", "marked", "conditions", "state"]
    score: int | None
    event: str | None
    description: str
    field: str | None = None  # of a state with fields: the field answered
    read: Checked | None = None  # that field, read of the state held


@dataclass(frozen=True, slots=True)
class ProcessRule(RuleBase):
    """A seeded, time-ordered simulation of courses, checks and scores."""

    function: str
    result_class: str
    event_class: str
    clock: str
    clock_base: int  # the clock unit in the system's base unit
    ticks: tuple[tuple[str, int], ...]  # time unit -> clock ticks
    params: tuple[Param, ...]
    time_field: str
    labels: tuple[tuple[str, str], ...]  # label field, type
    role_fields: tuple[str, ...]  # names of amount, roll, total, target, success, pool
    courses: tuple[ProcessCourse, ...]
    origin: ProcessSource | None
    check: Dice
    always_fails: int | None
    always_succeeds: int | None
    bonus_param: str | None
    enter_event: str | None
    leave_event: str | None
    leave_param: str | None
    onset_event: str | None
    check_event: str
    end_event: str | None
    scores: tuple[str, ...]
    score_events: tuple[str, ...]
    pool: PoolRule | None
    pool_score: int
    track: TrackRule | None
    track_score: int | None
    track_event: str | None
    recovery: RecoveryRule | None
    recover_score: int | None
    recover_event: str | None
    totals: tuple[ProcessTotal, ...]
    state: StateRule | RecordStateRule | None = None
    held: Held | None = None  # a state with fields: how it is made and read
    state_event: str | None = None
    state_field: str = "level"
    # the event that ends each track condition still suffered when recovery may begin
    ends_event: str | None = None
    # time unit -> its name for one of it, where the system gives one
    singular: tuple[tuple[str, str], ...] = ()
    kind: Literal["process"] = "process"
