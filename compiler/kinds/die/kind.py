"""Die: a die of the rules' own faces.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="die",
    folder=FsPath(__file__).resolve().parent,
    text="a die of its own faces",
    build=rule.build,
    lower=rule.lower,
    scope=rule.scope,
    call=calls.constant_call,
    data_view=data.data_view,
    call_text=calls.constant_call_text,
    run_example=calls.constant_value,
    explain=workbench.explain,
    entry=calls.no_entry,
    call_name=calls.constant_name,
    samples=calls.one_sample,
    sample_answer=calls.constant_sample,
    simulate=calls.not_runnable,
)
