"""Process: a seeded, time-ordered simulation of checks and effects.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, lower, rule, workbench

KIND = calls.make_kind(
    name="process",
    folder=FsPath(__file__).resolve().parent,
    text="a step-by-step simulation",
    build=rule.build,
    lower=lower.lower,
    rolls=rule.rolls,
    data_view=data.data_view,
    explain=workbench.explain,
    run_lines=workbench.run_lines,
    summary=workbench.summary,
)
