"""State: a level on a ladder moved by named transitions.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, js, rule, workbench

KIND = calls.make_kind(
    name="state",
    folder=FsPath(__file__).resolve().parent,
    text="a condition track",
    runtime=("_state.py",),
    js_runtime=("_state.js",),
    build=rule.build,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    js_plan=js.js_plan,
    data_view=data.data_view,
    call_text=rule.call_text,
    run_example=rule.run,
    plain=workbench.state_plain,
    explain=workbench.explain,
    entry=calls.no_entry,
    inputs=calls.no_inputs,  # its actions (transitions, some with arguments): no form yet
    call_name=workbench.call_name,
    samples=workbench.samples,
    sample_answer=workbench.sample_answer,
    simulate=calls.not_runnable,
)
