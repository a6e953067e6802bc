"""Record: its part of rules.json (its class and its fields, each typed)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
    value_type,
)
from ...front.model import System
from ...kinds.record.model import RecordRule


def data_view(system: System, rule: RecordRule, refs: Refs) -> View:
    return {
        "class_name": rule.class_name,
        "fields": [
            {
                "name": f.column.name,
                "title": f.column.title,
                "description": f.column.description,
                "unit": f.column.unit,
                "null_label": f.column.null_label,
                "value": value_type(f.column),
            }
            for f in rule.fields
        ],
    }
