"""Core IR: types, values and declarations of the one language every kind lowers to."""

from __future__ import annotations

from typing import Literal

from ..front.model import (
    Column,
    EnumType,
    Param,
)
from ..lang.expr import dice_in
from ..lang.naming import odds_function
from ..lang.nodes import Checked
from ..runtime.dice import Dice
from .frozen import frozen

# -- types -----------------------------------------------------------------------------

# faces: a die's faces, numbers; symbol_faces: a die's faces, tuples of symbols
Prim = Literal["int", "bool", "text", "dice", "range", "faces", "symbol_faces"]


@frozen
class Named:
    """A record declared by a unit (by its class name)."""

    name: str


Type = Prim | Named


# -- values ----------------------------------------------------------------------------


@frozen
class New:
    """A record made of its fields' values, in the record's order."""

    record: str
    fields: tuple[tuple[Column, Value], ...]


Scalar = (
    None
    | bool
    | int
    | str
    | Dice
    | tuple[int, int]
    | tuple[int, ...]
    | tuple[tuple[str, ...], ...]
)
Value = Scalar | New


# -- declarations ------------------------------------------------------------------------


@frozen
class Enum:
    """A set of labels (``EnumType``: its members, and whether it is an ordered
    ladder); ``doc`` says what it is (the emitters add where it is declared)."""

    enum: EnumType
    doc: str


@frozen
class Method:
    """A method of a record's items that rolls: it calls the module's
    function ``function`` (which answers a ``returns``) with the rng and
    values of the call that made the item, ``args`` pairing each of the
    function's parameters with a parameter of the procedure that made it.
    Where ``only_if`` did not hold for that call, it refuses, saying
    ``refuse``."""

    name: str
    function: str
    returns: str
    args: tuple[tuple[str, Param], ...]
    only_if: Checked | None
    refuse: str
    doc: str
    rng_at: int | None = None  # how many of ``args`` the function takes before the rng

    def hidden(self) -> list[tuple[str, Param | None]]:
        """The values an item holds for it, unseen: each argument's (by the
        parameter it comes from), then whether it applies (None)."""
        found: list[tuple[str, Param | None]] = [
            (f"_{self.name}_{p.name}", p) for _, p in self.args
        ]
        return [*found, (f"_{self.name}_ok", None)]


@frozen
class TextSet:
    """The texts a field may hold, as a type of its own (no class: a value is
    the text itself); ``doc`` says what they are."""

    name: str
    texts: tuple[str, ...]
    doc: str


@frozen
class Record:
    """A record type: named, typed fields (``Column``: type, nullability, title,
    description, unit, sign and null label as a reader sees them)."""

    name: str
    doc: str
    fields: tuple[Column, ...]
    methods: tuple[Method, ...] = ()
    # the fields after the last that is never null may be left out (null)
    optional_tail: bool = False
    # made often (a run's events): a target with a lighter record than its
    # own (Python: a named tuple) holds it as that
    light: bool = False
    # a record type the rules declare (a record rule's): each target has a
    # spec that checks one given as an argument (``rulebook._values``)
    checked: bool = False

    @property
    def optional_from(self) -> int:
        """Where its fields that may be left out start (their count, where
        none may be)."""
        if not self.optional_tail or self.methods:
            return len(self.fields)
        at = len(self.fields)
        while at and self.fields[at - 1].nullable:
            at -= 1
        return at


@frozen
class Table:
    """Values keyed by the labels of a set, read by the function ``name``,
    which takes a label (in any case) or a member and refuses anything else.

    ``rows`` pair each member's label with its value, in the set's order (a
    private constant of the module, ``rows_name``): a record of ``answers``
    (``New``), or, where ``labels`` is given, a label of that set (whose class
    is ``answers``); None where ``absent`` says (``"where ..."``) the table has
    no value. ``key_title`` is what a reader calls the key."""

    name: str
    param: str
    key: EnumType
    key_title: str
    answers: str
    rows_name: str
    rows: tuple[tuple[str, New | str | None], ...]
    doc: str
    labels: EnumType | None = None
    absent: str | None = None


