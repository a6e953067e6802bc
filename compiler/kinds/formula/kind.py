"""Formula: typed parameters and one checked expression.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from ...front import scope
from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="formula",
    folder=FsPath(__file__).resolve().parent,
    text="a formula",
    callable=True,
    build=calls.builder_method("formula"),
    scope=scope.formula_function,
    lower=rule.lower,
    data_view=data.data_view,
    params=calls.params_of,
    explain=workbench.explain,
)
