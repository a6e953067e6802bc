"""Dice weights: one die's chances as whole weights, the dice odds' building blocks.

Shared by the odds of dice notation (``rulebook.dice_odds``) and the odds
engine of the rules (``rulebook._odds``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from ._support import MAX_ENTRIES
from .dice_terms import Pool
from .errors import RuleInputError

__all__ = ["MAX_WORK", "Budget", "Weights", "chain_weights", "chains", "face_weights"]

V = TypeVar("V", bound=Hashable)

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


def chains(
    pool: Pool, depth: int, empty: V, add: Callable[[V, int], V]
) -> tuple[dict[V, int], int, int]:
    """One die of ``pool`` with the dice its explosion adds, each chain of faces
    folded with ``add`` from ``empty`` (its sum, its count, or the faces
    themselves): the weight of each outcome, then the weight of the chains cut
    off at ``depth`` more dice, over the denominator (the third)."""
    face = face_weights(pool)
    weights, total = face.weights, face.denom
    boom = {f: w for f, w in weights.items() if pool.explodes(f)}
    found: dict[V, int] = {}
    if pool.explode is None or not boom:
        for f, w in weights.items():
            value = add(empty, f)
            found[value] = found.get(value, 0) + w
        return found, 0, total
    stop = {f: w for f, w in weights.items() if f not in boom}
    if pool.explode == "!o":  # one more die at most, whatever it shows
        for f, w in stop.items():
            value = add(empty, f)
            found[value] = found.get(value, 0) + w * total
        for e, we in boom.items():
            for g, w in weights.items():
                value = add(add(empty, e), g)
                found[value] = found.get(value, 0) + we * w
        return found, 0, total * total
    # ``level``: the chains of k exploded faces so far, each weighed
    level: dict[V, int] = {empty: 1}
    for k in range(depth + 1):
        scale = total ** (depth - k)
        for chain, ws in level.items():
            for f, w in stop.items():
                value = add(chain, f)
                found[value] = found.get(value, 0) + ws * w * scale
        after: dict[V, int] = {}
        for chain, ws in level.items():
            for e, we in boom.items():
                more = add(chain, e)
                after[more] = after.get(more, 0) + ws * we
        level = after
    return found, sum(boom.values()) ** (depth + 1), total ** (depth + 1)


def chain_weights(pool: Pool, depth: int, score: Callable[[int], int]) -> Weights:
    """One die with its explosion: the sum of ``score`` over its dice (each
    face scored on its own: its face for a sum, 1 or 0 for a count), followed
    ``depth`` dice deep (``top``: the weight of the chains cut off there)."""
    found, cut, denom = chains(pool, depth, 0, lambda sofar, f: sofar + score(f))
    return Weights(found, cut, denom)
