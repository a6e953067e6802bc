"""shift: read an ordered table some levels up or down, with some cells replaced."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.shift.model import ShiftRule
from ...kinds.table.model import TableRule
from ...literals import code, docstring, md_cell, py
from ...model import CellValue, EnumMember, System
from ...naming import private_constant
from ...runtime.dice import Dice
from ...viewkit import (
    View,
    cell_md,
    dice_stats,
    enum_imports,
    label_type,
    where_doc,
)

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


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


def python_view(system: System, rule: ShiftRule) -> View:
    table = rule.table
    enum = table.enum
    entries = []
    for member, target in rule.shifted:
        if target is None:
            entries.append(
                {"key": f"{enum.name}.{member.name}", "row": "None", "level": "None"}
            )
            continue
        fields = ", ".join(f"{n}={py(v)}" for n, v in shifted_cells(rule, target))
        entries.append(
            {
                "key": f"{enum.name}.{member.name}",
                "row": f"{table.row_class}({fields})",
                "level": f"{enum.name}.{target.name}",
            }
        )
    uses_dice = any(c.type == "dice" for c in table.columns)
    return {
        "id": rule.qualified_id,
        "enum": enum.name,
        "by_label": private_constant(enum.name, "by_label"),
        "label_type": label_type(enum),
        "row_class": table.row_class,
        "rows_name": private_constant(rule.id, "rows"),
        "levels_name": private_constant(rule.id, "levels"),
        "entries": entries,
        "function": rule.function,
        "param": table.key_param,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} None where the "
            "rule does not apply or the step falls off the ladder.",
            "    ",
        ),
        "level_doc": docstring(
            f"The level whose row :func:`{rule.function}` reads, or None. "
            f"{where_doc(rule)}",
            "    ",
        ),
        "imports": [
            *enum_imports(enum),
            ("typing", "Final"),
            *([("rulebook.dice", "Dice")] if uses_dice else []),
        ],
        "exports": [rule.function, f"{rule.function}_level"],
    }


def docs_view(system: System, rule: ShiftRule, common: View) -> View:
    table = rule.table
    steps = abs(rule.offset)
    direction = "down" if rule.offset < 0 else "up"
    rows = []
    for member, target in rule.shifted:
        if target is None:
            rows.append(
                [md_cell(member.label), "no effect", *([" "] * len(table.columns))]
            )
            continue
        cells = shifted_cells(rule, target)
        columns = {c.name: c for c in table.columns}
        rows.append(
            [md_cell(member.label), md_cell(target.label)]
            + [cell_md(columns[n], v) for n, v in cells]
        )
    overridden = [n for n, _ in rule.overrides]
    dice = list(dict.fromkeys(v for _, v in rule.overrides if isinstance(v, Dice)))
    return common | {
        "signature": code(
            f"{rule.function}({table.key_param}: {label_type(table.enum)}) -> "
            f"{table.row_class} | None"
        ),
        "step": f"{steps} level{'s' if steps != 1 else ''} {direction}",
        "table_link": f"[{md_cell(table.title)}](#{table.id})",
        "applies_from": md_cell(rule.applies_from.label) if rule.applies_from else None,
        "overridden": ", ".join(code(n) for n in overridden),
        "headers": [
            md_cell(table.key_title),
            "Reads the row of",
            *(md_cell(c.title) for c in table.columns),
        ],
        "rows": rows,
        "dice": [dice_stats(d) for d in dice],
    }
