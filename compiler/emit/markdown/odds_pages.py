"""Odds on the pages: a rolling rule's exact chances, from its odds function.

A rule that rolls has an odds function in the generated runtime
(``<function>_odds``). Its page says so, and when the function needs no
argument the page shows its table: each answer, its exact chance and the
chance as a percentage, worked out by the very module the build just made (so
the table is the runtime's answer, not a second derivation). A rule that asks
for a chart of its odds (``odds_chart``) gets a table of them over one
parameter's values, worked out the same way. The odds of a system's pages
take at most ``limits.MAX_PAGE_ODDS_WORK`` steps together (each call's, as the
runtime counts them): the rule whose odds would pass it is a located error.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any, cast

from ...common.diagnostics import Diagnostic
from ...common.limits import (
    MAX_PAGE_ODDS_WORK,
    Allowance,
)
from ...core.program import lowered
from ...core.viewkit import View
from ...front.model import System
from ...lang.expr import parse
from ...lang.naming import odds_function, title_words, words_of
from ...lang.py_names import pyname
from ...runtime.dice_odds import DEPTH
from ..literals import (
    code,
    md,
    md_cell,
)
from .charts import (
    in_a_sentence,
    odds_chart_name,
    odds_svg,
)
from .example_words import shape_of
from .form_words import param_titles
from .math import (
    to_latex,
)

__all__ = ["odds_view", "rules_odds"]


class _Spent(Exception):
    """The system's pages have spent their allowance of odds work."""


class _Pages:
    """The odds work of one system's pages: each call of an odds function (a
    call of the runtime) spends its steps, as the runtime counted them, from
    the system's allowance."""

    def __init__(self, module: ModuleType) -> None:
        package = module.__name__.rpartition(".")[0]
        self.support = importlib.import_module(f"{package}._support")
        self.errors = importlib.import_module(f"{package}.errors")
        self.allowance = Allowance(MAX_PAGE_ODDS_WORK)

    def call(
        self, odds: Callable[..., Mapping[Any, Fraction]], **args: Any
    ) -> Mapping[Any, Fraction]:
        """``odds(**args)``, its steps spent (``_Spent`` past the allowance)."""
        try:
            return odds(**args)
        finally:
            if not self.allowance.take(self.support.CALL.work):
                raise _Spent


def rules_odds(
    system: System, module: ModuleType
) -> tuple[dict[str, View], list[Diagnostic]]:
    """Each rolling rule's odds section (by rule id), from ``module``'s odds
    functions; and the error at the rule whose odds pass the system's allowance."""
    found: dict[str, View] = {}
    pages = _Pages(module)
    for rule in system.rules:
        try:
            view = _rule_odds(system, rule, module, pages)
        except _Spent:
            message = (
                "the odds on this system's pages take more than "
                f"{MAX_PAGE_ODDS_WORK:,} steps to work out (a limit of rulesc)"
            )
            hint = "chart fewer values, or give fewer rules odds that take no argument"
            where = rule.loc
            return found, [Diagnostic(where.file, where.line, where.col, message, hint)]
        if view is not None:
            found[rule.id] = view
    return found, []


def odds_name_of(rule: Any, module: ModuleType) -> str | None:
    """The name (the rules') of ``rule``'s odds function in ``module``, or None
    when it has none: every rule whose function rolls has one."""
    function = getattr(rule, "function", None)
    if not isinstance(function, str):
        return None
    name: str = getattr(rule, "odds_name", None) or odds_function(function)
    return name if callable(getattr(module, pyname(name), None)) else None


def _rule_odds(
    system: System, rule: Any, module: ModuleType, pages: _Pages
) -> View | None:
    """``rule``'s odds section, or None when it has no odds function."""
    name = odds_name_of(rule, module)
    if name is None:
        return None
    odds: object = getattr(module, pyname(name))
    derived = cast("Callable[..., Mapping[object, Any]]", odds)
    fields: tuple[str, ...] = getattr(rule, "odds_of", ())
    titles = [_title(system, rule, f) for f in fields if f != "value"]
    joint = bool(getattr(rule, "joint", False))
    view = odds_view(pyname(name), derived, pages, titles, joint)
    depth = getattr(rule, "depth", None)  # its explosions' depth, if set
    if isinstance(depth, str):
        math = to_latex(parse(depth), rounding=system.rounding)
        view["depth"] = f"${math}$"
        view["turns"] = getattr(rule, "repeat", None) is not None  # turns' depth
    if titles:  # fields of its answer
        view["field"] = " and ".join(titles) + (" together" if joint else "")
    chart = getattr(rule, "odds_chart", None)  # a table of its odds
    if chart is not None:
        what = _title_text(system, rule, chart.field) if chart.field else "Answer"
        over = param_titles(system, rule).get(chart.over) or title_words(chart.over)
        one = derived
        if len(fields) > 1:
            one = _field_of(derived, chart.field)
        where = (system.id, rule.id, what, over)
        view["chart"] = _chart(chart, one, where, pages)
    return view


