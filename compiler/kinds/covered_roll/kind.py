"""Covered roll: a roll against cover, with its follow-ups.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, js, rule

KIND = calls.make_kind(
    name="covered_roll",
    folder=FsPath(__file__).resolve().parent,
    text="a roll against cover",
    build=rule.build,
    rolls=rule.rolls,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    js_view=js.js_view,
    data_view=data.data_view,
)
