"""Odds of fields: which fields of a rule's answer other rules' odds read, and the private functions that answer their chances.

A rule answering a record that rolls may be called from another rule's
expression, a field read of its answer (``attack(bonus).hit``). The caller's
odds use the called rule's chances of that field: the called rule has a
private function answering the chances of some of its fields together (a
distribution over tuples of them, from one working out), named by their
places in its record (``_attack_odds_of_0``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..front.model import System
from ..kinds.decision.model import DecisionRule
from ..lang.nodes import (
    Attr,
    Call,
    Node,
    walk,
)

__all__ = ["fields_odds_name", "record_fields", "requested"]


def fields_odds_name(function: str, at: Sequence[int]) -> str:
    """The name (its own, without the leading underscore every private
    function has) of a rule's function of the chances of the fields at
    places ``at`` of its answer."""
    return f"{function}_odds_of_" + "_".join(str(i) for i in at)


def record_fields(system: System, function: str) -> tuple[str, ...]:
    """The fields, in order, of the record the rule ``function`` answers."""
    for rule in system.rules:
        if isinstance(rule, DecisionRule) and rule.function == function:
            return tuple(slot.name for slot in rule.slots)
    return ()


def requested(system: System, function: str) -> list[tuple[int, ...]]:
    """The places of the fields that calls in the system's rules read of the
    answer of the rolling rule ``function``, each set once, in order."""
    found = _CACHE.get(id(system))
    if found is None or found[0] is not system:
        found = (system, _reads(system))
        _CACHE.clear()
        _CACHE[id(system)] = found
    return found[1].get(function, [])


_CACHE: dict[int, tuple[System, dict[str, list[tuple[int, ...]]]]] = {}


def _reads(system: System) -> dict[str, list[tuple[int, ...]]]:
    """For each rolling rule, the fields read of its answer by calls."""
    places = {
        rule.function: tuple(slot.name for slot in rule.slots)
        for rule in system.rules
        if isinstance(rule, DecisionRule)
    }
    found: dict[str, dict[tuple[int, ...], None]] = {}
    for rule in system.rules:
        for node in _nodes(rule):
            for n in walk(node):
                if (
                    isinstance(n, Attr)
                    and isinstance(n.obj, Call)
                    and n.obj.rule
                    and n.obj.rolls
                    and n.name in places.get(n.obj.func, ())
                ):
                    at = (places[n.obj.func].index(n.name),)
                    found.setdefault(n.obj.func, {})[at] = None
    return {function: list(sets) for function, sets in found.items()}


def _nodes(rule: object) -> list[Node]:
    """Every checked expression of a rule (its model's, found by walking it)."""
    from dataclasses import fields as dataclass_fields
    from dataclasses import is_dataclass

    from ..lang.nodes import Checked

    found: list[Node] = []
    todo: list[object] = [rule]
    seen: set[int] = set()
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, Checked):
            found.append(item.node)
        elif is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, f.name) for f in dataclass_fields(item))
        elif isinstance(item, tuple | list):
            todo.extend(item)
    return found
