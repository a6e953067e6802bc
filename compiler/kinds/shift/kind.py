"""Shift: a step along an ordered table key, with the shifted row.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, js, rule, workbench

KIND = calls.make_kind(
    name="shift",
    folder=FsPath(__file__).resolve().parent,
    text="a step up or down a table",
    build=rule.build,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    data_view=data.data_view,
    explain=workbench.explain,
)
