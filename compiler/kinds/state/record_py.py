"""A record state in Python: a RecordState subclass, its fields as properties,
its derived properties, and a method for each transition."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ... import expr
from ...kinds.state.record_model import (
    Assignment,
    RecordField,
    RecordStateRule,
    RecordTransition,
)
from ...kinds.table.model import TableRule
from ...literals import docstring
from ...model import System
from ...naming import private_constant
from ...viewkit import (
    View,
    all_enums,
    args_doc,
    param_imports,
    param_view,
    signature,
    where_doc,
)

_TEMP = re.compile(r"\b_t[0-9]+\b")
_WORDS = {"int": "a whole number", "bool": "a flag"}


def field_text(field: RecordField) -> str:
    """What a field holds, in words: its type and bounds."""
    if field.type == "bool":
        return "a flag"
    if field.min is None and field.max is None:
        return "a whole number"
    if field.max is None:
        return f"a whole number, {field.min} or more"
    if field.min is None:
        return f"a whole number, at most {field.max}"
    return f"a whole number from {field.min} to {field.max}"


def clamped(
    code: str, field: RecordField, lo: str, hi: str, low: str, high: str
) -> str:
    """``code`` held within the field's bounds (``lo``/``hi``: the language's
    max and min functions, ``low``/``high``: the bounds' literals)."""
    if field.max is not None:
        code = f"{hi}({code}, {high})"
    if field.min is not None:
        code = f"{lo}({code}, {low})"
    return code


def reads(
    rule: RecordStateRule, nodes: Iterable[expr.Node]
) -> tuple[list[str], list[str]]:
    """The fields and the derived properties the expressions ``nodes`` read."""
    used = set[str]().union(*(expr.names_used(n) for n in nodes))
    fields = [f.name for f in rule.fields if f.name in used]
    derived = [d.name for d in rule.derived if d.name in used]
    return fields, derived


class _Python:
    """Python code of one expression of the rule (its tables, labels, temporaries)."""

    def __init__(self, system: System) -> None:
        self.rounding = system.rounding
        self.rows = {
            t.function: private_constant(t.id, "rows")
            for t in system.rules
            if isinstance(t, TableRule)
        }
        self.enums = {e.name: e for e in all_enums(system)}
        self.temps: set[str] = set()

    def __call__(self, node: expr.Node) -> str:
        code = expr.to_python(
            node,
            name=lambda n: n,
            rounding=self.rounding,
            lookup=lambda table, key: f"{self.rows[table]}[{key}]",
            label=lambda enum, label: f"{enum}.{self.enums[enum].member(label).name}",
            avoid=frozenset(self.temps),
        )
        self.temps.update(_TEMP.findall(code))
        return code


def _bind(rule: RecordStateRule, nodes: list[expr.Node]) -> list[str]:
    """The lines that name the fields and properties ``nodes`` read, as locals."""
    fields, derived = reads(rule, nodes)
    lines = [f"{name} = self._{name}" for name in fields]
    return lines + [f"{name} = self.{name}" for name in derived]


def _set_lines(
    rule: RecordStateRule, sets: tuple[Assignment, ...], python: _Python
) -> list[str]:
    values = []
    for s in sets:
        field = rule.field(s.field)
        code = python(s.checked.node)
        if s.clamp:
            code = clamped(code, field, "max", "min", str(field.min), str(field.max))
        values.append(code)
    targets = ", ".join(f"self._{s.field}" for s in sets)
    if len(sets) == 1:
        return [f"{targets} = {values[0]}"]
    return [f"{targets} = ({', '.join(values)})"]


def _method(rule: RecordStateRule, t: RecordTransition, system: System) -> View:
    python = _Python(system)
    params = [param_view(p, rule.qualified_id) for p in t.params]
    nodes = [
        *([t.unless.node] if t.unless else []),
        *(let.checked.node for let in t.lets),
        *(s.checked.node for s in t.sets),
    ]
    lines = [line for view in params for line in view["lines"]]
    lines += _bind(rule, nodes)
    if t.unless is not None:
        lines += [f"if {python(t.unless.node)}:", "    return"]
    lines += [f"{let.name} = {python(let.checked.node)}" for let in t.lets]
    lines += _set_lines(rule, t.sets, python)
    signed = signature(params, t.params)
    return {
        "name": t.name,
        "signature": f"self, {signed}" if signed else "self",
        "doc": docstring(transition_doc(t), "        "),
        "lines": lines,
    }


def transition_doc(t: RecordTransition) -> str:
    return (
        f"{t.description}{args_doc(t.params)}\n\n"
        "Raises RuleInputError for arguments outside the rule."
    )


def python_view(system: System, rule: RecordStateRule) -> View:
    properties: list[View] = [
        {
            "name": f.name,
            "type": f.type,
            "doc": docstring(
                (f.description + " " if f.description else "")
                + f"({field_text(f).capitalize()}.)",
                "        ",
            ),
            "lines": [f"return self._{f.name}"],
        }
        for f in rule.fields
    ]
    for d in rule.derived:
        python = _Python(system)
        properties.append(
            {
                "name": d.name,
                "type": d.type,
                "doc": docstring(
                    (d.description + " " if d.description else "")
                    + f"(Derived from the fields: {expr.to_source(d.checked.node)}.)",
                    "        ",
                ),
                "lines": [
                    *_bind(rule, [d.checked.node]),
                    f"return {python(d.checked.node)}",
                ],
            }
        )
    start = _Python(system)
    params = [p for t in rule.transitions for p in t.params]
    return {
        "record": True,
        "id": rule.qualified_id,
        "class_name": rule.class_name,
        "slots": _tuple(f"_{f.name}" for f in rule.fields),
        "fields": _tuple(f.name for f in rule.fields),
        "init": [
            f"self._{f.name}: {f.type} = {start(f.start.node)}" for f in rule.fields
        ],
        "properties": properties,
        "methods": [_method(rule, t, system) for t in rule.transitions],
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Each instance holds "
            "one subject's state; a transition changes its fields, each held within "
            "its bounds.",
            "    ",
        ),
        "imports": [("rulebook._state", "RecordState"), *param_imports(tuple(params))],
        "exports": [rule.class_name],
    }


def _tuple(names: Iterable[str]) -> str:
    """The items of a tuple of names, as Python writes them (one: a trailing comma)."""
    found = [f'"{name}"' for name in names]
    return ", ".join(found) + ("," if len(found) == 1 else "")
