"""``rulesc roll`` for dice notation beyond the rules' own: a roll shown die by die, and exact stats.

The rules' own notation (``3d6``, ``2d6x10``, GURPS ``3d-1``) is rolled as it
always was (``compiler.workbench.roll``); anything else the runtime's notation
reads (``d20``, ``d%``, ``4dF``, ``4d6kh3``, ``1d6!``, ``6d6>=5``...) is rolled
and worked out here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ..common.limits import notation_problem
from ..runtime.dice_odds import MAX_DEPTH, Odds, odds
from ..runtime.dice_rolls import PoolRoll, Rolled, roll
from ..runtime.dice_terms import DiceSum, Pool
from ..runtime.errors import RuleInputError
from .dicestats import chart_lines
from .text import number, percent
from .usage import UsageError


def run_notation(
    dice: DiceSum, name: str, *, stats: bool, seed: Any, depth: int
) -> int:
    """Roll ``dice`` (or print its stats) as ``rulesc roll`` does."""
    if not 0 <= depth <= MAX_DEPTH:
        raise UsageError(
            f"--depth must be 0 to {MAX_DEPTH}, not {depth}",
            "the number of dice an explosion is followed to (default 10)",
        )
    problem = notation_problem(dice, stats=stats, depth=depth)
    if problem is not None:
        what = "works out exactly" if stats else "rolls"
        raise UsageError(f"{dice} is more dice than rulesc {what}", problem)
    try:
        if stats:
            lines = odds_lines(odds(dice, depth), depth)
            print(f"{name}:")
            for line in lines:
                print(f"  {line}")
            return 0
        rolled = roll(dice, random.Random(seed))
    except RuleInputError as error:  # a limit of the runtime
        raise UsageError(str(error)) from None
    print(f"{name}: {rolled_text(dice, rolled)}")
    return 0


def odds_lines(found: Odds, depth: int) -> list[str]:
    """Range, mean, tail and the chart of ``found``."""
    more = f" (and more, past depth {depth})" if found.tail else ""
    lines = [f"range: {found.min} to {found.max}{more}"]
    mean = found.mean
    if mean is None:
        known = 1 - found.tail
        listed = sum((v * p for v, p in found.chances.items()), Fraction(0)) / known
        lines.append(
            f"mean:  {number(listed)} of the values listed"
            + (f" (exactly {listed})" if listed.denominator != 1 else "")
        )
        lines.append(
            f"tail:  {percent(found.tail)} (exactly {found.tail}): an explosion "
            f"past depth {depth} leaves the value unknown (--depth follows more)"
        )
    else:
        lines.append(
            f"mean:  {number(mean)}"
            + (f" (exactly {mean})" if mean.denominator != 1 else "")
        )
    if len(found.chances) == 1 and not found.tail:
        return [*lines, f"always {found.min}"]
    return lines + chart_lines(found.chances)


def rolled_text(dice: DiceSum, rolled: Rolled) -> str:
    """How a roll adds up: ``[6, 4, 3, 1 dropped] + 2 = 15``; ``*`` marks a die
    that meets a pool's target, ``→`` a reroll, ``!`` a die that exploded."""
    parts: list[str] = []
    for i, (term, shown) in enumerate(zip(dice.terms, rolled.terms, strict=True)):
        if isinstance(term.value, Pool) and isinstance(shown, PoolRoll):
            text = _pool_text(term.value, shown)
        else:
            text = str(term.value)
        if i:
            parts.append((" - " if term.sign < 0 else " + ") + text)
        else:
            parts.append(("-" if term.sign < 0 else "") + text)
    pools = [t for t in rolled.terms if isinstance(t, PoolRoll)]
    if len(rolled.terms) == 1 and len(pools) == 1 and _single(dice.pools[0], pools[0]):
        return str(rolled.total)
    return f"{''.join(parts)} = {rolled.total}"


def _single(pool: Pool, rolled: PoolRoll) -> bool:
    """A lone die that showed one face and counts as itself."""
    return (
        len(rolled.dice) == 1
        and len(rolled.faces[0]) == 1
        and pool.multiplier == 1
        and pool.target is None
    )


def _pool_text(pool: Pool, rolled: PoolRoll) -> str:
    shown: list[str] = []
    for die, faces, kept, hit in zip(
        rolled.dice, rolled.faces, rolled.kept, rolled.hits, strict=True
    ):
        if pool.explode == "!!" and len(faces) > 1:
            text = f"{die} ({' '.join(map(str, faces))})"
        else:
            text = "\N{RIGHTWARDS ARROW}".join(map(str, faces))
            if pool.explode == "!" and pool.explodes(die):
                text += "!"
        if hit:
            text += "*"
        if not kept:
            text += " dropped"
        shown.append(text)
    text = f"[{', '.join(shown)}]"
    if pool.multiplier != 1:
        text += f" \N{MULTIPLICATION SIGN} {pool.multiplier}"
    return text
