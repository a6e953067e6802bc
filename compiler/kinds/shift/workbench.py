"""A step along a ladder, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ...kinds.shift.model import ShiftRule
from ...workbench.common import record_lines, show
from ...workbench.context import Context, at


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, ShiftRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    label = next(iter(given.values()), None)
    used = next((u for m, u in rule.shifted if m.label == label), None)
    steps = "up" if rule.offset > 0 else "down"
    lines = [
        f"  {label} steps {abs(rule.offset)} {steps} the ladder of {rule.table.qualified_id}"
        + (
            f": {used.label}"
            if used is not None
            else ": below its lowest level, so nothing"
        )
    ]
    if rule.applies_from is not None:
        lines.append(f"  (it applies from {rule.applies_from.label} up)")
    if used is not None:
        row = next(r for r in rule.table.rows if r.key.label == used.label)
        lines.append(f"  row {used.label} is written at {at(row.loc)}")
    for name, value in rule.overrides:
        lines.append(f"  {name} is overridden: {show(value)}")
    ctx.out.section("Step", lines)
    ctx.out.section(
        "Answer", record_lines(answer, {c.name: c for c in rule.table.columns})
    )
