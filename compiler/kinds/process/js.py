"""A process in JavaScript: its event and result records, its spec, and the function that runs it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ...js_kit import (
    View,
    args_doc,
    doc,
    js,
    js_string,
    local,
    param_view,
    record_literal,
    record_view,
    signature,
    ts_column_type,
    where,
)
from ...js_naming import camel
from ...kinds.decision.model import Slot
from ...kinds.dice.model import DiceRule
from ...kinds.exposure_schedule.model import ExposureScheduleRule
from ...kinds.process.model import ProcessCourse, ProcessRule, ProcessTotal
from ...kinds.process.rule import (
    ROLES,
    TRACK_FIELDS,
    Ref,
    TypeNames,
    event_kinds,
    label_types,
    outcome_fields,
    spec_values,
    total_type,
)
from ...kinds.track.rule import FIELD_DOCS as TRACK_DOCS
from ...kinds.track.rule import MARK_DOC
from ...model import Param, Rule, System
from ...naming import private_constant
from ...viewkit import allowed

_ROLE_TS = dict(zip(ROLES, ("number",) * 4 + ("boolean", "number"), strict=True))


def _value(value: Any) -> str:
    """A field of the spec as JavaScript."""
    if isinstance(value, Ref):
        return camel(value.name) if value.function else value.name
    if isinstance(value, dict):
        items = "".join(f", [{js_string(k)}]: {js(v)}" for k, v in value.items())
        return f"Object.freeze({{ __proto__: null{items} }})"  # keys are data
    return js(value)


def _failure(on_failure: tuple[tuple[int, Any], ...]) -> str:
    items = ", ".join(f"Object.freeze([{js(s)}, {js(d)}])" for s, d in on_failure)
    return f"Object.freeze([{items}])"


def _course(course: dict[str, str], indent: str) -> str:
    """A course of the runtime: a frozen object of its fields."""
    inner = indent + "  "
    items = "".join(f"{inner}{camel(k)}: {v},\n" for k, v in course.items())
    return f"Object.freeze({{\n{items}{indent}}})"


def _written_course(c: ProcessCourse) -> dict[str, str]:
    return {
        "labels": js(c.labels),
        "start": js(c.start),
        "onset": js(c.onset),
        "target": js(c.target),
        "pool": js(c.pool),
        "every": js(c.every),
        "until": js(c.until),
        "on_failure": _failure(c.on_failure),
        "check_limit": js(c.check_limit),
        "steps": js(c.steps),
    }


def _callee_params(callee: Rule) -> list[tuple[str, bool]]:
    """The callee's parameters in its signature's order: (Python name, keyword-only)."""
    if isinstance(callee, ExposureScheduleRule):
        table = callee.table
        names = (table.key_param, callee.stayed_param, callee.full_param)
        return [(n, False) for n in names]
    params: tuple[Param, ...] = getattr(callee, "params", ())
    return [(p.name, p.keyword_only) for p in params]


def slot_ts(slot: Slot) -> str:
    """A decision slot's TypeScript type (a list: a read-only array)."""
    names = {"int": "number", "bool": "boolean", "text": "string", "dice": "$dice.Dice"}
    if slot.type == "list":
        return f"readonly {names[str(slot.items)]}[]"
    base = slot.enum.name if slot.enum is not None else names[slot.type]
    return f"{base} | null" if slot.nullable else base


JS_TYPES = TypeNames(
    ts_column_type,
    slot_ts,
    "number",
    lambda labels: " | ".join(js_string(v) for v in labels),
    " | null",
    lambda item: f"readonly {item}[]",
)


def _total_js(rule: ProcessRule, total: ProcessTotal) -> str:
    if total.of == "dealt":
        return f"run.dealt[{js(total.score)}]"
    if total.of in ("marked", "conditions", "state"):
        return f"run.{total.of}"
    kind = js_string(total.event or "")
    if total.of == "count":
        return f"run.events.filter(($e) => $e.kind === {kind}).length"
    return (
        f"run.events.find(($e) => $e.kind === {kind})?.{camel(rule.time_field)} ?? null"
    )


