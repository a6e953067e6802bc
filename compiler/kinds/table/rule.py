"""Table: rows keyed by a label, each a record of typed columns, lowered to the core."""

from __future__ import annotations

from ...core.docs import ref, rule_doc
from ...core.ir import Decl, Enum, New, Record, RollOn, Table, Unit
from ...core.viewkit import where_doc
from ...front.model import System
from ...kinds.table.model import TableRule
from ...lang.naming import private_constant


def lower(system: System, rule: TableRule) -> Unit:
    """The key's labels, the row record, the rows and their lookup; and, for a
    table rolled on, the function that rolls its dice and answers a key."""
    decls: list[Decl] = [
        Enum(
            rule.enum,
            f"The key of rule ``{rule.qualified_id}``; values are the source's labels",
        ),
        Record(
            rule.row_class,
            f"A row of {ref(rule.function)}. {where_doc(rule)}",
            rule.columns,
        ),
        Table(
            name=rule.function,
            param=rule.key_param,
            key=rule.enum,
            key_title=rule.key_title,
            answers=rule.row_class,
            rows_name=rows_name(rule),
            rows=tuple(
                (
                    row.key.label,
                    New(
                        rule.row_class, tuple(zip(rule.columns, row.cells, strict=True))
                    ),
                )
                for row in rule.rows
            ),
            doc=rule_doc(rule),
        ),
    ]
    if rule.rolls is not None:
        decls.append(roll_on(rule))
    return Unit(tuple(decls), rule.function)


def rows_name(rule: TableRule) -> str:
    """The private constant holding a table's rows, in every target."""
    return private_constant(rule.id, "rows")


def table_rows(system: System) -> dict[str, str]:
    """Each table's rows constant, by the function that reads it (for a kind
    whose code looks rows up itself)."""
    return {t.function: rows_name(t) for t in system.rules if isinstance(t, TableRule)}


def roll_on(rule: TableRule) -> RollOn:
    """The roll-on-the-table function of a table keyed by a roll's results."""
    assert rule.rolls is not None
    index = [c.name for c in rule.columns].index(rule.rolls.column)
    entries = [
        (value, row.key.label)
        for row in rule.rows
        if isinstance(cell := row.cells[index], tuple)
        for value in range(cell[0], cell[1] + 1)
    ]
    return RollOn(
        name=rule.rolls.function,
        entries_name=private_constant(rule.id, "by_roll"),
        dice_name=f"{rule.rolls.function.upper()}_DICE",
        dice=rule.rolls.dice,
        key=rule.enum,
        entries=tuple(sorted(entries)),
        doc=f"Roll {rule.rolls.dice} and answer the {rule.key_title.lower()} whose "
        f"{rule.rolls.column} range holds the result. {where_doc(rule)}",
    )
