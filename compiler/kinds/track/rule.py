"""track: staged effects rolled on a die, each roll moving one effect a stage on."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from ...core.exprs import checked
from ...core.ir import (
    Const,
    Derived,
    DiceShown,
    Enum,
    Field,
    Grid,
    If,
    Label,
    Local,
    Make,
    Prose,
    Record,
    Return,
    Set,
    State,
    Stmt,
    Transition,
    Unit,
    While,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    Param,
    System,
)
from ...kinds.state.record import Members
from ...kinds.track.model import TrackEffect, TrackRule
from ...lang.expr import Checked

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

# The outcome's fields before the one the rules name (see ``mark``).
OUTCOME_FIELDS = ("effect", "stage", "condition", "reroll")
# What each field of an outcome says.
FIELD_DOCS = {
    "effect": "The effect the roll hit.",
    "stage": "The stage it reached; one past the last means roll again.",
    "condition": "The condition of that stage, if it has one.",
    "reroll": "Whether to roll again.",
}
MARK_DOC = "Whether the roll marked a point."
# The names the state's class and its transition use besides each effect's.
CONDITIONS, APPLY, ROLL, NEXT = "conditions", "apply", "roll", "next_stage"


def member_name(label: str) -> str:
    """An UPPER_CASE member name for a condition label ("Flat-Footed" -> FLAT_FOOTED)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_").upper()


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> TrackRule | None:
    b.claim(src, (*path, "class"), raw["class"], "class")
    b.claim(src, (*path, "outcome"), raw["outcome"], "class")
    effect_enum = b.enum(
        src,
        (*path, "effects"),
        raw["effect_enum"],
        [{"name": e["name"], "label": e["label"]} for e in raw["effects"]],
        False,
        name_at=(*path, "effect_enum"),
        members_at=(*path, "effects"),
    )
    members = Members(b, src)
    members.add((*path, "class"), CONDITIONS, "derived property name")
    members.add((*path, "class"), APPLY, "transition name")
    labels: list[str] = []
    named: set[str] = set()  # a member named twice is reported once, by b.enum
    for index, effect in enumerate(raw["effects"]):
        epath = (*path, "effects", index)
        if effect["name"] not in named:
            named.add(effect["name"])
            _effect_field(b, src, (*epath, "name"), effect["name"], members)
        staged, marks = "stages" in effect, effect.get("marks", False)
        if staged == bool(marks):
            b.err(
                src,
                epath,
                f"effect {effect['label']!r} needs exactly one of 'stages' and 'marks: true'",
            )
        elif marks and "description" not in effect:
            b.err(
                src,
                epath,
                f"effect {effect['label']!r} has no stages, so it needs a 'description' for the docs",
            )
        labels += [s for s in effect.get("stages", []) if s not in labels]
    condition_enum = b.enum(
        src,
        (*path, "condition_enum"),
        raw["condition_enum"],
        [{"name": member_name(label), "label": label} for label in labels],
        False,
        name_at=(*path, "condition_enum"),
    )
    conditions = {m.label: m for m in condition_enum.members}
    # A member written twice is reported (b.enum) and kept once: its first effect.
    first: dict[str, dict[str, Any]] = {}
    for raw_effect in raw["effects"]:
        first.setdefault(raw_effect["name"], raw_effect)
    effects = tuple(
        TrackEffect(
            member,
            tuple(
                conditions[s]
                for s in first[member.name].get("stages", [])
                if s in conditions
            ),
            bool(first[member.name].get("marks", False)),
            first[member.name].get("description"),
        )
        for member in effect_enum.members
    )
    roll = b.dice(src, (*path, "roll"), raw["roll"], None)
    if roll is not None and (
        roll.min != 1 or roll.max != len(effects) or roll.count != 1
    ):
        b.err(
            src,
            (*path, "roll"),
            f"{roll} must be one die with a side per effect (1d{len(effects)})",
        )
    mark = raw.get("mark")
    ok_mark = mark is None or b.local_name(src, (*path, "mark"), mark, "field name")
    if ok_mark and mark in OUTCOME_FIELDS:
        b.err(src, (*path, "mark"), f"{mark!r} is already a field of the outcome")
    examples = b.examples(src, path, raw, {"rolls"}, roll_columns=set())
    if roll is None:
        return None
    return TrackRule(
        **common,
        examples=examples,
        class_name=raw["class"],
        outcome=raw["outcome"],
        effect_enum=effect_enum,
        condition_enum=condition_enum,
        effects=effects,
        roll=roll,
        every=raw["every"],
        reroll_label=raw["reroll_label"],
        mark_field=raw.get("mark", "marked"),
    )


