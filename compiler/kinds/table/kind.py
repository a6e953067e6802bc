"""Table: rows keyed by a label, each a record of typed columns.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from ...front import scope
from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="table",
    folder=FsPath(__file__).resolve().parent,
    text="a table",
    build=calls.builder_method("table"),
    scope=scope.table_scope,
    lower=rule.lower,
    data_view=data.data_view,
    columns=calls.columns_of,
    explain=workbench.explain,
)