# What each role's field of an event holds (null in the events it is no part of).
_ROLE_DOCS = {
    "amount": "The points dealt or recovered.",
    "roll": "The die's result.",
    "total": "The check's roll plus the bonus.",
    "target": "What the check had to reach.",
    "success": "Whether the check succeeded.",
    "pool": "The pool rolled (after a success, what is left of it).",
}


# What each field of a track's outcome says (a missing condition in JavaScript's words).
FIELD_DOCS = TRACK_DOCS | {"condition": "The condition of that stage, or null."}


def _event_columns(rule: ProcessRule) -> list[SimpleNamespace]:
    """An event's fields: (name, TypeScript type, what it holds)."""
    track = rule.track
    outcome: list[tuple[str, str, str]] = []
    if track is not None:
        types = (
            track.effect_enum.name,
            "number",
            track.condition_enum.name,
            "boolean",
            "boolean",
        )
        docs = (*(FIELD_DOCS[f] for f in TRACK_FIELDS), MARK_DOC)
        outcome = [
            (
                name,
                f"{t} | null",
                f"On a roll on {track.class_name}, {d[0].lower()}{d[1:]}",
            )
            for name, t, d in zip(outcome_fields(rule), types, docs, strict=True)
        ]
    fields = [
        (rule.time_field, "number", f"When, in {rule.clock}."),
        ("kind", f"{rule.event_class}Kind", "Which kind of event it is."),
        *(
            (name, ts, "A label of the course it belongs to.")
            for (name, _), ts in zip(
                rule.labels, label_types(rule, JS_TYPES), strict=True
            )
        ),
        *(
            (name, f"{_ROLE_TS[role]} | null", _ROLE_DOCS[role])
            for name, role in zip(rule.role_fields, ROLES, strict=True)
        ),
        *outcome,
        *(
            [
                (
                    rule.state_field,
                    "number | null",
                    "The state's level after a transition.",
                )
            ]
            if rule.state is not None
            else []
        ),
    ]
    always = (rule.time_field, "kind")
    return [
        SimpleNamespace(
            name=n,
            title=d if n in always else f"{d[:-1]}; null where it does not apply.",
            description=None,
            ts=t,
        )
        for n, t, d in fields
    ]


def _courses(rule: ProcessRule, by_param: dict[str, Param]) -> tuple[list[str], str]:
    """The lines that roll the callee's dice arguments (in the rules' order, as
    Python rolls them), and the expression of the courses."""
    origin = rule.origin
    if origin is None:
        return [], private_constant(rule.id, "courses")
    lines = []
    given: dict[str, str] = {}
    for index, (name, value) in enumerate(origin.args):
        if isinstance(value, DiceRule):
            lines.append(f"const $rolled{index} = {value.constant}.roll(rng);")
            given[name] = f"$rolled{index}"
        else:
            given[name] = local(by_param[value])
    params = _callee_params(origin.rule)
    args = [given[n] for n, keyword in params if not keyword and n in given]
    options = [
        f"{camel(n)}: {given[n]}" for n, keyword in params if keyword and n in given
    ]
    if options:
        args.append("{ " + ", ".join(options) + " }")
    course = {
        "labels": "Object.freeze(["
        + ", ".join(f"$e.{camel(f)}" for _, f in origin.labels)
        + "])",
        "start": f"$e.{camel(origin.start)}",
        "onset": f"$e.{camel(origin.onset)}" if origin.onset else "null",
        "target": f"$e.{camel(origin.target)}",
        "pool": f"$e.{camel(origin.pool)}" if origin.pool else "null",
        "every": js(origin.every),
        "until": js(origin.until),
        "on_failure": _failure(origin.on_failure),
        "check_limit": js(origin.check_limit),
        "steps": js(origin.steps),
    }
    call = f"{camel(origin.function)}({', '.join(args)})"
    return lines, f"{call}.map(($e) => {_course(course, '  ')})"


