"""Odds on the pages: a rolling rule's exact chances, from its odds function.

A rule that rolls has an odds function in the generated runtime
(``<function>_odds``). Its page says so, and when the function needs no
argument the page shows its table: each answer, its exact chance and the
chance as a percentage, worked out by the very module the build just made (so
the table is the runtime's answer, not a second derivation). A rule that asks
for a chart of its odds (``odds_chart``) gets a table of them over one
parameter's values, worked out the same way.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import ModuleType
from typing import Any, cast

from .charts import odds_chart_name, odds_svg
from .core.program import lowered
from .example_words import shape_of
from .expr import parse
from .expr_math import to_latex, words_of
from .literals import code, md, md_cell
from .model import System
from .naming import odds_function
from .py_names import pyname
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
        odds: object = getattr(module, pyname(name), None)
        if callable(odds):
            derived = cast("Callable[..., Mapping[object, Fraction]]", odds)
            found[rule.id] = odds_view(pyname(name), derived)
            depth = getattr(rule, "depth", None)  # its explosions' depth, if set
            if isinstance(depth, str):
                math = to_latex(parse(depth), rounding=system.rounding)
                found[rule.id]["depth"] = f"${math}$"
            field = getattr(rule, "odds", None)  # a field of its answer
            if isinstance(field, str) and field != "value":
                column = shape_of(lowered(system, rule)).columns.get(field)
                title = column.title if column is not None else words_of(field)
                found[rule.id]["field"] = md(title)
            chart = getattr(rule, "odds_chart", None)  # a table of its odds
            if chart is not None:
                what = (
                    field if isinstance(field, str) and field != "value" else "answer"
                )
                where = (system.id, rule.id, what)
                found[rule.id]["chart"] = _chart(chart, derived, where)
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
            "chart": None,
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
            "chart": None,
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
        "chart": None,
    }


def _chart(
    chart: Any,
    odds: Callable[..., Mapping[Any, Fraction]],
    where: tuple[str, str, str],
) -> View:
    """A table of ``odds`` for each value of the parameter ``chart.over`` (the
    others at their defaults): the mean of the answers listed and the chance
    of more than each number of ``chart.beat`` (all but the chance of that
    number or less: the tail counted as more, as an explosion only adds); and
    a bar chart of each (``where``: the system, the rule and what is charted)."""
    system_id, rule_id, what = where
    images: list[str] = []
    svgs: dict[str, str] = {}
    errors = importlib.import_module(f"{odds.__module__.rpartition('.')[0]}.errors")
    beats = range(chart.beat[0], chart.beat[1] + 1) if chart.beat else range(0)
    rows: list[list[str]] = []
    tail = False
    for value in range(chart.values[0], chart.values[1] + 1):
        try:
            chances = odds(**{pyname(chart.over): value})
        except errors.RuleInputError as error:  # past the runtime's limit of work
            rows.append([str(value), md_cell(str(error)), *("" for _ in beats)])
            continue
        tail = tail or bool(getattr(chances, "tail", 0))
        mean = sum((k * p for k, p in chances.items()), Fraction(0))
        name = odds_chart_name(system_id, rule_id, value)
        title = f"Chances of {what}, {chart.over} = {value}"
        heading = f"{chart.over} = {value}"
        tail_of = getattr(chances, "tail", Fraction(0))
        svgs[name] = odds_svg(title, heading, what, dict(chances), tail_of)
        images.append(f"![{md(title)}]({name})")
        above = [
            1 - sum((p for k, p in chances.items() if k <= n), Fraction(0))
            for n in beats
        ]
        rows.append([str(value), f"{float(mean):.2f}", *map(_rounded, above)])
    return {
        "title": md(chart.title),
        "headers": [
            f"*{md_cell(words_of(chart.over))}*",
            "Mean",
            *(f"beat {n}" for n in beats),
        ],
        "rows": rows,
        "tail": tail,
        "images": images,
        "svgs": svgs,
    }


def _rounded(chance: Fraction) -> str:
    """A chance as a percentage rounded half up to two decimals, exactly."""
    if 0 < chance < Fraction(1, 20000):
        return "< 0.01%"
    hundredths = int(chance * 10000 + Fraction(1, 2))
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


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
