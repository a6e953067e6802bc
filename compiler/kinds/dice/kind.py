"""Dice: one dice expression with a unit.

The kind's plugin: its hooks, named for the registry (compiler/kinds/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from .. import calls
from . import data, rule, workbench

KIND = calls.make_kind(
    name="dice",
    folder=FsPath(__file__).resolve().parent,
    text="a dice roll",
    build=calls.builder_method("dice_rule"),
    lower=rule.lower,
    call=calls.rolled_constant_call,
    data_view=data.data_view,
    call_text=workbench.call_text,
    run_example=workbench.run_example,
    explain=workbench.explain,
    entry=calls.no_entry,
    call_name=workbench.constant,
    samples=calls.one_sample,
    sample_answer=workbench.sample_answer,
    simulate=workbench.roller,
)
