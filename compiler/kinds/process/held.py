"""process, held: a state with fields a process carries through a run, made from its parameters, stepped with arguments, read by its totals.

A process's ``state`` may name a state rule with fields (``kind: state`` with
``fields``): the state is made once, before the run, by ``start`` (an
expression of the process's parameters: ``Gauge(high, low)``;
omitted, the state's constructor with no argument), held by the process as a
value, and read in its expressions by the state rule's id. A failed check's
``step`` calls one of its transitions with ``args`` (each an expression of
the parameters and the state, which may roll dice; a label of a choice may be
written bare) and holds the state it answers; ``stops``, a condition on the
parameters and the state, ends every course's checks again once it holds. A
``state`` total answers the final state (a copy of its own), or with a
``field`` that field or derived value of it, of its declared type.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...core.exprs import rebuilt
from ...front.declared import (
    Declared,
    declared,
)
from ...front.model import (
    Column,
    Param,
)
from ...front.scope import param_spec
from ...kinds.state.record_model import RecordStateRule
from ...kinds.state.values import spec_of
from ...lang import expr
from ...runtime.dice import Dice

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

CHECK_VALUES = ("roll", "total")  # what a step reads of the check that failed


def _plus(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


__all__ = [
    "CHECK_VALUES",
    "Held",
    "held_column",
    "held_state",
    "held_step",
    "held_total",
    "renamed",
]


@dataclass(frozen=True, slots=True)
class Held:
    """A state with fields the process holds: its name in the expressions,
    its start, the condition that stops the courses' checks, its type."""

    name: str
    start: expr.Checked
    goes_on: expr.Checked | None  # not ``stops``: the courses are checked again
    declared: Declared
    start_text: str
    stops_text: str | None


class HeldReader:
    """Reads what a process writes of the state it holds, every mistake
    reported at its own key."""

    def __init__(
        self,
        b: SystemBuilder,
        src: SourceFile,
        path: Path,
        state: RecordStateRule,
        params: list[Param],
    ) -> None:
        self.b, self.src, self.path, self.state = b, src, path, state
        self.ok = True
        self.specs = {p.name: param_spec(p) for p in params}
        self.name = state.id
        self.declared: Declared | None = None
        self.checked: dict[str, expr.Param] = {}  # the failed check's values

    def check_values(self, dice: Dice, bonus: Param | None) -> None:
        """A step reads the roll and the total of the check that failed (a
        parameter of either name is read instead)."""
        lo = hi = 0
        if bonus is not None:
            lo, hi = bonus.min, bonus.max  # type: ignore[assignment]
        for name, least, most in (
            (CHECK_VALUES[0], dice.min, dice.max),
            (CHECK_VALUES[1], _plus(dice.min, lo), _plus(dice.max, hi)),
        ):
            if name not in self.specs:
                made = Param(name, "int", least, most, None, False, "", None)
                self.checked[name] = param_spec(made)

    def compile(
        self,
        where: tuple[str | int, ...],
        text: str,
        what: str,
        *,
        checked: bool = False,
    ) -> expr.Checked | None:
        """``text`` over the parameters and the state held (and, where
        ``checked``, the failed check's roll and total)."""
        scope = {**(self.checked if checked else {}), **self.specs}
        if self.declared is not None:
            scope[self.name] = spec_of(self.name, self.declared)
        _, found = self.b.compile_expression(
            self.src, (*self.path, *where), text, scope, what, rolls=True
        )
        if found is None:
            self.ok = False
        return found

    def err(
        self, where: tuple[str | int, ...], message: str, hint: str | None = None
    ) -> None:
        self.ok = False
        self.b.err(self.src, (*self.path, *where), message, hint)


def held_state(reader: HeldReader, raw: dict[str, Any]) -> Held | None:
    """The state ``raw`` (the process's ``state``) holds, made by its
    ``start``; None where a part of it is wrong (reported)."""
    state, name = reader.state, reader.name
    if name in reader.specs:
        reader.err(
            ("state", "rule"),
            f"{name!r} is a parameter of this process: the state held is read by that name",
            "rename the parameter",
        )
        return None
    shape = {"name": name, "type": "state", "state": state.class_name}
    found = declared(reader.b, reader.src, (*reader.path, "state"), shape, owned=[])
    if found is None:
        reader.ok = False
        return None
    start_text = raw.get("start", f"{state.class_name}()")
    start = reader.compile(("state", "start"), start_text, "state start")
    reader.declared = found
    stops_text = raw.get("stops")
    stops = None
    if stops_text is not None:
        stops = reader.compile(("state", "stops"), stops_text, "stopping condition")
        if stops is not None and stops.type == "bool":
            stops = reader.compile(
                ("state", "stops"), f"not ({stops_text})", "stopping condition"
            )
        elif stops is not None:
            reader.err(
                ("state", "stops"),
                f"'stops' is a condition, but it is {stops.type}",
                f"compare: {name}.<field> == ...",
            )
            stops = None
    if start is None or (stops_text is not None and stops is None):
        return None
    if start.type != "state" or start.record != state.class_name:
        reader.err(
            ("state", "start"),
            f"the start is not a {state.class_name}",
            f"make one: {state.class_name}(...)",
        )
        return None
    return Held(name, start, stops, found, start_text, stops_text)


