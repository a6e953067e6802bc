"""Exposure schedule: what a stay of some time at a source gives.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule

KIND = calls.make_kind(
    name="exposure_schedule",
    folder=FsPath(__file__).resolve().parent,
    text="exposure by time spent",
    build=rule.build,
    lower=rule.lower,
    params=rule.params,
    data_view=data.data_view,
)
