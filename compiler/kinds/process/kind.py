"""Process: a seeded, time-ordered simulation of checks and effects.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, js, rule, workbench

KIND = calls.make_kind(
    name="process",
    folder=FsPath(__file__).resolve().parent,
    text="a step-by-step simulation",
    runtime=("_process.py",),
    js_runtime=("_process.js",),
    build=rule.build,
    rolls=rule.rolls,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    data_view=data.data_view,
    explain=workbench.explain,
    run_lines=workbench.run_lines,
    summary=workbench.summary,
)
