"""The plain core (rulesc.core.plain): the lowering leaves no surface construct, and
every target's printer spells every helper the core calls."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, get_args

import pytest
from hypothesis import given, settings

from rulesc.core import plain as p
from rulesc.emit.javascript.printer import JavaScriptPrinter
from rulesc.emit.printer import Names, Printer
from rulesc.emit.python.printer import PythonPrinter
from rulesc.lang.expr import check

from .test_expr import DPARAMS, TABLES, TREES

PLAIN = get_args(p.Plain)


def _parts(node: Any) -> list[Any]:
    """``node`` and every part of it, depth first."""
    found = [node]
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if is_dataclass(item) and not isinstance(item, type):
                found += _parts(item)
    return found


def _printers() -> list[Printer]:
    names = Names(label=lambda e, v: v, choice=lambda q, v: v, lookup=lambda t, k: t)
    return [JavaScriptPrinter(names), PythonPrinter(names, frozenset())]


@settings(max_examples=150, deadline=None)
@given(tree=TREES)
def test_a_lowered_expression_is_plain_forms_alone(tree: Any) -> None:
    checked = check(tree, DPARAMS, tables=TABLES)
    for rounding in ("down", "up"):
        lowered = p.lower(checked.node, rounding)
        parts = _parts(lowered)
        assert all(isinstance(part, PLAIN) for part in parts), parts
        helpers = {part.name for part in parts if isinstance(part, p.Helper)}
        assert helpers <= set(p.HELPERS)
        # `??` and a guarded key bind a value once: its reads sit inside
        bound = [part for part in parts if isinstance(part, p.Let)]
        reads = [part for part in parts if isinstance(part, p.Temp)]
        assert {t.hint for t in reads} <= {let.hint for let in bound}
        for printer in _printers():
            assert printer.print(lowered)


_ARGS = {
    "clamp": 3,
    "count_within": 3,
    "step": 3,
    "max": 2,
    "min": 2,
    "in": 2,
    "equal": 2,
    "item": 2,
    "at": 2,
    "floor_div": 2,
    "ceil_div": 2,
    "round_div": 2,
    "tally": 2,
    "count": 2,
    "max_by": 2,
    "min_by": 2,
    "sorted_by": 2,
}


@pytest.mark.parametrize("helper", sorted(p.HELPERS))
def test_every_printer_spells_every_helper(helper: str) -> None:
    args = tuple(p.Var(f"a{n}") for n in range(_ARGS.get(helper, 1)))
    node = p.Helper(helper, args, "Ladder" if helper in ("step", "rank") else None)
    for printer in _printers():
        code = printer.print(node)
        assert all(f"a{n}" in code for n in range(len(args))), (helper, code)
