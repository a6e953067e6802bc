"""Exact ranges: every whole number a rule works out is proved within ``MAX_EXACT``.

JavaScript's numbers are exact integers only up to 2**53 - 1 (``MAX_EXACT``);
Python's are exact at any size. So that both runtimes answer alike, the checker
(``expr.check(..., exact=True)``) works the range of every whole number of an
expression out again, as a call can give it: a parameter without a bound is at
most ``MAX_EXACT`` from 0 (both runtimes refuse an argument past it); a name
bound before, another rule's answer, a field, a state value at most that too
(each is proved so where it is worked out); dice that explode, or a list
without a longest, at most what one call of the runtime rolls or holds
(``MAX_ENTRIES`` dice or items). Every part that may pass ``MAX_EXACT`` is then
an error at that part, naming what to bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..common.limits import MAX_EXACT
from ..runtime._support import MAX_ENTRIES
from .dice import pool_of
from .nodes import (
    Attr,
    Call,
    Checked,
    Dice,
    Index,
    Interval,
    Name,
    Node,
    Param,
    names_used,
)
from .source import to_source

__all__ = ["ExactError", "exact_item"]

_LEAVES = (Name, Attr, Index)


class ExactError(Exception):
    """A part of an expression that may pass ``MAX_EXACT`` (or has no bound):
    the message, the part's span and the hint (``expr`` raises it as its
    ``ExprError``)."""

    def __init__(self, message: str, start: int, end: int, hint: str) -> None:
        super().__init__(message)
        self.message, self.start, self.end, self.hint = message, start, end, hint


def exact_item(item: Checked, params: Mapping[str, Param]) -> Checked:
    """``item`` with the range a call can give it: a leaf's missing bounds
    filled in (see the module), every other part checked within ``MAX_EXACT``;
    raises ``ExactError``."""
    node = item.node
    if isinstance(node, Dice):
        item = _filled(item, _dice_most(node))
    elif isinstance(node, _LEAVES) or (isinstance(node, Call) and node.rule):
        item = _filled(item, MAX_EXACT)
    if item.type == "list" and item.length is not None and item.length.hi is None:
        item = replace(item, length=Interval(item.length.lo, MAX_ENTRIES))
    if item.type not in ("int", "list") or item.interval is None:
        return item
    iv = item.interval
    if (
        iv.lo is not None
        and iv.hi is not None
        and -MAX_EXACT <= iv.lo <= iv.hi <= MAX_EXACT
    ):
        return item
    what = "its elements" if item.type == "list" else f"'{to_source(node)}'"
    shown = f"may be {iv}" if iv.bounded else f"has no bound ({iv})"
    raise ExactError(
        f"{what} {shown}: past {MAX_EXACT:,} (2**53 - 1), the largest whole "
        "number both runtimes hold exactly",
        node.start,
        node.end,
        _hint(node, params),
    )


def _filled(item: Checked, most: int) -> Checked:
    """``item`` with each missing end of its range ``most`` from 0."""
    iv = item.interval
    if iv is None or iv.bounded:
        return item
    lo = -most if iv.lo is None else iv.lo
    return replace(item, interval=Interval(lo, most if iv.hi is None else iv.hi))


def _dice_most(node: Dice) -> int:
    """How far from 0 one roll of ``node`` can get in one call of the runtime
    (at most ``MAX_ENTRIES`` dice rolled, each at most its largest face)."""
    if node.sides is not None and not node.written:  # plain dice: nothing to fill
        return MAX_EXACT
    pool = pool_of(node)  # (d(sides)'s: of the most sides a build allows)
    face = max(abs(f) for f in pool.final_faces())
    return MAX_ENTRIES * max(face, 1) * pool.multiplier


def _hint(node: Node, params: Mapping[str, Param]) -> str:
    """What to bound: the names it reads that have no min or no max."""
    loose = []
    for name in sorted(names_used(node)):
        p = params.get(name)
        if p is None or p.type != "int" or p.bound is not None:
            continue
        missing = [
            side for side, end in (("min", p.min), ("max", p.max)) if end is None
        ]
        if missing:
            loose.append(f"{name!r} a {' and a '.join(missing)}")
    if loose:
        return (
            f"give {' and '.join(loose)}, to keep it within, or clamp(...) what "
            "it reads"
        )
    return "use smaller figures, narrow the ranges it reads, or clamp(...) them"
