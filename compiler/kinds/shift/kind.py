"""Shift: a step along an ordered table key, with the shifted row.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="shift",
    folder=FsPath(__file__).resolve().parent,
    text="a step along a ladder",
    build=rule.build,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    data_view=data.data_view,
    explain=workbench.explain,
)