@frozen
class RollOn:
    """A function (``name``) that rolls ``dice`` and answers the member of
    ``key`` whose results hold the roll: ``entries`` maps each result to a
    member's label (a private constant of the module, ``entries_name``). The
    dice are a constant of the module too (``dice_name``)."""

    name: str
    entries_name: str
    dice_name: str
    dice: Dice
    key: EnumType
    entries: tuple[tuple[int, str], ...]
    doc: str


@frozen
class Const:
    """A named value of the module; ``aliases`` are further names for it."""

    name: str
    type: Type
    value: Value
    doc: str
    aliases: tuple[str, ...] = ()


@frozen
class Bind:
    """A name bound to an expression's value, worked out (and rolled) once, in
    order, before the function's answer."""

    name: str
    checked: Checked
    description: str | None


@frozen
class Function:
    """A function of checked parameters answering a whole number: names bound
    in order (``binds``), then one expression (``answer``). One whose
    expressions roll dice takes an rng, and an odds function is derived from it.

    ``doc`` is its title and summary, ``origin`` where it is declared (the
    emitters add its parameters and refusals); ``unit`` is the unit of its
    answer, and ``unbounded_because`` why its answer has no bound, if it has
    none. ``rule_id`` is the rule's own id (its page links to the others it
    reads)."""

    name: str
    params: tuple[Param, ...]
    binds: tuple[Bind, ...]
    answer: Checked
    doc: str
    origin: str
    unit: str | None
    unbounded_because: str | None
    rule_id: str

    @property
    def expressions(self) -> list[Checked]:
        """Its expressions in order: the bound names' values, then its answer."""
        return [*(b.checked for b in self.binds), self.answer]

    @property
    def rolls(self) -> bool:
        """Whether its expressions roll dice (it then takes an rng)."""
        return _rolls(self.expressions)


@frozen
class Mapping:
    """A value that maps each member of a label set to a value of one column's type."""

    key: EnumType
    column: Column
    values: tuple[Scalar, ...]


@frozen
class Span:
    """A row of a range table: the whole numbers from ``lo`` to ``hi`` (None:
    no top), what a reader calls the range (``label``, if anything), and the
    value they answer."""

    lo: int
    hi: int | None
    label: str | None
    value: New | Mapping


@frozen
class RangeTable:
    """Values keyed by ranges of a whole number (the rows, lowest first, a
    private constant ``rows_name``), read by the function ``name`` of one
    checked parameter. A number below the first range answers None
    (``below == "none"``) or is refused (``"error"``). The values are records
    (``record``) or mappings of a label set's members (``mapping``);
    ``columns`` are the record's fields or the mapping's one column. ``covers``
    is the dice whose every result the ranges hold once, if they do."""

    name: str
    param: Param
    param_title: str
    rows_name: str
    record: str | None
    mapping: EnumType | None
    columns: tuple[Column, ...]
    rows: tuple[Span, ...]
    below: Literal["none", "error"]
    covers: Dice | None
    doc: str
    origin: str
    rule_id: str


# -- statements: a procedure's body ----------------------------------------------------


@frozen
class Local:
    """A name a procedure's statements set: a whole number within ``lo`` and
    ``hi`` (None: no limit that way), or where ``enum`` is given a label of
    that set, or where ``record`` is given a record of that type (which only
    ``Read`` and ``Present`` read); ``nullable`` where it may hold None."""

    name: str
    lo: int | None
    hi: int | None
    enum: EnumType | None = None
    nullable: bool = False
    record: str | None = None  # a record of the unit's (no expression reads it)
    # what else it holds: a flag, dice, or a list (of labels of ``enum``, in
    # the order they were added)
    type: Literal["int", "bool", "dice", "list"] = "int"


@frozen
class Set:
    """``name = value``: a local (its first ``Set`` starts it) or a parameter."""

    name: str
    value: Checked


@frozen
class Read:
    """The field ``field`` of the record held by the local ``name`` (``""``:
    the record itself)."""

    name: str
    field: str


