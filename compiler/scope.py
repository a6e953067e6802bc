"""Scope: the system's rules as expressions see them (tables read, rules called)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import expr
from .kinds.decision.model import DecisionRule, Slot
from .kinds.formula.model import FormulaRule
from .kinds.range_table.model import RangeTableRule
from .kinds.table.model import TableRule
from .model import Column, Loc, Param, System
from .runtime.dice import Dice

# Column and slot types as the expression checker types them.
EXPR_TYPES: dict[str, expr.ValueType] = {
    "int": "int",
    "bool": "bool",
    "text": "text",
    "choice": "choice",
    "dice": "dice",
}
_READ_COLUMNS = (
    "int",
    "bool",
    "text",
)  # besides dice: the column types expressions read


def table_scope(rule: TableRule) -> expr.Table:
    """A table as expressions read it: name(key).field, dice fields by their parts."""
    fields = _fields(rule.columns, [row.cells for row in rule.rows])
    return expr.Table(
        rule.function,
        rule.enum.name,
        tuple(m.label for m in rule.enum.members),
        fields,
    )


def formula_function(rule: FormulaRule) -> expr.Function:
    """A formula as expressions call it."""
    iv = rule.checked.interval or expr.Interval(None, None)
    return expr.Function(
        rule.function,
        rule.id,
        tuple(param_spec(p) for p in rule.params),
        expr.Field("int", False, iv.lo, iv.hi),
        rolls=any(
            expr.dice_in(n) is not None
            for n in (rule.checked.node, *(let.checked.node for let in rule.lets))
        ),
    )


def decision_function(rule: DecisionRule) -> expr.Function | None:
    """A decision answering one value, or a record, as expressions call it
    (``name(args).field`` reads a field of the record; one answering a value
    for each label, or a list of answers, is not called)."""
    if rule.hit_policy == "collect":
        return None
    if rule.shape == "fields":
        return expr.Function(
            rule.function,
            rule.id,
            tuple(param_spec(p) for p in rule.params),
            expr.Field("int", False),  # not read: the fields are
            rolls=rule.rolls,
            fields={
                s.name: _ranged(rule, s) for s in rule.slots if s.type in EXPR_TYPES
            },
        )
    if rule.shape != "value":
        return None
    field = _ranged(rule, rule.slots[0])
    return expr.Function(
        rule.function,
        rule.id,
        tuple(param_spec(p) for p in rule.params),
        field,
        rolls=rule.rolls,
        odds=rule.odds_name or "",
    )


def param_spec(param: Param) -> expr.Param:
    """A parameter as the expression checker sees it."""
    if param.type == "mapping":
        assert param.enum is not None and param.value_enum is not None
        values = param.value_enum
        return expr.Param(
            param.name,
            "mapping",
            key_enum=param.enum.name,
            key_labels=tuple(m.label for m in param.enum.members),
            value=expr.Field(
                "choice",
                choices=tuple(m.label for m in values.members),
                enum=values.name,
            ),
            keyword_only=param.keyword_only,
            has_default=param.has_default or param.default_call is not None,
        )
    return expr.Param(
        param.name,
        param.type,
        param.min,
        param.max,
        tuple(m.label for m in param.enum.members) if param.enum else (),
        enum=param.enum.name if param.enum else None,
        nullable=param.nullable,
        keyword_only=param.keyword_only,
        has_default=param.has_default or param.default_call is not None,
    )


def slot_field(slot: Slot) -> expr.Field:
    """A decision's answer slot as the expression checker sees it."""
    enum = slot.enum
    return expr.Field(
        EXPR_TYPES[slot.type],
        slot.nullable,
        choices=tuple(m.label for m in enum.members) if enum else (),
        enum=enum.name if enum else None,
    )


def _ranged(rule: DecisionRule, slot: Slot) -> expr.Field:
    """A decision's slot as expressions read it (a number with its range)."""
    field = slot_field(slot)
    if field.type != "int":
        return field
    iv = value_range(rule, slot.name)
    return replace(field, min=iv.lo, max=iv.hi)


