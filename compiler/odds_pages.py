"""Odds on the pages: a rolling rule's exact chances, from its odds function.

A rule that rolls has an odds function in the generated runtime
(``<function>_odds``). Its page says so, and when the function needs no
argument the page shows its table: each answer, its exact chance and the
chance as a percentage, worked out by the very module the build just made (so
the table is the runtime's answer, not a second derivation).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import ModuleType
from typing import cast

from .literals import code, md, md_cell
from .model import System
from .naming import odds_function
from .runtime.dice_odds import DEPTH
from .viewkit import View

__all__ = ["odds_view", "rules_odds"]


def rules_odds(system: System, module: ModuleType) -> dict[str, View]:
    """Each rolling rule's odds section (by rule id), from ``module``'s odds functions."""
    found: dict[str, View] = {}
    for rule in system.rules:
        function = getattr(rule, "function", None)
        if not isinstance(function, str):
            continue
        name = getattr(rule, "odds_name", None) or odds_function(function)
        odds: object = getattr(module, name, None)
        if callable(odds):
            derived = cast("Callable[..., Mapping[object, Fraction]]", odds)
            found[rule.id] = odds_view(name, derived)
            depth = getattr(rule, "depth", None)  # its explosions' depth, if set
            if isinstance(depth, str):
                found[rule.id]["depth"] = code(depth)
            field = getattr(rule, "odds", None)  # a field of its answer
            if isinstance(field, str) and field != "value":
                found[rule.id]["field"] = code(field)
    return found


def odds_view(name: str, odds: Callable[..., Mapping[object, Fraction]]) -> View:
    """The odds section of a rule: how to call ``odds``, and its table if it
    takes no argument."""
    params = inspect.signature(odds).parameters
    call = code(f"{name}({', '.join(params)})")
    if any(p.default is inspect.Parameter.empty for p in params.values()):
        return {
            "call": call,
            "rows": [],
            "tail": None,
            "refused": None,
            "field": None,
            "depth": None,
        }
    errors = importlib.import_module(f"{odds.__module__.rpartition('.')[0]}.errors")
    try:
        chances = odds()
    except errors.RuleInputError as error:  # past the runtime's limit of work
        refused = md(str(error))
        return {
            "call": call,
            "rows": [],
            "tail": None,
            "refused": refused,
            "field": None,
            "depth": None,
        }
    tail: Fraction = getattr(chances, "tail", Fraction(0))
    return {
        "call": call,
        "rows": [
            {"answer": md_cell(_answer(v)), "chance": str(p), "percent": _percent(p)}
            for v, p in chances.items()
        ],
        "tail": (str(tail), _percent(tail), DEPTH) if tail else None,
        "refused": None,
        "field": None,
        "depth": None,
    }


def _answer(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _percent(chance: Fraction) -> str:
    """A chance as a percentage, to two decimals (never 0 or 100 when it is not)."""
    shown = f"{float(chance * 100):.2f}%"
    if shown == "0.00%" and chance:
        return "< 0.01%"
    if shown == "100.00%" and chance != 1:
        return "> 99.99%"
    return shown
