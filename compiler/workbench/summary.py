"""Summary: the figures of many runs of a rule, counted for ``rulesc simulate --runs``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .common import plain
from .text import humanize

Summary = dict[str, Any]


def answers_summary(answers: Sequence[Any]) -> Summary:
    """Each figure of the answers: a distribution, a share, or how often each value."""
    first = answers[0]
    fields: dict[str, list[Any]] = {}
    record_fields = getattr(type(first), "FIELDS", None)  # a record of the runtime
    if isinstance(record_fields, tuple):
        for name in record_fields:
            if name.startswith("_"):
                continue
            values = [getattr(a, name) for a in answers]
            if all(isinstance(v, list | tuple) for v in values):
                fields[f"{name} (how many)"] = [len(v) for v in values]
            else:
                fields[name] = values
    else:
        fields["answer"] = list(answers)
    summary: Summary = {}
    for name, values in fields.items():
        values = [_figure(v) for v in values]
        if all(isinstance(v, bool) for v in values):
            summary[f"{humanize(name)}: how often yes"] = {
                "share": Counter({"yes": sum(values)})
            }
        elif all(type(v) is int or v is None for v in values):
            summary[f"{humanize(name)}, distribution"] = Counter(values)
        else:
            summary[f"{humanize(name)}, how often each"] = Counter(
                str(v) for v in values
            )
    return summary


def _figure(value: Any) -> Any:
    """A value a summary counts: labels for choices, the sum of a list of numbers."""
    plain_value = plain(value)
    if isinstance(plain_value, list) and all(type(v) is int for v in plain_value):
        return sum(plain_value)
    if isinstance(plain_value, list | dict):
        return json.dumps(plain_value, ensure_ascii=False)
    return plain_value