def value_range(rule: DecisionRule, name: str | None = None) -> expr.Interval:
    """The range of an int-valued decision's answers (of its slot ``name``,
    where it answers fields), over all its cases."""
    lo: int | None = None
    hi: int | None = None
    first = True
    for case in rule.cases:
        for slot, (kind, item) in case.values or ():
            if name is not None and slot != name:
                continue
            if kind == "literal" and type(item) is int:
                iv = expr.Interval(item, item)
            elif kind == "expr" and item is not None and item.interval is not None:
                iv = item.interval
            elif kind == "literal" and item is None:
                continue
            else:
                return expr.Interval(None, None)
            lo = (
                iv.lo
                if first
                else (None if lo is None or iv.lo is None else min(lo, iv.lo))
            )
            hi = (
                iv.hi
                if first
                else (None if hi is None or iv.hi is None else max(hi, iv.hi))
            )
            first = False
    return expr.Interval(lo, hi)


def table_values(
    system: System,
) -> tuple[dict[str, dict[str, dict[str, object]]], dict[tuple[str, str], Loc]]:
    """Every table of the system as formulas read them, and where each row is."""
    tables: dict[str, dict[str, dict[str, object]]] = {}
    rows: dict[tuple[str, str], Loc] = {}
    for rule in system.rules:
        if not isinstance(rule, TableRule):  # the rules expressions read as tables
            continue
        fields = [
            (i, c.name)
            for i, c in enumerate(rule.columns)
            if c.type in ("int", "text", "bool", "dice")
        ]
        tables[rule.function] = {
            row.key.label: {name: row.cells[i] for i, name in fields}
            for row in rule.rows
        }
        for row in rule.rows:
            rows[(rule.function, row.key.label)] = row.loc
    return tables, rows


def range_table_function(rule: RangeTableRule) -> expr.Function | None:
    """A range table answering records, as expressions call it:
    ``name(number).field``, for a number the table answers a row for (from its
    first range up, within its parameter's limits); one answering a mapping
    of labels is not called."""
    if rule.row_class is None:
        return None
    fields = _fields(rule.columns, [row.cells for row in rule.rows])
    first = rule.rows[0].lo
    low = first if rule.param.min is None else max(rule.param.min, first)
    spec = replace(param_spec(rule.param), min=low)
    return expr.Function(
        rule.function,
        rule.id,
        (spec,),
        expr.Field("int", False),  # not read: the fields are
        fields=fields,
    )


def _fields(
    columns: Sequence[Column], rows: Sequence[Sequence[object]]
) -> dict[str, expr.Field]:
    """The columns of a table's rows as expressions read them (dice by their parts)."""
    fields = {}
    for index, col in enumerate(columns):
        values = [cells[index] for cells in rows]
        if col.type == "dice":
            dice = [v for v in values if isinstance(v, Dice)]
            parts = tuple(
                (
                    part,
                    min(getattr(d, part) for d in dice),
                    max(getattr(d, part) for d in dice),
                )
                for part in expr.DICE_PARTS
            )
            fields[col.name] = expr.Field("dice", col.nullable, parts=parts)
            continue
        if col.type not in _READ_COLUMNS:
            continue
        ints = [v for v in values if type(v) is int]
        fields[col.name] = expr.Field(
            EXPR_TYPES[col.type],
            col.nullable,
            min(ints) if ints else None,
            max(ints) if ints else None,
        )
    return fields


def uncalled(raw: Mapping[str, Any], kinds: Mapping[str, Any]) -> str | None:
    """Why an expression cannot call a rule (its data as written) by its
    function, or None where it can: a rule answering a value for each label
    or a list of answers, or a rule of a kind expressions do not call."""
    kind = raw.get("kind")
    rule = raw.get("id")
    if not isinstance(kind, str) or kind not in kinds:
        return None
    whose = f"is the function of rule {rule!r}"
    if kinds[kind].callable:
        if "mapping" in raw:
            return f"{whose}, which answers a value for each label of its key"
        if raw.get("hit_policy") == "collect":
            return f"{whose}, which answers a list (an answer for each case that holds)"
        if kind == "range_table" and "row" not in raw:
            return f"{whose}, which answers a value for each label"
        return None
    return f"{whose}, a {kind} rule"
