"""Core ranges: what a statement of the core knows of each whole number it sets, and how tests and loops change it.

A ``Value`` is the range of a whole number a rule works out (an end of None:
no bound that way) with the parameters it follows from (its ``sources``, the
ones to bound where it may pass ``MAX_EXACT``). An ``Env`` maps each name set
so far to its value; a name it lacks holds no whole number there (it is not
set yet, or holds something else). ``exact.Prover`` runs statements over
these; this module joins them, narrows them by a test, and widens them by a
loop's growth per turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..lang.nodes import (
    Binary,
    Interval,
    IntLit,
    Name,
    Node,
    Unary,
    iv_hull,
)

__all__ = [
    "Env",
    "Growth",
    "Value",
    "growth",
    "join",
    "narrowed",
    "widened",
    "wider",
]


@dataclass(frozen=True, slots=True)
class Value:
    """A whole number's range and what it follows from: parameters (by
    name) and figures (``#`` and the digits)."""

    iv: Interval
    sources: frozenset[str] = frozenset()


Env = dict[str, Value]
# how far a loop's turn may move each end of a name's range out: (down, up),
# None where it has no bound
Growth = dict[str, tuple[int | None, int | None]]


def join(a: Env | None, b: Env | None) -> Env | None:
    """What holds where either holds (None: a path that ended)."""
    if a is None or b is None:
        return a if b is None else b
    found = dict(a)
    for name, value in b.items():
        held = found.get(name)
        if held is None:
            found[name] = value
        elif held is not value and held != value:
            iv = held.iv if held.iv == value.iv else iv_hull(held.iv, value.iv)
            found[name] = Value(iv, held.sources | value.sources)
    return found


def growth(before: Env, after: Env | None) -> Growth:
    """How far ``after`` reaches past ``before``, end by end (no entry: not at all)."""
    found: Growth = {}
    for name, value in (after or {}).items():
        held = before.get(name)
        if held is None:
            continue
        down = _past(value.iv.lo, held.iv.lo, -1)
        up = _past(value.iv.hi, held.iv.hi, 1)
        if down != 0 or up != 0:
            found[name] = (down, up)
    return found


def _past(end: int | None, held: int | None, sign: int) -> int | None:
    if held is None:
        return 0  # no bound to pass
    if end is None:
        return None
    return max(0, (end - held) * sign)


def widened(env: Env, grown: Growth, turns: int) -> Env:
    """``env`` with each name's ends moved out by ``turns`` times its growth."""
    found = dict(env)
    for name, (down, up) in grown.items():
        held = env.get(name)
        if held is None:
            continue
        lo, hi = held.iv.lo, held.iv.hi
        lo = None if lo is None or down is None else lo - down * turns
        hi = None if hi is None or up is None else hi + up * turns
        found[name] = Value(Interval(lo, hi), held.sources)
    return found


def wider(a: Growth, b: Growth) -> Growth | None:
    """``a`` grown to hold ``b`` too, or None where ``a`` holds it already."""
    found = dict(a)
    changed = False
    for name, (down, up) in b.items():
        was_down, was_up = a.get(name, (0, 0))
        new = (_most(was_down, down), _most(was_up, up))
        if new != (was_down, was_up):
            found[name], changed = new, True
    return found if changed else None


def _most(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


# -- tests ---------------------------------------------------------------------------

_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def narrowed(test: Node, env: Env, holds: bool) -> Env | None:
    """``env`` where ``test`` holds (``holds``) or does not, as far as its
    comparisons of a name with a number or another name say (None: it never
    does); ``and``, ``or`` and ``not`` of those too."""
    match test:
        case Unary(op="not"):
            return narrowed(test.operand, env, not holds)
        case Binary(op="and" | "or"):
            if (test.op == "and") != holds:
                return env  # either part may be why: nothing known of each
            first = narrowed(test.left, env, holds)
            return None if first is None else narrowed(test.right, first, holds)
        case Binary(op=op) if op in _FLIPPED:
            op = op if holds else _NEGATED[op]
            found: Env | None = env
            for name, other, how in (
                (test.left, test.right, op),
                (test.right, test.left, _FLIPPED[op]),
            ):
                if found is None or not isinstance(name, Name) or name.name not in env:
                    continue
                bound = _number(other, found)
                if bound is not None:
                    found = _within(found, name.name, how, bound)
            return found
    return env


def _number(node: Node, env: Mapping[str, Value]) -> Interval | None:
    """The range of a number or a name compared with."""
    match node:
        case IntLit():
            return Interval(node.value, node.value)
        case Unary(op="-", operand=IntLit() as lit):
            return Interval(-lit.value, -lit.value)
        case Name() if node.name in env:
            return env[node.name].iv
    return None


def _within(env: Env, name: str, op: str, other: Interval) -> Env | None:
    """``env`` where ``name op other`` may hold (None: it cannot)."""
    held = env[name]
    lo, hi = held.iv.lo, held.iv.hi
    if op in ("<", "<=") and other.hi is not None:
        top = other.hi - (op == "<")
        hi = top if hi is None else min(hi, top)
    elif op in (">", ">=") and other.lo is not None:
        bottom = other.lo + (op == ">")
        lo = bottom if lo is None else max(lo, bottom)
    elif op == "==":
        if other.lo is not None:
            lo = other.lo if lo is None else max(lo, other.lo)
        if other.hi is not None:
            hi = other.hi if hi is None else min(hi, other.hi)
    if lo is not None and hi is not None and lo > hi:
        return None
    return {**env, name: Value(Interval(lo, hi), held.sources)}
