"""Dice weights: one die's chances as whole weights, the dice odds' building blocks.

Shared by the odds of dice notation (``rulebook.dice_odds``) and the odds
engine of the rules (``rulebook._odds``).
"""

from __future__ import annotations

from collections.abc import Callable

from ._support import MAX_ENTRIES
from .dice_terms import Pool
from .errors import RuleInputError

__all__ = ["MAX_WORK", "Budget", "Weights", "chain_weights", "face_weights"]

MAX_WORK = 30 * MAX_ENTRIES
"""The most steps (about: outcomes x dice x dice kept x sums) one answer takes."""


class Weights:
    """Chances as whole weights over ``denom``; ``top``: the weight of the tail."""

    __slots__ = ("denom", "top", "weights")

    def __init__(self, weights: dict[int, int], top: int, denom: int) -> None:
        self.weights = {v: w for v, w in weights.items() if w}
        self.top = top
        self.denom = denom

    def plus(self, other: Weights, budget: Budget) -> Weights:
        budget.spend(len(self.weights) * len(other.weights))
        found: dict[int, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                found[a + b] = found.get(a + b, 0) + wa * wb
        denom = self.denom * other.denom
        known = (self.denom - self.top) * (other.denom - other.top)
        return Weights(found, denom - known, denom)

    def mapped(self, how: Callable[[int], int]) -> Weights:
        found: dict[int, int] = {}
        for v, w in self.weights.items():
            found[how(v)] = found.get(how(v), 0) + w
        return Weights(found, self.top, self.denom)


class Budget:
    def __init__(self) -> None:
        self.left = MAX_WORK

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise RuleInputError(
                f"the exact odds take more than {MAX_WORK:,} steps to work out "
                "(a limit of the runtime, not of the rules): use fewer dice, "
                "sides or explosion depth"
            )


def face_weights(pool: Pool) -> Weights:
    """One die's final face, rerolls done."""
    faces = pool.faces
    reroll = pool.reroll
    if reroll is None:
        return Weights(dict.fromkeys(faces, 1), 0, len(faces))
    again = [f for f in faces if reroll.meets(f)]
    if not pool.reroll_once:
        kept = [f for f in faces if not reroll.meets(f)]
        return Weights(dict.fromkeys(kept, 1), 0, len(kept))
    n = len(faces)
    return Weights({f: len(again) + (0 if f in again else n) for f in faces}, 0, n * n)


def chain_weights(pool: Pool, depth: int, score: Callable[[int], int]) -> Weights:
    """One die with its explosion: the sum of ``score`` over its dice (each
    face scored on its own: its face for a sum, 1 or 0 for a count)."""
    face = face_weights(pool)
    top = pool.top
    weights, total = face.weights, face.denom
    w_top = weights.get(top, 0)
    if pool.explode is None or not w_top:
        return face.mapped(score)
    if pool.explode == "!o":
        found: dict[int, int] = {}
        for f, w in weights.items():
            if f != top:
                found[score(f)] = found.get(score(f), 0) + w * total
        for g, w in weights.items():
            value = score(top) + score(g)
            found[value] = found.get(value, 0) + w_top * w
        return Weights(found, 0, total * total)
    found = {}
    for k in range(depth + 1):
        scale = w_top**k * total ** (depth - k)
        for f, w in weights.items():
            if f != top:
                value = k * score(top) + score(f)
                found[value] = found.get(value, 0) + scale * w
    return Weights(found, w_top ** (depth + 1), total ** (depth + 1))
