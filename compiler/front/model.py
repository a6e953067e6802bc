"""Model: the checked, immutable record of the rules that every output is rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..runtime.dice import Dice

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
    from_source: str | None = None  # where the source gives it, if it is the source's


ColumnType = Literal[
    "int", "text", "bool", "dice", "range", "choice", "list", "record", "state"
]
ItemKind = Literal["int", "bool", "text", "choice", "record"]


@dataclass(frozen=True, slots=True)
class Column:
    """A typed value of a record (a field, a table's column) or, as a
    parameter's ``spec``, a parameter's type beyond a number, flag or label."""

    name: str
    type: ColumnType
    nullable: bool
    null_label: str
    signed: bool
    unit: str | None
    title: str
    description: str | None
    enum: str | None = None  # a "choice" (or a list of them): the label set's class
    # a "list" (of variable length, in order, never null): its elements' type
    items: ItemKind | None = None
    # a "record" or a "state" (or a list of records): its class
    record: str | None = None
    # a whole number (or a list of them): its least and its most (None: no limit)
    lo: int | None = None
    hi: int | None = None
    # a list: the fewest and the most items it holds (None: no most)
    min_items: int = 0
    max_items: int | None = None


@dataclass(frozen=True, slots=True)
class Row:
    key: EnumMember
    cells: tuple[CellValue, ...]
    loc: Loc


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Literal["int", "bool", "choice", "mapping", "text", "list", "record", "state"]
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
    # A whole number's limit of the runtime (not of the rules): past it a call
    # is refused as too much work (``past_limit``), within it by ``min``.
    limit: int | None = None
    # A text, a list, a record or a state: its type as declared (a list's
    # items' bounds are also ``min`` and ``max``, its labels' set ``enum``).
    spec: Column | None = None
    # An int that is one of these (``values: [4, 6, 8]``, ascending), or any in min..max.
    one_of: tuple[int, ...] = ()
    # its title, as a reader reads it (None: its name in words)
    title: str | None = None
    # A mapping's default as a reader reads it: the title of the rule that
    # gives it, and the arguments it is called with by their titles.
    default_said: tuple[str, tuple[tuple[str, Any], ...]] | None = None


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
    def kind(self) -> str:
        """The kind's name (each kind's model sets it)."""
        raise NotImplementedError

    @property
    def qualified_id(self) -> str:
        return f"{self.system}.{self.id}"


# -- kinds built on the ones above ---------------------------------------------


# Every rule is a RuleBase; each kind's folder holds its own (compiler/kinds/<kind>/model.py).
Rule = RuleBase


@dataclass(frozen=True, slots=True)
class Rolls:
    """A rule's function that rolls dice: its name, its parameters (in order;
    the rng after the first ``rng_at``), and what it answers. A decision's
    follow-up may call it."""

    function: str
    params: tuple[str, ...]
    returns: str
    rng_at: int | None = None  # how many of them come before the rng (None: all)


@dataclass(frozen=True, slots=True)
class Name:
    """A Python name the rules give the generated code, and where they give it.

    ``scope`` is "module" for a module-level name (a function, class, enum or
    constant) and "local" for one inside a function or class (a parameter, a
    field, a member); the emitted code is checked against both (``compiler.emit.emitted``).
    """

    name: str
    what: str  # what the rules call it: "function", "parameter name"...
    scope: Literal["module", "local"]
    loc: Loc
    pointer: str  # the JSON pointer of the YAML node that gives it


@dataclass(frozen=True, slots=True)
class NotModelled:
    """A mechanic the source states that the rules leave out, and why
    (system.yaml's ``not_modelled``)."""

    id: str
    summary: str
    reason: str


@dataclass(frozen=True, slots=True)
class SourcePart:
    """The part of the work a system's source is (system.yaml's ``source.part``):
    what the work calls it (a chapter, a page) and its title."""

    kind: str
    title: str


@dataclass(frozen=True, slots=True)
class SourceGroup:
    """A division of the source that the reference groups rules under, in the
    source's order (system.yaml's ``source.contents``): its title, the sections
    of the source it holds as rules cite them, and the ids of its rules."""

    title: str
    sections: tuple[str, ...]
    rules: tuple[str, ...]


# Where the docs group a house rule that cites no section of a source.
HOUSE_SECTION = "House rules"


@dataclass(frozen=True, slots=True)
class Override:
    """A value a house rule changes in a rule of the system extended: the rule's
    id, where in its data (readable: keys and row labels), the value now and the
    value the base system gives."""

    rule: str
    where: tuple[str, ...]
    now: Any
    was: Any


@dataclass(frozen=True, slots=True)
class House:
    """What makes a system house rules (compiler/front/house.py): the system it
    extends (None for a system of its own that cites no source), where it says
    so, the files that are its own (the rest are the base's), the values it
    changes, the rules it adds or marks ``house: true``, and the inherited
    worked examples it restates (rule id, example name)."""

    base: str | None
    at: Loc
    own_files: tuple[str, ...]
    changes: tuple[Override, ...] = ()
    rules: tuple[str, ...] = ()
    restated: tuple[tuple[str, str, Loc], ...] = ()  # and where it is restated
    source: bool = True  # whether it names a source document


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
    names: tuple[Name, ...] = ()  # every Python name the rules give, where given
    not_modelled: tuple[NotModelled, ...] = ()  # what the rules leave out, and why
    source_part: SourcePart | None = None  # the chapter or page the source is
    contents: tuple[
        SourceGroup, ...
    ] = ()  # the rules, grouped as the source groups them
    house: House | None = None  # a system of house rules: what it changes and adds