def _needs(system: System, rule: ProcessRule) -> list[str]:
    """The rules whose JavaScript the process's code uses."""
    used: list[Any] = [rule.pool, rule.track, rule.state]
    if rule.origin is not None:
        used.append(rule.origin.rule)
        used += [v for _, v in rule.origin.args if isinstance(v, DiceRule)]
    return [r.qualified_id for r in used if r is not None]


def js_view(system: System, rule: ProcessRule) -> View:
    function = camel(rule.function)
    params = [param_view(system, p, rule.qualified_id) for p in rule.params]
    by_param = {p.name: p for p in rule.params}
    # the rng goes where Python has it: last, and keyword-only after a keyword-only one
    keyword = any(p.keyword_only for p in rule.params)
    rng: View = {
        "name": "rng",
        "keyword_only": keyword,
        "optional": False,
        "default": None,
        "ts": "$dice.RNG",
    }
    event = record_view(
        rule.event_class,
        _event_columns(rule),
        f"One event of `{function}`: when (`{camel(rule.time_field)}`, in "
        f"{rule.clock}), which (`kind`), and its figures (null where a field does "
        "not apply to that kind).",
    )
    totals = [
        SimpleNamespace(
            name=t.name,
            title=t.description,
            description=None,
            ts=total_type(rule, t, JS_TYPES),
        )
        for t in rule.totals
    ]
    events = SimpleNamespace(
        name="events",
        title="Everything that happened, in time order.",
        description=None,
        ts=f"readonly {rule.event_class}[]",
    )
    result = record_view(
        rule.result_class,
        [events, *totals],
        f"What `{function}` answers. {where(rule)}",
    )
    lines, courses = _courses(rule, by_param)
    make = private_constant(rule.id, "event")
    answer = record_literal(
        result["shape"],
        [
            ("events", "run.events"),
            *((t.name, _total_js(rule, t)) for t in rule.totals),
        ],
        "  ",
    )
    event_values = record_literal(
        event["shape"],
        [(c.name, f"values[{i}]") for i, c in enumerate(_event_columns(rule))],
        "",
    )
    run_args = [
        private_constant(rule.id, "spec"),
        "courses",
        local(by_param[rule.leave_param]) if rule.leave_param else "null",
        local(by_param[rule.bonus_param]) if rule.bonus_param else "0",
        f"new {rule.track.class_name}()" if rule.track else "null",
        make,
        "rng",
        f"new {rule.state.class_name}()" if rule.state else "null",
    ]
    param_names = ", ".join(camel(p.name) for p in rule.params)
    return {
        "needs": _needs(system, rule),
        "function": function,
        "params": params,
        "signature": signature([*params, rng], function),
        "enums": [v["enum"] for v in params if v["enum"] is not None],
        "event": event,
        "event_kind": f"{rule.event_class}Kind",
        "event_kinds": " | ".join(js_string(k) for k in event_kinds(rule)),
        "event_kind_doc": doc(
            f"The kinds of event of `{function}` (the values of "
            f"`{rule.event_class}.kind`). {where(rule)}"
        ),
        "make": make,
        "make_body": event_values,
        "result": result,
        "spec_name": private_constant(rule.id, "spec"),
        "spec": [
            (camel(name), _value(value)) for name, value in spec_values(rule).items()
        ],
        "courses_name": private_constant(rule.id, "courses"),
        "course_constant": None
        if rule.origin is not None
        else [_course(_written_course(c), "  ") for c in rule.courses],
        "course_lines": lines,
        "courses": courses,
        "run_args": ", ".join(run_args),
        "answer": answer,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{args_doc(rule.params, allowed)}\n\n"
            f"{where(rule)} The same rng state gives the same events. Throws "
            "RuleInputError for arguments outside the rule"
            + (f" ({param_names})." if param_names else ".")
        ),
    }
