"""Formula trees as JSON: a checked expression as plain nodes any language can evaluate.

Every node is an object whose ``node`` names its type; each type has a fixed set
of keys (``null`` where a key has no value). The types and what they mean:

- ``literal``: ``type`` int, bool, text, label, dice or null; ``value`` (a dice
  value is an object, as ``rulebook.json`` writes dice); ``enum`` the label's enum;
- ``name``: the value of the parameter ``name``;
- ``unary``: ``op`` ``-`` (negate an int) or ``not``; ``operand``;
- ``binary``: ``op`` ``+`` (adds ints, joins texts), ``-``, ``*``; ``==``, ``!=``
  (labels compare exactly); ``<``, ``<=``, ``>``, ``>=``; ``in``, ``not in`` (the
  right side is a list); ``is``, ``is not`` (the right side is ``null``); ``and``,
  ``or`` (of bools, the right side evaluated only when needed); ``??`` (the left
  side unless it is null, else the right); ``left``, ``right``;
- ``divide``: ``left`` divided by ``right``, rounded ``down`` or ``up`` (``rounding``);
- ``conditional``: ``then`` if ``test`` is true, else ``else``;
- ``call``: a built-in ``function`` (min, max, clamp, abs, len, sum, any, all, text)
  of ``args``; min and max take two or more ints, or one list;
- ``rule_call``: another rule of the system (``rule`` by id, its ``function``) of
  ``args``, given in the order of its parameters; ``rolls`` when that rule rolls
  dice (with the caller's rng: its dice are rolled there, after the arguments');
- ``lookup``: the row of table ``rule`` for ``key``; null when the key is null;
- ``field``: the field ``name`` of the row ``of``; null when the row is null;
- ``dice_part``: a figure of the dice value ``of``: ``part`` min, max, count,
  sides, modifier or multiplier;
- ``index``: the value of the mapping parameter ``of`` for ``key``; null when the
  key is null;
- ``step``: the label ``by`` steps along the ordered enum ``enum`` from ``of``
  (``labels`` lowest first); past an end, ``past_end`` says: ``none`` gives null,
  ``clamp`` the end label, ``error`` refuses the input; null when ``of`` is null;
- ``list``: the values of ``items``;
- ``concat``: the list ``left`` then the list ``right`` (``+`` of two lists);
- ``item``: the item of the list ``of`` at the position ``at`` (from 0; a
  negative one from the end; refused where the list has none there);
- ``record``: a new record of the type ``record``, its ``fields`` by name;
- ``new_state``: a new state of the class ``state``, its constructor given ``args``;
- ``transition``: the state ``of`` (of the class ``state``) after its
  transition ``transition`` with ``args`` (a copy: ``of`` is unchanged);
- ``comprehension``: the list of ``value`` for each item of ``items`` (named
  ``item`` there), in order, where ``test`` (if not null) holds;
- ``dice``: dice rolled there (``expr_dice``): ``notation`` as written, a
  ``count`` and ``sides`` from expressions (or null), ``results`` for the list
  of the dice kept (``rolls(...)``) instead of their total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..lang.nodes import (
    FUNCTIONS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Index,
    IntLit,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    Rounding,
    Step,
    StrLit,
    Unary,
)
from ..lang.nodes import Dice as ExprDice
from ..runtime.dice import Dice

__all__ = ["NODE_TYPES", "dice_literal", "literal", "to_tree"]

Tree = dict[str, Any]

NODE_TYPES = (
    "literal",
    "name",
    "unary",
    "binary",
    "divide",
    "conditional",
    "call",
    "rule_call",
    "lookup",
    "field",
    "dice_part",
    "index",
    "step",
    "list",
    "concat",
    "dice",
    "item",
    "record",
    "new_state",
    "transition",
    "comprehension",
)


def literal(type_: str, value: object, enum: str | None = None) -> Tree:
    return {"node": "literal", "type": type_, "value": value, "enum": enum}


def dice_literal(dice: Dice) -> Tree:
    data: dict[str, Any] = dict(dice.to_dict())
    return literal("dice", data)


def to_tree(
    node: Node,
    *,
    rounding: Rounding,
    rule_id: Callable[[str], str],
    param_enums: Mapping[str, str] = MappingProxyType({}),
) -> Tree:
    """The JSON tree of a checked expression; ``rule_id`` names the rule that a
    lookup or a call refers to by its function name, and ``param_enums`` the
    enum of each choice parameter (a mapping's: its key enum), for the labels
    the checker tied to a parameter rather than to an enum."""

    def sub(child: Node) -> Tree:
        return to_tree(
            child, rounding=rounding, rule_id=rule_id, param_enums=param_enums
        )

    match node:
        case IntLit() | BoolLit() | NullLit() | StrLit():
            return _literal_tree(node, param_enums)
        case Name():
            return {"node": "name", "name": node.name}
        case Unary():
            return {"node": "unary", "op": node.op, "operand": sub(node.operand)}
        case Binary():
            return _binary_tree(node, sub, rounding)
        case Cond():
            return {
                "node": "conditional",
                "test": sub(node.test),
                "then": sub(node.body),
                "else": sub(node.orelse),
            }
        case Call():
            return _call_tree(node, sub, rule_id)
        case Attr():
            return _attr_tree(node, sub)
        case Index(item=True):
            return {"node": "item", "of": sub(node.obj), "at": sub(node.index)}
        case Index():
            return {"node": "index", "of": sub(node.obj), "key": sub(node.index)}
        case Construct(state=False):
            return {
                "node": "record",
                "record": node.record,
                "fields": {
                    name: sub(arg)
                    for name, arg in zip(node.fields, node.args, strict=True)
                },
            }
        case Construct():
            return {
                "node": "new_state",
                "state": node.record,
                "args": [sub(arg) for arg in node.args],
            }
        case Method():
            return {
                "node": "transition",
                "of": sub(node.obj),
                "state": node.record,
                "transition": node.name,
                "args": [sub(arg) for arg in node.args],
            }
        case Comp():
            return {
                "node": "comprehension",
                "item": node.name,
                "items": sub(node.items),
                "test": None if node.test is None else sub(node.test),
                "value": sub(node.body),
            }
        case Step():
            return {
                "node": "step",
                "of": sub(node.operand),
                "by": sub(node.by),
                "enum": node.ladder.enum,
                "labels": list(node.ladder.labels),
                "past_end": node.ladder.past_end,
            }
        case ListLit():
            return {"node": "list", "items": [sub(item) for item in node.items]}
        case ExprDice():
            return {
                "node": "dice",
                "notation": node.written,
                "count": None if node.count is None else sub(node.count),
                "sides": None if node.sides is None else sub(node.sides),
                "die": None if node.die is None else node.die.name,
                "results": node.results,
            }
    raise AssertionError(node)


def _literal_tree(
    node: IntLit | BoolLit | NullLit | StrLit, param_enums: Mapping[str, str]
) -> Tree:
    match node:
        case IntLit():
            return literal("int", node.value)
        case BoolLit():
            return literal("bool", node.value)
        case NullLit():
            return literal("null", None)
        case StrLit() if node.is_label:
            enum = node.enum or param_enums.get(node.param or "")
            return literal("label", node.value, enum)
        case StrLit():
            return literal("text", node.value)
    raise AssertionError(node)


def _binary_tree(node: Binary, sub: Callable[[Node], Tree], rounding: Rounding) -> Tree:
    match node:
        case Binary(op="//"):
            return {
                "node": "divide",
                "rounding": rounding,
                "left": sub(node.left),
                "right": sub(node.right),
            }
        case Binary(concat=True):
            return {"node": "concat", "left": sub(node.left), "right": sub(node.right)}
        case Binary() if node.ladder is not None:
            return {
                "node": "order",
                "op": node.op,
                "left": sub(node.left),
                "right": sub(node.right),
                "enum": node.ladder.enum,
                "labels": list(node.ladder.labels),
            }
        case Binary():
            return {
                "node": "binary",
                "op": node.op,
                "left": sub(node.left),
                "right": sub(node.right),
            }
    raise AssertionError(node)


def _call_tree(
    node: Call, sub: Callable[[Node], Tree], rule_id: Callable[[str], str]
) -> Tree:
    match node:
        case Call(rule=True):
            return {
                "node": "rule_call",
                "rule": rule_id(node.func),
                "function": node.func,
                "args": [sub(arg) for arg in node.args],
                "rolls": node.rolls,
            }
        case Call() if node.func not in FUNCTIONS:
            (key,) = node.args
            return {
                "node": "lookup",
                "rule": rule_id(node.func),
                "function": node.func,
                "key": sub(key),
            }
        case Call():
            return {
                "node": "call",
                "function": node.func,
                "args": [sub(arg) for arg in node.args],
            }
    raise AssertionError(node)


def _attr_tree(node: Attr, sub: Callable[[Node], Tree]) -> Tree:
    match node:
        case Attr(obj=Call(rule=False) as lookup) if lookup.func not in FUNCTIONS:
            return {"node": "field", "of": sub(lookup), "name": node.name}
        case Attr(obj=Call(rule=True) as call):  # a field of a rule's record
            return {"node": "field", "of": sub(call), "name": node.name}
        case Attr(part=True):
            return {"node": "dice_part", "of": sub(node.obj), "part": node.name}
        case Attr():  # a field of a record or a state
            return {"node": "field", "of": sub(node.obj), "name": node.name}
    raise AssertionError(node)