def held_step(
    reader: HeldReader, where: tuple[str | int, ...], effect: dict[str, Any]
) -> expr.Checked | None:
    """A failed check's ``step`` of the state held: the state its transition
    answers, called with ``args``; None where it is wrong (reported)."""
    state, step = reader.state, effect["step"]
    transition = next((t for t in state.transitions if t.name == step), None)
    if transition is None:
        names = ", ".join(t.name for t in state.transitions) or "none"
        reader.err(
            (*where, "step"),
            f"{state.class_name} ({state.id!r}) has no transition {step!r}",
            f"transitions: {names}",
        )
        return None
    taken = {p.name: p for p in transition.params}
    args: list[str] = []
    ok = True
    for key, value in effect.get("args", {}).items():
        param = taken.get(key)
        if param is None:
            reader.err(
                (*where, "args", key),
                f"{state.class_name}.{step}() has no argument {key!r}",
                "it takes: " + (", ".join(taken) or "none"),
            )
            ok = False
            continue
        args.append(f"{key}={_text(value, param)}")
    missing = [n for n in taken if n not in effect.get("args", {})]
    if missing:
        reader.err(
            (*where, "args") if "args" in effect else (*where, "step"),
            f"{state.class_name}.{step}() needs {', '.join(repr(n) for n in missing)}",
            "give every one of: " + ", ".join(taken),
        )
        ok = False
    if not ok:
        return None
    at = (*where, "args") if "args" in effect else (*where, "step")
    text = f"{reader.name}.{step}({', '.join(args)})"
    return reader.compile(at, text, "step", checked=True)


def _text(value: Any, param: Param) -> str:
    """An argument as written: a flag, a bare label of a choice (as its
    text), or an expression."""
    if isinstance(value, bool):
        return "true" if value else "false"
    labels = {m.label for m in param.enum.members} if param.enum is not None else set()
    if value in labels:
        return json.dumps(value)
    return str(value)


def held_total(
    reader: HeldReader, where: tuple[str | int, ...], field: str | None
) -> expr.Checked | None:
    """A ``state`` total's ``field``: that field or derived value of the state
    held, at the end of the run (None: the whole state, a copy of its own)."""
    if field is None:
        return reader.compile(where, reader.name, "state total")
    names = [f.name for f in reader.state.fields] + [
        d.name for d in reader.state.derived
    ]
    if field not in names:
        reader.err(
            (*where, "field"),
            f"{reader.state.class_name} has no field {field!r}",
            "fields and derived values: " + ", ".join(names),
        )
        return None
    return reader.compile((*where, "field"), f"{reader.name}.{field}", "state total")


def held_column(
    held: Held, state: RecordStateRule, field: str | None, name: str, description: str
) -> Column:
    """The answer's column of a ``state`` total reading ``field`` (None: the
    whole state)."""
    title = name.replace("_", " ").capitalize()
    if field is None:
        column = held.declared.column
        return replace(column, name=name, title=title, description=description)
    found = next((f for f in state.fields if f.name == field), None)
    if found is None:
        derived = next(d for d in state.derived if d.name == field)
        typed, type_, lo, hi = derived.held, derived.type, None, None
    else:
        typed, type_, lo, hi = found.held, found.type, found.min, found.max
    if typed is not None:
        return replace(typed.column, name=name, title=title, description=description)
    made = Column(name, type_, False, "-", False, None, title, description)  # type: ignore[arg-type]
    return replace(made, lo=lo, hi=hi)


def renamed(checked: expr.Checked, name: str, local: str) -> expr.Checked:
    """``checked`` reading the local ``local`` where it read ``name`` (the
    lowering's name of the state held, where another name took its own)."""
    if name == local:
        return checked

    def leaf(part: Any) -> Any:
        if isinstance(part, expr.Name) and part.name == name:
            return replace(part, name=local)
        return part

    return replace(checked, node=rebuilt(checked.node, leaf))