@frozen
class Label:
    """The member of ``enum`` whose label is ``label``."""

    enum: EnumType
    label: str


@frozen
class Written:
    """A value written in the rules as it is: a number, a flag, a text, dice,
    or None (a text is data: each emitter writes it as a literal of its own)."""

    value: Scalar


@frozen
class Recorded:
    """The events a timeline has recorded so far, in order (a list)."""


Part = Checked | Read | Label | Written | Recorded


@frozen
class Make:
    """A record of the procedure's ``item`` made of one value per field, in
    the record's order; or, where the procedure answers a value by key
    (``keys``), one value per member of the keys, in their order."""

    values: tuple[Part, ...]


@frozen
class Present:
    """A test: every one of the locals ``names`` holds a value (not None)."""

    names: tuple[str, ...]


@frozen
class Emit:
    """The answer gets one more item: ``values``, one per part of an item (a
    ``Make`` where the items are records, one value where they are values of
    a column)."""

    values: tuple[Checked, ...] | Make | Part


@frozen
class Return:
    """The procedure ends, answering ``value``: a record (or a value by key)
    it makes, or one value."""

    value: Make | Part


@frozen
class Refuse:
    """The call ends, refused: its arguments are outside the rule, and
    ``message`` (the rules' words) says why."""

    message: str


@frozen
class Lookup:
    """``name = `` the value a private constant of the module (``entries``:
    the entries of a roll-on table, or a table's rows, read by the function
    ``function``) holds for ``key``."""

    name: str
    function: str
    entries: str
    key: Checked


@frozen
class If:
    """``then`` where ``test`` holds, else ``otherwise``."""

    test: Checked | Present
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] = ()

    @property
    def branches(
        self,
    ) -> tuple[list[tuple[Checked | Present, tuple[Stmt, ...]]], tuple[Stmt, ...]]:
        """Its tests in order with what each leads to (an ``otherwise`` that is
        one ``If`` alone continues the chain: ``elif``), and the last otherwise."""
        found: list[tuple[Checked | Present, tuple[Stmt, ...]]] = [
            (self.test, self.then)
        ]
        otherwise = self.otherwise
        while len(otherwise) == 1 and isinstance(otherwise[0], If):
            found.append((otherwise[0].test, otherwise[0].then))
            otherwise = otherwise[0].otherwise
        return found, otherwise


@frozen
class While:
    """``body`` again and again while ``test`` holds: at most ``bound`` times,
    which the lowering has proved."""

    test: Checked
    body: tuple[Stmt, ...]
    bound: int


@frozen
class Schedule:
    """The handler ``handler`` of the timeline runs at the time ``at`` (a whole
    number, never before now) with ``args`` (worked out now), after every
    handler already scheduled for that time."""

    at: Checked
    handler: str
    args: tuple[Checked, ...]


@frozen
class Run:
    """The handler ``handler`` of the timeline runs at once, before anything
    scheduled, with the time ``at`` (now) and ``args``."""

    at: Checked
    handler: str
    args: tuple[Checked, ...]


@frozen
class Apply:
    """The transition ``transition`` of the state the local ``state`` holds
    runs with ``args`` (the state changes); each of ``fields`` then sets a
    local to a field of the record it answers (a field of ``""``: the whole
    answer, where it answers one value)."""

    state: str
    transition: str
    args: tuple[Checked, ...]
    fields: tuple[tuple[str, str], ...]


@frozen
class Append:
    """The list the local ``name`` holds gets ``value`` at its end."""

    name: str
    value: Checked


@frozen
class Each:
    """``body`` once for each record of the list the function ``function``
    answers for ``args`` (by the callee's parameter names; worked out, and
    rolled, once, in order), in order, after each of ``fields`` sets a local
    to a field of that record."""

    function: str
    args: tuple[tuple[str, Checked], ...]
    fields: tuple[tuple[str, str], ...]
    body: tuple[Stmt, ...]


Stmt = (
    Set
    | Emit
    | Return
    | Refuse
    | Lookup
    | If
    | While
    | Schedule
    | Run
    | Apply
    | Append
    | Each
)


