"""JSON kit: the pieces every kind's part of rules.json is made of (cells, columns, parameters, expressions).

Values are written as the runtime writes them (``rulebook.json``): labels as
their strings, dice as ``{"notation", "count", "sides", "modifier",
"multiplier", "unit"}``, exact fractions as ``"n/d"``, a range as ``[low, high]``,
and ``null`` for every key that has no value, never left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..front.model import (
    Column,
    EnumMember,
    EnumType,
    Loc,
    Param,
    RuleBase,
    System,
)
from ..lang.expr import (
    Checked,
    to_source,
)
from ..runtime.json import (
    JSON,
    to_data,
)
from .trees import to_tree

View = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Refs:
    """What a kind's part of rules.json may ask of its system: the rule that
    each function name of the generated module belongs to."""

    system: System
    rule_ids: Mapping[str, str]

    def rule_id(self, function: str) -> str:
        """The id of the rule whose function (or table) is ``function``."""
        return self.rule_ids[function]


def value(cell: object) -> JSON:
    """A figure of the rules (a cell, a dice value, a default) as JSON data."""
    return to_data(cell)


def plain(raw: object) -> JSON:
    """A value as the rules file wrote it (an example's arguments or answer)."""
    if raw is None or type(raw) in (bool, int, float, str):
        return to_data(raw)
    if isinstance(raw, Mapping):
        return {str(k): plain(v) for k, v in raw.items()}
    if isinstance(raw, list | tuple):
        return [plain(v) for v in raw]
    return to_data(raw)


def loc(where: Loc) -> View:
    return {"file": where.file, "line": where.line, "col": where.col}


def label(member: EnumMember | None) -> str | None:
    return None if member is None else member.label


def enum(e: EnumType) -> View:
    """An enum the system defines: its members, lowest first when it is ordered."""
    return {
        "name": e.name,
        "ordered": e.ordered,
        "past_end": e.past_end if e.ordered else None,
        "members": [{"name": m.name, "label": m.label} for m in e.members],
        "defined_at": loc(e.loc),
    }


def column(c: Column) -> View:
    return {
        "name": c.name,
        "title": c.title,
        "type": c.type,
        "nullable": c.nullable,
        "null_label": c.null_label,
        "signed": c.signed,
        "unit": c.unit,
        "description": c.description,
    }


def value_type(c: Column) -> View:
    """A declared type: its type, whether it may be null, a set of labels it
    (or its items) are of, a record (or state) class it (or its items) are
    of, a whole number's bounds, a list's items and how many."""
    listed = c.type == "list"
    return {
        "type": c.type,
        "nullable": c.nullable,
        "items": c.items if listed else None,
        "enum": c.enum,
        "record": c.record,
        "min": c.lo,
        "max": c.hi,
        "min_items": c.min_items if listed else None,
        "max_items": c.max_items if listed else None,
    }


def record(columns: tuple[Column, ...], cells: tuple[object, ...]) -> View:
    """Cells as a record of the runtime writes them: keyed by column name."""
    return {c.name: value(cell) for c, cell in zip(columns, cells, strict=True)}


def param(p: Param, refs: Refs) -> View:
    """A parameter: its type, the values it allows, its default, its description."""
    default: JSON = None
    if p.has_default and p.default is not None:
        default = (
            p.enum.member(str(p.default)).label
            if p.type == "choice" and p.enum is not None
            else value(p.default)
        )
    default_from = None
    if p.default_call is not None:
        function, args = p.default_call
        default_from = {
            "rule": refs.rule_id(function),
            "function": function,
            "args": {name: plain(v) for name, v in args},
        }
    return {
        "name": p.name,
        "title": p.title,
        "type": p.type,
        "description": p.description,
        "required": not p.has_default,
        "default": default,
        "default_from": default_from,
        "keyword_only": p.keyword_only,
        "nullable": p.nullable,
        "min": p.min,
        "max": p.max,
        "values": list(p.one_of) if p.one_of else None,
        "enum": p.enum.name if p.enum is not None else None,
        "value_enum": p.value_enum.name if p.value_enum is not None else None,
        "value": value_type(p.spec) if p.spec is not None else None,
    }


def params(ps: tuple[Param, ...], refs: Refs) -> list[View]:
    return [param(p, refs) for p in ps]


def tree(node: Any, refs: Refs, params: tuple[Param, ...] = ()) -> View:
    """An expression's tree (see compiler/core/trees.py for its nodes), over
    ``params``, the parameters of the rule it is written in."""
    return to_tree(
        node,
        rounding=refs.system.rounding,
        rule_id=refs.rule_id,
        param_enums={p.name: p.enum.name for p in params if p.enum is not None},
    )


def expression(checked: Checked, refs: Refs, params: tuple[Param, ...] = ()) -> View:
    """A checked expression (over ``params``): its source, type, range and tree."""
    iv = checked.interval
    return {
        "source": to_source(checked.node),
        "type": checked.type,
        "nullable": checked.nullable,
        "enum": checked.enum,
        "range": None if iv is None else {"min": iv.lo, "max": iv.hi},
        "tree": tree(checked.node, refs, params),
    }


def rule_ref(rule: RuleBase | None) -> str | None:
    """Another rule, named by its id."""
    return None if rule is None else rule.id