def _title(system: System, rule: Any, field: str) -> str:
    """A field of a rule's answer as its page names it (its title, Markdown)."""
    return md(_title_text(system, rule, field))


def _title_text(system: System, rule: Any, field: str) -> str:
    """A field of a rule's answer as its page names it (its title, text)."""
    column = shape_of(lowered(system, rule)).columns.get(field)
    return column.title if column is not None else title_words(field)


def _field_of(
    odds: Callable[..., Mapping[object, Any]], field: str
) -> Callable[..., Mapping[object, Fraction]]:
    """The odds of one field, of an odds function answering several."""

    def one(**args: Any) -> Mapping[object, Fraction]:
        found: Mapping[object, Fraction] = odds(**args)[field]
        return found

    return one


def odds_view(
    name: str,
    odds: Callable[..., Mapping[object, Any]],
    pages: _Pages,
    titles: Sequence[str] = (),
    joint: bool = False,
) -> View:
    """The odds section of a rule: how to call ``odds``, and its tables (one,
    or one for each field its odds are of: ``titles``) if it takes no
    argument."""
    params = inspect.signature(odds).parameters
    call = code(f"{name}({', '.join(params)})")
    view: View = {
        "call": call,
        "tables": [],
        "refused": None,
        "field": None,
        "depth": None,
        "turns": False,
        "chart": None,
    }
    if any(p.default is inspect.Parameter.empty for p in params.values()):
        return view
    try:
        found = pages.call(odds)
    except pages.errors.RuleInputError as error:  # past the runtime's limit of work
        return view | {"refused": md(str(error))}
    parts: list[tuple[str | None, Mapping[object, Fraction]]]
    if len(titles) > 1 and not joint:
        each = cast("Mapping[object, Mapping[object, Fraction]]", found)
        parts = [(title, each[key]) for title, key in zip(titles, each, strict=True)]
    else:
        parts = [(" and ".join(titles) if joint else None, found)]
    return view | {"tables": [_table(heading, chances) for heading, chances in parts]}


def _table(heading: str | None, chances: Mapping[object, Fraction]) -> View:
    """One table of chances: each answer, its chance, and the tail."""
    tail: Fraction = getattr(chances, "tail", Fraction(0))
    return {
        "heading": heading,
        "rows": [
            {"answer": md_cell(_answer(v)), "chance": str(p), "percent": _percent(p)}
            for v, p in chances.items()
        ],
        "tail": (str(tail), _percent(tail), DEPTH) if tail else None,
    }


def _chart(
    chart: Any,
    odds: Callable[..., Mapping[Any, Fraction]],
    where: tuple[str, str, str, str],
    pages: _Pages,
) -> View:
    """A table of ``odds`` for each value of the parameter ``chart.over`` (the
    others at their defaults): the mean of the answers listed and the chance
    of more than each number of ``chart.beat`` (all but the chance of that
    number or less: the tail counted as more, as an explosion only adds); and
    a bar chart of each (``where``: the system, the rule, the title of what is
    charted and the parameter's title)."""
    system_id, rule_id, what, over = where
    images: list[str] = []
    svgs: dict[str, str] = {}
    beats = range(chart.beat[0], chart.beat[1] + 1) if chart.beat else range(0)
    rows: list[list[str]] = []
    tail = False
    for value in range(chart.values[0], chart.values[1] + 1):
        try:
            chances = pages.call(odds, **{pyname(chart.over): value})
        except pages.errors.RuleInputError as error:  # past the runtime's limit
            rows.append([str(value), md_cell(str(error)), *("" for _ in beats)])
            continue
        tail = tail or bool(getattr(chances, "tail", 0))
        mean = sum((k * p for k, p in chances.items()), Fraction(0))
        name = odds_chart_name(system_id, rule_id, value)
        heading = f"{over} {value}"
        title = f"Chances of each number of {in_a_sentence(what)}, {heading}"
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
    if isinstance(value, tuple):  # the fields together
        return ", ".join(_answer(v) for v in cast("tuple[object, ...]", value))
    return str(value)


def _percent(chance: Fraction) -> str:
    """A chance as a percentage, to two decimals (never 0 or 100 when it is not)."""
    shown = f"{float(chance * 100):.2f}%"
    if shown == "0.00%" and chance:
        return "< 0.01%"
    if shown == "100.00%" and chance != 1:
        return "> 99.99%"
    return shown
