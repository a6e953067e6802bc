"""Decision: cases over typed inputs, answered by the first match, every match or the one.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from ... import scope
from .. import calls
from . import data, js, lower, rule, workbench

KIND = calls.make_kind(
    name="decision",
    folder=FsPath(__file__).resolve().parent,
    text="a rule by cases",
    callable=True,
    build=rule.build,
    lower=lower.lower,
    finish=rule.finish,
    scope=scope.decision_function,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    data_view=data.data_view,
    params=calls.params_of,
    columns=workbench.columns,
    explain=workbench.explain,
)