def field_name(effect: TrackEffect) -> str:
    """The state's field holding an effect's stage: its member's name, in lower case."""
    return effect.member.name.lower()


def _effect_field(
    b: SystemBuilder, src: SourceFile, path: Path, name: str, members: Members
) -> None:
    """An effect's field of the state: a name a class member may have."""
    field = name.lower()
    if field in (ROLL, NEXT):
        b.err(
            src,
            path,
            f"effect {name!r} would hold its stage in a field {field!r}, a name "
            f"the track's {APPLY}() uses",
            "choose another name",
        )
        return
    members.add(path, field, "effect's field name")


def lower(system: System, rule: TrackRule) -> Unit:
    """A track as a state of the core: a field per effect holding its stage
    (0: not yet), the conditions suffered derived from them, and ``apply``, a
    transition answering an outcome record: the rolled effect moves on a stage,
    past each whose condition is already suffered; past the last it is a
    reroll, and an effect with no stages marks a point."""
    effects, conditions = rule.effect_enum, rule.condition_enum
    where = where_doc(rule)
    roll = Param(
        ROLL,
        "int",
        1,
        len(rule.effects),
        None,
        False,
        f"A result of {rule.roll} (1 for the first effect).",
        None,
    )
    top = max(len(e.stages) for e in rule.effects) + 1
    fields = tuple(
        Field(
            field_name(e),
            "int",
            checked("0", ()),
            0,
            len(e.stages) or 1,
            f"The stage of {e.member.label} (0: not yet)."
            if e.stages
            else f"1 once {e.member.label} has come up.",
        )
        for e in rule.effects
    )
    states = [Param(f.name, "int", f.lo, f.hi, None, False, "", None) for f in fields]
    # Each staged effect's current condition, in die order, but one an
    # earlier effect gives already (two effects may end at one condition: a
    # reroll leaves an effect at its last stage).
    staged = [e for e in rule.effects if e.stages]
    parts = []
    texts: list[str] = []
    for index, e in enumerate(staged):
        text = "[]"
        for stage in range(len(e.stages), 0, -1):
            label = e.stages[stage - 1].label
            texts.append(label)
            test = f"{field_name(e)} == {stage}" + "".join(
                f" and {field_name(other)} != {at}"
                for other in staged[:index]
                for at, held in enumerate(other.stages, start=1)
                if held.label == label
            )
            text = f"[{{{len(texts) - 1}}}] if {test} else {text}"
        parts.append(f"({text})")
    suffered = checked(" + ".join(parts) or "[]", states, (), texts, labels=conditions)
    derived = Derived(
        CONDITIONS,
        "labels",
        suffered,
        "The conditions suffered now: each staged effect's current one, in die order.",
        conditions,
    )
    names = (Local(NEXT, 1, top),)

    def c(text: str, *said: str) -> Checked:
        return checked(
            text,
            (roll, *states),
            names,
            said,
            bound={CONDITIONS: suffered},
            labels=conditions,
        )

    def outcome(
        effect: TrackEffect, stage: str, condition: Checked, reroll: str, marks: str
    ) -> Return:
        return Return(
            Make(
                (
                    Label(effects, effect.member.label),
                    c(stage),
                    condition,
                    c(reroll),
                    c(marks),
                )
            )
        )

    def moved(e: TrackEffect) -> tuple[Stmt, ...]:
        field, last = field_name(e), len(e.stages)
        if not e.stages:
            return (Set(field, c("1")), outcome(e, "1", c("null"), "false", "true"))
        labels = [s.label for s in e.stages]
        held = " or ".join(
            f"({NEXT} == {n} and {{{n - 1}}} in {CONDITIONS})"
            for n in range(1, last + 1)
        )
        condition = "{" + str(last - 1) + "}"
        for n in range(last - 1, 0, -1):
            condition = f"{{{n - 1}}} if {NEXT} == {n} else {condition}"
        return (
            Set(NEXT, c(f"{field} + 1")),
            While(
                c(f"{NEXT} <= {last} and ({held})", *labels),
                (Set(NEXT, c(f"{NEXT} + 1")),),
                last,
            ),
            If(
                c(f"{NEXT} > {last}"),
                (
                    Set(field, c(str(last))),
                    outcome(e, str(last + 1), c("null"), "true", "false"),
                ),
                (
                    Set(field, c(NEXT)),
                    outcome(e, NEXT, c(condition, *labels), "false", "false"),
                ),
            ),
        )

    body: tuple[Stmt, ...] = moved(rule.effects[-1])
    for index in range(len(rule.effects) - 2, -1, -1):
        body = (If(c(f"{ROLL} == {index + 1}"), moved(rule.effects[index]), body),)
    apply = Transition(
        name=APPLY,
        params=(roll,),
        unless=None,
        binds=(),
        changes=(),
        doc="Move the track on for a die result.",
        body=body,
        locals=names,
        record=rule.outcome,
    )
    state = State(
        name=rule.class_name,
        fields=fields,
        derived=(derived,),
        transitions=(apply,),
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where,
        rule_id=rule.qualified_id,
        shown=(CONDITIONS,),
    )
    record = Record(
        rule.outcome,
        f"What one roll on ``{rule.class_name}`` did.",
        (
            _column("effect", "choice", FIELD_DOCS["effect"], effects.name),
            _column("stage", "int", FIELD_DOCS["stage"]),
            _column(
                "condition", "choice", FIELD_DOCS["condition"], conditions.name, True
            ),
            _column("reroll", "bool", FIELD_DOCS["reroll"]),
            _column(rule.mark_field, "bool", MARK_DOC),
        ),
    )
    prefix = rule.id.upper()
    decls = (
        Enum(effects, f"The effects of rule ``{rule.qualified_id}``, in die order"),
        Enum(conditions, f"The conditions of rule ``{rule.qualified_id}``"),
        Const(
            f"{prefix}_ROLL",
            "dice",
            rule.roll,
            f"The die rolled on rule ``{rule.qualified_id}``.",
        ),
        Const(
            f"{prefix}_EVERY",
            "int",
            rule.every,
            f"Rule ``{rule.qualified_id}`` is rolled once for every this many points dealt.",
        ),
        record,
        state,
    )
    return Unit(decls, rule.class_name, _page(rule))


