"""State in Python: a RecordState subclass, its fields as properties, its derived properties, and a method for each transition."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ...core.exprs import local_params
from ...core.ir import (
    Change,
    Derived,
    Field,
    State,
    Transition,
    Unit,
)
from ...core.viewkit import (
    Import,
    View,
)
from ...front.model import (
    Column,
    Param,
    System,
)
from ...lang import expr
from ...lang.py_names import (
    pyattr,
    pyname,
)
from ..literals import (
    docstring,
    py,
)
from ..state_code import (
    clamped,
    field_text,
    read_late,
    reads,
    upper,
)
from ..value_code import py_held
from ..viewkit import (
    args_doc,
    param_imports,
    param_view,
    signature,
)
from .code import code_of
from .statements import (
    made_text,
    statement_lines,
)

IMPORTS: list[Import] = [("rulebook._state", "RecordState")]


def _derived_type(d: Derived) -> str:
    if d.held is not None:
        return py_held(d.held)
    if d.type == "texts":
        return "tuple[str, ...]"
    if d.type == "labels":
        assert d.enum is not None
        return f"tuple[{pyname(d.enum.name)}, ...]"
    return d.type


def attr(name: str) -> str:
    """A state's field, property or transition, as Python names it."""
    return pyattr(name, "mutable")


def state_view(
    system: System, unit: Unit, state: State, tables: dict[str, str]
) -> View:
    """What ``core/state.py.j2`` prints of a state of ``unit`` (``tables``:
    each table's rows constant, by the function that reads it)."""
    properties: list[View] = [
        {
            "name": attr(f.name),
            "type": _field_type(f),
            "doc": docstring(
                (f.doc + " " if f.doc else "") + f"({upper(field_text(f))}.)",
                "        ",
            ),
            "lines": [_field_read(f)],
        }
        for f in state.fields
    ]
    for d in state.derived:
        python = code_of(system, (), tables)
        value = python(d.value.node)
        properties.append(
            {
                "name": attr(d.name),
                "type": _derived_type(d),
                "doc": docstring(
                    (d.doc + " " if d.doc else "")
                    + f"(Derived from the fields: {expr.to_source(d.value.node)}.)",
                    "        ",
                ),
                "lines": [
                    *_bind(state, [d.value.node]),
                    f"return tuple({value})"
                    if d.type in ("texts", "labels") or _listed(d.held)
                    else f"return {value}",
                ],
            }
        )
    start = code_of(system, state.params, tables)
    made = [param_view(p, state.rule_id) for p in state.params]
    params = [*state.params, *(p for t in state.transitions for p in t.params)]
    signed = signature(made, state.params)
    names = [f.name for f in state.fields] + list(state.shown)
    return {
        "is": "State",
        "class_name": pyname(state.name),
        "slots": _tuple(
            sorted((f"_{attr(f.name)}" for f in state.fields), key=_natural)
        ),
        "fields": _tuple(attr(f.name) for f in state.fields),
        "shown": _tuple(map(attr, state.shown)) if state.shown else None,
        # the JSON keys, where a name is another in Python
        "json_keys": None
        if all(attr(n) == n for n in names)
        else ", ".join(py(n) for n in names) + ("," if len(names) == 1 else ""),
        "init_signature": f"self, {signed}" if signed else "self",
        "init": [
            *(line for view in made for line in view["lines"]),
            *(
                f"self._{attr(f.name)}: {_field_type(f)} = "
                + _held(f, start(f.start.node))
                for f in state.fields
            ),
        ],
        "properties": properties,
        "methods": [_method(system, unit, state, t, tables) for t in state.transitions],
        "doc": docstring(
            f"{state.doc}\n\n{state.origin} Each instance holds one subject's state; "
            "a transition changes its fields, each held within its bounds.",
            "    ",
        ),
        "imports": [*IMPORTS, *param_imports(tuple(params)), *_value_imports(state)],
    }


def _field_type(f: Field) -> str:
    """The Python type a field is held as."""
    return py_held(f.held) if f.held is not None else f.type


def _listed(held: Column | None) -> bool:
    return held is not None and held.type == "list"


def _held(f: Field, code: str) -> str:
    """A field's value as the state holds it: a list as a tuple."""
    if not _listed(f.held):
        return code
    return "()" if code == "[]" else f"tuple({code})"


