"""JavaScript dice code: the code that makes a formula's pool of dice and rolls it, with the runtime's ``$dice_terms``."""

from __future__ import annotations

import json

from ...lang.dice import pool_of
from ...lang.nodes import Dice
from ...runtime.dice_terms import Pool
from ..printer import pool_options

__all__ = ["pool_code_js", "pool_js", "roll_js"]


def roll_js(pool: Pool, results: bool, count: str, sides: str, rng: str) -> str:
    """JavaScript that rolls ``pool`` (``count``, ``sides``: their code) and
    reads its total, or its kept dice (a list) for ``results``."""
    code = pool_code_js(pool, count, sides)
    if not results:
        return f"$dice_rolls.total({code}, {rng})"
    dice = f"new $dice_terms.DiceSum([new $dice_terms.Term(1, {code})])"
    return f"[...$dice_rolls.roll({dice}, {rng}).results]"


def pool_js(node: Dice, count: str, sides: str) -> str:
    """JavaScript that makes the pool, as ``emit.python.dice.pool_python`` does."""
    return pool_code_js(pool_of(node), count, sides)


def pool_code_js(pool: Pool, count: str, sides: str) -> str:
    """JavaScript that makes ``pool`` of ``count`` dice of ``sides``."""

    def compare(op: str, value: int) -> str:
        return f'new $dice_terms.Compare("{op}", {value})'

    options = [
        (_camel(k), "true" if v == "True" else v)
        for k, v in pool_options(pool, compare, json.dumps, _any_of)
    ]
    given = ", ".join(f"{k}: {v}" for k, v in options)
    args = ", ".join([count, sides, *([f"{{ {given} }}"] if given else [])])
    return f"new $dice_terms.Pool({args})"


def _any_of(conditions: list[str]) -> str:
    return f"new $dice_terms.AnyOf([{', '.join(conditions)}])"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)
