"""Decision: its part of rules.json (the parameters, the answer's slots, every case as trees)."""

from __future__ import annotations

from typing import Any

from ...core.jsonkit import (
    Refs,
    View,
    expression,
    params,
    tree,
)
from ...core.trees import (
    dice_literal,
    literal,
)
from ...front.model import (
    EnumMember,
    Param,
    System,
)
from ...kinds.decision.model import DecisionCase, DecisionRule, Slot
from ...kinds.formula.data import lets
from ...lang.naming import odds_function
from ...runtime.dice import Dice


def _value(
    slot: Slot, given: tuple[str, Any], refs: Refs, params: tuple[Param, ...]
) -> View:
    """A case's value for a slot, as an expression tree (a literal is a leaf)."""
    kind, item = given
    if kind == "expr":
        return tree(item.node, refs, params)
    if kind == "member":
        assert isinstance(item, EnumMember) and slot.enum is not None
        return literal("label", item.label, slot.enum.name)
    if isinstance(item, Dice):
        return dice_literal(item)
    if item is None:
        return literal("null", None)
    if type(item) is bool:
        return literal("bool", item)
    if type(item) is int:
        return literal("int", item)
    return literal("text", str(item))


def _case(rule: DecisionRule, case: DecisionCase, refs: Refs) -> View:
    assert case.when is not None, "a checked decision has every condition"
    slots = {s.name: s for s in rule.slots}
    return {
        "when": expression(case.when, refs, rule.params),
        "then": None
        if case.values is None
        else {
            name: _value(slots[name], given, refs, rule.params)
            for name, given in case.values
        },
        "refuse": case.refuse,
    }


def data_view(system: System, rule: DecisionRule, refs: Refs) -> View:
    return {
        "function": rule.function,
        "params": params(rule.params, refs),
        "let": lets(rule.lets, refs, rule.params),
        "shape": rule.shape,
        "result": rule.result,
        "key_enum": None if rule.key_enum is None else rule.key_enum.name,
        "slots": [
            {
                "name": s.name,
                "title": s.title,
                "type": s.type,
                "nullable": s.nullable,
                "enum": None if s.enum is None else s.enum.name,
                "items": s.items,
                "record": s.record,
                "null_label": s.null_label,
                "description": s.description,
            }
            for s in rule.slots
        ],
        "hit_policy": rule.hit_policy,
        "odds": _odds(rule),
        "odds_function": None
        if rule.odds is None
        else rule.odds_name or odds_function(rule.function),
        "depth": rule.depth,
        "odds_chart": None
        if rule.odds_chart is None
        else {
            "title": rule.odds_chart.title,
            "over": rule.odds_chart.over,
            "field": rule.odds_chart.field,
            "values": list(rule.odds_chart.values),
            "beat": None
            if rule.odds_chart.beat is None
            else list(rule.odds_chart.beat),
        },
        "repeat": None
        if rule.repeat is None
        else {
            "state": [
                {
                    "name": v.name,
                    "type": v.type,
                    "items": v.items,
                    "record": v.record,
                    "min": v.min,
                    "max": v.max,
                    "enum": None if v.enum is None else v.enum.name,
                    "description": v.description,
                    "start": expression(v.start, refs, rule.params),
                }
                for v in rule.repeat.state
            ],
            "let": lets(rule.repeat.lets, refs, rule.params),
            "set": [
                {"name": s.name, "value": expression(s.checked, refs, rule.params)}
                for s in rule.repeat.sets
            ],
            "until": expression(rule.repeat.until, refs, rule.params),
            "max_turns": rule.repeat.max_turns,
        },
        "guards": [
            {"before": g.before} | _case(rule, g.case, refs) for g in rule.guards
        ],
        "cases": [_case(rule, c, refs) for c in rule.cases],
        "methods": [
            {
                "name": m.name,
                "rule": m.rule,
                "args": dict(m.args),
                "only_if": None
                if m.only_if is None
                else expression(m.only_if, refs, rule.params),
                "refuse": m.refuse,
                "description": m.description,
            }
            for m in rule.methods
        ],
    }


def _odds(rule: DecisionRule) -> str | list[str] | dict[str, list[str]] | None:
    """What its odds are of, as the rules write it: one field, a list of
    fields, or the fields together."""
    if rule.joint:
        return {"joint": list(rule.odds_of)}
    if len(rule.odds_of) > 1:
        return list(rule.odds_of)
    return rule.odds
