"""The obvious hand-written Python for the contracts the bench times.

A table is a dict of frozen dataclasses keyed by the case-folded label, looked up
by a function that takes a label (or a ``StrEnum`` member, which is one) in any
case and raises ``ValueError`` for anything else; a formula is a function with
the same argument checks as the rule. The row class takes its field names from
the generated one so that the two answer alike; the lookup does not depend on
how the rows were made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


def row_class(generated_row: type[Any]) -> type[Any]:
    """A frozen, slotted dataclass with the fields of ``generated_row``."""
    names = list(generated_row.FIELDS)
    made: type[Any] = dataclasses.make_dataclass(
        generated_row.__name__, names, frozen=True, slots=True
    )
    return made


def table(rows: dict[str, Any]) -> Callable[[str], Any]:
    """A hand-written lookup: ``lookup(label)`` answers the row."""
    by_label = {label.casefold(): row for label, row in rows.items()}
    labels = ", ".join(repr(label) for label in rows)

    def lookup(level: str) -> Any:
        row = by_label.get(level.casefold()) if isinstance(level, str) else None
        if row is None:
            raise ValueError(f"level must be one of {labels}, not {level!r}")
        return row

    return lookup


def cover_table(module: Any) -> Callable[[str], Any]:
    """The hand-written cover lookup, holding the generated table's rows."""
    hand_row = row_class(module.CoverRow)
    return table(
        {
            member.value: hand_row(
                *(getattr(module.cover(member), n) for n in module.CoverRow.FIELDS)
            )
            for member in module.CoverLevel
        }
    )


def crawl_speed(climb_bonus: int, occupied_limbs: int) -> int:
    """Crawl speed in zero gravity, written by hand from the rule."""
    if type(climb_bonus) is not int:
        raise ValueError(f"climb_bonus must be an int, not {climb_bonus!r}")
    if type(occupied_limbs) is not int or not 0 <= occupied_limbs <= 4:
        raise ValueError(f"occupied_limbs must be in 0..4, not {occupied_limbs!r}")
    return min(max(max(10 + 5 * climb_bonus, 5) - 10 * occupied_limbs, 0), 40)
