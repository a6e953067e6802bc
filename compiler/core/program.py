"""Core program: what one rule's lowering needs to know of the system's others."""

from __future__ import annotations

from .. import registry
from ..model import System
from .ir import Table


def table_rows(system: System) -> dict[str, str]:
    """Each table's rows constant, by the function that reads it: the name an
    expression's lookup of a row uses in every target."""
    rows: dict[str, str] = {}
    for rule in system.rules:
        lower = registry.kind_of(rule).lower
        unit = lower(system, rule) if lower is not None else None
        if unit is None:
            continue
        for decl in unit.decls:
            if isinstance(decl, Table):
                rows[decl.name] = decl.rows_name
    return rows
