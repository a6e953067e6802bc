"""Recovery: a rate at which a score comes back.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule

KIND = calls.make_kind(
    name="recovery",
    folder=FsPath(__file__).resolve().parent,
    text="a recovery rate",
    build=rule.build,
    lower=rule.lower,
    params=rule.params,
    data_view=data.data_view,
)
