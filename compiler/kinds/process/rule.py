"""process: a seeded, time-ordered simulation of courses, checks and scores.

Every name the process uses (its parameters, events, fields, scores, totals and
time units) comes from the rules data; ``lower.py`` writes it as a timeline of
the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...common.limits import MAX_FIGURE
from ...core.viewkit import rng_at
from ...front.model import (
    Param,
    Rolls,
    Rule,
)
from ...kinds.decision.model import DecisionRule
from ...kinds.dice.model import DiceRule
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.pool.model import PoolRule
from ...kinds.process.model import (
    ProcessCourse,
    ProcessRule,
    ProcessSource,
    ProcessStep,
    ProcessTotal,
)
from ...kinds.recovery.model import RecoveryRule
from ...kinds.state.model import StateRule
from ...kinds.state.record_model import RecordStateRule
from ...kinds.track.model import TrackRule
from ...kinds.track.rule import OUTCOME_FIELDS
from ...runtime.dice import Dice
from .held import Held, HeldReader, held_state, held_step, held_total

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

ROLES = ("amount", "roll", "total", "target", "success", "pool")
TRACK_FIELDS = OUTCOME_FIELDS  # a track outcome's fields, then its mark


# -- what a referenced rule answers -----------------------------------------------


def _record_fields(rule: Rule) -> dict[str, str] | None:
    """The fields (name -> type) of each record in the list ``rule`` answers."""
    if isinstance(rule, ExposureScheduleRule):
        fields = {"kind": "choice", "effective_level": "choice"}
        fields |= {c.name: c.type for c in rule.table.columns}
        return fields | {rule.start_field: "int"}
    if isinstance(rule, DecisionRule) and rule.shape == "fields":
        return {s.name: s.type for s in rule.slots}
    return None


def _callee_params(rule: Rule) -> tuple[str, ...]:
    if isinstance(rule, ExposureScheduleRule):
        return (rule.table.key_param, rule.stayed_param, rule.full_param)
    return tuple(p.name for p in getattr(rule, "params", ()))


# -- build ------------------------------------------------------------------------


class _Builder:
    """Builds one process rule, reporting every problem at its own place."""

    def __init__(
        self, b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]
    ) -> None:
        self.b, self.src, self.path, self.raw = b, src, path, raw
        self.ok = True

    def err(
        self, where: tuple[str | int, ...], message: str, hint: str | None = None
    ) -> None:
        self.ok = False
        self.b.err(self.src, (*self.path, *where), message, hint)

    def ticks(self, where: tuple[str | int, ...], unit: str) -> int | None:
        """Clock ticks per ``unit``."""
        units = self.b.time_units
        clock = self.raw["clock"]
        if unit not in units:
            self.err(
                where,
                f"unknown time unit {unit!r}",
                "units of this system (time_units in system.yaml): "
                + (", ".join(sorted(units)) or "none yet"),
            )
            return None
        if clock in units and units[unit] % units[clock]:
            self.err(where, f"{unit!r} is not a whole number of {clock!r}, the clock")
            return None
        return self.figure(where, units[unit] // units.get(clock, 1), f"one {unit}")

    def duration(
        self, where: tuple[str | int, ...], raw: dict[str, Any] | None
    ) -> int | None:
        if raw is None:
            return None
        per = self.ticks((*where, "unit"), raw["unit"])
        if per is None:
            return None
        what = f"{raw['amount']} {raw['unit']}"
        return self.figure((*where, "amount"), raw["amount"] * per, what)

    def base_ticks(self, where: tuple[str | int, ...], base: int) -> int:
        """A length in the system's base unit (as pool and recovery rules keep it) in ticks."""
        clock = self.raw["clock"]
        per = self.b.time_units.get(clock, 1)
        if base % per:
            self.err(
                where, f"its interval is not a whole number of {clock!r}, the clock"
            )
        return self.figure(where, base // per, "its interval") or 0

    def figure(self, where: tuple[str | int, ...], ticks: int, what: str) -> int | None:
        """``ticks``, a time the process's steps write as a figure: at most
        ``MAX_FIGURE`` clock ticks (else None, reported)."""
        if ticks <= MAX_FIGURE:
            return ticks
        self.err(
            where,
            f"{what} is {ticks:,} {self.raw['clock']}: past {MAX_FIGURE:,}, the "
            "largest figure a rule's steps work with",
            "use a longer clock, or a shorter time",
        )
        return None

    def dice(self, where: tuple[str | int, ...], value: Any) -> Dice | None:
        dice = self.b.dice(self.src, (*self.path, *where), value, None)
        if dice is None:
            self.ok = False
        return dice

    def name(
        self, where: tuple[str | int, ...], name: str, what: str, seen: dict[str, str]
    ) -> None:
        if not self.b.local_name(self.src, (*self.path, *where), name, what):
            self.ok = False
        elif name in seen:
            self.err(where, f"{what} {name!r} is already the {seen[name]}")
        else:
            seen[name] = what


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> ProcessRule | None:
    k = _Builder(b, src, path, raw)
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "result"), raw["result"], "result class")
    event_raw = raw.get("event", {"class": f"{raw['result']}Event", "time": "time"})
    b.claim(src, (*path, "event", "class"), event_raw["class"], "event class")
    if raw["clock"] not in b.time_units:
        k.ticks(("clock",), raw["clock"])
    units = {
        unit: per // b.time_units[raw["clock"]]
        for unit, per in sorted(b.time_units.items())
        if raw["clock"] in b.time_units and per % b.time_units[raw["clock"]] == 0
    }

    params: list[Param] = []
    seen_params: dict[str, Any] = {}
    b.param_order(src, path, raw["parameters"])
    for index, p in enumerate(raw["parameters"]):
        param = b.param(src, (*path, "parameters", index), p, seen_params)
        if param is None:
            k.ok = False
            continue
        seen_params[param.name] = param
        params.append(param)
    by_name = {p.name: p for p in params}

    def int_param(where: tuple[str | int, ...], name: str | None) -> str | None:
        if name is None:
            return None
        param = by_name.get(name)
        if param is None or param.type != "int":
            k.err(
                where,
                f"{name!r} is not an int parameter of this process",
                "parameters: " + (", ".join(by_name) or "none"),
            )
            return None
        return name

    check = raw["check"]
    check_dice = k.dice(("check", "dice"), check["dice"])
    bonus = int_param(("check", "bonus"), check.get("bonus"))
    fails, succeeds = check.get("always_fails"), check.get("always_succeeds")
    if check_dice is not None:
        for key, value in (("always_fails", fails), ("always_succeeds", succeeds)):
            if value is not None and not check_dice.min <= value <= check_dice.max:
                k.err(("check", key), f"{value} is not a result of {check_dice}")
        if fails is not None and succeeds is not None and fails >= succeeds:
            k.err(
                ("check", "always_fails"),
                f"always_fails {fails} must be below always_succeeds {succeeds}",
            )

    source = raw.get("contact", {})
    leave_param = int_param(("contact", "left_at"), source.get("left_at"))
    if ("leave" in source) != ("left_at" in source):
        k.err(("contact",), "contact needs both 'leave' and 'left_at', or neither")

    events: dict[str, str] = {}
    for key, what in (("enter", "enter"), ("leave", "leave")):
        if key in source:
            k.name(("contact", key), source[key], f"{what} event", events)
    names = raw["events"]
    for key in ("onset", "check", "end"):
        if key in names:
            k.name(("events", key), names[key], f"{key} event", events)
    if "check" not in names:
        k.err(("events",), "name the 'check' event")

    scores: list[str] = []
    score_events: list[str] = []
    for index, score in enumerate(raw["scores"]):
        if score["name"] in scores:
            at = (*k.path, "scores", scores.index(score["name"]), "name")
            first = k.b.first_at(k.src, k.src, at, (*k.path, "scores", index, "name"))
            k.err(
                ("scores", index, "name"),
                f"duplicate score {score['name']!r} ({first})",
            )
        scores.append(score["name"])
        event = score.get("event", score["name"])
        k.name(
            ("scores", index, "event" if "event" in score else "name"),
            event,
            "score event",
            events,
        )
        score_events.append(event)

    def score_index(where: tuple[str | int, ...], name: str) -> int:
        if name not in scores:
            k.err(where, f"unknown score {name!r}", "scores: " + ", ".join(scores))
            return 0
        return scores.index(name)

    state_rule: StateRule | RecordStateRule | None = None
    reader: HeldReader | None = None
    held: Held | None = None
    if "state" in raw:
        at, rule_id = (*path, "state", "rule"), raw["state"]["rule"]
        if isinstance(b.built.get(rule_id), RecordStateRule):
            state_rule = b.reference(src, at, rule_id, RecordStateRule, "a state rule")
        else:
            state_rule = b.reference(src, at, rule_id, StateRule, "a state rule")
        k.name(("state", "event"), raw["state"]["event"], "state event", events)
        if isinstance(state_rule, RecordStateRule):
            reader = HeldReader(b, src, path, state_rule, params)
            if check_dice is not None:
                reader.check_values(check_dice, by_name.get(bonus or ""))
            held = held_state(reader, raw["state"])
        else:
            for key in ("start", "stops"):
                if key in raw["state"] and state_rule is not None:
                    k.err(
                        ("state", key),
                        f"{state_rule.id!r} is a state of levels: it has no {key!r}",
                        "a state with fields is made and stopped on; drop it",
                    )
    steppable = (
        set()
        if not isinstance(state_rule, StateRule)
        else {
            t.name
            for t in state_rule.transitions
            if t.param is None or t.default is not None
        }
    )

    def steps(
        where: tuple[str | int, ...], raw_effects: list[dict[str, Any]]
    ) -> tuple[ProcessStep, ...]:
        found = []
        for index, effect in enumerate(raw_effects):
            if "step" not in effect:
                continue
            call = None
            if "state" not in raw:
                k.err((*where, index, "step"), "a step needs the process's 'state'")
            elif reader is not None:
                call = held_step(reader, (*where, index), effect)
            elif "args" in effect:
                k.err(
                    (*where, index, "args"),
                    "a state of levels is stepped with no argument",
                    "drop 'args', or hold a state with fields",
                )
            elif state_rule is not None and effect["step"] not in steppable:
                k.err(
                    (*where, index, "step"),
                    f"{effect['step']!r} is not a transition of {state_rule.id!r} that takes no argument",
                    "transitions: " + (", ".join(sorted(steppable)) or "none"),
                )
            written = ", ".join(f"{a}={v}" for a, v in effect.get("args", {}).items())
            found.append(ProcessStep(effect["step"], call, written))
        return tuple(found)

    def effects(
        where: tuple[str | int, ...], raw_effects: list[dict[str, Any]]
    ) -> tuple[tuple[int, Dice], ...]:
        found = []
        for index, effect in enumerate(raw_effects):
            if "step" in effect:
                continue
            dice = k.dice((*where, index, "dice"), effect["dice"])
            score = score_index((*where, index, "score"), effect["score"])
            if dice is not None:
                found.append((score, dice))
        return tuple(found)

    def shared(where: tuple[str | int, ...], c: dict[str, Any]) -> dict[str, Any]:
        every = k.duration((*where, "every"), c.get("every"))
        if every is not None and every < 1:
            k.err(
                (*where, "every", "amount"),
                "a course is checked again at least one clock tick later",
            )
        if "until" in c and "every" not in c:
            k.err(
                (*where, "until"),
                "'until' needs 'every': a course checked once cannot succeed twice",
            )
        if "checks" in c and "every" not in c:
            k.err((*where, "checks"), "'checks' needs 'every'")
        if "every" in c and "until" not in c and "checks" not in c:
            k.err(
                (*where, "every"),
                "nothing ends the course: it would be checked again forever",
                "give the course 'until' (successes in a row that end it) or "
                "'checks' (at most this many checks)",
            )
        if (
            "until" in c
            and "checks" not in c
            and check_dice is not None
            and succeeds is None
        ):
            k.err(
                (*where, "until"),
                "the course could be checked forever",
                "give the check 'always_succeeds', or the course a 'checks' limit",
            )
        return {
            "every": every,
            "until": c.get("until"),
            "on_failure": effects((*where, "on_failure"), c.get("on_failure", [])),
            "steps": steps((*where, "on_failure"), c.get("on_failure", [])),
            "check_limit": c.get("checks"),
        }

    courses_raw = raw["courses"]
    courses: list[ProcessCourse] = []
    origin: ProcessSource | None = None
    labels: tuple[str, ...] = ()
    label_types: dict[str, str] = {}
    has_onset = has_pool = False
    if isinstance(courses_raw, list):
        labels = tuple(courses_raw[0].get("labels", {}))
        for index, c in enumerate(courses_raw):
            where: tuple[str | int, ...] = ("courses", index)
            if tuple(c.get("labels", {})) != labels:
                k.err(
                    (*where, "labels"),
                    "every course needs the same label fields, in the same order",
                    "label fields: " + (", ".join(labels) or "none"),
                )
            onset = None
            if "onset" in c:
                has_onset = True
                onset = k.dice((*where, "onset", "dice"), c["onset"]["dice"])
                if onset is not None:
                    onset = Dice(
                        onset.count,
                        onset.sides,
                        onset.modifier,
                        onset.multiplier,
                        c["onset"]["unit"],
                    )
                    k.ticks((*where, "onset", "unit"), c["onset"]["unit"])
            pool = k.dice((*where, "pool"), c["pool"]) if "pool" in c else None
            has_pool = has_pool or pool is not None
            courses.append(
                ProcessCourse(
                    labels=tuple(c.get("labels", {}).values()),
                    start=k.duration((*where, "start"), c.get("start")) or 0,
                    onset=onset,
                    target=c["target"],
                    pool=pool,
                    **shared(where, c),
                )
            )
        label_types = dict.fromkeys(labels, "text")
    else:
        origin, label_types, has_onset, has_pool = _from_courses(
            k, b, courses_raw, by_name, shared
        )
        labels = tuple(label_types)

    pool_rule = recovery_rule = None
    track_rule = None
    pool_score = track_score = recover_score = None
    if "pool" in raw:
        pool_rule = b.reference(
            src, (*path, "pool", "rule"), raw["pool"]["rule"], PoolRule, "a pool rule"
        )
        pool_score = score_index(("pool", "score"), raw["pool"]["score"])
        if pool_rule is not None:
            k.base_ticks(("pool", "rule"), pool_rule.interval_minutes)
    if has_pool and "pool" not in raw:
        k.err(
            ("courses",),
            "the courses roll pools, but the process has no 'pool' to deal them",
        )
    if "track" in raw:
        track_rule = b.reference(
            src,
            (*path, "track", "rule"),
            raw["track"]["rule"],
            TrackRule,
            "a track rule",
        )
        track_score = score_index(("track", "score"), raw["track"]["score"])
        k.name(("track", "event"), raw["track"]["event"], "track event", events)
        if track_rule is not None and all(e.stages for e in track_rule.effects):
            k.err(
                ("track", "rule"),
                f"nothing ends a roll on {track_rule.id!r}: once every effect is at "
                "its last stage, each roll is a reroll, forever",
                "give the track an effect with no stages (it marks a point)",
            )
    if "recovery" in raw:
        recovery_rule = b.reference(
            src,
            (*path, "recovery", "rule"),
            raw["recovery"]["rule"],
            RecoveryRule,
            "a recovery rule",
        )
        recover_score = score_index(("recovery", "score"), raw["recovery"]["score"])
        k.name(
            ("recovery", "event"), raw["recovery"]["event"], "recovery event", events
        )
        if recovery_rule is not None:
            k.base_ticks(("recovery", "rule"), recovery_rule.interval_minutes)
        if "ends" in raw["recovery"]:
            k.name(
                ("recovery", "ends"), raw["recovery"]["ends"], "ending event", events
            )
            if "track" not in raw:
                k.err(
                    ("recovery", "ends"),
                    "only a track gives conditions for 'ends' to end",
                    "give the process a track, or drop 'ends'",
                )
    if has_onset and "onset" not in names:
        k.err(("events",), "the courses have onsets: name the 'onset' event")

    fields: dict[str, str] = {}
    k.name(("event", "time"), event_raw["time"], "time field", fields)
    if event_raw["time"] == "kind":
        k.err(("event", "time"), "'kind' is the field naming each event")
    fields["kind"] = "kind field"
    for label in labels:
        k.name(("courses", "labels"), label, "label field", fields)
    roles = tuple(event_raw.get(role, role) for role in ROLES)
    for role, name in zip(ROLES, roles, strict=True):
        k.name(
            ("event", role) if role in event_raw else ("event",),
            name,
            f"{role} field",
            fields,
        )
    if track_rule is not None:
        for name in (*TRACK_FIELDS, track_rule.mark_field):
            k.name(("track",), name, "track outcome field", fields)
    state_field = raw.get("state", {}).get("field", "level")
    if reader is not None and "field" in raw["state"]:
        k.err(
            ("state", "field"),
            "a state with fields has no level for its events to hold",
            "drop 'field'; a 'state' total answers its fields at the end",
        )
    elif "state" in raw:
        k.name(
            ("state", "field") if "field" in raw["state"] else ("state",),
            state_field,
            "state level field",
            fields,
        )

    totals: list[ProcessTotal] = []
    result_fields: dict[str, str] = {"events": "events"}
    for index, t in enumerate(raw["totals"]):
        where = ("totals", index)
        k.name((*where, "name"), t["name"], "total", result_fields)
        of = t["of"]
        score = None
        if of == "dealt":
            if "score" not in t:
                k.err(where, "a 'dealt' total names its 'score'")
            else:
                score = score_index((*where, "score"), t["score"])
        if of in ("count", "time") and t.get("event") not in events:
            k.err(
                where if "event" not in t else (*where, "event"),
                f"a {of!r} total names one of the process's events",
                "events: " + ", ".join(events),
            )
        if of == "state" and "state" not in raw:
            k.err((*where, "of"), "a 'state' total needs the process's 'state'")
        read = None
        if of == "state" and reader is not None:
            read = held_total(reader, where, t.get("field"))
        elif "field" in t:
            k.err(
                (*where, "field"),
                "only a 'state' total of a state with fields has a 'field'",
            )
        if of in ("marked", "conditions") and track_rule is None:
            k.err((*where, "of"), f"a {of!r} total needs the process's 'track'")
        totals.append(
            ProcessTotal(
                t["name"],
                of,
                score,
                t.get("event"),
                t["description"],
                t.get("field"),
                read,
            )
        )

    examples = b.examples(src, path, raw, set(by_name), roll_columns=set())
    if not k.ok or check_dice is None or (bonus is None and "bonus" in check):
        return None
    if ("pool" in raw and pool_rule is None) or ("track" in raw and track_rule is None):
        return None
    if "recovery" in raw and recovery_rule is None:
        return None
    if "state" in raw and state_rule is None:
        return None
    if reader is not None and (not reader.ok or held is None):
        return None
    return ProcessRule(
        **common,
        examples=examples,
        function=raw["function"],
        result_class=raw["result"],
        event_class=event_raw["class"],
        clock=raw["clock"],
        clock_base=b.time_units.get(raw["clock"], 1),
        ticks=tuple(units.items()),
        singular=tuple(
            (u, b.time_unit_singular[u]) for u in units if u in b.time_unit_singular
        ),
        params=tuple(params),
        time_field=event_raw["time"],
        labels=tuple(label_types.items()),
        role_fields=roles,
        courses=tuple(courses),
        origin=origin,
        check=check_dice,
        always_fails=fails,
        always_succeeds=succeeds,
        bonus_param=bonus,
        enter_event=source.get("enter"),
        leave_event=source.get("leave"),
        leave_param=leave_param,
        onset_event=names.get("onset"),
        check_event=names["check"],
        end_event=names.get("end"),
        scores=tuple(scores),
        score_events=tuple(score_events),
        pool=pool_rule,
        pool_score=pool_score or 0,
        track=track_rule,
        track_score=track_score,
        track_event=raw.get("track", {}).get("event"),
        recovery=recovery_rule,
        recover_score=recover_score,
        recover_event=raw.get("recovery", {}).get("event"),
        ends_event=raw.get("recovery", {}).get("ends"),
        state=state_rule,
        state_event=raw.get("state", {}).get("event"),
        state_field=state_field,
        held=held,
        totals=tuple(totals),
    )


