"""Core program: each rule lowered once, and what one rule's lowering needs to know of the system's others."""

from __future__ import annotations

from ..front.model import (
    Rule,
    System,
)
from ..kinds import registry
from ..lang.nodes import rules_called
from .ir import Function, Procedure, Table, Unit
from .lowered import MOST_KEPT, lowered_with


def lowered(system: System, rule: Rule) -> Unit:
    """``rule`` lowered to the core (by its kind's ``lower``)."""
    return lowered_with(system, rule, registry.kind_of(rule).lower)


def table_rows(system: System) -> dict[str, str]:
    """Each table's rows constant, by the function that reads it: the name an
    expression's lookup of a row uses in every target."""
    rows: dict[str, str] = {}
    for rule in system.rules:
        for decl in lowered(system, rule).decls:
            if isinstance(decl, Table):
                rows[decl.name] = decl.rows_name
    return rows


_CALLING: dict[int, tuple[System, frozenset[str]]] = {}


def calling(system: System) -> frozenset[str]:
    """The functions of ``system`` that take part in calls of rules by rules:
    each whose expressions call another rule, and each that is called. Every
    target counts their calls against the runtime's limit (a call of one is a
    call of the runtime, ``rulebook._support.runtime_call``); no other
    function pays for the count."""
    found = _CALLING.get(id(system))
    if found is not None and found[0] is system:
        return found[1]
    names: set[str] = set()
    for rule in system.rules:
        for decl in lowered(system, rule).decls:
            if isinstance(decl, Function | Procedure):
                called = {f for c in decl.expressions for f in rules_called(c.node)}
                names |= called | ({decl.name} if called else set())
    if len(_CALLING) >= MOST_KEPT:
        _CALLING.clear()
    _CALLING[id(system)] = (system, frozenset(names))
    return frozenset(names)
