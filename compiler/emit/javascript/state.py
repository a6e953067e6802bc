"""State in JavaScript: a RecordState subclass, its fields in #private fields read by getters, its derived properties, and a method for each transition."""

from __future__ import annotations

from ...core.exprs import local_params
from ...core.ir import (
    Derived,
    Field,
    State,
    Transition,
    Unit,
)
from ...front.model import (
    Param,
    System,
)
from ...lang import expr
from ..state_code import (
    clamped,
    field_text,
    read_late,
    reads,
    upper,
)
from ..value_code import ts_held
from ..viewkit import (
    allowed,
)
from .code import js_text as _text
from .kit import (
    View,
    args_doc,
    doc,
    expression,
    js,
    js_string,
    param_view,
    signature,
)
from .names import (
    jsattr,
    jsname,
)
from .statements import (
    made_text,
    statement_lines,
)

_TS = {"int": "number", "bool": "boolean", "texts": "readonly string[]"}


def attr(name: str) -> str:
    """A state's field, property or transition, as JavaScript names it."""
    return jsattr(name, "mutable")


def _known(state: State, t: Transition | None) -> list[Param]:
    """The names an expression of the state reads, as parameters (their limits
    spare the checks of safe integers the emitter can prove needless)."""
    hidden = {p.name for p in t.params} if t is not None else set()
    found = [
        Param(
            f.name,
            "bool" if f.type == "bool" else "int",
            f.lo,
            f.hi,
            None,
            False,
            "",
            None,
        )
        for f in state.fields
        if f.name not in hidden and f.held is None
    ]
    if t is None:
        return found
    return found + list(t.params) + local_params(t.locals)


def _bind(
    state: State,
    nodes: list[expr.Node],
    params: tuple[Param, ...] = (),
    late: set[str] | None = None,
) -> list[str]:
    fields, derived = reads(state, nodes, {p.name for p in params})
    return [f"const {jsname(n)} = this.#{attr(n)};" for n in fields] + [
        f"const {jsname(n)} = this.{attr(n)};" for n in derived if n not in (late or ())
    ]


def _method(
    system: System,
    unit: Unit,
    state: State,
    t: Transition,
    tables: dict[str, str],
    shapes: dict[str, str],
) -> View:
    params = [param_view(system, p, state.rule_id) for p in t.params]
    known = _known(state, t)
    late = read_late(state, t.body) if t.body is not None else set()
    renames = {name: f"this.{attr(name)}" for name in late}

    def emit(node: expr.Node) -> str:
        return expression(system, node, known, tables, renames)

    nodes = [c.node for c in t.expressions]
    lines = [line for view in params for line in view["lines"]]
    lines += _bind(state, nodes, t.params, late)
    if t.body is not None:
        assert t.record is not None
        record, shape = unit.record(t.record), shapes[t.record]
        fields = {f.name for f in state.fields}
        read = reads(state, nodes, {p.name for p in t.params})
        lines += statement_lines(
            t.body,
            emit,
            # a method's lines are indented two more than a function's
            lambda values, indent: made_text(
                record, shape, values, emit, "  " + indent
            ),
            None,
            {p.name for p in t.params} | {*read[0], *read[1]},
            lambda name: f"this.#{attr(name)}" if name in fields else None,
        )
        return _method_view(state, t, params, lines, t.record)
    if t.unless is not None:
        lines.append(f"if ({emit(t.unless.node)}) return;")
    lines += [f"const {jsname(b.name)} = {emit(b.checked.node)};" for b in t.binds]
    values = []
    for change in t.changes:
        field = state.field(change.field)
        code = emit(change.value.node)
        if change.clamp:
            code = clamped(
                code, field, "Math.max", "Math.min", js(field.lo), js(field.hi)
            )
        values.append(_held(field, code))
    targets = [f"this.#{attr(c.field)}" for c in t.changes]
    if len(targets) == 1:
        lines.append(f"{targets[0]} = {values[0]};")
    else:
        lines.append(f"[{', '.join(targets)}] = [{', '.join(values)}];")
    if t.answers is not None:
        lines.append(f"return this.#{attr(t.answers)};")
    returns = "void" if t.answers is None else _TS[state.field(t.answers).type]
    return _method_view(state, t, params, lines, returns)


def _method_view(
    state: State, t: Transition, params: list[View], lines: list[str], returns: str
) -> View:
    signed = signature(params, attr(t.name))
    answers = f" Answers the new {attr(t.answers)}." if t.answers is not None else ""
    if t.record is not None:
        answers = f" Answers a {jsname(t.record)}."
    return {
        "name": attr(t.name),
        "params": signed["js"],
        "ts": signed["ts"],
        "returns": returns,
        "doc": doc(
            "\n\n".join(
                part
                for part in (
                    _text(t.doc) + answers,
                    args_doc(t.params, allowed),
                    "Throws RuleInputError for arguments outside the rule.",
                )
                if part
            ),
            "  ",
        ),
        "lines": [*signed["unpack"], *lines],
    }


