"""shift: read an ordered table some levels up or down, with some cells replaced; lowered to two tables of the core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.docs import ref, rule_doc
from ...core.ir import Block, Cell, DiceShown, Grid, New, Prose, Shown, Table, Unit
from ...core.viewkit import where_doc
from ...front.model import (
    CellValue,
    EnumMember,
    System,
)
from ...kinds.shift.model import ShiftRule
from ...kinds.table.model import TableRule
from ...lang.naming import private_constant
from ...runtime.dice import Dice

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> ShiftRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "function"), f"{raw['function']}_level", "function")
    table = b.reference(src, (*path, "table"), raw["table"], TableRule, "a table rule")
    if table is None:
        return None
    members = table.enum.members
    if not table.enum.ordered:
        b.err(
            src,
            (*path, "table"),
            f"table {table.id!r} is not ordered, so it has no ladder to step along",
            "give its key ordered: true",
        )
        return None
    offset = raw["offset"]
    if abs(offset) >= len(members):
        b.err(
            src,
            (*path, "offset"),
            f"offset {offset} falls off the end of the {len(members)}-level ladder "
            "for every level",
            f"use an offset between {1 - len(members)} and {len(members) - 1}",
        )
        return None
    start = 0
    applies_from = None
    if "applies_from" in raw:
        labels = [m.label for m in members]
        if raw["applies_from"] not in labels:
            b.err(
                src,
                (*path, "applies_from"),
                f"{raw['applies_from']!r} is not a level of {table.enum.name}",
                "levels: " + ", ".join(repr(x) for x in labels),
            )
            return None
        start = labels.index(raw["applies_from"])
        applies_from = members[start]
    overrides = _overrides(b, src, path, raw.get("override", {}), table)
    shifted: list[tuple[EnumMember, EnumMember | None]] = []
    for index, member in enumerate(members):
        target = index + offset
        ok = index >= start and 0 <= target < len(members)
        shifted.append((member, members[target] if ok else None))
    if all(target is None for _, target in shifted):
        b.err(src, (*path, "offset"), "no level of the ladder is left after this shift")
    examples = b.examples(src, path, raw, {table.key_param}, roll_columns=set())
    return ShiftRule(
        **common,
        examples=examples,
        function=raw["function"],
        table=table,
        offset=offset,
        applies_from=applies_from,
        overrides=overrides,
        shifted=tuple(shifted),
    )


def _overrides(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any], table: TableRule
) -> tuple[tuple[str, CellValue], ...]:
    columns = {c.name: c for c in table.columns}
    found = []
    for name, value in raw.items():
        col = columns.get(name)
        if col is None:
            b.err(
                src,
                (*path, "override", name),
                f"table {table.id!r} has no column {name!r}",
                "columns: " + ", ".join(columns),
                key=True,
            )
            continue
        found.append((name, b.cell(src, (*path, "override", name), value, col)))
    return tuple(found)


def shifted_cells(rule: ShiftRule, target: EnumMember) -> list[tuple[str, CellValue]]:
    """The cells a shift gives for a level that lands on ``target``."""
    row = next(r for r in rule.table.rows if r.key == target)
    overrides = dict(rule.overrides)
    return [
        (c.name, overrides.get(c.name, cell))
        for c, cell in zip(rule.table.columns, row.cells, strict=True)
    ]


_ABSENT = "where the rule does not apply or the step falls off the ladder"


def lower(system: System, rule: ShiftRule) -> Unit:
    """Two tables keyed by the shifted table's key: the row each level reads
    (the table's row some levels away, with the cells replaced), and that
    level; and a page saying how the rows were found."""
    table = rule.table
    columns = {c.name: c for c in table.columns}
    rows: list[tuple[str, New | str | None]] = []
    levels: list[tuple[str, New | str | None]] = []
    grid: list[tuple[Cell, ...]] = []
    for member, target in rule.shifted:
        if target is None:
            rows.append((member.label, None))
            levels.append((member.label, None))
            grid.append((member.label, "no effect", *([" "] * len(table.columns))))
            continue
        cells = [(columns[n], v) for n, v in shifted_cells(rule, target)]
        rows.append((member.label, New(table.row_class, tuple(cells))))
        levels.append((member.label, target.label))
        grid.append((member.label, target.label, *(Shown(c, v) for c, v in cells)))
    shifted = Table(
        name=rule.function,
        answers=table.row_class,
        rows_name=shift_rows(rule),
        rows=tuple(rows),
        doc=rule_doc(rule),
        absent=_ABSENT,
        param=table.key_param,
        key=table.enum,
        key_title=table.key_title,
    )
    level = Table(
        name=f"{rule.function}_level",
        answers=table.enum.name,
        rows_name=shift_levels(rule),
        rows=tuple(levels),
        doc=f"The level whose row {ref(rule.function)} reads. {where_doc(rule)}",
        labels=table.enum,
        absent=_ABSENT,
        param=table.key_param,
        key=table.enum,
        key_title=table.key_title,
    )
    dice = tuple(dict.fromkeys(v for _, v in rule.overrides if isinstance(v, Dice)))
    page: tuple[Block, ...] = (
        Prose(_reads(rule)),
        Grid(
            (table.key_title, "Reads the row of", *(c.title for c in table.columns)),
            tuple(grid),
        ),
        *([DiceShown("Dice it puts in place of the table's:", dice)] if dice else []),
    )
    return Unit((shifted, level), rule.function, page, (table.qualified_id,))


def _reads(rule: ShiftRule) -> str:
    """How the rule finds a level's row, in words."""
    steps = abs(rule.offset)
    direction = "down" if rule.offset < 0 else "up"
    text = f"It reads {ref(rule.table.function)} {steps} level{'s' if steps != 1 else ''} {direction}"
    if rule.applies_from:
        text += f", from {rule.applies_from.label} up only"
    if rule.overrides:
        text += ", replacing " + ", ".join(f"``{n}``" for n, _ in rule.overrides)
    return text + "; where the step falls off the ladder there is no effect."


def shift_rows(rule: ShiftRule) -> str:
    """The private constant of a shift's rows (the row it lands on, by key)."""
    return private_constant(rule.id, "rows")


def shift_levels(rule: ShiftRule) -> str:
    """The private constant of a shift's levels (the label it lands on, by key)."""
    return private_constant(rule.id, "levels")
