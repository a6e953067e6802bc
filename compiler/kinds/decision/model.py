"""The model of a decision rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...front.model import (
    EnumMember,
    EnumType,
    ItemKind,
    Loc,
    Param,
    RuleBase,
)
from ...kinds.formula.model import Let
from ...lang.expr import (
    Checked,
    dice_in,
)


@dataclass(frozen=True, slots=True)
class Slot:
    """One part of a decision's answer: a record field, the value, or a mapping key."""

    name: str
    title: str
    type: Literal["int", "bool", "text", "choice", "dice", "list", "record", "state"]
    nullable: bool
    enum: EnumType | None  # for a choice (or a list of them)
    null_label: str
    description: str | None
    member: EnumMember | None  # for a mapping: the key
    items: ItemKind | None = None  # for a list: its elements
    # a record (or a list of them): its type's class; a declared field's
    # bounds (a whole number, or a list's numbers) and a list's length
    record: str | None = None
    lo: int | None = None
    hi: int | None = None
    min_items: int = 0
    max_items: int | None = None
    unit: str | None = None
    signed: bool = False  # a whole number shown with its sign (+0, +2, -1)


@dataclass(frozen=True, slots=True)
class DecisionCase:
    when_text: str
    when: Checked | None
    values: (
        tuple[tuple[str, Any], ...] | None
    )  # slot -> (kind, literal / member / Checked)
    refuse: str | None  # instead of values: why the input is refused
    loc: Loc
    # the fields its ``then`` gives (the rest keep their defaults): what the
    # rules say of the answer in this case
    given: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Guard:
    """A case among a decision's names (``let``), tried after the first
    ``before`` of them, before the dice of those after it are rolled: its
    refusal (which reads no rolled name) or its early answer ends the call."""

    before: int
    case: DecisionCase


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
class StateValue:
    """A value a repeating decision carries from turn to turn: its start (an
    expression of the parameters) and, for a number, the bounds every value it
    takes is clamped into; a list (of ``items``) has no bounds; a record or a
    state (or a list of records) is of the class ``record``."""

    name: str
    type: Literal["int", "bool", "choice", "list", "record", "state", "text"]
    start: Checked
    min: int | None
    max: int | None
    enum: EnumType | None  # for a choice
    description: str | None
    loc: Loc
    items: ItemKind | None = None  # for a list: its elements
    record: str | None = None  # a record (or a list of them), a state: its class

    @property
    def finite(self) -> bool:
        """Whether it takes finitely many values (a number needs both bounds;
        a list may grow without end)."""
        if self.type in ("bool", "choice"):
            return True
        return self.type == "int" and self.min is not None and self.max is not None


@dataclass(frozen=True, slots=True)
class SetValue:
    """A state value's new value after a turn (clamped into its bounds)."""

    name: str
    text: str
    checked: Checked  # as written
    clamped: Checked  # as kept: clamped into the state value's bounds
    loc: Loc


@dataclass(frozen=True, slots=True)
class Repeat:
    """The turn a decision repeats: the state it carries from turn to turn;
    each turn, names bound in order (dice rolled each turn), then the state's
    new values, all from the values before the turn; the turns end when
    ``until`` holds (checked before each turn) or after ``max_turns``."""

    state: tuple[StateValue, ...]
    lets: tuple[Let, ...]
    sets: tuple[SetValue, ...]
    until: Checked
    until_text: str
    max_turns: int | None
    loc: Loc


TURNS = "turns"
"""The name the cases of a repeating decision read the count of turns taken by."""


@dataclass(frozen=True, slots=True)
class OddsChart:
    """A table on the page of a decision's odds (of a number) for each value
    of one parameter: the mean of the answers listed, and the chance of
    beating each number of ``beat`` (more than it)."""

    title: str
    over: str  # the parameter
    values: tuple[int, int]  # its values charted, lowest and highest
    beat: tuple[int, int] | None  # the numbers to beat, lowest and highest
    field: str = ""  # the field charted (of odds of several fields)


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
    lets: tuple[Let, ...] = ()  # names bound in order before the cases
    guards: tuple[Guard, ...] = ()  # cases among the names, in their order
    odds: str | None = None  # the slot its odds function answers the chances of
    # (the first, where they are of several slots: each its own chances, or,
    # ``joint``, their chances together)
    odds_fields: tuple[str, ...] = ()
    joint: bool = False
    # how many dice deep its odds follow an explosion: the expression as
    # written and checked (None: the runtime's default)
    depth: str | None = None
    depth_checked: Checked | None = None
    odds_name: str | None = None  # its odds function's name, if not <function>_odds
    odds_chart: OddsChart | None = None  # a table of its odds on its page
    repeat: Repeat | None = None  # the turn repeated until its ending holds
    # whether its answer's record type is its own (its fields), not one the
    # rules declare elsewhere (``result: X`` with no fields)
    owns_result: bool = True
    kind: Literal["decision"] = "decision"

    @property
    def state(self) -> tuple[StateValue, ...]:
        """The values a repeating decision carries from turn to turn (none else)."""
        return () if self.repeat is None else self.repeat.state

    @property
    def odds_of(self) -> tuple[str, ...]:
        """The slots its odds are of, in order (none without odds)."""
        if self.odds is None:
            return ()
        return self.odds_fields or (self.odds,)

    @property
    def rolls(self) -> bool:
        """Whether it rolls dice (in its lets, or its state's starts: its
        function takes the rng)."""
        lets = self.lets + (self.repeat.lets if self.repeat is not None else ())
        starts = [v.start for v in self.state]
        nodes = [let.checked.node for let in lets] + [c.node for c in starts]
        return any(dice_in(node) is not None for node in nodes)

    def slot_enum(self, member: EnumMember) -> EnumType:
        """The enum of the slot whose choices ``member`` is one of."""
        return next(
            s.enum
            for s in self.slots
            if s.enum is not None and member in s.enum.members
        )