@frozen
class Carried:
    """A value turns carry from one to the next: its type (a whole number, a
    flag, a label of ``enum``, a list of ``items``), its start (an expression
    of the parameters) and, for a number, the bounds every value it takes is
    kept within."""

    name: str
    type: Literal["int", "bool", "choice", "list", "record", "state", "text"]
    start: Checked
    lo: int | None
    hi: int | None
    enum: EnumType | None
    items: Literal["int", "bool", "text", "choice", "record"] | None
    description: str | None
    record: str | None = None  # a record or a state (or a list of records): its class


@frozen
class Renew:
    """A carried value's new value after a turn: ``value`` as kept (within its
    bounds), ``written`` as the rules write it."""

    name: str
    value: Checked
    written: Checked


@frozen
class Turns:
    """Turns a procedure takes before its body: the ``state`` starts; then,
    while ``until`` does not hold (tested before each turn, the first
    included) and fewer than ``most`` turns are taken, a turn binds ``binds``
    in order (its dice rolled anew each turn) and renews each of ``sets`` at
    once from the values before it. Without ``most`` the lowering has proved
    the turns end; the runtime stops a run at its entry limit all the same.
    The body reads the state as it ended and ``counter``, the turns taken."""

    state: tuple[Carried, ...]
    binds: tuple[Bind, ...]
    sets: tuple[Renew, ...]
    until: Checked
    most: int | None
    counter: str

    @property
    def expressions(self) -> list[Checked]:
        """Its expressions in the order a run meets them."""
        return [
            *(v.start for v in self.state),
            self.until,
            *(b.checked for b in self.binds),
            *(s.value for s in self.sets),
        ]


@frozen
class Procedure:
    """A function of checked parameters that runs ``body`` in order and
    answers the list of the items it emits (``answer`` names that list; each
    item is a whole number, a tuple of ``item`` whole numbers, where ``item``
    names a record one of those, or where it is a column a value of it).
    Where ``answer`` is None it answers the one item its ``Return`` gives,
    which ends every path through it (or a ``Refuse``). Where ``keys`` is
    given, an item is a value of the column ``item`` for each member of
    ``keys``. One whose expressions roll dice takes an rng, after its
    positional parameters."""

    name: str
    params: tuple[Param, ...]
    locals: tuple[Local, ...]
    body: tuple[Stmt, ...]
    answer: str | None
    item: int | str | Column
    doc: str
    origin: str
    rule_id: str
    answer_doc: str
    keys: EnumType | None = None
    # names bound in order (dice rolled in order) before the body runs
    binds: tuple[Bind, ...] = ()
    # tests among the names, each after the first ``n`` of them, that end the
    # call (an answer, or a refusal) before the names after it are bound
    guards: tuple[tuple[int, If], ...] = ()
    # its tests are proved never to hold together: the first that holds is
    # the only one (a fact its page says)
    exclusive: bool = False
    # turns taken after its names are bound, before its body runs
    turns: Turns | None = None
    # the part of its answer whose exact odds it has (the column's name where
    # it answers one value, else a field of its record), worked out by
    # following each bound name into the body, which then rolls no dice
    odds: str | None = None
    # how many dice deep its odds follow an explosion (an int expression of its
    # parameters; None: the runtime's default), and its odds function's name
    # (None: ``<name>_odds``)
    depth: Checked | None = None
    odds_name: str | None = None
    # every part its odds are of, in order (``odds`` is the first), and
    # whether they are answered together (a joint distribution)
    odds_fields: tuple[str, ...] = ()
    joint: bool = False
    # the parts of its answer other rules' odds read together (by their
    # places): each a private function of their chances
    field_odds: tuple[tuple[int, ...], ...] = ()

    @property
    def odds_of(self) -> tuple[str, ...]:
        """The parts of its answer its odds are of (none without odds)."""
        if self.odds is None:
            return ()
        return self.odds_fields or (self.odds,)

    @property
    def odds_function(self) -> str:
        """The name of its odds function (when it has odds)."""
        return self.odds_name or odds_function(self.name)

    @property
    def expressions(self) -> list[Checked]:
        """Every expression of its names, turns and statements, in order."""
        taken = self.turns.expressions if self.turns is not None else []
        guarded = body_expressions(tuple(g for _, g in self.guards))
        return (
            [b.checked for b in self.binds]
            + guarded
            + taken
            + body_expressions(self.body)
        )

    def prelude(self) -> list[Bind | If]:
        """Its names in order, each guard among them where it is tried."""
        found: list[Bind | If] = []
        for at in range(len(self.binds) + 1):
            found += [g for n, g in self.guards if n == at]
            found += self.binds[at : at + 1]
        return found

    def odds_reads(self, at: int) -> list[Checked]:
        """What the part ``odds`` names follows from: every test of the body
        and its guards and that part's value in each answer (``at``: where it
        stands in a record the procedure makes; 0 for one value)."""
        found: list[Checked] = []
        guards = tuple(g for _, g in self.guards)
        for stmt in statements_of(guards + self.body):
            if isinstance(stmt, If | While) and isinstance(stmt.test, Checked):
                found.append(stmt.test)
            elif isinstance(stmt, Return):
                value = stmt.value
                part = value.values[at] if isinstance(value, Make) else value
                found += [part] if isinstance(part, Checked) else []
        return found

    @property
    def rolls(self) -> bool:
        """Whether its expressions roll dice (it then takes an rng)."""
        return _rolls(self.expressions)


