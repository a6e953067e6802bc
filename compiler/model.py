"""Model: the checked, immutable record of the rules that every output is rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .expr import Checked
from .runtime._success_pool import SuccessPool
from .runtime.dice import Dice

CellValue = int | str | bool | Dice | tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Loc:
    """Where something was written: a rules file and a 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class EnumMember:
    name: str
    label: str


@dataclass(frozen=True, slots=True)
class EnumType:
    name: str
    members: tuple[EnumMember, ...]
    ordered: bool
    loc: Loc
    past_end: str = "none"  # ordered: what a step past an end gives (none/clamp/error)

    def member(self, label: str) -> EnumMember:
        return next(m for m in self.members if m.label == label)


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str
    question: str | None
    ruling: str
    reason: str


@dataclass(frozen=True, slots=True)
class Erratum:
    id: str
    source_says: str
    rules_give: str
    reason: str


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example; ``expect`` is the JSON value written in the rules."""

    name: str
    summary: str
    args: tuple[tuple[str, Any], ...]
    dice: tuple[int, ...] | None
    roll: str | None
    expect: Any
    raises: str | None
    erratum: Erratum | None
    loc: Loc
    select: tuple[str, tuple[tuple[str, Any], ...]] | None = None


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: Literal["int", "text", "bool", "dice", "range"]
    nullable: bool
    null_label: str
    signed: bool
    unit: str | None
    title: str
    description: str | None


@dataclass(frozen=True, slots=True)
class Row:
    key: EnumMember
    cells: tuple[CellValue, ...]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Literal["int", "bool", "choice", "mapping"]
    min: int | None
    max: int | None
    default: int | bool | str | None
    has_default: bool
    description: str
    enum: EnumType | None
    keyword_only: bool = False
    owns_enum: bool = True  # False: the enum is defined by another rule
    nullable: bool = False  # a choice that may be None
    value_enum: EnumType | None = None  # a mapping: enum -> value_enum
    default_call: tuple[str, tuple[tuple[str, Any], ...]] | None = (
        None  # a mapping's default
    )


@dataclass(frozen=True, slots=True)
class RuleBase:
    system: str
    id: str
    title: str
    summary: str
    section: str
    source_note: str | None
    rulings: tuple[Ruling, ...]
    errata: tuple[Erratum, ...]
    examples: tuple[Example, ...]
    loc: Loc
    fingerprint: str  # sha256 of the rule's data, to name changed rules

    @property
    def qualified_id(self) -> str:
        return f"{self.system}.{self.id}"


@dataclass(frozen=True, slots=True)
class TableRoll:
    """A table keyed by rolls: the dice, and the range column each row claims."""

    function: str
    column: str
    dice: Dice


@dataclass(frozen=True, slots=True)
class TableRule(RuleBase):
    function: str
    key_param: str
    key_title: str
    enum: EnumType
    row_class: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    rolls: TableRoll | None = None
    kind: Literal["table"] = "table"


@dataclass(frozen=True, slots=True)
class DiceRule(RuleBase):
    constant: str
    dice: Dice
    kind: Literal["dice"] = "dice"


@dataclass(frozen=True, slots=True)
class FormulaRule(RuleBase):
    function: str
    unit: str | None
    params: tuple[Param, ...]
    expression: str
    checked: Checked
    unbounded_because: str | None = None
    kind: Literal["formula"] = "formula"


# -- kinds built on the ones above ---------------------------------------------


@dataclass(frozen=True, slots=True)
class RangeRow:
    lo: int
    hi: int | None  # None: open-ended
    label: str | None
    cells: tuple[CellValue, ...]
    loc: Loc


@dataclass(frozen=True, slots=True)
class RangeTableRule(RuleBase):
    """A table keyed by ranges of an integer (a damage total, a spin, a 3d roll)."""

    function: str
    param: Param
    param_title: str
    below: Literal["none", "error"]
    row_class: str | None  # the row dataclass, or None for a mapping result
    mapping_enum: EnumType | None  # columns become this enum's members
    columns: tuple[Column, ...]
    rows: tuple[RangeRow, ...]
    covers: Dice | None
    kind: Literal["range_table"] = "range_table"


@dataclass(frozen=True, slots=True)
class ShiftRule(RuleBase):
    """A step up or down an ordered table's ladder, with cells overridden."""

    function: str
    table: TableRule
    offset: int
    applies_from: EnumMember | None
    overrides: tuple[tuple[str, CellValue], ...]
    shifted: tuple[tuple[EnumMember, EnumMember | None], ...]  # level -> level used
    kind: Literal["shift"] = "shift"


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


@dataclass(frozen=True, slots=True)
class PoolRule(RuleBase):
    """A pool of points dealt a roll at a time, at a fixed interval."""

    function: str
    deal: Dice
    interval_minutes: int
    interval_text: str
    save_divisor: int
    save_minimum: int
    kind: Literal["pool"] = "pool"


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


