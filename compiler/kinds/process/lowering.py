"""process, lowering: the names, expressions and events of one process's timeline."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...core.exprs import checked
from ...core.ir import (
    Emit,
    If,
    Local,
    Make,
    Part,
    Set,
    Stmt,
    TextSet,
    Written,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    System,
)
from ...lang.expr import (
    DICE_PARTS,
    Checked,
)
from ...runtime.dice import Dice
from .model import ProcessRule, ProcessStep
from .records import column, dice_name, event_kinds, record_fields

# The names of a handler's own values (renamed where a parameter has one).
OWN = (
    "roll",
    "total",
    "success",
    "pool",
    "streak",
    "made",
    "left",
    "delay",
    "amount",
    "before",
    "rolls_due",
    "again",
    "track_roll",
    "effect",
    "stage",
    "condition",
    "reroll",
    "marks",
    "level",
    "heal_time",
    "rolled_pool",
)

_OWN_NAME = re.compile(r"@(\w+)")


@dataclass
class Course:
    """What one set of handlers reads of its course: each figure's expression
    text (a figure written out, or a name the handlers take)."""

    suffix: str
    labels: list[str]  # an expression per label field
    label_texts: list[str]  # texts the label expressions put in
    target: str
    pool: Dice | str | None  # dice written out, or the name holding them
    every: int | None
    until: int | None
    on_failure: tuple[tuple[int, Dice], ...]
    check_limit: int | None
    steps: tuple[ProcessStep, ...]
    has_onset: bool = False
    takes: list[Local] = field(default_factory=list)  # the figures it takes
    bound: dict[str, Checked] = field(default_factory=dict)


class Lowering:
    """The names, records and statements of one process's timeline."""

    def __init__(self, system: System, rule: ProcessRule) -> None:
        self.system, self.rule = system, rule
        self.params = rule.params
        self.kinds = TextSet(
            f"{rule.event_class}Kind",
            tuple(event_kinds(rule)),
            f"The kinds of event of ``{rule.function}()`` (the values of "
            f"``{rule.event_class}.kind``). {where_doc(rule)}",
        )
        taken = {p.name for p in rule.params} | {"rng"}
        taken |= {rule.event_class, rule.result_class, self.kinds.name}
        taken |= {"Timeline", "check_rng", "dice_rolls", "dice_terms", "Dice"}
        taken |= {r.class_name for r in (rule.track, rule.state) if r is not None}
        if rule.origin is not None:
            taken.add(rule.origin.function)
        self.taken = taken
        self.n = {name: self.fresh(name) for name in OWN}
        self.clock = rule.time_field
        self.shared: list[tuple[Local, Checked]] = []
        self.shared_bound: dict[str, Checked] = {}
        self.states: list[tuple[str, str]] = []
        self.event_columns = self._event_columns()
        # the check's die: a constant of the module, its roll read by name
        self.check_dice = self.dice(f"{rule.id.upper()}_CHECK", rule.check)
        self.counts: dict[str, str] = {}  # event -> the shared count of it
        self.firsts: dict[str, str] = {}  # event -> the shared time it first happened

    # -- names ---------------------------------------------------------------------

    def fresh(self, name: str) -> str:
        """``name``, or (where a parameter or another local has it) with a
        number after it (``level2``: a name with no new underscore, so that
        every target's spelling of it is as new)."""
        found, number = name, 1
        while found in self.taken:
            number += 1
            found = f"{name}{number}"
        self.taken.add(found)
        return found

    def local(self, name: str, *args: object, **kw: object) -> Local:
        """A handler's own value (by its name in ``OWN``)."""
        return Local(self.n.get(name, name), *args, **kw)  # type: ignore[arg-type]

    def set(self, name: str, value: Checked) -> Set:
        return Set(self.n.get(name, name), value)

    def rename(self, text: str) -> str:
        """An expression's text with each ``@name`` (a name of ``OWN``) by its
        name here."""
        return _OWN_NAME.sub(lambda m: self.n[m.group(1)], text)

    def dice(self, constant: str, dice: Dice) -> str:
        """The name of a constant of the module holding ``dice`` (this rule's
        or one it uses), read as dice by the expressions."""
        parts = tuple(
            (part, getattr(dice, part), getattr(dice, part)) for part in DICE_PARTS
        )
        self.shared_bound[constant] = dice_name(constant, parts, nullable=False)
        return constant

    def share(self, local: Local, start: str, bound: Checked | None = None) -> None:
        self.shared.append((local, checked(start, self.params)))
        if bound is not None:
            self.shared_bound[local.name] = bound

    # -- expressions ---------------------------------------------------------------

    def c(
        self,
        text: str,
        names: Sequence[Local] = (),
        texts: Sequence[str] = (),
        bound: dict[str, Checked] | None = None,
    ) -> Checked:
        """``text`` over the parameters, the shared names and ``names``."""
        every = [local for local, _ in self.shared] + list(names)
        every.append(Local(self.clock, 0, None))
        return checked(
            self.rename(text),
            self.params,
            [n for n in every if n.name not in self.shared_bound],
            texts,
            bound={**self.shared_bound, **(bound or {})},
        )

    # -- the event and result records -----------------------------------------------

    def _event_columns(self) -> list[Column]:
        rule = self.rule
        columns = [
            column(rule.time_field, "int", f"When, in {rule.clock}.", nullable=False),
            column("kind", "text", "Which event.", self.kinds.name, nullable=False),
        ]
        for name, (type_, enum) in zip(
            (n for n, _ in rule.labels), self.label_types(), strict=True
        ):
            columns.append(column(name, type_, "A label of its course.", enum))
        roles = zip(
            rule.role_fields,
            ("int", "int", "int", "int", "bool", "int"),
            (
                "Points dealt.",
                "The die's roll.",
                "The check's total.",
                "The check's target.",
                "Whether the check succeeded.",
                "The course's pool.",
            ),
            strict=True,
        )
        columns += [column(n, t, d) for n, t, d in roles]
        track = rule.track
        if track is not None:
            columns += [
                column(
                    "effect", "choice", "The effect rolled.", track.effect_enum.name
                ),
                column("stage", "int", "Its stage."),
                column(
                    "condition",
                    "choice",
                    "The condition it gives.",
                    track.condition_enum.name,
                ),
                column("reroll", "bool", "Whether the roll is made again."),
                column(track.mark_field, "bool", "Whether it marked a point."),
            ]
        if rule.state is not None and rule.held is None:
            columns.append(column(rule.state_field, "int", "The state's new level."))
        return columns

    def label_types(self) -> list[tuple[str, str | None]]:
        """Each label field's type: a label of another rule's record's set, or
        text the courses write."""
        origin = self.rule.origin
        if origin is None:
            return [("text", None)] * len(self.rule.labels)
        fields = record_fields(origin.rule)
        return [(fields[f][0], fields[f][1]) for _, f in origin.labels]

    def event(
        self,
        kind: str,
        course: Course | None,
        time: str | None,
        values: dict[str, Part],
        names: Sequence[Local],
        bound: dict[str, Checked] | None = None,
    ) -> list[Stmt]:
        """An event (and the totals that count it): its time (None: 0), kind,
        course's labels, and the other fields ``values`` gives (None else)."""
        rule = self.rule
        parts: list[Part] = [
            Written(0) if time is None else self.c(time, names, (), bound),
            Written(kind),
        ]
        label_names = [n for n, _ in rule.labels]
        for index, _ in enumerate(label_names):
            if course is None:
                parts.append(Written(None))
            else:
                text = course.labels[index]
                parts.append(
                    self.c(
                        text,
                        names,
                        course.label_texts,
                        {**course.bound, **(bound or {})},
                    )
                )
        for col in self.event_columns[2 + len(label_names) :]:
            parts.append(values.get(col.name, Written(None)))
        found: list[Stmt] = [Emit(Make(tuple(parts)))]
        if kind in self.counts:
            count = self.counts[kind]
            found.append(Set(count, self.c(f"{count} + 1")))
        if kind in self.firsts and time is not None:
            first = self.firsts[kind]
            found.append(
                If(
                    self.c(f"{first} is null"),
                    (Set(first, self.c(time, names, (), bound)),),
                )
            )
        return found
