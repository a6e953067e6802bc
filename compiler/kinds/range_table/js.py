"""A table of ranges in JavaScript: the ranges, their values and the lookup."""

from __future__ import annotations

from ...js_kit import (
    View,
    args_doc,
    doc,
    enum_view,
    js,
    js_string,
    member,
    param_view,
    record_literal,
    record_view,
    ts_column_type,
    where,
)
from ...js_naming import camel
from ...kinds.range_table.model import RangeTableRule
from ...model import System
from ...naming import private_constant
from ...viewkit import allowed


def js_view(system: System, rule: RangeTableRule) -> View:
    enum = rule.mapping_enum
    record = None
    if enum is not None:
        cell = ts_column_type(rule.columns[0])
        returns = f"Readonly<Record<{enum.name}, {cell}>>"
        values = [
            "Object.freeze({ __proto__: null, "  # labels are keys: no prototype
            + ", ".join(
                f"[{member(enum, m.label)}]: {js(v)}"
                for m, v in zip(enum.members, row.cells, strict=True)
            )
            + " })"
            for row in rule.rows
        ]
    else:
        assert rule.row_class is not None
        record = record_view(
            rule.row_class,
            rule.columns,
            f"What `{camel(rule.function)}` answers. {where(rule)}",
        )
        returns = rule.row_class
        values = [
            record_literal(
                record["shape"],
                [(c.name, js(v)) for c, v in zip(rule.columns, row.cells, strict=True)],
                "  ",
            )
            for row in rule.rows
        ]
    p = rule.param
    param = param_view(system, p, rule.qualified_id)
    name = param["name"]
    below = (
        "return null;"
        if rule.below == "none"
        else f"throw $.badInt({name}, {js_string(name)}, {js(rule.rows[0].lo)}, {js(p.max)});"
    )
    top = "" if p.max is None else str(p.max)
    return {
        "enum": enum_view(enum, f"The keys of what rule `{rule.qualified_id}` answers")
        if enum is not None
        else None,
        "record": record,
        "ranges": private_constant(rule.id, "ranges"),
        "rows": [
            {"lo": js(row.lo), "hi": js(row.hi), "value": value}
            for row, value in zip(rule.rows, values, strict=True)
        ],
        "function": camel(rule.function),
        "param": param,
        "below": below,
        "returns": f"{returns} | null" if rule.below == "none" else returns,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{args_doc([p], allowed)}\n\n"
            f"{where(rule)} Throws RuleInputError for a {name} outside {p.min}..{top}."
        ),
    }
