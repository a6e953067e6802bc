"""Range table: rows keyed by ranges of a number.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from ...front import scope
from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="range_table",
    folder=FsPath(__file__).resolve().parent,
    text="a table of ranges",
    build=rule.build,
    lower=rule.lower,
    callable=True,
    scope=scope.range_table_function,
    data_view=data.data_view,
    params=workbench.params,
    columns=calls.columns_of,
    explain=workbench.explain,
    samples=workbench.samples,
)
