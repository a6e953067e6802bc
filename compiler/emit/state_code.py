"""State code: what every target's emitter of a state shares (its fields in words, clamps, the names read)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from ..core.ir import (
    Emit,
    Field,
    If,
    Lookup,
    Make,
    Present,
    Refuse,
    Return,
    State,
    Stmt,
    While,
)
from ..core.ir import Set as Assign
from ..core.viewkit import type_words
from ..lang import expr


def field_text(field: Field, named: Callable[[str], str] = str) -> str:
    """What a field holds, in words: its type and limits (``named`` says a
    type's name, as ``type_words`` does)."""
    if field.held is not None:
        return type_words(field.held, named)
    if field.type == "bool":
        return "a flag"
    if field.lo is None and field.hi is None:
        return "a whole number"
    if field.hi is None:
        return f"a whole number, {field.lo} or more"
    if field.lo is None:
        return f"a whole number, at most {field.hi}"
    return f"a whole number from {field.lo} to {field.hi}"


def upper(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is: a class's
    name keeps its own)."""
    return text[:1].upper() + text[1:]


def clamped(code: str, field: Field, lo: str, hi: str, low: str, high: str) -> str:
    """``code`` held within the field's limits (``lo``/``hi``: the language's
    max and min functions, ``low``/``high``: the limits' literals)."""
    if field.hi is not None:
        code = f"{hi}({code}, {high})"
    if field.lo is not None:
        code = f"{lo}({code}, {low})"
    return code


def reads(
    state: State, nodes: Iterable[expr.Node], hidden: AbstractSet[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """The fields and the derived properties the expressions ``nodes`` read
    (but the names ``hidden``: a method's parameters, which hide them)."""
    used = set[str]().union(*(expr.names_used(n) for n in nodes)) - hidden
    fields = [f.name for f in state.fields if f.name in used]
    derived = [d.name for d in state.derived if d.name in used]
    return fields, derived


def read_late(state: State, body: tuple[Stmt, ...]) -> set[str]:
    """The derived properties a transition's ``body`` reads only before it sets
    a field, on every path: those it may read where it needs them (the others
    it reads once, before it starts, as every expression sees the state as it
    was before the transition)."""
    fields = {f.name for f in state.fields}
    derived = {d.name for d in state.derived}
    read: set[str] = set()
    early: set[str] = set()

    def note(checked: list[expr.Checked], dirty: bool) -> None:
        names = set[str]().union(*(expr.names_used(c.node) for c in checked)) & derived
        read.update(names)
        if dirty:
            early.update(names)

    def walk(stmts: tuple[Stmt, ...], dirty: bool) -> bool | None:
        """Whether a field may have been set after ``stmts`` (None: every path
        through them returns)."""
        for stmt in stmts:
            if isinstance(stmt, While):
                note([stmt.test], dirty)
                if walk(stmt.body, dirty):  # the test and the body read again
                    note([stmt.test], True)
                    walk(stmt.body, True)
                    dirty = True
            elif isinstance(stmt, If):
                if not isinstance(stmt.test, Present):
                    note([stmt.test], dirty)
                then, otherwise = walk(stmt.then, dirty), walk(stmt.otherwise, dirty)
                if then is None and otherwise is None:
                    return None
                dirty = bool(then) or bool(otherwise)
            elif isinstance(stmt, Return | Emit):
                made = stmt.value if isinstance(stmt, Return) else stmt.values
                parts = made.values if isinstance(made, Make) else made
                if not isinstance(parts, tuple):
                    parts = (parts,)
                note([p for p in parts if isinstance(p, expr.Checked)], dirty)
                if isinstance(stmt, Return):
                    return None
            elif isinstance(stmt, Refuse):
                return None
            elif isinstance(stmt, Lookup):
                note([stmt.key], dirty)
            elif isinstance(stmt, Assign):
                note([stmt.value], dirty)
                dirty = dirty or stmt.name in fields
            else:  # no statement of a timeline is a transition's
                raise AssertionError(stmt)
        return dirty

    walk(body, False)
    return read - early