def _onset_units(k: _Builder, callee: ExposureScheduleRule, name: str) -> None:
    """Each onset the records can hold is in a time unit of the system."""
    columns = [c.name for c in callee.table.columns]
    if name not in columns:
        return
    index = columns.index(name)
    for row in callee.table.rows:
        dice = row.cells[index]
        if dice is None:
            continue  # no onset: checked at its start
        unit = getattr(dice, "unit", None)
        if unit is None or k.b.time_units.get(unit) is None:
            k.err(
                ("courses", "onset"),
                f"the onset of {callee.table.id!r} row {row.key.label!r} is in "
                + ("no unit" if unit is None else repr(unit))
                + ", not a time unit of this system",
                "units of this system (time_units in system.yaml): "
                + ", ".join(sorted(k.b.time_units)),
            )
            return
        k.ticks(("courses", "onset"), unit)


def _from_courses(
    k: _Builder,
    b: SystemBuilder,
    raw: dict[str, Any],
    params: dict[str, Param],
    shared: Any,
) -> tuple[ProcessSource | None, dict[str, str], bool, bool]:
    """Courses answered by another rule: check the call and the fields read."""
    where: tuple[str | int, ...] = ("courses",)
    callee = b.built.get(raw["from"])
    if callee is not None:
        b.use(callee.id)
    fields = None if callee is None else _record_fields(callee)
    if callee is None or fields is None:
        if raw["from"] not in b.failed:
            k.err(
                (*where, "from"),
                f"{raw['from']!r} is not a rule of this system answering a list of records"
                if callee is None
                else f"{raw['from']!r} is a {callee.kind} rule; it does not answer a list of records",
                "name a rule defined before this one",
            )
        k.ok = False
        return None, {}, False, False
    wanted = _callee_params(callee)
    args: list[tuple[str, str | DiceRule]] = []
    for name, value in raw.get("args", {}).items():
        apath = (*where, "args", name)
        if name not in wanted:
            k.err(
                apath,
                f"{raw['from']!r} has no parameter {name!r}",
                "parameters: " + ", ".join(wanted),
            )
        elif isinstance(value, dict):
            dice_rule = b.reference(
                k.src, (*k.path, *apath, "roll"), value["roll"], DiceRule, "a dice rule"
            )
            if dice_rule is None:
                k.ok = False
            else:
                args.append((name, dice_rule))
        elif value not in params:
            k.err(
                apath,
                f"{value!r} is not a parameter of this process",
                "parameters: " + (", ".join(params) or "none"),
            )
        else:
            args.append((name, value))
    for name in wanted:
        if name not in raw.get("args", {}):
            k.err((*where, "args"), f"{raw['from']!r} needs the argument {name!r}")

    def field(role: str, want: str | None) -> str | None:
        name: str | None = raw.get(role)
        if name is None:
            return None
        if name not in fields:
            k.err(
                (*where, role),
                f"the records of {raw['from']!r} have no field {name!r}",
                "fields: " + ", ".join(fields),
            )
        elif want is not None and fields[name] != want:
            k.err((*where, role), f"field {name!r} is {fields[name]}, not {want}")
        return name

    labels: dict[str, str] = {}
    for label, name in raw.get("labels", {}).items():
        if name not in fields:
            k.err(
                (*where, "labels", label),
                f"the records of {raw['from']!r} have no field {name!r}",
                "fields: " + ", ".join(fields),
            )
        labels[label] = name
    onset = field("onset", "dice")
    if onset is not None and isinstance(callee, ExposureScheduleRule):
        _onset_units(k, callee, onset)
    origin = ProcessSource(
        rule=callee,
        function=getattr(callee, "function", raw["from"]),
        args=tuple(args),
        labels=tuple(labels.items()),
        start=field("start", "int") or "",
        onset=onset,
        target=field("target", "int") or "",
        pool=field("pool", "dice"),
        **shared(where, raw),
    )
    return (
        origin,
        dict.fromkeys(labels, "text"),
        origin.onset is not None,
        origin.pool is not None,
    )


def rolls(rule: ProcessRule) -> Rolls:
    return Rolls(
        rule.function,
        tuple(p.name for p in rule.params),
        rule.result_class,
        rng_at(rule.params),
    )