def _value(
    system: System, d: Derived, known: list[Param], tables: dict[str, str]
) -> str:
    code = expression(system, d.value.node, known, tables)
    listed = d.held is not None and d.held.type == "list"
    return f"Object.freeze({code})" if d.type in ("texts", "labels") or listed else code


def _held(f: Field, code: str) -> str:
    """A field's value as the state holds it: a list frozen, of its own."""
    if f.held is None or f.held.type != "list":
        return code
    return f"Object.freeze([...{code}])"


def _field_ts(f: Field) -> str:
    if f.held is not None:
        return ts_held(f.held)
    return "boolean" if f.type == "bool" else "number"


def _field_read(f: Field) -> str:
    """A field's getter: its value (a state a copy of its own, to change)."""
    if f.held is not None and f.held.type == "state":
        return f"return $values.held(this.#{attr(f.name)});"
    return f"return this.#{attr(f.name)};"


def _copy(state: State) -> View:
    """``$copy()``: a state of the class with this one's fields (a new state
    made as the constructor's copy, ``$state.COPY``, where it takes arguments)."""
    made = f"new {jsname(state.name)}({'$state.COPY' if state.params else ''})"
    lines = [f"const copy = {made};"]
    lines += [f"copy.#{attr(f.name)} = this.#{attr(f.name)};" for f in state.fields]
    return {"lines": [*lines, "return copy;"]}


def _derived_ts(d: Derived) -> str:
    if d.held is not None:
        return ts_held(d.held)
    if d.type == "labels":
        assert d.enum is not None
        return f"readonly {jsname(d.enum.name)}[]"
    return _TS[d.type]


def state_view(
    system: System,
    unit: Unit,
    state: State,
    tables: dict[str, str],
    shapes: dict[str, str],
) -> View:
    """What ``core/state.js.j2`` and ``core/state.d.ts.j2`` print of a state of
    ``unit`` (``shapes``: the object shape of each of its records)."""
    known = _known(state, None)
    getters: list[View] = [
        {
            "name": attr(f.name),
            "ts": _field_ts(f),
            "doc": doc(
                (f.doc + " " if f.doc else "") + f"({upper(field_text(f))}.)",
                "  ",
            ),
            "lines": [_field_read(f)],
        }
        for f in state.fields
    ]
    getters += [
        {
            "name": attr(d.name),
            "ts": _derived_ts(d),
            "doc": doc(
                (d.doc + " " if d.doc else "")
                + f"(Derived from the fields: {expr.to_source(d.value.node)}.)",
                "  ",
            ),
            "lines": [
                *_bind(state, [d.value.node]),
                f"return {_value(system, d, known, tables)};",
            ],
        }
        for d in state.derived
    ]
    types = {g["name"]: g["ts"] for g in getters}
    shown = [f.name for f in state.fields] + list(state.shown)
    made = [param_view(system, p, state.rule_id) for p in state.params]
    signed = signature(made, jsname(state.name))

    def start(f: Field) -> str:
        return _held(f, expression(system, f.start.node, list(state.params), tables))

    return {
        "is": "State",
        "class_name": jsname(state.name),
        "fields": ", ".join(
            f"[{js_string(f.name)}, {js_string(attr(f.name))}]" for f in state.fields
        ),
        "shown": ", ".join(
            f"[{js_string(n)}, {js_string(attr(n))}]" for n in state.shown
        ),
        # fields that start from what the constructor takes are set there
        "privates": [
            f"#{attr(f.name)};" if state.params else f"#{attr(f.name)} = {start(f)};"
            for f in state.fields
        ],
        "constructor": None
        if not state.params
        else {
            "params": signed["js"],
            "ts": signed["ts"],
            "lines": [
                "if (arguments[0] === $state.COPY) return; // made by $copy",
                *signed["unpack"],
                *(line for view in made for line in view["lines"]),
                *(f"this.#{attr(f.name)} = {start(f)};" for f in state.fields),
            ],
        },
        "getters": getters,
        # what toDict (and JSON.stringify) answers: the fields, then those shown
        "json": [{"key": js_string(n), "ts": types[attr(n)]} for n in shown],
        "methods": [
            _method(system, unit, state, t, tables, shapes) for t in state.transitions
        ],
        "copier": _copy(state),
        "doc": doc(
            f"{_text(state.doc)}\n\n{_text(state.origin)} Each instance holds one "
            "subject's state; a transition changes its fields, each held within its "
            "bounds."
        ),
        "runtime": ["_state.js"],
    }
