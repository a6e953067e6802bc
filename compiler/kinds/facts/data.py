"""Facts: its part of rules.json (the fields and the value of each)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    column,
    record,
)
from ...front.model import System
from ...kinds.facts.model import FactsRule


def data_view(system: System, rule: FactsRule, refs: Refs) -> View:
    return {
        "constant": rule.constant,
        "class_name": rule.class_name,
        "fields": [column(c) for c in rule.fields],
        "values": record(rule.fields, rule.values),
    }
