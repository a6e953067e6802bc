"""Core lowered: each rule lowered once a build, whoever asks first (the proofs of its arithmetic, or the emitters)."""

from __future__ import annotations

from collections.abc import Callable

from ..front.model import (
    Rule,
    System,
)
from .ir import Unit

__all__ = ["MOST_KEPT", "Lower", "lowered_with"]

Lower = Callable[[System, Rule], Unit]

# Each rule lowered, by the rule's identity: the targets of one build (the
# module, its JavaScript, the page, the tables' names) lower each rule once.
# Rules are frozen and a lowering depends on the rule and its system alone.
_LOWERED: dict[int, tuple[Rule, System, Unit]] = {}
MOST_KEPT = 20_000  # then the cache starts again (a long `rulesc watch`)


def lowered_with(system: System, rule: Rule, lower: Lower) -> Unit:
    """``rule`` lowered to the core by its kind's ``lower``."""
    found = _LOWERED.get(id(rule))
    if found is not None and found[0] is rule and found[1] is system:
        return found[2]
    unit = lower(system, rule)
    if len(_LOWERED) >= MOST_KEPT:
        _LOWERED.clear()
    _LOWERED[id(rule)] = (rule, system, unit)
    return unit
