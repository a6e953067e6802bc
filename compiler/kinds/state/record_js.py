"""A record state in JavaScript: a RecordState subclass, its fields in #private
fields read by getters, its derived properties, and a method for each transition."""

from __future__ import annotations

from typing import Any

from ... import expr
from ...js_kit import (
    View,
    args_doc,
    doc,
    expression,
    js,
    js_string,
    param_view,
    signature,
    where,
)
from ...js_naming import camel
from ...js_plan import call_step, fields_step, instance_plan
from ...kinds.state.record_model import RecordStateRule, RecordTransition
from ...kinds.state.record_py import clamped, field_text, reads
from ...kinds.state.record_workbench import action
from ...kinds.table.rule import table_rows
from ...model import Param, System
from ...viewkit import allowed


def _as_params(rule: RecordStateRule, t: RecordTransition | None) -> list[Param]:
    """The names an expression of the rule reads, as parameters (their bounds
    spare the checks of safe integers the emitter can prove needless)."""
    found = [
        Param(f.name, f.type, f.min, f.max, None, False, "", None) for f in rule.fields
    ]
    return found + (list(t.params) if t is not None else [])


def _bind(rule: RecordStateRule, nodes: list[expr.Node]) -> list[str]:
    fields, derived = reads(rule, nodes)
    return [f"const {camel(n)} = this.#{camel(n)};" for n in fields] + [
        f"const {camel(n)} = this.{camel(n)};" for n in derived
    ]


def _method(system: System, rule: RecordStateRule, t: RecordTransition) -> View:
    tables = table_rows(system)
    params = [param_view(system, p, rule.qualified_id) for p in t.params]
    known = _as_params(rule, t)

    def emit(node: expr.Node) -> str:
        return expression(system, node, known, tables)

    nodes = [
        *([t.unless.node] if t.unless else []),
        *(let.checked.node for let in t.lets),
        *(s.checked.node for s in t.sets),
    ]
    lines = [line for view in params for line in view["lines"]]
    lines += _bind(rule, nodes)
    if t.unless is not None:
        lines.append(f"if ({emit(t.unless.node)}) return;")
    lines += [f"const {camel(let.name)} = {emit(let.checked.node)};" for let in t.lets]
    values = []
    for s in t.sets:
        field = rule.field(s.field)
        code = emit(s.checked.node)
        if s.clamp:
            code = clamped(
                code, field, "Math.max", "Math.min", js(field.min), js(field.max)
            )
        values.append(code)
    targets = [f"this.#{camel(s.field)}" for s in t.sets]
    if len(targets) == 1:
        lines.append(f"{targets[0]} = {values[0]};")
    else:
        lines.append(f"[{', '.join(targets)}] = [{', '.join(values)}];")
    signed = signature(params, t.name)
    return {
        "name": camel(t.name),
        "params": signed["js"],
        "ts": signed["ts"],
        "doc": doc(
            "\n\n".join(
                part
                for part in (
                    t.description,
                    args_doc(t.params, allowed),
                    "Throws RuleInputError for arguments outside the rule.",
                )
                if part
            ),
            "  ",
        ),
        "lines": [*signed["unpack"], *lines],
    }


def js_view(system: System, rule: RecordStateRule) -> View:
    tables = table_rows(system)
    known = _as_params(rule, None)
    getters: list[View] = [
        {
            "name": camel(f.name),
            "ts": "boolean" if f.type == "bool" else "number",
            "doc": doc(
                (f.description + " " if f.description else "")
                + f"({field_text(f).capitalize()}.)",
                "  ",
            ),
            "lines": [f"return this.#{camel(f.name)};"],
        }
        for f in rule.fields
    ]
    getters += [
        {
            "name": camel(d.name),
            "ts": "boolean" if d.type == "bool" else "number",
            "doc": doc(
                (d.description + " " if d.description else "")
                + f"(Derived from the fields: {expr.to_source(d.checked.node)}.)",
                "  ",
            ),
            "lines": [
                *_bind(rule, [d.checked.node]),
                f"return {expression(system, d.checked.node, known, tables)};",
            ],
        }
        for d in rule.derived
    ]
    return {
        "record": True,
        "class_name": rule.class_name,
        "fields": ", ".join(
            f"[{js_string(f.name)}, {js_string(camel(f.name))}]" for f in rule.fields
        ),
        "privates": [
            f"#{camel(f.name)} = {expression(system, f.start.node, [], tables)};"
            for f in rule.fields
        ],
        "getters": getters,
        "methods": [_method(system, rule, t) for t in rule.transitions],
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Each instance holds one "
            "subject's state; a transition changes its fields, each held within its "
            "bounds."
        ),
    }


def js_plan(
    module: Any,
    rule: RecordStateRule,
    args: dict[str, Any],
    rolls: bool,
    roll: str | None,
) -> dict[str, Any]:
    """A new state, its actions made in order; answered as its fields and
    derived properties."""
    cls = getattr(module, rule.class_name)
    steps = []
    for item in args.get("actions", ()):
        name, kwargs = action(item)
        steps.append(call_step(cls, name, kwargs))
    names = [*(f.name for f in rule.fields), *(d.name for d in rule.derived)]
    return instance_plan(cls, {}, [*steps, fields_step(names)])
