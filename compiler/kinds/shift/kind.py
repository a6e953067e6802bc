"""Shift: a step along an ordered table key, with the shifted row.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="shift",
    folder=FsPath(__file__).resolve().parent,
    text="a step up or down a table",
    build=rule.build,
    lower=rule.lower,
    data_view=data.data_view,
    explain=workbench.explain,
)
