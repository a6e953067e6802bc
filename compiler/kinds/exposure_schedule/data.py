"""Exposure schedule: its part of rules.json (the table, the rolled full time, the two shifts, the fraction)."""

from __future__ import annotations

from fractions import Fraction

from ...core.jsonkit import (
    Refs,
    View,
    value,
)
from ...front.model import System
from ...kinds.exposure_schedule.model import ExposureScheduleRule


def data_view(system: System, rule: ExposureScheduleRule, refs: Refs) -> View:
    kinds = {m.name.lower(): m.label for m in rule.kind_enum.members}
    return {
        "function": rule.function,
        "table": rule.table.id,
        "full_time": rule.full_time.id,
        "instant": rule.instant.id,
        "half": rule.half.id,
        "half_fraction": value(Fraction(*rule.half_fraction)),
        "record": rule.record,
        "kinds": {
            "enum": rule.kind_enum.name,
            "instant": kinds["instant"],
            "half": kinds["half"],
            "full": kinds["full"],
        },
        "param_names": {
            "key": rule.table.key_param,
            "stayed": rule.stayed_param,
            "full": rule.full_param,
        },
        "start_field": rule.start_field,
    }
