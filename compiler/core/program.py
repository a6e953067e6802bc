"""Core program: each rule lowered once, and what one rule's lowering needs to know of the system's others."""

from __future__ import annotations

from .. import registry
from ..model import Rule, System
from .ir import Table, Unit

# Each rule lowered, by the rule's identity: the targets of one build (the
# module, its JavaScript, the page, the tables' names) lower each rule once.
# Rules are frozen and a lowering depends on the rule and its system alone.
_LOWERED: dict[int, tuple[Rule, System, Unit | None]] = {}
_MOST = 20_000  # then the cache starts again (a long `rulesc watch`)


def lowered(system: System, rule: Rule) -> Unit | None:
    """``rule`` lowered to the core, or None where its kind prints it itself."""
    found = _LOWERED.get(id(rule))
    if found is not None and found[0] is rule and found[1] is system:
        return found[2]
    lower = registry.kind_of(rule).lower
    unit = lower(system, rule) if lower is not None else None
    if len(_LOWERED) >= _MOST:
        _LOWERED.clear()
    _LOWERED[id(rule)] = (rule, system, unit)
    return unit


def table_rows(system: System) -> dict[str, str]:
    """Each table's rows constant, by the function that reads it: the name an
    expression's lookup of a row uses in every target."""
    rows: dict[str, str] = {}
    for rule in system.rules:
        unit = lowered(system, rule)
        if unit is None:
            continue
        for decl in unit.decls:
            if isinstance(decl, Table):
                rows[decl.name] = decl.rows_name
    return rows
