"""Record: a record type declared once, for fields, parameters, lists and states to hold.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="record",
    folder=FsPath(__file__).resolve().parent,
    text="a record type",
    build=rule.build,
    lower=rule.lower,
    call=workbench.call,
    data_view=data.data_view,
    call_text=workbench.call_text,
    run_example=workbench.run_example,
    columns=workbench.columns,
    explain=workbench.explain,
    entry=calls.no_entry,
    inputs=calls.no_inputs,
    call_name=workbench.call_name,
    samples=workbench.no_samples,
    sample_answer=workbench.sample_answer,
    simulate=calls.not_runnable,
)
