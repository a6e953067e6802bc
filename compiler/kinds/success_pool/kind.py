"""Success pool: a pool of dice counting successes.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, js, rule, workbench

KIND = calls.make_kind(
    name="success_pool",
    folder=FsPath(__file__).resolve().parent,
    text="a dice pool",
    runtime=("_success_pool.py",),
    js_runtime=("_success_pool.js",),
    build=rule.build,
    rolls=rule.rolls,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    call_plan=js.js_plan,
    data_view=data.data_view,
    call_text=workbench.call_text,
    run_example=workbench.run_example,
    explain=workbench.explain,
    entry=workbench.entry,
    call_name=workbench.call_name,
    samples=workbench.samples,
    sample_answer=workbench.sample_answer,
    simulate=workbench.roller,
)
