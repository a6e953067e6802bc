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

    def plus(self, other: Weights, budget: Budget, below: int | None = None) -> Weights:
        """The sum of two independent parts; with ``below``, the values from
        ``below`` on are left unknown (their weight joins the tail)."""
        budget.spend(len(self.weights) * len(other.weights))
        found: dict[int, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                if below is None or a + b < below:
                    found[a + b] = found.get(a + b, 0) + wa * wb
        denom = self.denom * other.denom
        return Weights(found, denom - sum(found.values()), denom)

    def below(self, limit: int) -> Weights:
        """The values under ``limit`` only, the rest left unknown (in the tail)."""
        found = {v: w for v, w in self.weights.items() if v < limit}
        return Weights(found, self.denom - sum(found.values()), self.denom)

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
    face scored on its own: its face for a sum, 1 or 0 for a count), followed
    ``depth`` dice deep (``top``: the weight of the chains cut off there)."""
    face = face_weights(pool)
    weights, total = face.weights, face.denom
    boom = {f: w for f, w in weights.items() if pool.explodes(f)}
    if pool.explode is None or not boom:
        return face.mapped(score)
    stop = {f: w for f, w in weights.items() if f not in boom}
    found: dict[int, int] = {}
    if pool.explode == "!o":
        for f, w in stop.items():
            found[score(f)] = found.get(score(f), 0) + w * total
        for e, we in boom.items():
            for g, w in weights.items():
                value = score(e) + score(g)
                found[value] = found.get(value, 0) + we * w
        return Weights(found, 0, total * total)
    # ``level``: the scores of k exploded faces so far, each chain of them weighed
    level: dict[int, int] = {0: 1}
    for k in range(depth + 1):
        scale = total ** (depth - k)
        for s, ws in level.items():
            for f, w in stop.items():
                value = s + score(f)
                found[value] = found.get(value, 0) + ws * w * scale
        after: dict[int, int] = {}
        for s, ws in level.items():
            for e, we in boom.items():
                after[s + score(e)] = after.get(s + score(e), 0) + ws * we
        level = after
    cut = sum(boom.values()) ** (depth + 1)
    return Weights(found, cut, total ** (depth + 1))
