"""Odds in the workbench: a rule's exact odds for the inputs ``rulesc explain`` was given."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from .common import plain
from .context import Context
from .text import bar_chart, percent

__all__ = ["odds_section"]


def odds_section(
    ctx: Context,
    odds: Callable[..., Mapping[Any, Fraction]],
    given: Mapping[str, Any],
    what: str,
) -> None:
    """The chances its odds function answers for ``given`` (the inputs, less
    the rng): a bar for each answer, then the tail an explosion left unknown;
    or why the runtime would not work them out."""
    try:
        chances = odds(**given)
    except ctx.runtime.input_error as exc:  # past the runtime's limit of work
        ctx.out.section(f"Exact odds of {what}", [f"  not worked out: {exc}"])
        return
    rows = [(_label(answer), chance) for answer, chance in chances.items()]
    detail = [str(chance) for _, chance in rows]
    body = bar_chart(rows, detail=detail)
    tail: Fraction = getattr(chances, "tail", Fraction(0))
    if tail:
        body.append(f"  unknown past the depth (the tail): {percent(tail)}   {tail}")
    ctx.out.section(f"Exact odds of {what}", body)


def _label(answer: object) -> str:
    shown = plain(answer)
    if isinstance(shown, bool):
        return "yes" if shown else "no"
    return str(shown)