def statements_of(body: tuple[Stmt, ...]) -> list[Stmt]:
    """Every statement of ``body``, those within loops and branches included,
    in order."""
    found: list[Stmt] = []
    for stmt in body:
        found.append(stmt)
        if isinstance(stmt, While | Each):
            found += statements_of(stmt.body)
        elif isinstance(stmt, If):
            found += statements_of(stmt.then) + statements_of(stmt.otherwise)
    return found


def body_expressions(body: tuple[Stmt, ...]) -> list[Checked]:
    """Every expression of the statements ``body``, in order."""
    found: list[Checked] = []

    def walk(body: tuple[Stmt, ...]) -> None:
        for stmt in body:
            if isinstance(stmt, While):
                found.append(stmt.test)
                walk(stmt.body)
            elif isinstance(stmt, If):
                if not isinstance(stmt.test, Present):
                    found.append(stmt.test)
                walk(stmt.then)
                walk(stmt.otherwise)
            elif isinstance(stmt, Emit | Return):
                made = stmt.value if isinstance(stmt, Return) else stmt.values
                parts = made.values if isinstance(made, Make) else made
                if not isinstance(parts, tuple):
                    parts = (parts,)
                found.extend(p for p in parts if isinstance(p, Checked))
            elif isinstance(stmt, Refuse):
                pass
            elif isinstance(stmt, Lookup):
                found.append(stmt.key)
            elif isinstance(stmt, Schedule | Run):
                found.append(stmt.at)
                found.extend(stmt.args)
            elif isinstance(stmt, Apply):
                found.extend(stmt.args)
            elif isinstance(stmt, Each):
                found.extend(value for _, value in stmt.args)
                walk(stmt.body)
            else:
                found.append(stmt.value)

    walk(body)
    return found


# -- states: records that change ---------------------------------------------------


@frozen
class Field:
    """A field of a state: a whole number held within ``lo`` and ``hi`` (None:
    no limit that way) or a flag, or (``held``) a value of any type the rules
    declare (a label, a text, a list, a record, a state); ``start`` is its
    value in a new state (an expression of the state's ``params``)."""

    name: str
    type: Literal["int", "bool", "value"]
    start: Checked
    lo: int | None
    hi: int | None
    doc: str | None
    held: Column | None = None


@frozen
class Derived:
    """A property a state works out from its fields (``value``), never set:
    a whole number, a flag, a list of texts, or (``labels``) a list of labels
    of the set ``enum``, whose texts the value's text literals are; or
    (``held``) a value of any type the rules declare."""

    name: str
    type: Literal["int", "bool", "texts", "labels", "value"]
    value: Checked
    doc: str | None
    enum: EnumType | None = None
    held: Column | None = None


