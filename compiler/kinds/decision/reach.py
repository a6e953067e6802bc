"""Reach: the range of each number a repeating decision's state can hold, as a call can give it.

So that every whole number a rule works out is proved within ``MAX_EXACT``
(``expr_exact``), the state's numbers (and the numbers of its lists) are
followed turn by turn: from their starts, each turn's new values are worked
out over the ranges so far (clamped into a number's ``min``..``max``) and
joined to them, until a turn adds nothing (the ranges then hold after any
number of turns) or, where ``max_turns`` is small enough to follow, after that
many turns. A number that keeps growing past that has no range here: the
expressions reading it then name it as what to bound.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...lang import expr
from ...lang.nodes import iv_hull
from .model import TURNS, StateValue

if TYPE_CHECKING:
    from ...front.semantics import SystemBuilder

__all__ = ["MAX_FOLLOWED", "state_reach"]

MAX_FOLLOWED = 1000
"""The most turns followed one by one (a limit of the tool): past it, only a
range that stops growing within ``_ROUNDS`` turns is known."""
_ROUNDS = 8


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def state_reach(
    b: SystemBuilder,
    specs: Mapping[str, expr.Param],
    state: list[StateValue],
    raw: dict[str, Any],
    param: Callable[[StateValue, expr.Interval | None], expr.Param],
) -> dict[str, expr.Interval]:
    """The range of each number of the state (of each list's numbers), as
    far as it is known (see the module); ``raw``: the decision's ``repeat``;
    ``param``: how the expressions read a state value given its range."""
    found: dict[str, expr.Interval] = {}
    for value in state:
        start = value.start.exact or value.start
        if value.type == "int" and value.min is not None and value.max is not None:
            found[value.name] = expr.Interval(value.min, value.max)  # held there
        elif _numbers(value) and start.interval and start.interval.bounded:
            found[value.name] = _held(value, start.interval)
    most = raw.get("max_turns")
    rounds = most if most is not None and most <= MAX_FOLLOWED else _ROUNDS
    for _ in range(rounds):
        scope = dict(specs) | {v.name: param(v, found.get(v.name)) for v in state}
        scope[TURNS] = turn_count(most)
        for value in state:  # a list that starts empty holds no number yet
            if value.name not in found and value.type == "list":
                scope[value.name] = expr.Param(value.name, "int", bound=value.start)
        grown = _turn(b, scope, state, raw, found)
        if grown is None:
            return {}
        if grown == found:
            return found  # no turn adds to them
        found = grown
    return found if most is not None and most <= MAX_FOLLOWED else {}


def turn_count(most: int | None) -> expr.Param:
    """How a turn reads ``turns``, its own count (from 1; as a call can give
    it, at most ``max_turns``, or the turns the runtime takes at most)."""
    from ...runtime._support import MAX_ENTRIES

    held = expr.Checked(expr.Name(TURNS, 0, 0), "int", expr.Interval(1, most))
    taken = expr.Interval(1, MAX_ENTRIES if most is None else most)
    return expr.Param(
        TURNS, "int", bound=replace(held, exact=replace(held, interval=taken))
    )


def _numbers(value: StateValue) -> bool:
    return value.type == "int" or (value.type == "list" and value.items == "int")


def _held(value: StateValue, iv: expr.Interval) -> expr.Interval:
    """``iv`` clamped into the value's bounds, as the turns keep it (an end
    without a bound stays without one)."""

    def held(end: int | None, bound: int | None) -> int | None:
        end = bound if end is None else end
        if end is None:
            return None
        end = end if value.min is None else max(end, value.min)
        return end if value.max is None else min(end, value.max)

    return expr.Interval(held(iv.lo, value.min), held(iv.hi, value.max))


def _turn(
    b: SystemBuilder,
    scope: dict[str, expr.Param],
    state: list[StateValue],
    raw: dict[str, Any],
    found: dict[str, expr.Interval],
) -> dict[str, expr.Interval] | None:
    """The ranges after one more turn (None where an expression of the turn
    is wrong: the build reports it where it checks the turn)."""
    tables, functions = b.expression_scope()
    tables = {n: t for n, t in tables.items() if n not in scope}
    values = {v.name: v for v in state}

    def compiled(text: str) -> expr.Checked:
        return expr.compile_formula(
            text,
            scope,
            tables=tables,
            functions=functions,
            exact=True,
            records=b.record_types(),
            dies=b.dies(),
        )

    try:
        for bound in raw.get("let", []):
            checked = compiled(_text(bound["value"]))
            kind = checked.type if checked.type in ("bool", "choice") else "int"
            scope[bound["name"]] = expr.Param(bound["name"], kind, bound=checked)
        grown = dict(found)
        for item in raw.get("set", []):
            value = values.get(item["name"])
            if value is None or not _numbers(value):
                continue
            checked = compiled(_text(item["value"]))
            iv = (checked.exact or checked).interval
            if iv is None or not iv.bounded:
                grown.pop(value.name, None)
                continue
            iv = _held(value, iv)
            before = found.get(value.name)
            grown[value.name] = iv if before is None else iv_hull(before, iv)
    except expr.ExprError:
        return None
    return grown
