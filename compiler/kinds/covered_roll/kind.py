"""Covered roll: a roll against cover, with its follow-ups.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule

KIND = calls.make_kind(
    name="covered_roll",
    folder=FsPath(__file__).resolve().parent,
    text="a roll against cover",
    build=rule.build,
    rolls=rule.rolls,
    lower=rule.lower,
    params=rule.params,
    data_view=data.data_view,
)