@frozen
class Change:
    """One field's new value, from the values before the transition;
    ``clamp`` where the checker cannot prove it within the field's limits."""

    field: str
    value: Checked
    clamp: bool


@frozen
class Transition:
    """A method of a state: checked parameters; where ``unless`` holds nothing
    changes; else names bound in order, then every change at once.

    Or, where ``body`` is given (and ``unless``, ``binds`` and ``changes`` are
    empty), statements run in order: a ``Set`` of a field's name changes the
    field, of a local (``locals``) sets the local. Every expression reads the
    fields and derived properties as they were before the transition. A body
    ends in a ``Return`` of a record of the unit (``record``) on every path."""

    name: str
    params: tuple[Param, ...]
    unless: Checked | None
    binds: tuple[Bind, ...]
    changes: tuple[Change, ...]
    doc: str
    answers: str | None = None  # the field whose new value it answers, if any
    body: tuple[Stmt, ...] | None = None
    locals: tuple[Local, ...] = ()
    record: str | None = None  # the record its body answers

    @property
    def expressions(self) -> list[Checked]:
        """Its expressions in order: the test, the names' values, the changes
        (or its body's)."""
        if self.body is not None:
            return body_expressions(self.body)
        return [
            *([self.unless] if self.unless is not None else []),
            *(b.checked for b in self.binds),
            *(c.value for c in self.changes),
        ]


@frozen
class State:
    """A class of one subject's state (``name``): its fields, which its
    transitions change and its derived properties read; ``doc`` is its title
    and summary, ``origin`` where it is declared. A new state takes
    ``params`` (which the fields' start values read); its data is its fields
    and the derived properties ``shown``."""

    name: str
    fields: tuple[Field, ...]
    derived: tuple[Derived, ...]
    transitions: tuple[Transition, ...]
    doc: str
    origin: str
    rule_id: str
    params: tuple[Param, ...] = ()
    shown: tuple[str, ...] = ()

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


# -- time: handlers run in time order ---------------------------------------------


@frozen
class Handler:
    """What a timeline does at a time it was scheduled for: its body, run with
    the time (the timeline's ``clock``) and its parameters ``params`` (set by
    the ``Schedule``'s values), setting its own locals ``locals`` and the
    timeline's."""

    name: str
    params: tuple[Local, ...]
    locals: tuple[Local, ...]
    body: tuple[Stmt, ...]


@frozen
class Timeline:
    """A function of checked parameters that plays out time: ``start`` runs
    (scheduling handlers); then, while any is scheduled, the one scheduled for
    the earliest time (of those, the first scheduled) runs; then ``after``
    runs, and ends in a ``Return`` of a record ``result``.

    ``shared`` are the names every part reads and sets, each with its start
    (an expression of the parameters); ``states`` are locals holding a new
    state each (local, class).
    Each ``Emit`` records an event (a record ``event``), which ``Return``
    reads as ``Recorded``; a run that would record more events than the
    runtime's entry limit is refused. Its expressions roll dice in
    the order the handlers run; it takes an rng."""

    name: str
    params: tuple[Param, ...]
    shared: tuple[tuple[Local, Checked], ...]
    states: tuple[tuple[str, str], ...]
    start: tuple[Stmt, ...]
    handlers: tuple[Handler, ...]
    after: tuple[Stmt, ...]
    after_locals: tuple[Local, ...]
    clock: str
    event: str
    result: str
    doc: str
    origin: str
    rule_id: str
    answer_doc: str

    @property
    def names(self) -> list[Local]:
        """Every local of it: the shared ones, each handler's, the end's."""
        found = [local for local, _ in self.shared]
        for handler in self.handlers:
            found += [*handler.params, *handler.locals]
        return found + list(self.after_locals)


Decl = (
    Enum
    | TextSet
    | Record
    | Const
    | Table
    | RollOn
    | Function
    | RangeTable
    | Procedure
    | State
    | Timeline
)


# -- what a page shows, where a lowering says it in its own words ------------------------


