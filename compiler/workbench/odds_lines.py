"""Odds in the workbench: a rule's exact odds for the inputs ``rulesc explain`` was given."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from .common import plain
from .context import Context
from .text import bar_chart, percent

__all__ = ["odds_section"]


def odds_section(
    ctx: Context,
    odds: Callable[..., Mapping[Any, Any]],
    given: Mapping[str, Any],
    what: str,
    fields: Sequence[str] = (),
) -> None:
    """The chances its odds function answers for ``given`` (the inputs, less
    the rng): a bar for each answer, then the tail an explosion left unknown
    (a section for each of ``fields``, where the odds are of several); or
    why the runtime would not work them out."""
    try:
        chances = odds(**given)
    except ctx.runtime.input_error as exc:  # past the runtime's limit of work
        ctx.out.section(f"Exact odds of {what}", [f"  not worked out: {exc}"])
        return
    if len(fields) > 1 and all(f in chances for f in fields):
        for field in fields:
            _section(ctx, chances[field], field)
        return
    _section(ctx, chances, what)


def _section(ctx: Context, chances: Mapping[Any, Fraction], what: str) -> None:
    rows = [(_label(answer), chance) for answer, chance in chances.items()]
    detail = [str(chance) for _, chance in rows]
    body = bar_chart(rows, detail=detail)
    tail: Fraction = getattr(chances, "tail", Fraction(0))
    if tail:
        body.append(f"  unknown past the depth (the tail): {percent(tail)}   {tail}")
    ctx.out.section(f"Exact odds of {what}", body)


def _label(answer: object) -> str:
    if isinstance(answer, tuple):  # fields together
        return ", ".join(_label(a) for a in cast("tuple[object, ...]", answer))
    shown = plain(answer)
    if isinstance(shown, bool):
        return "yes" if shown else "no"
    return str(shown)
