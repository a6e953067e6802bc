"""Process: its part of rules.json (the clock, the courses, the check, the scores and the rules it drives)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    expression,
    params,
    value,
)
from ...front.model import (
    RuleBase,
    System,
)
from ...kinds.dice.model import DiceRule
from ...kinds.process.model import ProcessCourse, ProcessRule, ProcessSource
from ...kinds.process.rule import ROLES
from ...runtime.dice import Dice


def _failure(rule: ProcessRule, found: tuple[tuple[int, Dice], ...]) -> list[View]:
    return [{"score": rule.scores[i], "dice": value(d)} for i, d in found]


def _checks(rule: ProcessRule, c: ProcessCourse | ProcessSource, refs: Refs) -> View:
    """What the courses of both forms share: how they are checked again, and
    what a failed check does."""
    return {
        "every": c.every,
        "until": c.until,
        "checks": c.check_limit,
        "on_failure": _failure(rule, c.on_failure),
        "steps": [s.name for s in c.steps],
        "calls": [
            None if s.call is None else expression(s.call, refs, rule.params)
            for s in c.steps
        ],
    }


def _course(rule: ProcessRule, c: ProcessCourse, refs: Refs) -> View:
    names = [name for name, _ in rule.labels]
    return {
        "labels": dict(zip(names, c.labels, strict=True)),
        "start": c.start,
        "onset": None if c.onset is None else value(c.onset),
        "target": c.target,
        "pool": None if c.pool is None else value(c.pool),
        **_checks(rule, c, refs),
    }


def _origin(rule: ProcessRule, o: ProcessSource, refs: Refs) -> View:
    args: dict[str, View] = {}
    for name, given in o.args:
        if isinstance(given, DiceRule):
            args[name] = {"param": None, "roll": given.id}
        else:
            args[name] = {"param": given, "roll": None}
    return {
        "rule": o.rule.id,
        "function": o.function,
        "args": args,
        "labels": dict(o.labels),
        "start": o.start,
        "onset": o.onset,
        "target": o.target,
        "pool": o.pool,
        **_checks(rule, o, refs),
    }


def _driven(
    driven: RuleBase | None, score: str | None, event: str | None
) -> View | None:
    """Another rule the process drives: the score it feeds, the event it logs."""
    if driven is None:
        return None
    return {"rule": driven.id, "score": score, "event": event}


def data_view(system: System, rule: ProcessRule, refs: Refs) -> View:
    def score(index: int | None) -> str | None:
        return None if index is None else rule.scores[index]

    return {
        "function": rule.function,
        "params": params(rule.params, refs),
        "result": rule.result_class,
        "event": {
            "class": rule.event_class,
            "time": rule.time_field,
            "labels": [{"field": n, "type": t} for n, t in rule.labels],
            **dict(zip(ROLES, rule.role_fields, strict=True)),
        },
        "clock": rule.clock,
        "ticks": dict(rule.ticks),
        "courses": [_course(rule, c, refs) for c in rule.courses],
        "courses_from": None
        if rule.origin is None
        else _origin(rule, rule.origin, refs),
        "check": {
            "dice": value(rule.check),
            "bonus": rule.bonus_param,
            "always_fails": rule.always_fails,
            "always_succeeds": rule.always_succeeds,
        },
        "contact": {
            "enter": rule.enter_event,
            "leave": rule.leave_event,
            "left_at": rule.leave_param,
        },
        "events": {
            "onset": rule.onset_event,
            "check": rule.check_event,
            "end": rule.end_event,
        },
        "scores": [
            {"name": n, "event": e}
            for n, e in zip(rule.scores, rule.score_events, strict=True)
        ],
        "pool": _driven(rule.pool, score(rule.pool_score if rule.pool else None), None),
        "track": _driven(rule.track, score(rule.track_score), rule.track_event),
        "recovery": None
        if rule.recovery is None
        else {
            **(
                _driven(rule.recovery, score(rule.recover_score), rule.recover_event)
                or {}
            ),
            "ends": rule.ends_event,
        },
        "state": None
        if rule.state is None
        else {
            "rule": rule.state.id,
            "event": rule.state_event,
            "field": None if rule.held else rule.state_field,
            "start": None
            if rule.held is None
            else expression(rule.held.start, refs, rule.params),
            "goes_on": None
            if rule.held is None or rule.held.goes_on is None
            else expression(rule.held.goes_on, refs, rule.params),
        },
        "totals": [
            {
                "name": t.name,
                "of": t.of,
                "score": score(t.score),
                "event": t.event,
                "field": t.field,
                "description": t.description,
            }
            for t in rule.totals
        ],
    }