@dataclass(frozen=True, slots=True)
class RecoveryRule(RuleBase):
    """Points that heal an amount at a time, at a fixed interval."""

    function: str
    amount: int
    interval_minutes: int
    interval_text: str
    kind: Literal["recovery"] = "recovery"


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
    steps: tuple[str, ...]  # transitions of the process's state on a failure


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
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ProcessTotal:
    name: str
    of: Literal["dealt", "count", "time", "marked", "conditions", "state"]
    score: int | None
    event: str | None
    description: str


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
    state: StateRule | None = None
    state_event: str | None = None
    state_field: str = "level"
    kind: Literal["process"] = "process"


@dataclass(frozen=True, slots=True)
class StateTransition:
    """A method that moves a state's level."""

    name: str
    step: Literal["up", "down"] | None  # a step by ``by`` levels, or
    to: Literal["floor", "ceiling", "param"] | None  # a move to a level
    by: int | None  # a fixed number of levels
    param: str | None  # the method's parameter (for ``by`` or ``to``)
    default: int | None
    max: int | None
    description: str


@dataclass(frozen=True, slots=True)
class StateFlag:
    name: str
    from_level: int
    description: str


@dataclass(frozen=True, slots=True)
class StateRule(RuleBase):
    """A level on a ladder, each level with an effect, moved by named transitions."""

    class_name: str
    effects: tuple[str, ...]  # level 1 first
    floor: int
    cumulative: bool
    transitions: tuple[StateTransition, ...]
    flags: tuple[StateFlag, ...]
    kind: Literal["state"] = "state"


@dataclass(frozen=True, slots=True)
class FactsRule(RuleBase):
    """A few typed facts, exported as one constant record."""

    constant: str
    class_name: str
    fields: tuple[Column, ...]
    values: tuple[CellValue, ...]
    kind: Literal["facts"] = "facts"


@dataclass(frozen=True, slots=True)
class Slot:
    """One part of a decision's answer: a record field, the value, or a mapping key."""

    name: str
    title: str
    type: Literal["int", "bool", "text", "choice", "dice"]
    nullable: bool
    enum: EnumType | None  # for a choice
    null_label: str
    description: str | None
    member: EnumMember | None  # for a mapping: the key


@dataclass(frozen=True, slots=True)
class DecisionCase:
    when_text: str
    when: Checked | None
    values: (
        tuple[tuple[str, Any], ...] | None
    )  # slot -> (kind, literal / member / Checked)
    refuse: str | None  # instead of values: why the input is refused
    loc: Loc


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A method on a decision's answer that calls another rule with the call's arguments."""

    name: str
    rule: str  # the rule id; checked once every rule is built
    args: tuple[tuple[str, str], ...]  # the rule's parameter <- this call's parameter
    only_if: Checked | None
    refuse: str
    description: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class DecisionRule(RuleBase):
    """A rule decided by cases: the first that matches, every one (collect), or the only one."""

    function: str
    shape: Literal["fields", "value", "mapping"]
    result: str | None  # the record class, for fields
    params: tuple[Param, ...]
    slots: tuple[Slot, ...]
    key_enum: EnumType | None  # for a mapping
    owned_enums: tuple[EnumType, ...]  # enums this rule defines for its answer
    cases: tuple[DecisionCase, ...]
    methods: tuple[FollowUp, ...] = ()
    hit_policy: Literal["first", "collect", "unique"] = "first"
    kind: Literal["decision"] = "decision"


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


@dataclass(frozen=True, slots=True)
class CoveredRollRule(RuleBase):
    """A location rolled on a table, then checked against what cover hides."""

    function: str
    result: str
    table: TableRule
    value_enum: EnumType
    covered: EnumMember
    half: EnumMember
    check: Dice
    strikes_from: int
    strikes_to: int
    kind: Literal["covered_roll"] = "covered_roll"


Rule = (
    CoveredRollRule
    | SuccessPoolRule
    | DecisionRule
    | FactsRule
    | TableRule
    | DiceRule
    | FormulaRule
    | RangeTableRule
    | ShiftRule
    | ExposureScheduleRule
    | PoolRule
    | TrackRule
    | RecoveryRule
    | ProcessRule
    | StateRule
)


@dataclass(frozen=True, slots=True)
class Rolls:
    """A rule's function that rolls dice: its name, its parameters before the
    RNG (in order), and what it answers. A decision's follow-up may call it."""

    function: str
    params: tuple[str, ...]
    returns: str


@dataclass(frozen=True, slots=True)
class System:
    id: str
    title: str
    summary: str
    source_file: str
    source_work: str
    rounding: Literal["down", "up"]
    dice_notation: Literal["d20", "gurps"]
    files: tuple[str, ...]  # every rules file of the system, as shown paths
    rules: tuple[Rule, ...]
    enums: tuple[EnumType, ...]  # every enum the system's module defines
    rolls: tuple[tuple[str, Rolls], ...]  # rule id -> its function that rolls dice
    loc: Loc
