"""Track: a staged track moved by die rolls, marking points.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="track",
    folder=FsPath(__file__).resolve().parent,
    text="a table of worsening effects",
    build=rule.build,
    lower=rule.lower,
    call=workbench.call,
    data_view=data.data_view,
    call_text=workbench.call_text,
    run_example=workbench.run_example,
    explain=workbench.explain,
    entry=calls.no_entry,
    inputs=workbench.inputs,
    call_name=workbench.call_name,
    samples=workbench.samples,
    sample_answer=workbench.sample_answer,
    simulate=calls.not_runnable,
)
