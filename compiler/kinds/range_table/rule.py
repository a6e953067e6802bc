"""range_table: a table keyed by ranges of a whole number, checked for gaps and overlaps."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...kinds.range_table.model import RangeRow, RangeTableRule
from ...literals import code, docstring, md, md_cell, py
from ...model import Param, System
from ...naming import private_constant
from ...runtime.dice import Dice
from ...viewkit import (
    View,
    api,
    args_doc,
    bounds,
    cell_md,
    column_type,
    dice_stats,
    enum_imports,
    enum_view,
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


def python_view(system: System, rule: RangeTableRule) -> View:
    ranges = private_constant(rule.id, "ranges")
    if rule.mapping_enum is not None:
        enum = rule.mapping_enum
        value_type = f"dict[{enum.name}, {column_type(rule.columns[0])}]"
        values = [
            "{"
            + ", ".join(
                f"{enum.name}.{m.name}: {py(cell)}"
                for m, cell in zip(enum.members, row.cells, strict=True)
            )
            + "}"
            for row in rule.rows
        ]
        result = "dict(value)"
        stored = f"Mapping[{enum.name}, {column_type(rule.columns[0])}]"
    else:
        enum = None
        value_type = str(rule.row_class)
        values = [
            f"{rule.row_class}("
            + ", ".join(
                f"{c.name}={py(cell)}"
                for c, cell in zip(rule.columns, row.cells, strict=True)
            )
            + ")"
            for row in rule.rows
        ]
        result = "value"
        stored = value_type
    p = rule.param
    test = f"type({p.name}) is not int or {p.name} < {p.min}"
    if p.max is not None:
        test = f"type({p.name}) is not int or not {p.min} <= {p.name} <= {p.max}"
    imports = [("typing", "Final"), ("rulebook._support", "bad_int")]
    if enum is not None:
        imports += [*enum_imports(enum), ("collections.abc", "Mapping")]
    else:
        imports += [("rulebook.json", "Record"), ("typing", "ClassVar")]
    if any(c.type == "dice" for c in rule.columns):
        imports.append(("rulebook.dice", "Dice"))
    below = (
        "return None"
        if rule.below == "none"
        else f"raise bad_int({p.name}, {p.name!r}, {rows_lo(rule)}, {py(p.max)})"
    )
    return {
        "id": rule.qualified_id,
        "enum": enum_view(
            enum, f"The keys of what rule ``{rule.qualified_id}`` answers"
        )
        if enum
        else None,
        "row_class": rule.row_class,
        "row_doc": docstring(
            f"What :func:`{rule.function}` answers. {where_doc(rule)}", "    "
        ),
        "fields": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in rule.columns
        ],
        "ranges": ranges,
        "stored": stored,
        "rows": [
            {"lo": row.lo, "hi": py(row.hi), "value": value}
            for row, value in zip(rule.rows, values, strict=True)
        ],
        "function": rule.function,
        "param": p.name,
        "test": test,
        "error": f"bad_int({p.name}, {p.name!r}, {p.min}, {py(p.max)})",
        "below": below,
        "result": result,
        "returns": f"{value_type} | None" if rule.below == "none" else value_type,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}{args_doc([p])}\n\n{where_doc(rule)} "
            f"Raises RuleInputError for a {p.name} outside {p.min}..{'' if p.max is None else p.max}.",
            "    ",
        ),
        "imports": imports,
        "exports": [
            rule.function,
            *(x for x in (rule.row_class, enum.name if enum else None) if x),
        ],
    }


def rows_lo(rule: RangeTableRule) -> int:
    return rule.rows[0].lo


def _range_text(row: RangeRow) -> str:
    if row.hi is None:
        return f"{row.lo}+"
    return str(row.lo) if row.lo == row.hi else f"{row.lo}-{row.hi}"


def docs_view(system: System, rule: RangeTableRule, common: View) -> View:
    p = rule.param
    returns = (
        rule.row_class
        or f"dict[{rule.mapping_enum.name if rule.mapping_enum else ''}, str]"
    )
    below_text = (
        f"A {p.name} below {rule.rows[0].lo} gives None."
        if rule.below == "none" and rule.rows[0].lo > (p.min or 0)
        else ""
    )
    dice = list(
        dict.fromkeys(c for row in rule.rows for c in row.cells if isinstance(c, Dice))
    )
    signature = code(
        f"{rule.function}({p.name}: int) -> {returns}"
        + (" | None" if rule.below == "none" else "")
    )
    return common | {
        "api": api(
            common,
            f"Call: {signature}. Allowed: {bounds(p.min, p.max)}.",
        ),
        "param_title": md(rule.param_title),
        "allowed": bounds(p.min, p.max),
        "below": below_text,
        "covers": code(str(rule.covers)) if rule.covers else None,
        "headers": [
            md_cell(rule.param_title),
            *(md_cell(c.title) for c in rule.columns),
        ],
        "rows": [
            [
                md_cell(_range_text(row) + (f" ({row.label})" if row.label else "")),
                *(cell_md(c, v) for c, v in zip(rule.columns, row.cells, strict=True)),
            ]
            for row in rule.rows
        ],
        "dice": [dice_stats(d) for d in dice],
    }
