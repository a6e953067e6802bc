"""A record state's page (its fields and each transition's logic, in words) and
its part of rules.json."""

from __future__ import annotations

from ... import expr
from ...jsonkit import Refs, View, expression, params
from ...kinds.state.record_model import RecordStateRule, RecordTransition
from ...kinds.state.record_py import field_text
from ...literals import code, md, md_cell
from ...model import System
from ...viewkit import api, inputs


def _source(checked: expr.Checked) -> str:
    return code(expr.to_source(checked.node))


def _transition(rule: RecordStateRule, t: RecordTransition) -> View:
    names = ", ".join(p.name for p in t.params)
    steps = []
    if t.unless is not None:
        steps.append(f"When {_source(t.unless)} holds, nothing changes.")
    steps += [
        f"Let {code(let.name)} be {_source(let.checked)}"
        + (f" ({md(let.description.rstrip('.'))})" if let.description else "")
        + "."
        for let in t.lets
    ]
    sets = [
        f"{code(s.field)} becomes {_source(s.checked)}"
        + (", held within its bounds" if s.clamp else "")
        for s in t.sets
    ]
    steps.append(
        ("Then, all at once from the values before: " if len(sets) > 1 else "Then ")
        + "; ".join(sets)
        + "."
    )
    return {
        "call": code(f"{t.name}({names})"),
        "description": md(t.description),
        "inputs": inputs(t.params),
        "steps": steps,
    }


def docs_view(system: System, rule: RecordStateRule, common: View) -> View:
    return common | {
        "record": True,
        "api": api(
            common,
            "Call: "
            + code(f"{rule.class_name}()")
            + " makes one subject's state, each field at its start value; each "
            "field and derived property is an attribute, and each transition a "
            "method.",
        ),
        "fields": [
            (
                code(f.name),
                md_cell(field_text(f)),
                code(expr.to_source(f.start.node), in_table=True),
                md_cell(f.description or ""),
            )
            for f in rule.fields
        ],
        "derived": [
            f"{code(d.name)} = {_source(d.checked)}"
            + (f": {md(d.description)}" if d.description else "")
            for d in rule.derived
        ],
        "transitions": [_transition(rule, t) for t in rule.transitions],
    }


def data_view(system: System, rule: RecordStateRule, refs: Refs) -> View:
    fields = rule.fields
    return {
        "class_name": rule.class_name,
        "fields": [
            {
                "name": f.name,
                "type": f.type,
                "start": expression(f.start, refs),
                "min": f.min,
                "max": f.max,
                "description": f.description,
            }
            for f in fields
        ],
        "derived": [
            {
                "name": d.name,
                "type": d.type,
                "value": expression(d.checked, refs),
                "description": d.description,
            }
            for d in rule.derived
        ],
        "transitions": [
            {
                "name": t.name,
                "description": t.description,
                "parameters": params(t.params, refs),
                "unless": None
                if t.unless is None
                else expression(t.unless, refs, t.params),
                "let": [
                    {
                        "name": let.name,
                        "value": expression(let.checked, refs, t.params),
                        "description": let.description,
                    }
                    for let in t.lets
                ],
                "set": [
                    {
                        "name": s.field,
                        "value": expression(s.checked, refs, t.params),
                        "clamped": s.clamp,
                    }
                    for s in t.sets
                ],
            }
            for t in rule.transitions
        ],
    }
