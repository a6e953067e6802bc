"""Lists in formulas: ``a + b`` of two lists of one type is their concatenation.

The elements of ``a`` come first, then those of ``b``, in order; its length is
the sum of theirs. A list and anything that is not a list, or two lists of
different element types (or of choices of different enums), are an error: a
value is put in a list with brackets, ``[first] + rest``. The empty list
``[]`` joins a list of any type (the join is of that type).
"""

from __future__ import annotations

from dataclasses import replace

from .expr_dice import Fail
from .expr_types import (
    IV_ARITH,
    Binary,
    Checked,
    Interval,
    ListLit,
    Node,
    choice_name,
    describe,
    iv_hull,
    same_choice,
)

__all__ = ["check_concat", "concat_parts"]


def check_concat(node: Binary, left: Checked, right: Checked, fail: Fail) -> Checked:
    """``left + right`` where either is a list: the two lists joined, in order;
    ``fail``'s located error where they cannot be."""
    for side in (left, right):
        if side.type != "list":
            source = node.left if side is left else node.right
            message = (
                f"cannot join {describe(left)} and {describe(right)}: "
                "'+' of a list joins two lists"
            )
            hint = (
                "put one value in brackets to join it: [x] + list"
                if side.type in ("int", "bool", "text", "choice") and not side.nullable
                else "both sides of '+' must be lists of one type"
            )
            raise fail(message, source.start, source.end, hint)
    unknown = Interval(0, None)
    length = IV_ARITH["+"](left.length or unknown, right.length or unknown)
    rebuilt = replace(node, left=left.node, right=right.node, concat=True)
    if None in (left.item, right.item):  # one is empty: the other's type
        typed = right if left.item is None else left
        return replace(typed, node=rebuilt, length=length)
    if left.item != right.item or (
        left.item == "choice"
        and not same_choice(left.enum, left.choices, right.enum, right.choices)
    ):
        mine, theirs = (_shown(side) for side in (left, right))
        message = f"cannot join a {mine} and a {theirs}: a list holds one type"
        hint = "nothing is converted implicitly"
        if "text" in (left.item, right.item):
            hint += "; text(x) makes text of an int or a choice"
        raise fail(message, node.start, node.end, hint)
    interval = None
    choices = left.choices or right.choices
    if left.item in ("int", "symbols"):  # (symbols: how many a face shows)
        assert left.interval is not None and right.interval is not None
        interval = iv_hull(left.interval, right.interval)
    if left.item == "symbols":  # the faces of dice of either's symbols
        choices = tuple(dict.fromkeys(left.choices + right.choices))
    return Checked(
        rebuilt,
        "list",
        interval,
        False,
        left.enum or right.enum,
        choices,
        item=left.item,
        length=length,
    )


def _shown(side: Checked) -> str:
    """A list's type as messages show it, a choice's enum named."""
    if side.item == "choice":
        return f"list of choices of {choice_name(side.enum, side.choices)}"
    return describe(side)


def concat_parts(node: Binary) -> list[tuple[bool, Node]]:
    """The parts a concatenation is written with, in order, each with whether it
    is spread (a list) or an element (of a list literal, spliced in): ``[x] + a
    + [y, z]`` is ``x, *a, y, z``."""
    parts: list[tuple[bool, Node]] = []
    for side in (node.left, node.right):
        if isinstance(side, Binary) and side.concat:
            parts += concat_parts(side)
        elif isinstance(side, ListLit):
            parts += [(False, item) for item in side.items]
        else:
            parts.append((True, side))
    return parts
