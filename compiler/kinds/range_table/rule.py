"""range_table: a table keyed by ranges of a whole number, checked for gaps and overlaps, lowered to the core."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...core.docs import ref
from ...core.ir import Decl, Enum, Mapping, New, RangeTable, Record, Span, Unit
from ...core.viewkit import where_doc
from ...front.model import (
    Param,
    System,
)
from ...kinds.range_table.model import RangeRow, RangeTableRule
from ...lang.naming import private_constant

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
) -> RangeTableRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    p = raw["param"]
    b.local_name(src, (*path, "param", "name"), p["name"], "parameter name")
    param = Param(
        p["name"], "int", p["min"], p.get("max"), None, False, p["description"], None
    )
    if param.max is not None and param.max < p["min"]:
        b.err(src, (*path, "param", "max"), f"max {param.max} is below min {param.min}")
    columns = b.columns(src, path, raw["columns"])
    mapping = None
    if ("row" in raw) == ("mapping" in raw):
        b.err(
            src,
            path,
            "a range table answers a row or a mapping: give exactly one of 'row' and 'mapping'",
        )
    elif "row" in raw:
        b.claim(src, (*path, "row"), raw["row"], "row class")
    else:
        if len({(c.type, c.nullable) for c in columns}) > 1:
            b.err(
                src,
                (*path, "columns"),
                "a mapping's columns must all have the same type",
            )
        members = [{"name": c.name.upper(), "label": c.title} for c in columns]
        mapping = b.enum(
            src, path, raw["mapping"], members, False, name_at=(*path, "mapping")
        )
    covers = (
        b.dice(src, (*path, "covers"), raw["covers"], None) if "covers" in raw else None
    )
    rows = _rows(b, src, path, raw["rows"], columns)
    _check_ranges(b, src, path, param, rows, covers)
    examples = b.examples(src, path, raw, {param.name}, roll_columns=set())
    return RangeTableRule(
        **common,
        examples=examples,
        function=raw["function"],
        param=param,
        param_title=p["title"],
        below=raw["below"],
        row_class=raw.get("row"),
        mapping_enum=mapping,
        columns=tuple(columns),
        rows=rows,
        covers=covers,
    )


def _rows(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw_rows: list[dict[str, Any]],
    columns: list[Any],
) -> tuple[RangeRow, ...]:
    rows = []
    for index, raw in enumerate(raw_rows):
        rpath = (*path, "rows", index)
        lo, hi = raw["range"]
        if hi is not None and hi < lo:
            b.err(
                src,
                (*rpath, "range"),
                f"range {lo}..{hi} is empty: its high end is below its low end",
            )
        label = raw.get("label")
        cells = b.cells(
            src,
            rpath,
            raw,
            columns,
            f"range {lo}..{hi if hi is not None else ''}",
            frozenset({"range", "label"}),
        )
        rows.append(RangeRow(lo, hi, label, cells, b.loc(src, rpath)))
    return tuple(rows)


def _check_ranges(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    param: Param,
    rows: tuple[RangeRow, ...],
    covers: Any,
) -> None:
    """Ranges go up with no gap or overlap, inside the parameter's limits."""
    for index, (prev, row) in enumerate(pairwise(rows), start=1):
        where = (*path, "rows", index, "range")
        if prev.hi is None:
            b.err(
                src,
                (*path, "rows", index - 1, "range"),
                "only the last range can be open-ended (null high end)",
            )
        elif row.lo <= prev.hi:
            b.err(
                src,
                where,
                f"range {row.lo}.. overlaps the range before it (which ends at {prev.hi})",
                f"start it at {prev.hi + 1}",
            )
        elif row.lo > prev.hi + 1:
            b.err(
                src,
                where,
                f"gap: nothing covers {prev.hi + 1}..{row.lo - 1}",
                f"start this range at {prev.hi + 1}, or add a range for the gap",
            )
    first, last = rows[0], rows[-1]
    assert param.min is not None
    if first.lo < param.min:
        b.err(
            src,
            (*path, "rows", 0, "range"),
            f"range starts at {first.lo}, below the smallest allowed {param.name} ({param.min})",
        )
    if last.hi is not None and (param.max is None or param.max > last.hi):
        b.err(
            src,
            (*path, "rows", len(rows) - 1, "range"),
            f"values of {param.name} above {last.hi} match no range",
            "make the last range open-ended (null), or set the parameter's max",
        )
    if covers is not None:
        if first.lo != covers.min or last.hi != covers.max:
            b.err(
                src,
                (*path, "covers"),
                f"the ranges cover {first.lo}..{last.hi}, but {covers} rolls {covers.min}..{covers.max}",
                "the ranges must cover every result of the roll exactly once",
            )
        if param.min != covers.min or param.max != covers.max:
            b.err(
                src,
                (*path, "param"),
                f"{param.name} must allow exactly {covers.min}..{covers.max}, the results of {covers}",
            )


def lower(system: System, rule: RangeTableRule) -> Unit:
    """The table's values (records, or mappings of a label set's members) and
    the function that finds a number's row."""
    enum = rule.mapping_enum
    if enum is not None:
        kind_of_value: Decl = Enum(
            enum, f"The keys of what rule ``{rule.qualified_id}`` answers"
        )
        values: list[New | Mapping] = [
            Mapping(enum, rule.columns[0], row.cells) for row in rule.rows
        ]
    else:
        assert rule.row_class is not None
        what = f"What {ref(rule.function)} answers. {where_doc(rule)}"
        kind_of_value = Record(rule.row_class, what, rule.columns)
        values = [
            New(rule.row_class, tuple(zip(rule.columns, row.cells, strict=True)))
            for row in rule.rows
        ]
    table = RangeTable(
        name=rule.function,
        param=rule.param,
        param_title=rule.param_title,
        rows_name=private_constant(rule.id, "ranges"),
        record=rule.row_class if enum is None else None,
        mapping=enum,
        columns=rule.columns,
        rows=tuple(
            Span(row.lo, row.hi, row.label, value)
            for row, value in zip(rule.rows, values, strict=True)
        ),
        below=rule.below,
        covers=rule.covers,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        rule_id=rule.qualified_id,
    )
    return Unit((kind_of_value, table), rule.function)
