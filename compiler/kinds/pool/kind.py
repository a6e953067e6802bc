"""Pool: an amount dealt over time, a part at each interval.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule

KIND = calls.make_kind(
    name="pool",
    folder=FsPath(__file__).resolve().parent,
    text="points dealt over time",
    build=rule.build,
    lower=rule.lower,
    params=rule.params,
    data_view=data.data_view,
)
