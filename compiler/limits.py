"""Limits: bounds on the work rulesc does, so every input it accepts is answered quickly.

These are limits of the tool, not figures of any rules: every dice expression
of the rules has its exact distribution worked out at build time for the docs.
"""

from __future__ import annotations

from .runtime.dice import Dice
from .runtime.dice_terms import DiceSum, Pool

MAX_DICE_COUNT = 100
MAX_DICE_SIDES = 1000
MAX_DICE_SUMS = 10_000  # the sums the dice can come to: count x (sides - 1) + 1
# rulesc roll without --stats rolls (and prints) each die.
MAX_ROLLED_DICE = 1000
MAX_ROLLED_SIDES = 10**9


def dice_problem(dice: Dice) -> str | None:
    """Why rulesc cannot work out the exact distribution of ``dice``, or None."""
    sums = dice.count * (dice.sides - 1) + 1 if dice.count else 1
    if (
        dice.count > MAX_DICE_COUNT
        or dice.sides > MAX_DICE_SIDES
        or sums > MAX_DICE_SUMS
    ):
        return (
            f"at most {MAX_DICE_COUNT} dice of at most {MAX_DICE_SIDES} sides, "
            f"and at most {MAX_DICE_SUMS} possible sums ({dice} has {sums})"
        )
    return None


def roll_problem(dice: Dice) -> str | None:
    """Why rulesc roll will not roll ``dice`` (one line per die), or None."""
    if dice.count > MAX_ROLLED_DICE or dice.sides > MAX_ROLLED_SIDES:
        return f"at most {MAX_ROLLED_DICE} dice of at most {MAX_ROLLED_SIDES} sides"
    return None


def notation_problem(dice: DiceSum, *, stats: bool, depth: int) -> str | None:
    """Why rulesc roll will not roll ``dice`` (or, with ``stats``, work out its
    odds with explosions ``depth`` dice deep), or None: the limits above, over
    all the pools together."""
    pools = dice.pools
    count = sum(p.count for p in pools)
    sides = max((p.sides for p in pools), default=0)
    if not stats:
        if count > MAX_ROLLED_DICE or sides > MAX_ROLLED_SIDES:
            return f"at most {MAX_ROLLED_DICE} dice of at most {MAX_ROLLED_SIDES} sides"
        return None
    sums = 1 + sum(_span(p, depth) for p in pools)
    if count > MAX_DICE_COUNT or sides > MAX_DICE_SIDES or sums > MAX_DICE_SUMS:
        return (
            f"at most {MAX_DICE_COUNT} dice of at most {MAX_DICE_SIDES} sides, "
            f"and at most {MAX_DICE_SUMS} possible sums ({dice} has up to {sums})"
        )
    return None


def _span(pool: Pool, depth: int) -> int:
    """How far apart the smallest and largest values of ``pool`` can be."""
    dice = pool.count if pool.keep is None else pool.kept
    if pool.explode in ("!", "!!"):
        chain = depth + 1
    else:
        chain = 2 if pool.explode == "!o" else 1
    if pool.target is not None:
        return dice * chain * pool.multiplier
    faces = pool.faces
    return dice * (chain * max(faces) - min(faces)) * pool.multiplier