@frozen
class Prose:
    """A paragraph: plain text, with ``code`` and references to functions of
    the system (``core.docs.ref``), which the page links to their rules."""

    text: str


@frozen
class Shown:
    """A value of a column, as a reader sees it (its unit, sign, null label)."""

    column: Column
    value: Scalar


Cell = str | Shown  # plain text, or a value


@frozen
class Grid:
    """A table on a page: its headers and rows of cells."""

    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


@frozen
class DiceShown:
    """The figures of dice a page lists (``lead``: the sentence before them)."""

    lead: str
    dice: tuple[Dice, ...]


@frozen
class Listed:
    """A list on a page: its items (each a ``Prose``'s text), numbered or not."""

    items: tuple[str, ...]
    numbered: bool


@frozen
class RunShown:
    """The first worked example's run, as the build ran it: a row for each
    item of its answer's list ``field``: the item's time (its field ``time``,
    a count of clock ticks written in ``units``, the largest first, with each
    unit's name for one of it in ``singular``), what it is (its field
    ``which``), and its other figures that are not null."""

    field: str
    time: str
    which: str
    units: tuple[tuple[str, int], ...]
    singular: tuple[tuple[str, str], ...]


Block = Prose | Grid | DiceShown | Listed | RunShown


@frozen
class Unit:
    """One rule, lowered: its declarations in the order a module gives them, and
    the one a call of the rule reads (``entry``, the name of a ``Const``, a
    ``Table``, a function or procedure, a range table or a ``State``).

    Docs text (a ``doc``) is plain text whose inline code is written
    ``` ``so`` ``` and references to functions ``[[name]]`` (``core.docs``);
    each emitter writes it in its own markup.
    """

    decls: tuple[Decl, ...]
    entry: str
    # What the page shows of it, where the lowering says it (else each
    # emitter shows its main declaration as such).
    page: tuple[Block, ...] | None = None
    # The rules (qualified ids) whose declarations its own use.
    needs: tuple[str, ...] = ()
    # Record types other rules declare that its declarations make (a
    # decision answering a record type the rules declare): not its own.
    extern: tuple[Record, ...] = ()

    def record(self, name: str) -> Record:
        """A record type its declarations make (its own, or another rule's)."""
        return next(
            d
            for d in (*self.decls, *self.extern)
            if isinstance(d, Record) and d.name == name
        )

    def odds_part(self, procedure: Procedure) -> tuple[int, Column]:
        """Where the part of a procedure's answer that has odds stands in what
        it makes (0 for one value), and its column."""
        if isinstance(procedure.item, str):
            fields = self.record(procedure.item).fields
            at = next(i for i, c in enumerate(fields) if c.name == procedure.odds)
            return at, fields[at]
        assert isinstance(procedure.item, Column)
        return 0, procedure.item

    @property
    def main(
        self,
    ) -> Const | Table | Function | RangeTable | Procedure | State | Timeline | Record:
        """The declaration a call of the rule reads (a record type, for a rule
        that is one)."""
        return next(
            d
            for d in self.decls
            if isinstance(
                d,
                Const
                | Table
                | Function
                | RangeTable
                | Procedure
                | State
                | Timeline
                | Record,
            )
            and d.name == self.entry
        )


def _rolls(expressions: list[Checked]) -> bool:
    return any(dice_in(c.node) is not None for c in expressions)


def expressions_of(decl: Decl) -> list[Checked]:
    """Every expression a declaration's code works out, in order."""
    if isinstance(decl, Function | Procedure):
        return decl.expressions
    if isinstance(decl, State):
        return [
            *(f.start for f in decl.fields),
            *(d.value for d in decl.derived),
            *(c for t in decl.transitions for c in t.expressions),
        ]
    if isinstance(decl, Timeline):
        found = [value for _, value in decl.shared]
        found += body_expressions(decl.start) + body_expressions(decl.after)
        for handler in decl.handlers:
            found += body_expressions(handler.body)
        return found
    if isinstance(decl, Record):
        return [m.only_if for m in decl.methods if m.only_if is not None]
    return []