def _column(
    name: str,
    type_: Literal["int", "bool", "choice"],
    description: str,
    enum: str | None = None,
    nullable: bool = False,
) -> Column:
    title = name.replace("_", " ").capitalize()
    return Column(name, type_, nullable, "-", False, None, title, description, enum)


def _page(rule: TrackRule) -> tuple[Prose | Grid | DiceShown, ...]:
    """The table of effects and stages, as the rules give it."""
    width = max(len(e.stages) for e in rule.effects)
    rows = []
    for index, e in enumerate(rule.effects, start=1):
        if e.marks:
            cells = [e.description or "", *[""] * width]
        else:
            pad = [""] * (width - len(e.stages))
            cells = [*(s.label for s in e.stages), *pad, rule.reroll_label]
        rows.append((str(index), e.member.label, *cells))
    said = (
        f"For every {rule.every} points dealt, roll ``{rule.roll}`` on "
        "this table. A subject who already has the rolled effect, or already "
        "suffers the condition of its next stage, moves on to the stage after; "
        f"stage {width + 1} means roll again, and the effect stays at its last stage."
    )
    return (
        Prose(said),
        Grid(
            ("Roll", "Effect", *(f"Stage {n}" for n in range(1, width + 2))),
            tuple(rows),
        ),
        DiceShown("", (rule.roll,)),
    )
