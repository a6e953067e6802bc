"""State: a level on a ladder moved by named transitions, or a record of fields.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import rule, shapes, workbench

KIND = calls.make_kind(
    name="state",
    folder=FsPath(__file__).resolve().parent,
    text="a condition track",
    build=shapes.build,
    lower=shapes.lower,
    call=shapes.call,
    data_view=shapes.data_view,
    call_text=rule.call_text,
    run_example=rule.run,
    plain=shapes.plain,
    explain=shapes.explain,
    entry=calls.no_entry,
    inputs=calls.no_inputs,  # its actions (transitions, some with arguments): no form yet
    call_name=workbench.call_name,
    samples=shapes.samples,
    sample_answer=shapes.sample_answer,
    simulate=calls.not_runnable,
)
