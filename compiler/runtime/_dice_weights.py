"""Dice weights: one die's chances as whole weights, the dice odds' building blocks,
and what working them out costs, known before any of it is done.

Shared by the odds of dice notation (``rulebook.dice_odds``) and the odds
engine of the rules (``rulebook._odds``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from math import comb
from typing import NamedTuple, TypeVar

from ._support import MAX_WORK, weighed
from .dice_terms import Pool

__all__ = [
    "MAX_WORK",
    "Shape",
    "Weights",
    "chain_cost",
    "chain_levels",
    "chain_weights",
    "chains",
    "face_weights",
    "plus_cost",
    "plus_shape",
    "shape_of",
]

V = TypeVar("V", bound=Hashable)


class Weights:
    """Chances as whole weights over ``denom``; ``top``: the weight of the tail."""

    __slots__ = ("denom", "top", "weights")

    def __init__(self, weights: dict[int, int], top: int, denom: int) -> None:
        self.weights = {v: w for v, w in weights.items() if w}
        self.top = top
        self.denom = denom

    def plus(self, other: Weights, below: int | None = None) -> Weights:
        """The sum of two independent parts; with ``below``, the values from
        ``below`` on are left unknown (their weight joins the tail)."""
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


def face_weights(pool: Pool) -> Weights:
    """One die's final face, rerolls done: the one function of a die's faces
    every odds engine reads (a face a die of the rules' own lists more than
    once weighs as many)."""
    faces = pool.shown_faces  # (minimum and maximum applied)
    shown: dict[int, int] = {}  # how many of the faces show each
    for face in faces:
        shown[face] = shown.get(face, 0) + 1
    n = len(faces)
    reroll = pool.reroll
    if reroll is None:
        return Weights(shown, 0, n)
    again = sum(m for f, m in shown.items() if reroll.meets(f))
    if not pool.reroll_once:
        kept = {f: m for f, m in shown.items() if not reroll.meets(f)}
        return Weights(kept, 0, n - again)
    chances = {
        f: m * again + (0 if reroll.meets(f) else m * n) for f, m in shown.items()
    }
    return Weights(chances, 0, n * n)


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
    # ``level``: the chains of k exploded faces so far, each weighed; a die
    # an explosion adds counts its face less ``less`` (``!p``: 1)
    level: dict[V, int] = {empty: 1}
    less = 1 if pool.explode == "!p" else 0
    for k in range(depth + 1):
        scale = total ** (depth - k)
        off = less if k else 0
        for chain, ws in level.items():
            for f, w in stop.items():
                value = add(chain, f - off)
                found[value] = found.get(value, 0) + ws * w * scale
        after: dict[V, int] = {}
        for chain, ws in level.items():
            for e, we in boom.items():
                more = add(chain, e - off)
                after[more] = after.get(more, 0) + ws * we
        level = after
    return found, sum(boom.values()) ** (depth + 1), total ** (depth + 1)


def chain_weights(pool: Pool, depth: int, score: Callable[[int], int]) -> Weights:
    """One die with its explosion: the sum of ``score`` over its dice (each
    face scored on its own: its face for a sum, 1 or 0 for a count), followed
    ``depth`` dice deep (``top``: the weight of the chains cut off there)."""
    found, cut, denom = chains(pool, depth, 0, lambda sofar, f: sofar + score(f))
    return Weights(found, cut, denom)


# -- what the work costs, worked out before it -------------------------------------


class Shape(NamedTuple):
    """What is known of a part's chances before they are worked out: its
    lowest and highest values, at most how many values it has, the
    denominator of its weights (no weight is larger), and whether it is a
    plain die (each of a run of whole numbers equally likely, no tail)."""

    lo: int
    hi: int
    size: int
    denom: int
    plain: bool = False


def shape_of(weights: Weights) -> Shape:
    """The shape of chances worked out already."""
    values = weights.weights
    if not values:
        return Shape(0, 0, 0, weights.denom)
    lo, hi = min(values), max(values)
    plain = not weights.top and len(set(values.values())) == 1
    return Shape(
        lo, hi, len(values), weights.denom, plain and len(values) == hi - lo + 1
    )


def plus_shape(a: Shape, b: Shape, below: int | None = None) -> Shape:
    """The shape of the sum of two independent parts (``Weights.plus``)."""
    lo, hi = a.lo + b.lo, a.hi + b.hi
    if below is not None:
        hi = min(hi, below - 1)
    size = max(min(a.size * b.size, hi - lo + 1), 0)
    return Shape(lo, hi, size, a.denom * b.denom)


def plus_cost(a: Shape, b: Shape) -> int:
    """The steps of ``Weights.plus`` of parts of these shapes."""
    bits = max(a.denom, b.denom).bit_length()
    return weighed(a.size * b.size, bits)


def chain_levels(
    pool: Pool, depth: int, score: Callable[[int], int] | None
) -> list[int]:
    """At most how many chains of k exploded faces ``chains`` holds, for each k
    from 0 to ``depth`` (told apart by the sum of ``score`` over their faces,
    or with None by the faces themselves, a multiset)."""
    boom = [f for f in face_weights(pool).weights if pool.explodes(f)]
    less = 1 if pool.explode == "!p" else 0  # (the first die's face counts whole)
    span = 0
    if score is not None and boom:
        scores = [score(f - d) for f in boom for d in {0, less}]
        span = max(scores) - min(scores)
    levels = [1]
    for k in range(1, depth + 1):
        multisets = comb(len(boom) + k - 1, k) * (len(boom) if less else 1)
        levels.append(multisets if score is None else min(multisets, k * span + 1))
    return levels


def chain_cost(pool: Pool, depth: int, score: Callable[[int], int] | None) -> int:
    """The steps of ``chains`` for one die of ``pool`` followed ``depth`` dice
    deep (``score`` as ``chain_levels`` takes it)."""
    face = face_weights(pool)
    faces = face.weights
    if pool.explode is None or not any(pool.explodes(f) for f in faces):
        return len(faces)
    if pool.explode == "!o":
        boom = sum(1 for f in faces if pool.explodes(f))
        return weighed(len(faces) * (1 + boom), (face.denom**2).bit_length())
    steps = sum(chain_levels(pool, depth, score)) * len(faces)
    return weighed(steps, (face.denom ** (depth + 1)).bit_length())
