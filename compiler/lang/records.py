"""Records and states in formulas: made (``X(a=1, b=2)``), read (``x.f``) and changed (``x.take(3)``).

A record type (or a state's class) is declared once by the rules (``RecordType``)
and named by its class. ``X(...)`` makes one: a record of a value for each
field, given by position in the fields' order or by name (``a=...``), a field
that may be null left out as null; a state from its constructor's arguments
(its ``parameters``), each checked as a call of a rule checks its own. ``x.f``
reads a field of any record or state value (a name, a list's item, a rule's
answer); one that may be null gives null where the record is null. A state's
transition ``x.take(a, b)`` answers the state after it (``x`` itself is not
changed: a state is a value, copied, never shared). Two records (or states)
of one type compare with ``==`` and ``!=``, field by field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from .nodes import (
    NAMED_TYPES,
    Attr,
    Call,
    Checked,
    Cond,
    Construct,
    Field,
    Interval,
    Method,
    Node,
    NullLit,
    Param,
    RecordType,
    StrLit,
    describe,
    fits,
)

__all__ = [
    "Checker",
    "arranged",
    "as_labels",
    "construct",
    "of_slot",
    "read_field",
    "transition",
]


class Checker(Protocol):
    """What these checks ask of the expression checker (``expr._Checker``)."""

    records: Mapping[str, RecordType]

    def visit(self, node: Node) -> Checked: ...

    def argument(self, arg: Node, param: Param, what: str, rule: str) -> Node: ...

    def fail(
        self, message: str, start: int, end: int, hint: str | None
    ) -> Exception: ...


def of_slot(node: Node, slot: Field, null_key: bool) -> Checked:
    """A field's (or a mapping's value's, a parameter's) type as the checker
    types a value; nullable too if its key may be null (a list never is)."""
    nullable = slot.nullable or null_key
    if slot.type == "int":
        return Checked(node, "int", Interval(slot.min, slot.max), nullable)
    if slot.type == "choice":
        return Checked(node, "choice", None, nullable, slot.enum, slot.choices)
    if slot.type == "dice":
        return Checked(node, "dice", None, nullable, parts=slot.parts)
    if slot.type == "list":
        ints = Interval(slot.min, slot.max) if slot.items == "int" else None
        length = slot.length or Interval(0, None)
        return Checked(
            node,
            "list",
            ints,
            False,
            slot.enum,
            slot.choices,
            item=slot.items,
            length=length,
            record=slot.record,
        )
    if slot.type in NAMED_TYPES:
        return Checked(node, slot.type, None, nullable, record=slot.record)
    return Checked(node, slot.type, None, nullable)


def arranged(
    ch: Checker,
    node: Call | Method,
    wanted: Sequence[str],
    optional: frozenset[str],
    what: str,
) -> list[Node | None]:
    """The arguments of ``node`` in the order of ``wanted`` (those given by
    name put in their places); None for one of ``optional`` not given; an
    error for one too many, an unknown name, or one missing."""
    given = len(node.args) - len(node.names)
    if given > len(wanted):
        message = (
            f"{what} takes {len(wanted)} argument{'s' * (len(wanted) != 1)}"
            f" ({', '.join(wanted)}), got {len(node.args)}"
        )
        raise ch.fail(message, node.start, node.end, None)
    found: list[Node | None] = [*node.args[:given], *([None] * (len(wanted) - given))]
    for name, arg in zip(node.names, node.args[given:], strict=True):
        if name not in wanted:
            hint = f"it takes: {', '.join(wanted)}"
            raise ch.fail(f"{what} has no {name!r}", arg.start, arg.end, hint)
        at = wanted.index(name)
        if found[at] is not None:
            raise ch.fail(f"{what}: {name!r} is given twice", arg.start, arg.end, None)
        found[at] = arg
    missing = [n for n, arg in zip(wanted, found, strict=True) if arg is None]
    missing = [n for n in missing if n not in optional]
    if missing:
        message = f"{what} needs {', '.join(repr(n) for n in missing)}"
        hint = f"give every one of: {', '.join(wanted)}"
        raise ch.fail(message, node.start, node.end, hint)
    return found


def construct(ch: Checker, node: Call, kind: RecordType) -> Checked:
    """``X(...)``: a new record of ``kind`` (a value of each field's type), or
    a new state from its constructor's arguments."""
    if kind.state:
        what = f"{kind.name}()"
        names = [p.name for p in kind.params]
        given = arranged(ch, node, names, frozenset(), what)
        taken = tuple(
            ch.argument(arg, p, f"argument '{p.name}' of {what}", kind.rule)
            for arg, p in zip(given, kind.params, strict=True)
            if arg is not None
        )
        made = Construct(kind.name, tuple(names), taken, node.start, node.end, True)
        return Checked(made, "state", None, record=kind.name)
    names = [n for n, _ in kind.fields]
    optional = frozenset(n for n, f in kind.fields if f.nullable)
    given = arranged(ch, node, names, optional, f"{kind.name}()")
    args: list[Node] = []
    for (name, slot), arg in zip(kind.fields, given, strict=True):
        if arg is None:
            args.append(NullLit(node.end, node.end))
            continue
        item = ch.visit(arg)
        if slot.type == "choice" and item.type == "text" and slot.enum is not None:
            item = as_labels(item, slot.enum, slot.choices) or item
        problem = fits(item, slot)
        if problem is not None:
            message = f"field '{name}' of {kind.name}: the value {problem}"
            raise ch.fail(message, arg.start, arg.end, None)
        args.append(item.node)
    held = tuple(slot.type == "list" for _, slot in kind.fields)
    made = Construct(kind.name, tuple(names), tuple(args), node.start, node.end)
    return Checked(replace(made, held=held), "record", None, record=kind.name)


def as_labels(checked: Checked, enum: str, labels: tuple[str, ...]) -> Checked | None:
    """A text expression whose every possible answer is one of ``labels``
    (a label, or ``a if c else b`` of those), read as a choice of ``enum``;
    else None."""

    def convert(node: Node) -> Node | None:
        if isinstance(node, StrLit):
            found = replace(node, enum=enum, text=False)
            return found if node.value in labels else None
        if isinstance(node, Cond):
            body, orelse = convert(node.body), convert(node.orelse)
            return (
                None
                if body is None or orelse is None
                else replace(node, body=body, orelse=orelse)
            )
        return None

    node = convert(checked.node)
    if node is None:
        return None
    return replace(checked, node=node, type="choice", enum=enum, choices=labels)


def read_field(ch: Checker, node: Attr, item: Checked) -> Checked:
    """``x.f``: a field of a record or state value (null where it is null)."""
    kind = ch.records.get(item.record or "")
    assert kind is not None, item
    slot = kind.field(node.name)
    if slot is None:
        message = f"{describe(item)} has no field '{node.name}'"
        hint = f"fields: {', '.join(n for n, _ in kind.fields)}"
        raise ch.fail(message, node.end - len(node.name), node.end, hint)
    state = item.type == "state"
    return of_slot(replace(node, obj=item.node, state=state), slot, item.nullable)


def transition(ch: Checker, node: Method) -> Checked:
    """``x.take(a, b)``: the state ``x`` after its transition ``take``."""
    item = ch.visit(node.obj)
    kind = ch.records.get(item.record or "") if item.type == "state" else None
    if kind is None:
        message = f"'{node.name}' is called on {describe(item)}: only a state's transitions are"
        hint = "a record's fields are read without brackets: x.field"
        raise ch.fail(message, node.obj.start, node.end, hint)
    if item.nullable:
        message = f"{describe(item)} may be null: it has no transitions"
        raise ch.fail(message, node.obj.start, node.obj.end, "give a default with ??")
    params = dict(kind.transitions).get(node.name)
    if params is None:
        hint = f"transitions: {', '.join(n for n, _ in kind.transitions) or 'none'}"
        message = f"{kind.name} has no transition '{node.name}'"
        raise ch.fail(message, node.obj.end + 1, node.end, hint)
    what = f"{kind.name}.{node.name}()"
    given = arranged(ch, node, [p.name for p in params], frozenset(), what)
    args = tuple(
        ch.argument(arg, p, f"argument '{p.name}' of {what}", kind.rule)
        for arg, p in zip(given, params, strict=True)
        if arg is not None
    )
    made = Method(item.node, node.name, args, node.start, node.end, (), kind.name)
    made = replace(
        made,
        params=tuple(p.name for p in params),
        keywords=tuple(p.name for p in params if p.keyword_only),
    )
    return Checked(made, "state", None, record=kind.name)
