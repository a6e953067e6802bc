"""Table: rows keyed by a label, each a record of typed columns; its views."""

from __future__ import annotations

from ...kinds.table.model import TableRule
from ...literals import code, docstring, md, md_cell, py
from ...model import System
from ...naming import private_constant
from ...runtime.dice import Dice
from ...viewkit import (
    View,
    api,
    cell_md,
    column_type,
    dice_stats,
    enum_imports,
    enum_view,
    label_type,
    where_doc,
)


def python_view(system: System, rule: TableRule) -> View:
    enum = enum_view(
        rule.enum,
        f"The key of rule ``{rule.qualified_id}``; values are the source's labels",
    )
    rows_name = private_constant(rule.id, "rows")
    rows = []
    for row in rule.rows:
        fields = ", ".join(
            f"{col.name}={py(cell)}"
            for col, cell in zip(rule.columns, row.cells, strict=True)
        )
        rows.append(
            {
                "member": f"{rule.enum.name}.{row.key.name}",
                "value": f"{rule.row_class}({fields})",
            }
        )
    return {
        "id": rule.qualified_id,
        "enum": enum,
        "row_class": rule.row_class,
        "row_doc": docstring(
            f"A row of :func:`{rule.function}`. {where_doc(rule)}", "    "
        ),
        "fields": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in rule.columns
        ],
        "rows_name": rows_name,
        "rows": rows,
        "function": rule.function,
        "param": rule.key_param,
        "label_type": label_type(rule.enum),
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Raises RuleInputError for a label the table does not have.",
            "    ",
        ),
        "imports": [
            *enum_imports(rule.enum),
            ("rulebook._support", "folded"),
            ("rulebook.json", "Record"),
            ("typing", "ClassVar"),
            *(("rulebook.dice", "Dice") for c in rule.columns if c.type == "dice"),
            *(
                [("rulebook.dice", "Dice"), ("rulebook.dice", "RNG")]
                if rule.rolls
                else []
            ),
        ],
        "exports": [
            rule.function,
            rule.enum.name,
            rule.row_class,
            *_roll_exports(rule),
        ],
        "rolls": _rolls_view(rule),
    }


def _roll_exports(rule: TableRule) -> list[str]:
    if rule.rolls is None:
        return []
    return [rule.rolls.function, f"{rule.rolls.function.upper()}_DICE"]


def _rolls_view(rule: TableRule) -> View | None:
    """The roll-on-the-table function of a table keyed by a roll's results."""
    if rule.rolls is None:
        return None
    index = [c.name for c in rule.columns].index(rule.rolls.column)
    by_roll = []
    for row in rule.rows:
        cell = row.cells[index]
        if isinstance(cell, tuple):
            by_roll += [
                (value, f"{rule.enum.name}.{row.key.name}")
                for value in range(cell[0], cell[1] + 1)
            ]
    return {
        "function": rule.rolls.function,
        "dice_name": f"{rule.rolls.function.upper()}_DICE",
        "dice": py(rule.rolls.dice),
        "by_roll": private_constant(rule.id, "by_roll"),
        "entries": [
            {"roll": value, "member": member} for value, member in sorted(by_roll)
        ],
        "doc": docstring(
            f"Roll {rule.rolls.dice} and answer the {rule.key_title.lower()} whose "
            f"{rule.rolls.column} range holds the result. {where_doc(rule)}",
            "    ",
        ),
    }


def docs_view(system: System, rule: TableRule, common: View) -> View:
    dice = list(
        dict.fromkeys(
            cell
            for col_index in range(len(rule.columns))
            for row in rule.rows
            if isinstance(cell := row.cells[col_index], Dice)
        )
    )
    if rule.rolls is not None and rule.rolls.dice not in dice:
        dice.append(rule.rolls.dice)  # the roll that picks a row
    signature = code(
        f"{rule.function}({rule.key_param}: {label_type(rule.enum)}) -> {rule.row_class}"
    )
    members = ", ".join(
        f"{code(m.name)} {code(repr(m.label))}" for m in rule.enum.members
    )
    ladder = ", an ordered ladder (lowest first; comparisons follow it)"
    return common | {
        "headers": [md_cell(rule.key_title), *(md_cell(c.title) for c in rule.columns)],
        "rows": [
            [
                md_cell(row.key.label),
                *(cell_md(c, v) for c, v in zip(rule.columns, row.cells, strict=True)),
            ]
            for row in rule.rows
        ],
        "ordered": rule.enum.ordered,
        "key_title": md(rule.key_title),
        "labels": ", ".join(md(m.label) for m in rule.enum.members),
        "meanings": [
            f"**{md(c.title)}**: {md(c.description)}"
            for c in rule.columns
            if c.description
        ],
        "dice": [dice_stats(d) for d in dice],
        "api": api(
            common,
            f"Call: {signature}. Key: {code(rule.enum.name)}"
            f"{ladder if rule.enum.ordered else ''}: {members}.",
            fields=[
                {
                    "name": code(c.name),
                    "title": md(c.title),
                    "type": code(column_type(c)),
                    "description": md(c.description or ""),
                }
                for c in rule.columns
            ],
            fields_title="Fields of each row",
        ),
    }
