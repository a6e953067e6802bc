"""Success pool: its part of rules.json (the pool's figures, and the chart the docs draw)."""

from __future__ import annotations

from ...jsonkit import Refs, View, value
from ...kinds.success_pool.model import SuccessPoolRule
from ...model import System


def data_view(system: System, rule: SuccessPoolRule, refs: Refs) -> View:
    chart = None
    if rule.chart_pools is not None and rule.chart_beat is not None:
        chart = {
            "title": rule.chart_title,
            "pools": list(rule.chart_pools),
            "beat": list(rule.chart_beat),
        }
    return {
        "constant": rule.constant,
        "functions": {
            "roll": rule.roll_function,
            "distribution": rule.distribution_function,
        },
        "pool": value(rule.pool),
        "chart": chart,
    }
