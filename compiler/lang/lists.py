"""Lists in formulas: joined, indexed, sorted, reversed, searched by a field, and made item by item.

``a + b`` of two lists of one type is their concatenation: the elements of
``a`` come first, then those of ``b``, in order; its length is the sum of
theirs. A list and anything that is not a list, or two lists of different
element types (or of choices of different enums, or records of different
types), are an error: a value is put in a list with brackets, ``[first] +
rest``. The empty list ``[]`` joins a list of any type (the join is of that
type).

``x[i]`` is the item at position ``i`` (from 0; ``-1`` the last): where the
ranges prove ``i`` within the list the code reads it, else the runtime
refuses a position outside it (``RuleInputError``); one that is never
within is an error. ``reversed(x)`` is the list last first; ``sorted(x,
"f")`` the records of ``x`` by their whole number ``f``, lowest first (equal
ones in their order); ``max(x, "f")`` and ``min(x, "f")`` the record with the
highest (lowest) ``f``, the first of those; ``max(x)``, ``min(x)`` of a list
of whole numbers. The runtime refuses the highest or lowest of a list that is
empty (where its length may be 0). ``[body for e in x if test]`` is the list of
``body`` for each item ``e`` of ``x`` (in order) for which ``test`` holds:
``e`` is a name of its own there (no other name of the rule's may be
``e``), and the body's dice (a call of a rule that rolls) are rolled item by
item.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Protocol, cast

from .dice import Fail
from .nodes import (
    IV_ARITH,
    Binary,
    Call,
    Checked,
    Comp,
    Index,
    Interval,
    ItemType,
    ListLit,
    Name,
    Node,
    Param,
    RecordType,
    StrLit,
    choice_name,
    describe,
    iv_hull,
    same_choice,
)

__all__ = [
    "check_call",
    "check_concat",
    "comprehension",
    "concat_parts",
    "item_at",
    "keyed",
    "takes",
]


class Checker(Protocol):
    """What these checks ask of the expression checker (``expr._Checker``)."""

    params: Mapping[str, Param]
    records: Mapping[str, RecordType]

    def visit(self, node: Node) -> Checked: ...

    def element(self, first: Checked, item: Checked) -> None: ...

    def fail(
        self, message: str, start: int, end: int, hint: str | None
    ) -> Exception: ...

    def bound(self, name: str) -> bool: ...


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
    if (
        left.item != right.item
        or left.record != right.record
        or (
            left.item == "choice"
            and not same_choice(left.enum, left.choices, right.enum, right.choices)
        )
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
        record=left.record,
    )


def _shown(side: Checked) -> str:
    """A list's type as messages show it, a choice's enum named (a record's
    class, as ``describe`` names it)."""
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


# --- an item by its position ---


def element_of(node: Node, items: Checked) -> Checked:
    """The type of an item of the list ``items`` (``node`` its tree)."""
    item = items.item
    assert item is not None and item != "symbols", "faces are tallied whole"
    return Checked(
        node,
        item,
        items.interval if item == "int" else None,
        False,
        items.enum,
        items.choices,
        record=items.record,
    )


def item_at(ch: Checker, node: Index, items: Checked) -> Checked:
    """``items[i]``: the item at position ``i`` (from 0, or from the end when
    negative); ``safe`` where the ranges prove it within the list."""
    index = ch.visit(node.index)
    if index.type != "int" or index.nullable:
        message = f"a list's item is at a whole number, not {describe(index)}"
        raise ch.fail(message, node.index.start, node.index.end, "e.g. items[0]")
    _whole_faces(ch, items)
    length = items.length or Interval(0, None)
    if items.item is None or length.hi == 0:
        message = "the list is always empty: it has no item to read"
        raise ch.fail(message, node.obj.start, node.obj.end, None)
    at = index.interval or Interval(None, None)
    shortest, longest = length.lo or 0, length.hi
    if longest is not None and (
        (at.lo is not None and at.lo >= longest)
        or (at.hi is not None and at.hi < -longest)
    ):
        message = f"position {at} is never within the list, of {length} items"
        hint = "positions run from 0 (the first) and from -1 (the last)"
        raise ch.fail(message, node.index.start, node.index.end, hint)
    safe = (
        at.lo is not None
        and at.hi is not None
        and ((at.lo >= 0 and at.hi < shortest) or (-shortest <= at.lo and at.hi < 0))
    )
    rebuilt = replace(node, obj=items.node, index=index.node, item=True, safe=safe)
    return element_of(rebuilt, items)


# --- reversed, sorted, max and min by a field ---


def takes(node: Call) -> bool:
    """Whether the call is one of a list this module checks: ``reversed``,
    ``sorted(x, "f")``, ``max(x, "f")``, ``min(x, "f")``."""
    if node.func == "reversed":
        return True
    return (
        node.func in ("sorted", "max", "min")
        and len(node.args) == 2
        and isinstance(node.args[1], StrLit)
    )


def keyed(node: Call) -> str | None:
    """The field a checked ``sorted``, ``max`` or ``min`` of records reads, or None."""
    if node.func in ("sorted", "max", "min") and len(node.args) == 2:
        key = node.args[1]
        return key.value if isinstance(key, StrLit) else None
    return None


def check_call(ch: Checker, node: Call) -> Checked:
    items = ch.visit(node.args[0])
    if items.type != "list":
        message = f"{node.func}() needs a list, got {describe(items)}"
        raise ch.fail(message, node.args[0].start, node.args[0].end, None)
    if node.func == "reversed":
        return replace(items, node=replace(node, args=(items.node,)))
    key = node.args[1]
    assert isinstance(key, StrLit)
    kind = ch.records.get(items.record or "") if items.item == "record" else None
    if kind is None:
        message = (
            f"{node.func}() by a field needs a list of records, got {describe(items)}"
        )
        hint = f"{node.func}(x) of a list of whole numbers takes no field"
        raise ch.fail(message, items.node.start, items.node.end, hint)
    slot = kind.field(key.value)
    if slot is None or slot.type != "int" or slot.nullable:
        what = (
            "no field"
            if slot is None
            else "no whole number that is never null as field"
        )
        message = f"{kind.name} has {what} {key.value!r}"
        ints = [n for n, f in kind.fields if f.type == "int" and not f.nullable]
        hint = f"fields that are whole numbers: {', '.join(ints) or 'none'}"
        raise ch.fail(message, key.start, key.end, hint)
    rebuilt = replace(node, args=(items.node, replace(key, enum=None, param=None)))
    if node.func == "sorted":
        return replace(items, node=rebuilt)
    rebuilt = replace(rebuilt, checks=refuses_empty(items))
    if (items.length or Interval(0, None)).hi == 0:
        message = f"{node.func}() of a list that is always empty has no value"
        raise ch.fail(message, items.node.start, items.node.end, None)
    return element_of(rebuilt, items)


def _whole_faces(ch: Checker, items: Checked) -> None:
    """Faces of symbols are read whole (``tally``), never item by item."""
    if items.item == "symbols":
        message = "the faces of dice of symbols are read by tally(), not one by one"
        hint = 'e.g. tally(faces, "hit")'
        raise ch.fail(message, items.node.start, items.node.end, hint)


def refuses_empty(items: Checked) -> bool:
    """Whether the highest or lowest of ``items`` may be refused: its length
    may be 0."""
    length = items.length or Interval(0, None)
    return length.lo is None or length.lo < 1


# --- comprehensions ---


def comprehension(ch: Checker, node: Comp) -> Checked:
    """``[body for name in items if test]``: a list of the body's type, of at
    most as many items as ``items`` has (as many, without a test)."""
    items = ch.visit(node.items)
    if items.type != "list":
        message = f"a comprehension goes through a list, not {describe(items)}"
        raise ch.fail(
            message, node.items.start, node.items.end, "e.g. [x * 2 for x in xs]"
        )
    _whole_faces(ch, items)
    if items.item is None:
        message = "a comprehension over the empty list has no item to work out"
        raise ch.fail(message, node.items.start, node.items.end, None)
    if ch.bound(node.name):
        message = f"{node.name!r} is already a name of the rule"
        hint = "choose another name for each item"
        start = node.body.end
        raise ch.fail(message, start, start, hint)
    with binding(ch, node.name, element_of(Name(node.name, 0, 0), items)):
        test = None if node.test is None else ch.visit(node.test)
        body = ch.visit(node.body)
    if test is not None and (test.type != "bool" or test.nullable):
        message = f"a comprehension's test must be bool, not {describe(test)}"
        raise ch.fail(message, test.node.start, test.node.end, None)
    ch.element(body, body)
    length = items.length or Interval(0, None)
    if test is not None:
        length = Interval(0, length.hi)
    rebuilt = replace(
        node, body=body.node, items=items.node, test=None if test is None else test.node
    )
    return Checked(
        rebuilt,
        "list",
        body.interval if body.type == "int" else None,
        False,
        body.enum,
        body.choices,
        item=cast(ItemType, body.type),  # element() allowed only these
        length=length,
        record=body.record,
    )


@contextmanager
def binding(ch: Checker, name: str, item: Checked) -> Iterator[None]:
    """Check a part of a formula with ``name`` bound to a value of ``item``'s type."""
    saved = ch.params
    ch.params = {**saved, name: Param(name, "int", bound=item)}
    try:
        yield
    finally:
        ch.params = saved
