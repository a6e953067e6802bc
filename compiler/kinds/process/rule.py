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
    """A process rule, built part by part (each reporting its own problems, in
    the order the parts are read); None when any part is wrong."""
    k = _Process(b, src, path, raw)
    k.names()
    k.parameters()
    k.check()
    k.contact_and_events()
    k.score_names()
    k.state()
    k.courses()
    k.attached()
    k.event_fields()
    k.totals()
    examples = b.examples(src, path, raw, set(k.by_name), roll_columns=set())
    if not k.ready():
        return None
    return k.rule(common, examples)


class _Process(_Builder):
    """The parts of one process rule, built in order; each part's findings
    are kept for the parts after it and for the rule."""

    def names(self) -> None:
        """Its function, result and event classes, and its clock."""
        b, src, path, raw = self.b, self.src, self.path, self.raw
        b.claim(src, (*path, "function"), raw["function"], "function")
        b.claim(src, (*path, "result"), raw["result"], "result class")
        self.event_raw: dict[str, Any] = raw.get(
            "event", {"class": f"{raw['result']}Event", "time": "time"}
        )
        b.claim(src, (*path, "event", "class"), self.event_raw["class"], "event class")
        clock = raw["clock"]
        if clock not in b.time_units:
            self.ticks(("clock",), clock)
        self.units = {
            unit: per // b.time_units[clock]
            for unit, per in sorted(b.time_units.items())
            if clock in b.time_units and per % b.time_units[clock] == 0
        }

    def parameters(self) -> None:
        self.params: list[Param] = []
        seen_params: dict[str, Any] = {}
        self.b.param_order(self.src, self.path, self.raw["parameters"])
        for index, p in enumerate(self.raw["parameters"]):
            param = self.b.param(
                self.src, (*self.path, "parameters", index), p, seen_params
            )
            if param is None:
                self.ok = False
                continue
            seen_params[param.name] = param
            self.params.append(param)
        self.by_name = {p.name: p for p in self.params}

    def int_param(self, where: tuple[str | int, ...], name: str | None) -> str | None:
        """``name``, where it is an int parameter of the process (else reported)."""
        if name is None:
            return None
        param = self.by_name.get(name)
        if param is None or param.type != "int":
            self.err(
                where,
                f"{name!r} is not an int parameter of this process",
                "parameters: " + (", ".join(self.by_name) or "none"),
            )
            return None
        return name

    def check(self) -> None:
        """The check's dice, bonus, and results that always fail or succeed."""
        check = self.raw["check"]
        self.check_dice = self.dice(("check", "dice"), check["dice"])
        self.bonus = self.int_param(("check", "bonus"), check.get("bonus"))
        fails, succeeds = check.get("always_fails"), check.get("always_succeeds")
        self.fails, self.succeeds = fails, succeeds
        dice = self.check_dice
        if dice is None:
            return
        for key, value in (("always_fails", fails), ("always_succeeds", succeeds)):
            if value is not None and not dice.min <= value <= dice.max:
                self.err(("check", key), f"{value} is not a result of {dice}")
        if fails is not None and succeeds is not None and fails >= succeeds:
            self.err(
                ("check", "always_fails"),
                f"always_fails {fails} must be below always_succeeds {succeeds}",
            )

    def contact_and_events(self) -> None:
        """Entering and leaving contact, and the events the process names."""
        source = self.source = self.raw.get("contact", {})
        self.leave_param = self.int_param(("contact", "left_at"), source.get("left_at"))
        if ("leave" in source) != ("left_at" in source):
            self.err(
                ("contact",), "contact needs both 'leave' and 'left_at', or neither"
            )
        self.events: dict[str, str] = {}
        for key, what in (("enter", "enter"), ("leave", "leave")):
            if key in source:
                self.name(("contact", key), source[key], f"{what} event", self.events)
        names = self.raw["events"]
        for key in ("onset", "check", "end"):
            if key in names:
                self.name(("events", key), names[key], f"{key} event", self.events)
        if "check" not in names:
            self.err(("events",), "name the 'check' event")

    def score_names(self) -> None:
        self.scores: list[str] = []
        self.score_events: list[str] = []
        for index, score in enumerate(self.raw["scores"]):
            if score["name"] in self.scores:
                at = (*self.path, "scores", self.scores.index(score["name"]), "name")
                first = self.b.first_at(
                    self.src, self.src, at, (*self.path, "scores", index, "name")
                )
                self.err(
                    ("scores", index, "name"),
                    f"duplicate score {score['name']!r} ({first})",
                )
            self.scores.append(score["name"])
            event = score.get("event", score["name"])
            self.name(
                ("scores", index, "event" if "event" in score else "name"),
                event,
                "score event",
                self.events,
            )
            self.score_events.append(event)

    def score_index(self, where: tuple[str | int, ...], name: str) -> int:
        if name not in self.scores:
            self.err(
                where, f"unknown score {name!r}", "scores: " + ", ".join(self.scores)
            )
            return 0
        return self.scores.index(name)

    def state(self) -> None:
        """The state the process holds: of levels, or a state with fields."""
        b, src, path, raw = self.b, self.src, self.path, self.raw
        self.state_rule: StateRule | RecordStateRule | None = None
        self.reader: HeldReader | None = None
        self.held: Held | None = None
        self.steppable: set[str] = set()
        if "state" not in raw:
            return
        at, rule_id = (*path, "state", "rule"), raw["state"]["rule"]
        if isinstance(b.built.get(rule_id), RecordStateRule):
            self.state_rule = b.reference(
                src, at, rule_id, RecordStateRule, "a state rule"
            )
        else:
            self.state_rule = b.reference(src, at, rule_id, StateRule, "a state rule")
        self.name(("state", "event"), raw["state"]["event"], "state event", self.events)
        state_rule = self.state_rule
        if isinstance(state_rule, RecordStateRule):
            self.reader = HeldReader(b, src, path, state_rule, self.params)
            if self.check_dice is not None:
                self.reader.check_values(
                    self.check_dice, self.by_name.get(self.bonus or "")
                )
            self.held = held_state(self.reader, raw["state"])
            return
        for key in ("start", "stops"):
            if key in raw["state"] and state_rule is not None:
                self.err(
                    ("state", key),
                    f"{state_rule.id!r} is a state of levels: it has no {key!r}",
                    "a state with fields is made and stopped on; drop it",
                )
        if isinstance(state_rule, StateRule):
            self.steppable = {
                t.name
                for t in state_rule.transitions
                if t.param is None or t.default is not None
            }

    def steps(
        self, where: tuple[str | int, ...], raw_effects: list[dict[str, Any]]
    ) -> tuple[ProcessStep, ...]:
        """The steps of the process's state among a failure's effects."""
        found = []
        for index, effect in enumerate(raw_effects):
            if "step" not in effect:
                continue
            call = None
            if "state" not in self.raw:
                self.err((*where, index, "step"), "a step needs the process's 'state'")
            elif self.reader is not None:
                call = held_step(self.reader, (*where, index), effect)
            elif "args" in effect:
                self.err(
                    (*where, index, "args"),
                    "a state of levels is stepped with no argument",
                    "drop 'args', or hold a state with fields",
                )
            elif self.state_rule is not None and effect["step"] not in self.steppable:
                self.err(
                    (*where, index, "step"),
                    f"{effect['step']!r} is not a transition of {self.state_rule.id!r} that takes no argument",
                    "transitions: " + (", ".join(sorted(self.steppable)) or "none"),
                )
            written = ", ".join(f"{a}={v}" for a, v in effect.get("args", {}).items())
            found.append(ProcessStep(effect["step"], call, written))
        return tuple(found)

    def effects(
        self, where: tuple[str | int, ...], raw_effects: list[dict[str, Any]]
    ) -> tuple[tuple[int, Dice], ...]:
        """The dice a failure adds to each score."""
        found = []
        for index, effect in enumerate(raw_effects):
            if "step" in effect:
                continue
            dice = self.dice((*where, index, "dice"), effect["dice"])
            score = self.score_index((*where, index, "score"), effect["score"])
            if dice is not None:
                found.append((score, dice))
        return tuple(found)

    def shared(self, where: tuple[str | int, ...], c: dict[str, Any]) -> dict[str, Any]:
        """What every course gives, written or answered by another rule: how
        often it is checked, what ends it, and what a failure does."""
        every = self.duration((*where, "every"), c.get("every"))
        if every is not None and every < 1:
            self.err(
                (*where, "every", "amount"),
                "a course is checked again at least one clock tick later",
            )
        if "until" in c and "every" not in c:
            self.err(
                (*where, "until"),
                "'until' needs 'every': a course checked once cannot succeed twice",
            )
        if "checks" in c and "every" not in c:
            self.err((*where, "checks"), "'checks' needs 'every'")
        if "every" in c and "until" not in c and "checks" not in c:
            self.err(
                (*where, "every"),
                "nothing ends the course: it would be checked again forever",
                "give the course 'until' (successes in a row that end it) or "
                "'checks' (at most this many checks)",
            )
        forever = self.check_dice is not None and self.succeeds is None
        if "until" in c and "checks" not in c and forever:
            self.err(
                (*where, "until"),
                "the course could be checked forever",
                "give the check 'always_succeeds', or the course a 'checks' limit",
            )
        return {
            "every": every,
            "until": c.get("until"),
            "on_failure": self.effects((*where, "on_failure"), c.get("on_failure", [])),
            "steps": self.steps((*where, "on_failure"), c.get("on_failure", [])),
            "check_limit": c.get("checks"),
        }

    def courses(self) -> None:
        """The courses: written as a list, or answered by another rule."""
        courses_raw = self.raw["courses"]
        self.course_list: list[ProcessCourse] = []
        self.origin: ProcessSource | None = None
        if not isinstance(courses_raw, list):
            self.origin, self.label_types, self.has_onset, self.has_pool = (
                _from_courses(self, self.b, courses_raw, self.by_name, self.shared)
            )
            self.labels = tuple(self.label_types)
            return
        self.labels = tuple(courses_raw[0].get("labels", {}))
        self.has_onset = self.has_pool = False
        for index, c in enumerate(courses_raw):
            self.course_list.append(self.course(("courses", index), c))
        self.label_types = dict.fromkeys(self.labels, "text")

    def course(self, where: tuple[str | int, ...], c: dict[str, Any]) -> ProcessCourse:
        """One course written in the rule."""
        if tuple(c.get("labels", {})) != self.labels:
            self.err(
                (*where, "labels"),
                "every course needs the same label fields, in the same order",
                "label fields: " + (", ".join(self.labels) or "none"),
            )
        onset = None
        if "onset" in c:
            self.has_onset = True
            onset = self.dice((*where, "onset", "dice"), c["onset"]["dice"])
            if onset is not None:
                onset = Dice(
                    onset.count,
                    onset.sides,
                    onset.modifier,
                    onset.multiplier,
                    c["onset"]["unit"],
                )
                self.ticks((*where, "onset", "unit"), c["onset"]["unit"])
        pool = self.dice((*where, "pool"), c["pool"]) if "pool" in c else None
        self.has_pool = self.has_pool or pool is not None
        return ProcessCourse(
            labels=tuple(c.get("labels", {}).values()),
            start=self.duration((*where, "start"), c.get("start")) or 0,
            onset=onset,
            target=c["target"],
            pool=pool,
            **self.shared(where, c),
        )

    def attached(self) -> None:
        """The rules the process deals, marks and heals with: its pool, track
        and recovery."""
        self.pool_rule: PoolRule | None = None
        self.pool_score: int | None = None
        if "pool" in self.raw:
            self.pool_rule = self.b.reference(
                self.src,
                (*self.path, "pool", "rule"),
                self.raw["pool"]["rule"],
                PoolRule,
                "a pool rule",
            )
            self.pool_score = self.score_index(
                ("pool", "score"), self.raw["pool"]["score"]
            )
            if self.pool_rule is not None:
                self.base_ticks(("pool", "rule"), self.pool_rule.interval_minutes)
        if self.has_pool and "pool" not in self.raw:
            self.err(
                ("courses",),
                "the courses roll pools, but the process has no 'pool' to deal them",
            )
        self.track()
        self.recovery()
        if self.has_onset and "onset" not in self.raw["events"]:
            self.err(("events",), "the courses have onsets: name the 'onset' event")

    def track(self) -> None:
        self.track_rule: TrackRule | None = None
        self.track_score: int | None = None
        if "track" not in self.raw:
            return
        raw = self.raw["track"]
        self.track_rule = track_rule = self.b.reference(
            self.src,
            (*self.path, "track", "rule"),
            raw["rule"],
            TrackRule,
            "a track rule",
        )
        self.track_score = self.score_index(("track", "score"), raw["score"])
        self.name(("track", "event"), raw["event"], "track event", self.events)
        if track_rule is not None and all(e.stages for e in track_rule.effects):
            self.err(
                ("track", "rule"),
                f"nothing ends a roll on {track_rule.id!r}: once every effect is at "
                "its last stage, each roll is a reroll, forever",
                "give the track an effect with no stages (it marks a point)",
            )

    def recovery(self) -> None:
        self.recovery_rule: RecoveryRule | None = None
        self.recover_score: int | None = None
        if "recovery" not in self.raw:
            return
        raw = self.raw["recovery"]
        self.recovery_rule = self.b.reference(
            self.src,
            (*self.path, "recovery", "rule"),
            raw["rule"],
            RecoveryRule,
            "a recovery rule",
        )
        self.recover_score = self.score_index(("recovery", "score"), raw["score"])
        self.name(("recovery", "event"), raw["event"], "recovery event", self.events)
        if self.recovery_rule is not None:
            self.base_ticks(("recovery", "rule"), self.recovery_rule.interval_minutes)
        if "ends" in raw:
            self.name(("recovery", "ends"), raw["ends"], "ending event", self.events)
            if "track" not in self.raw:
                self.err(
                    ("recovery", "ends"),
                    "only a track gives conditions for 'ends' to end",
                    "give the process a track, or drop 'ends'",
                )

    def event_fields(self) -> None:
        """The names of an event's fields: each is one field's alone."""
        event_raw, raw = self.event_raw, self.raw
        fields: dict[str, str] = {}
        self.name(("event", "time"), event_raw["time"], "time field", fields)
        if event_raw["time"] == "kind":
            self.err(("event", "time"), "'kind' is the field naming each event")
        fields["kind"] = "kind field"
        for label in self.labels:
            self.name(("courses", "labels"), label, "label field", fields)
        self.roles = tuple(event_raw.get(role, role) for role in ROLES)
        for role, name in zip(ROLES, self.roles, strict=True):
            self.name(
                ("event", role) if role in event_raw else ("event",),
                name,
                f"{role} field",
                fields,
            )
        if self.track_rule is not None:
            for name in (*TRACK_FIELDS, self.track_rule.mark_field):
                self.name(("track",), name, "track outcome field", fields)
        self.state_field = raw.get("state", {}).get("field", "level")
        if self.reader is not None and "field" in raw["state"]:
            self.err(
                ("state", "field"),
                "a state with fields has no level for its events to hold",
                "drop 'field'; a 'state' total answers its fields at the end",
            )
        elif "state" in raw:
            self.name(
                ("state", "field") if "field" in raw["state"] else ("state",),
                self.state_field,
                "state level field",
                fields,
            )

    def totals(self) -> None:
        self.total_list: list[ProcessTotal] = []
        result_fields: dict[str, str] = {"events": "events"}
        for index, t in enumerate(self.raw["totals"]):
            where: tuple[str | int, ...] = ("totals", index)
            self.name((*where, "name"), t["name"], "total", result_fields)
            self.total_list.append(self.total(where, t))

    def total(self, where: tuple[str | int, ...], t: dict[str, Any]) -> ProcessTotal:
        """One total of the result: what it counts, and where it may."""
        of = t["of"]
        score = None
        if of == "dealt":
            if "score" not in t:
                self.err(where, "a 'dealt' total names its 'score'")
            else:
                score = self.score_index((*where, "score"), t["score"])
        if of in ("count", "time") and t.get("event") not in self.events:
            self.err(
                where if "event" not in t else (*where, "event"),
                f"a {of!r} total names one of the process's events",
                "events: " + ", ".join(self.events),
            )
        if of == "state" and "state" not in self.raw:
            self.err((*where, "of"), "a 'state' total needs the process's 'state'")
        read = None
        if of == "state" and self.reader is not None:
            read = held_total(self.reader, where, t.get("field"))
        elif "field" in t:
            self.err(
                (*where, "field"),
                "only a 'state' total of a state with fields has a 'field'",
            )
        if of in ("marked", "conditions") and self.track_rule is None:
            self.err((*where, "of"), f"a {of!r} total needs the process's 'track'")
        return ProcessTotal(
            t["name"],
            of,
            score,
            t.get("event"),
            t["description"],
            t.get("field"),
            read,
        )

    def ready(self) -> bool:
        """Whether every part was built and every rule it names found."""
        raw = self.raw
        missing = (
            ("pool", self.pool_rule),
            ("track", self.track_rule),
            ("recovery", self.recovery_rule),
            ("state", self.state_rule),
        )
        if not self.ok or self.check_dice is None:
            return False
        if self.bonus is None and "bonus" in raw["check"]:
            return False
        if any(key in raw and rule is None for key, rule in missing):
            return False
        return self.reader is None or (self.reader.ok and self.held is not None)

    def rule(self, common: dict[str, Any], examples: Any) -> ProcessRule:
        b, raw, names, source = self.b, self.raw, self.raw["events"], self.source
        assert self.check_dice is not None
        return ProcessRule(
            **common,
            examples=examples,
            function=raw["function"],
            result_class=raw["result"],
            event_class=self.event_raw["class"],
            clock=raw["clock"],
            clock_base=b.time_units.get(raw["clock"], 1),
            ticks=tuple(self.units.items()),
            singular=tuple(
                (u, b.time_unit_singular[u])
                for u in self.units
                if u in b.time_unit_singular
            ),
            params=tuple(self.params),
            time_field=self.event_raw["time"],
            labels=tuple(self.label_types.items()),
            role_fields=self.roles,
            courses=tuple(self.course_list),
            origin=self.origin,
            check=self.check_dice,
            always_fails=self.fails,
            always_succeeds=self.succeeds,
            bonus_param=self.bonus,
            enter_event=source.get("enter"),
            leave_event=source.get("leave"),
            leave_param=self.leave_param,
            onset_event=names.get("onset"),
            check_event=names["check"],
            end_event=names.get("end"),
            scores=tuple(self.scores),
            score_events=tuple(self.score_events),
            pool=self.pool_rule,
            pool_score=self.pool_score or 0,
            track=self.track_rule,
            track_score=self.track_score,
            track_event=raw.get("track", {}).get("event"),
            recovery=self.recovery_rule,
            recover_score=self.recover_score,
            recover_event=raw.get("recovery", {}).get("event"),
            ends_event=raw.get("recovery", {}).get("ends"),
            state=self.state_rule,
            state_event=raw.get("state", {}).get("event"),
            state_field=self.state_field,
            held=self.held,
            totals=tuple(self.total_list),
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
