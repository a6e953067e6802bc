"""A table of ranges, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from collections.abc import Sequence

from ...front.model import Param
from ...kinds.range_table.model import RangeTableRule
from ...lang.py_names import pyname
from ...workbench.common import Input, record_lines
from ...workbench.context import Context, at
from ...workbench.samples import Sample, spread


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, RangeTableRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    value = given.get(pyname(rule.param.name))
    row = next(
        (
            r
            for r in rule.rows
            if isinstance(value, int)
            and r.lo <= value
            and (r.hi is None or value <= r.hi)
        ),
        None,
    )
    if row is None:
        ctx.out.section(
            "Row",
            [f"  {value} is below every row: the table gives nothing ({rule.below})"],
        )
    else:
        span = (
            f"{row.lo} or more"
            if row.hi is None
            else (str(row.lo) if row.lo == row.hi else f"{row.lo} to {row.hi}")
        )
        name = f" ({row.label})" if row.label else ""
        ctx.out.section(
            f"Row {span}{name}, written at {at(row.loc)}",
            record_lines(answer, ctx.kind.columns(rule)),
        )


def params(rule: RangeTableRule) -> dict[str, Param]:
    return {rule.param.name: rule.param}


def samples(rule: RangeTableRule, specs: Sequence[Input]) -> list[Sample]:
    """A spread that tries both sides of every range's ends."""
    ends: set[int] = set()
    for row in rule.rows:
        ends |= {row.lo - 1, row.lo}
        if row.hi is not None:
            ends |= {row.hi, row.hi + 1}
    return spread(rule, specs, ints=sorted(ends))
