"""A table, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ...kinds.table.model import TableRule
from ...lang.py_names import pyname
from ...workbench.common import plain, record_lines, wrap
from ...workbench.context import Context, at


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, TableRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    label = str(
        plain(getattr(answer, "key", None) or given.get(pyname(rule.key_param)))
    )
    row = next((r for r in rule.rows if r.key.label == label), None)
    where = f", written at {at(row.loc)}" if row is not None else ""
    ctx.out.section(
        f"Row {label!r} of the table{where}",
        record_lines(answer, ctx.kind.columns(rule)),
    )
    if rule.rolls is not None:
        ctx.out.lines += wrap(
            f"(The table is also rolled on: {rule.rolls.function}(rng) rolls "
            f"{rule.rolls.dice} and reads the {rule.rolls.column} column.)"
        )
