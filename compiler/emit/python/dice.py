"""Python dice code: the code that makes a formula's pool of dice and rolls it, with the runtime's ``dice_terms``."""

from __future__ import annotations

from ...lang.dice import pool_of
from ...lang.nodes import Dice
from ...runtime.dice_terms import Pool
from ..literals import py
from ..printer import pool_options

__all__ = ["pool_code_python", "pool_python", "roll_python"]


def roll_python(pool: Pool, results: bool, count: str, sides: str, rng: str) -> str:
    """Python that rolls ``pool`` (``count``, ``sides``: their code) and reads
    its total, or its kept dice (a list) for ``results``."""
    code = pool_code_python(pool, count, sides)
    if not results:
        return f"dice_rolls.total({code}, {rng})"
    dice = f"dice_terms.DiceSum((dice_terms.Term(1, {code}),))"
    return f"list(dice_rolls.roll({dice}, {rng}).results)"


def pool_python(node: Dice, count: str, sides: str) -> str:
    """Python that makes the pool of ``count`` dice of ``sides`` (their code)."""
    return pool_code_python(pool_of(node), count, sides)


def pool_code_python(pool: Pool, count: str, sides: str) -> str:
    """Python that makes ``pool`` of ``count`` dice of ``sides``."""
    options = pool_options(
        pool,
        lambda op, value: f'dice_terms.Compare("{op}", {value})',
        py,
        lambda conditions: f"dice_terms.AnyOf(({', '.join(conditions)}))",
    )
    args = ", ".join([count, sides, *(f"{k}={v}" for k, v in options)])
    return f"dice_terms.Pool({args})"