def _field_read(f: Field) -> str:
    """A field's property: its value (a state a copy of its own, to change)."""
    if f.held is not None and f.held.type == "state":
        return f"return _values.held(self._{attr(f.name)})"
    return f"return self._{attr(f.name)}"


def _value_imports(state: State) -> list[Import]:
    """What its fields and properties of any type need: a state's copy, a
    list's type of its items."""
    found: list[Import] = []
    if any(f.held is not None and f.held.type == "state" for f in state.fields):
        found.append(("rulebook", "_values"))
    return found


def _bind(
    state: State,
    nodes: list[expr.Node],
    params: tuple[Param, ...] = (),
    late: set[str] | None = None,
) -> list[str]:
    """The lines that name the fields and properties ``nodes`` read, as locals
    (but those a parameter of the same name hides, and the properties read
    where they are needed, ``late``)."""
    fields, derived = reads(state, nodes, {p.name for p in params})
    lines = [f"{pyname(name)} = self._{attr(name)}" for name in fields]
    return lines + [
        f"{pyname(name)} = self.{attr(name)}"
        for name in derived
        if name not in (late or ())
    ]


def _change_lines(
    state: State, changes: tuple[Change, ...], python: Callable[[expr.Node], str]
) -> list[str]:
    values = []
    for change in changes:
        field = state.field(change.field)
        code = python(change.value.node)
        if change.clamp:
            code = clamped(code, field, "max", "min", str(field.lo), str(field.hi))
        values.append(_held(field, code))
    targets = ", ".join(f"self._{attr(c.field)}" for c in changes)
    if len(changes) == 1:
        return [f"{targets} = {values[0]}"]
    return [f"{targets} = ({', '.join(values)})"]


def _method(
    system: System, unit: Unit, state: State, t: Transition, tables: dict[str, str]
) -> View:
    late = read_late(state, t.body) if t.body is not None else set()
    renames = {name: f"self.{attr(name)}" for name in late}
    python = code_of(system, [*t.params, *local_params(t.locals)], tables, renames)
    params = [param_view(p, state.rule_id) for p in t.params]
    nodes = [c.node for c in t.expressions]
    lines = [line for view in params for line in view["lines"]]
    lines += _bind(state, nodes, t.params, late)
    signed = signature(params, t.params)
    if t.body is not None:
        assert t.record is not None
        record = unit.record(t.record)
        fields = {f.name for f in state.fields}
        lines += statement_lines(
            t.body,
            python,
            lambda values: made_text(record, values, python),
            None,
            lambda name: f"self._{attr(name)}" if name in fields else pyname(name),
        )
        return {
            "name": attr(t.name),
            "returns": pyname(t.record),
            "signature": f"self, {signed}" if signed else "self",
            "doc": docstring(transition_doc(t), "        "),
            "lines": lines,
        }
    if t.unless is not None:
        lines += [f"if {python(t.unless.node)}:", "    return"]
    lines += [f"{pyname(b.name)} = {python(b.checked.node)}" for b in t.binds]
    lines += _change_lines(state, t.changes, python)
    if t.answers is not None:
        lines.append(f"return self._{attr(t.answers)}")
    return {
        "name": attr(t.name),
        "returns": "None" if t.answers is None else state.field(t.answers).type,
        "signature": f"self, {signed}" if signed else "self",
        "doc": docstring(transition_doc(t), "        "),
        "lines": lines,
    }


def transition_doc(t: Transition) -> str:
    answers = f" Answers the new {attr(t.answers)}." if t.answers is not None else ""
    if t.record is not None:
        answers = f" Answers a {pyname(t.record)}."
    return (
        f"{t.doc}{answers}{args_doc(t.params)}\n\n"
        "Raises RuleInputError for arguments outside the rule."
    )


def _tuple(names: Iterable[str]) -> str:
    """The items of a tuple of names, as Python writes them (one: a trailing comma)."""
    found = [f'"{name}"' for name in names]
    return ", ".join(found) + ("," if len(found) == 1 else "")


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """A name's key in the order ruff keeps ``__slots__`` in (numbers by value)."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part)
        for part in re.split(r"([0-9]+)", name)
        if part
    )
