"""Rule kinds beyond table, dice and formula: each module builds, checks and views one.

A kind module has ``build`` (semantic checks into the model), ``python_view`` and
``docs_view``; its templates are ``<kind>.py.j2`` and ``<kind>.md.j2``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import (
    covered_roll,
    decision,
    exposure_schedule,
    facts,
    pool,
    process,
    range_table,
    recovery,
    shift,
    state,
    success_pool,
    track,
)

if TYPE_CHECKING:
    from ..model import Rule, System

_MODULES: dict[str, ModuleType] = {
    "facts": facts,
    "range_table": range_table,
    "pool": pool,
    "track": track,
    "recovery": recovery,
    "shift": shift,
    "exposure_schedule": exposure_schedule,
    "state": state,
    "process": process,
    "decision": decision,
    "success_pool": success_pool,
    "covered_roll": covered_roll,
}

# Kinds are built in this order, so a rule can refer to rules of earlier kinds.
BUILD_ORDER = ("table", "dice", "formula", *_MODULES)

BUILDERS: dict[str, Callable[..., Any]] = {k: m.build for k, m in _MODULES.items()}


def python_view(system: System, rule: Rule) -> dict[str, Any]:
    view: dict[str, Any] = _MODULES[rule.kind].python_view(system, rule)
    return view


def docs_view(system: System, rule: Rule, common: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = _MODULES[rule.kind].docs_view(system, rule, common)
    return view


def finish(builder: Any, rules: list[Any]) -> None:
    """Checks that need every rule of the system built."""
    decision.finish(builder, rules)
