"""The obvious hand-written Python for the contracts the bench times.

A table is a dict lookup with a ``KeyError`` fallback: the dict holds each row
under its exact label, a plain ``str`` (an enum member finds it too: a member
hashes and compares as its label), and anything else (another case, a bad
value) goes to a slow path that folds case or raises ``ValueError``. The rows are the generated
table's own objects, so the two answer alike and only the lookup is compared.
A formula is a function with the same argument checks as the rule and its
clamps written as inline comparisons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def table(rows: dict[Any, Any]) -> Callable[[Any], Any]:
    """A hand-written lookup: ``lookup(label_or_member)`` answers the row."""
    exact = dict(rows)
    folded = {str(key).casefold(): row for key, row in rows.items()}
    labels = ", ".join(repr(str(label)) for label in rows)

    def slow(level: Any) -> Any:
        row = folded.get(str.casefold(level)) if isinstance(level, str) else None
        if row is None:
            raise ValueError(f"level must be one of {labels}, not {level!r}")
        return row

    def lookup(level: Any) -> Any:
        try:
            return exact[level]
        except KeyError:
            return slow(level)

    return lookup


def cover_table(module: Any) -> Callable[[Any], Any]:
    """The hand-written cover lookup, holding the generated table's rows."""
    return table({member.value: module.cover(member) for member in module.CoverLevel})


def crawl_speed(climb_bonus: int, occupied_limbs: int) -> int:
    """Crawl speed in zero gravity, written by hand from the rule, its clamps
    as inline comparisons."""
    if type(climb_bonus) is not int:
        raise ValueError(f"climb_bonus must be an int, not {climb_bonus!r}")
    if type(occupied_limbs) is not int or not 0 <= occupied_limbs <= 4:
        raise ValueError(f"occupied_limbs must be in 0..4, not {occupied_limbs!r}")
    speed = 10 + 5 * climb_bonus
    speed = (speed if speed > 5 else 5) - 10 * occupied_limbs
    speed = speed if speed > 0 else 0
    return speed if speed < 40 else 40
