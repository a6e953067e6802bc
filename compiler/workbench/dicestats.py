"""Dice statistics: a dice expression's range, mean and exact chances, as text lines."""

from __future__ import annotations

from fractions import Fraction
from typing import TypeVar

from ..runtime.dice import Dice
from .text import bar_chart, number, percent

MAX_CHART_ROWS = 40
V = TypeVar("V", int, Fraction, "int | Fraction")  # a value: a whole number, or exact


def stats_lines(dice: Dice) -> list[str]:
    """Range, exact mean, and the distribution as a chart (grouped if very wide)."""
    dist = dice.distribution()
    unit = f" {dice.unit}" if dice.unit else ""
    mean = dice.mean
    lines = [
        f"range: {dice.min} to {dice.max}{unit}",
        f"mean:  {number(mean)}{unit}"
        + (f" (exactly {mean})" if mean.denominator != 1 else ""),
    ]
    if len(dist) == 1:
        lines.append("always " + str(dice.min) + unit)
        return lines
    return lines + chart_lines(dist)


def chart_lines(dist: dict[V, Fraction]) -> list[str]:
    """The distribution as a chart: value, chance, exact chance, chance of the
    value or more (values grouped into ranges if very many)."""
    lines: list[str] = []
    rows = _grouped(dist)
    at_least = _at_least(dist)
    exact = [_exact(share) for _, _, share in rows]
    wide = max(len(e) for e in exact)
    detail = [
        f"{e.ljust(wide)}  at least {percent(at_least[low])}"
        for e, (low, _, _) in zip(exact, rows, strict=True)
    ]
    labels = [str(low) if low == high else f"{low}-{high}" for low, high, _ in rows]
    lines.append(
        "distribution (value, chance, exact chance, chance of the value or more):"
    )
    lines += bar_chart(
        [(label, share) for label, (_, _, share) in zip(labels, rows, strict=True)],
        detail=detail,
    )
    return lines


def _exact(share: Fraction) -> str:
    text = str(share)
    return text if len(text) <= 15 else ""


def _grouped(dist: dict[V, Fraction]) -> list[tuple[V, V, Fraction]]:
    values = list(dist)
    if len(values) <= MAX_CHART_ROWS:
        return [(v, v, dist[v]) for v in values]
    size = -(-len(values) // MAX_CHART_ROWS)
    rows = []
    for start in range(0, len(values), size):
        chunk = values[start : start + size]
        rows.append((chunk[0], chunk[-1], sum((dist[v] for v in chunk), Fraction(0))))
    return rows


def _at_least(dist: dict[V, Fraction]) -> dict[V, Fraction]:
    found: dict[V, Fraction] = {}
    running = Fraction(0)
    for value in reversed(list(dist)):
        running += dist[value]
        found[value] = running
    return found
