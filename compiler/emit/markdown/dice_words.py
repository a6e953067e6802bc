"""Dice words: a pool's options (reroll, explode, keep, count...) as a reader says them.

The reference's math prints dice as a player reads them: the count and the
die (``3d10``), then what the notation's options do, in words (``a 10 adds a
die``, ``keep the 3 highest``, ``count the dice showing 8 or more``), never the
options' tokens. Every option of a pool (``runtime/dice_terms.Pool``) is said.
"""

from __future__ import annotations

from ...runtime.dice_terms import AnyOf, Compare, Condition, Pool

__all__ = ["condition_words", "option_words"]

_FACES = {
    ">=": "{} or more",
    "<=": "{} or less",
    ">": "more than {}",
    "<": "less than {}",
    "=": "{}",
}
_KEEPS = {
    "kh": "keep the {}highest",
    "kl": "keep the {}lowest",
    "dh": "drop the {}highest",
    "dl": "drop the {}lowest",
}
_EXPLODES = {
    "!": "a die showing {} adds a die, again while a new one does",
    "!!": "a die showing {} is rolled again and added to it, again while it shows it",
    "!p": "a die showing {} adds a die that counts 1 less, again while a new one shows it",
    "!o": "a die showing {} adds one die",
}


def condition_words(condition: Condition) -> str:
    """The faces a condition meets: "8 or more", "1 or 3"."""
    found: tuple[Compare, ...] = (
        condition.conditions if isinstance(condition, AnyOf) else (condition,)
    )
    return " or ".join(_FACES[c.op].format(c.value) for c in found)


def option_words(pool: Pool, sides_known: bool) -> list[str]:
    """What each of a pool's options does, in the order the pool applies them;
    ``sides_known``: whether the pool's sides are the die's (not an expression's
    placeholder), so that "its highest face" can be said as a number."""
    said: list[str] = []
    if pool.minimum is not None:
        said.append(f"a face below {pool.minimum} counts as {pool.minimum}")
    if pool.maximum is not None:
        said.append(f"a face above {pool.maximum} counts as {pool.maximum}")
    if pool.reroll is not None:
        again = "once" if pool.reroll_once else "until it shows another"
        said.append(f"a die showing {condition_words(pool.reroll)} is rolled {again}")
    if pool.explode is not None:
        if pool.explode_at is not None:
            face = condition_words(pool.explode_at)
        elif sides_known and pool.listed is None and not pool.fudge:
            face = str(pool.sides)
        else:
            face = "its highest face"
        said.append(_EXPLODES[pool.explode].format(face))
    if pool.unique:
        said.append("a die showing a face another shows is rolled again")
    if pool.keep is not None:
        many = "" if pool.keep_count == 1 else f"{pool.keep_count} "
        said.append(_KEEPS[pool.keep].format(many))
    if pool.target is not None:
        said.append(f"count the dice showing {condition_words(pool.target)}")
    if pool.failure is not None:
        said.append(f"less those showing {condition_words(pool.failure)}")
    if pool.multiplier != 1:
        said.append(f"times {pool.multiplier}")
    return said
