"""A decision's list fields: how one is declared and checked.

A field ``type: list`` with ``items: int`` (or bool, text) holds a list of
variable length, in order, never null; a case gives it as an expression of a
list of that type (``pool + low``, ``[first] + extra``). Python holds it as a
tuple, JavaScript as a frozen array; both write it as a JSON array. A
repeating decision's state value of ``type: list`` is held alike (a tuple in
Python's loop of turns).
"""

from __future__ import annotations

from typing import Any

from ...kinds.decision.model import Slot
from ...lang import expr


def declaration_problems(
    raw: dict[str, Any], what: str = "a list field"
) -> list[tuple[str, str, str | None]]:
    """What is wrong with a field's (or ``what``'s) ``type``, ``items`` and
    ``nullable`` for a list, as (key, message, hint); none for a
    well-declared one."""
    kind = raw["type"]
    if kind != "list":
        if "items" in raw:
            return [("items", f"only a list has items, not {kind}", "remove 'items'")]
        return []
    found: list[tuple[str, str, str | None]] = []
    if "items" not in raw:
        found.append(
            ("type", f"{what} needs 'items', its elements' type", "items: int")
        )
    if raw.get("nullable"):
        hint = "remove 'nullable' (a list with no elements has a length of 0)"
        found.append(("nullable", f"{what} is never null", hint))
    return found


BOUNDS = ("only whole numbers (or a list of them) have a min and a max", "remove it")


def bound_problems(raw: dict[str, Any], value: str) -> list[str]:
    """The keys of bounds ``raw`` gives a value (or a list's items) of type
    ``value`` that are not a whole number's (a list's length's only a list's)."""
    found: list[str] = [k for k in ("min", "max") if k in raw and value != "int"]
    if raw["type"] != "list":
        found += [k for k in ("min_items", "max_items") if k in raw]
    return found


def value_problem(checked: expr.Checked, slot: Slot) -> tuple[str, str] | None:
    """Why a case's expression cannot be the list field's value, with a hint;
    None when it is a list of the field's element type."""
    want = f"a list of {slot.record if slot.items == 'record' else slot.items}"
    if checked.type == "list" and checked.item is None:
        return None  # the empty list, of any type
    if checked.type == "list" and checked.item == slot.items:
        from ...front.scope import slot_field

        problem = expr.fits(checked, slot_field(slot))
        if problem is None:
            return None
        return f"{slot.name!r}: the expression {problem}", "a list holds one type"
    gives = expr.describe(checked)
    message = f"{slot.name!r}: the expression gives {gives}, but the field is {want}"
    if checked.type == "list":
        return message, "a list holds one type: nothing is converted implicitly"
    if checked.type == slot.items and not checked.nullable:
        return message, "put the value in brackets: [x]"
    return message, f"give {want}, e.g. [x] + rest"


def literal_problem(slot: Slot, value: Any) -> tuple[str, str]:
    """A list field given something other than an expression (a number, a flag)."""
    return (
        f"{slot.name!r} holds a list of {slot.items}, not {value!r}",
        'give it as an expression in quotes, e.g. "[x]" or "pool + rest"',
    )
