"""process, lowered: a process's courses, checks, pools, track and recovery as a timeline of the core.

Each course has handlers of its own (or, where the courses are the records
another rule answers, one set of handlers takes a record's figures): its onset
(the pool rolled, then the check at once), its check (again at its interval),
and the dealing of its pool. Points dealt to the track's score roll the track,
again while it says so; a failed check steps the subject's state. Once every
handler has run, the recovery heals what the track did not mark.
"""

from __future__ import annotations

from ...core.ir import (
    Const,
    Handler,
    Local,
    Make,
    Part,
    Read,
    Record,
    Recorded,
    Return,
    Run,
    Schedule,
    Stmt,
    Timeline,
    Unit,
    statements_of,
)
from ...core.viewkit import where_doc
from ...front.model import System
from ...lang.expr import (
    Checked,
    Name,
)
from .handlers import Handlers
from .held import renamed
from .lowering import Course, Lowering
from .model import ProcessRule
from .page import page
from .records import result_record


def lower(system: System, rule: ProcessRule) -> Unit:
    """A process as a timeline of the core (the module docstring says how)."""
    return _lower(Lowering(system, rule))


def _lower(k: Lowering) -> Unit:
    rule = k.rule
    scores = [k.fresh(f"{s}_dealt") for s in rule.scores]
    for name in scores:
        k.share(Local(name, 0, None), "0")
    for total in rule.totals:
        if total.of == "count" and total.event is not None:
            k.counts.setdefault(total.event, k.fresh(f"{total.event}_count"))
        if total.of == "time" and total.event is not None:
            k.firsts.setdefault(total.event, k.fresh(f"first_{total.event}"))
    for name in k.counts.values():
        k.share(Local(name, 0, None), "0")
    for name in k.firsts.values():
        k.share(Local(name, None, None, nullable=True), "null")
    last_dealt = k.fresh("last_dealt")
    k.share(Local(last_dealt, None, None), "0")
    track = rule.track
    marked = conditions = track_state = ""
    held: list[tuple[str, str]] = []  # (effect label, the local of its condition now)
    if track is not None:
        marked = k.fresh("marked")
        k.share(Local(marked, 0, None), "0")
        conditions = k.fresh("conditions")
        enum = track.condition_enum
        listed = Checked(
            Name(conditions, 0, 0),
            "list",
            None,
            enum=enum.name,
            choices=tuple(m.label for m in enum.members),
            item="choice",
        )
        k.share(Local(conditions, None, None, enum, type="list"), "[]", bound=listed)
        if rule.ends_event is not None:  # each staged effect's condition now
            for effect in track.effects:
                if effect.stages:
                    name = k.fresh(f"held_{effect.member.name.lower()}")
                    k.share(Local(name, None, None, enum, nullable=True), "null")
                    held.append((effect.member.label, name))
        track_state = k.fresh(track.id)
        k.states.append((track_state, track.class_name))
    subject = ""
    if rule.state is not None:
        subject = k.fresh(rule.state.id)
        if rule.held is None:
            k.states.append((subject, rule.state.class_name))
        else:  # a state with fields: a value the handlers set, made at the start
            local = Local(subject, None, None, record=rule.state.class_name)
            k.shared.append((local, renamed(rule.held.start, rule.held.name, subject)))
    ctx = Handlers(
        k, scores, last_dealt, marked, conditions, track_state, subject, held
    )
    handlers: list[Handler] = []
    start: list[Stmt] = []
    if rule.leave_param is not None and rule.leave_event is not None:
        leave = k.fresh("leave")
        handlers.append(
            Handler(
                leave, (), (), tuple(k.event(rule.leave_event, None, k.clock, {}, ()))
            )
        )
        start.append(Schedule(k.c(rule.leave_param), leave, ()))
    if rule.origin is None:
        for index, course in enumerate(rule.courses):
            figures = Course(
                suffix=f"_{index + 1}" if len(rule.courses) > 1 else "",
                labels=[f"{{{i}}}" for i in range(len(course.labels))],
                label_texts=[str(v) for v in course.labels],
                target=str(course.target),
                pool=course.pool,
                every=course.every,
                until=course.until,
                on_failure=course.on_failure,
                check_limit=course.check_limit,
                steps=course.steps,
                has_onset=course.onset is not None,
            )
            made, check, onset = ctx.handlers(figures)
            handlers += made
            start += ctx.begin(figures, course.start, course.onset, check, onset)
    else:
        start.append(ctx.each_record(handlers))
    if rule.enter_event is not None:
        start += k.event(rule.enter_event, None, None, {}, ())
    after, after_locals = ctx.recover()
    result = result_record(rule)
    totals: list[Part] = [Recorded()]
    for total in rule.totals:
        if total.of == "dealt":
            assert total.score is not None
            totals.append(k.c(scores[total.score]))
        elif total.of == "marked":
            totals.append(k.c(marked))
        elif total.of == "conditions":
            totals.append(k.c(conditions))
        elif total.of == "state" and total.read is not None:
            assert rule.held is not None
            totals.append(renamed(total.read, rule.held.name, subject))
        elif total.of == "state":
            totals.append(Read(subject, ""))
        elif total.of == "count":
            totals.append(k.c(k.counts[str(total.event)]))
        else:
            totals.append(k.c(k.firsts[str(total.event)]))
    after.append(Return(Make(tuple(totals))))
    handlers = _scheduled(tuple(start), handlers)
    where = where_doc(rule)
    timeline = Timeline(
        name=rule.function,
        params=rule.params,
        shared=tuple(k.shared),
        states=tuple(k.states),
        start=tuple(start),
        handlers=tuple(handlers),
        after=tuple(after),
        after_locals=tuple(after_locals),
        clock=k.clock,
        event=rule.event_class,
        result=rule.result_class,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where,
        rule_id=rule.qualified_id,
        answer_doc="The same rng state gives the same events.",
    )
    event = Record(
        rule.event_class,
        f"One event of [[{rule.function}]]: when (``{rule.time_field}``, in "
        f"{rule.clock}), which (``kind``), and its figures (null where a field "
        "does not apply to that kind).",
        tuple(k.event_columns),
        optional_tail=True,
        light=True,
    )
    decls = (
        k.kinds,
        Const(
            k.check_dice,
            "dice",
            rule.check,
            f"The die each check of [[{rule.function}]] rolls. {where}",
        ),
        event,
        result,
        timeline,
    )
    needs = tuple(
        r.qualified_id
        for r in (rule.pool, track, rule.recovery, rule.state)
        if r is not None
    )
    if rule.origin is not None:
        needs += (rule.origin.rule.qualified_id,)
    return Unit(decls, rule.function, page(k.system, rule), needs)


def _scheduled(start: tuple[Stmt, ...], handlers: list[Handler]) -> list[Handler]:
    """The handlers a run can reach from ``start`` (a course checked once
    needs no handler for a check again), in their order."""
    by_name = {h.name: h for h in handlers}
    reached: set[str] = set()
    waiting = [start]
    while waiting:
        for stmt in statements_of(waiting.pop()):
            if isinstance(stmt, Schedule | Run) and stmt.handler not in reached:
                reached.add(stmt.handler)
                waiting.append(by_name[stmt.handler].body)
    return [h for h in handlers if h.name in reached]
