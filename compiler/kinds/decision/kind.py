"""Decision: cases over typed inputs, answered by the first match, every match or the one.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from ...front import scope
from .. import calls
from . import data, lower, rule, workbench

KIND = calls.make_kind(
    name="decision",
    folder=FsPath(__file__).resolve().parent,
    text="a rule by cases",
    callable=True,
    build=rule.build,
    lower=lower.lower,
    finish=rule.finish,
    rolls=rule.rolls,
    scope=scope.decision_function,
    data_view=data.data_view,
    params=calls.params_of,
    columns=workbench.columns,
)
