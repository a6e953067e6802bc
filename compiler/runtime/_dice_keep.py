"""Dice keep: keeping among all of a pool's dice where explosions add dice, and pools of unique dice.

A pool that keeps or drops (``kh`` ``kl`` ``dh`` ``dl``) after ``!``, ``!p``
or ``!o`` keeps among ALL its dice, the ones explosions add included. Each
die with the dice its explosion adds is a chain; what matters of a chain is
the ``held`` dice, the best ``n`` of it in the order kept (the highest for
``kh`` and ``dh``, the lowest for ``kl`` and ``dl``: ``n`` the dice kept, or
dropped), and for a drop the score of the others. A dynamic programme over
the pool's dice merges chain after chain into the states of held dice and
score: no roll is enumerated. A chain cut at the depth leaves the value
unknown (the tail).

A pool of unique dice (``u``) rolls a set of ``count`` distinct faces. Where
every face is as likely, each set is: a dynamic programme over the faces in
the order kept, taking each once or not, counts the sets by how many are
taken and their score. Where faces weigh differently (a die of the rules'
own that lists a face twice), the chance of each set of faces comes from the
order they are rolled in, over the subsets of its faces.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb, lcm

from ._dice_weights import (
    Shape,
    Weights,
    chain_cost,
    chain_levels,
    chains,
    face_weights,
)
from ._support import weighed
from .dice_terms import Pool

__all__ = ["keep_chains", "keep_chains_shape", "unique", "unique_shape"]

Score = Callable[[int], int]
State = tuple[tuple[int, ...], int]  # the held dice, best first; the others' score


def _held(pool: Pool) -> tuple[int, bool, bool]:
    """How many dice a state holds, whether the highest (else the lowest),
    and whether the held dice are dropped (else kept)."""
    drop = pool.keep in ("dh", "dl")
    return pool.keep_count, pool.keep in ("kh", "dh"), drop


def _merger(pool: Pool, score: Score) -> Callable[[State, State], State]:
    n, high, drop = _held(pool)

    def merged(a: State, b: State) -> State:
        dice = sorted((*a[0], *b[0]), reverse=high)
        rest = sum(score(v) for v in dice[n:]) if drop else 0
        return tuple(dice[:n]), a[1] + b[1] + rest

    return merged


def _value(pool: Pool, score: Score) -> Callable[[State], int]:
    drop = _held(pool)[2]
    return lambda s: s[1] if drop else sum(score(v) for v in s[0])


def keep_chains(pool: Pool, depth: int, score: Score) -> Weights:
    """The sum of ``score`` over the dice ``pool`` keeps among all its dice
    (its explosions' too), each die followed ``depth`` dice deep."""
    merged = _merger(pool, score)
    empty: State = ((), 0)

    def add(state: State, face: int) -> State:
        return merged(state, ((face,), 0))

    one, _, denom = chains(pool, depth, empty, add)
    states: dict[State, int] = {empty: 1}
    for _ in range(pool.count):
        after: dict[State, int] = {}
        for state, w in states.items():
            for chain, wc in one.items():
                key = merged(state, chain)
                after[key] = after.get(key, 0) + w * wc
        states = after
    value = _value(pool, score)
    found: dict[int, int] = {}
    for state, w in states.items():
        shown = value(state)
        found[shown] = found.get(shown, 0) + w
    total = denom**pool.count
    return Weights(found, total - sum(found.values()), total)


def _scores(pool: Pool, score: Score) -> tuple[int, int]:
    """The least and most score of one die of ``pool`` (``!p``: less 1 too)."""
    faces = list(face_weights(pool).weights)
    values = [score(f - d) for f in faces for d in {0, int(pool.explode == "!p")}]
    return min(values), max(values)


def keep_chains_shape(pool: Pool, depth: int, score: Score) -> tuple[Shape, int]:
    """The shape of ``keep_chains(pool, depth, score)`` and its steps, known
    before the work."""
    n, _, drop = _held(pool)
    face = face_weights(pool)
    values = len(face.weights) * (2 if pool.explode == "!p" else 1)
    held = comb(values + n, n)  # the tuples of at most n of the values
    low, high = _scores(pool, score)
    dice = 2 if pool.explode == "!o" else depth + 1  # a chain's dice, at most
    span = max(high, 0) - min(low, 0) + 1
    if pool.explode == "!o":
        outcomes = len(face.weights) * (1 + len(face.weights))
        denom = face.denom**2
    else:
        outcomes = sum(chain_levels(pool, depth, None)) * len(face.weights)
        denom = face.denom ** (depth + 1)
    one = min(outcomes, held * (dice * span + 1 if drop else 1))
    work = chain_cost(pool, depth, None) * (n + 1)
    states = 1
    for i in range(1, pool.count + 1):
        work += weighed(states * one * (n + dice), (denom**i).bit_length())
        states = min(states * one, held * (i * dice * span + 1 if drop else 1))
    work += states * (n + 1)
    kept = pool.count * dice
    lo = min(low, 0) * kept
    hi = max(high, 0) * kept
    total = denom**pool.count
    return Shape(lo, hi, max(min(states, hi - lo + 1), 1), total), work


# -- unique dice -----------------------------------------------------------------


def unique(pool: Pool, score: Score) -> Weights:
    """The sum of ``score`` over the dice ``pool`` keeps of ``count`` distinct faces."""
    face = face_weights(pool)
    if len(set(face.weights.values())) == 1:
        return _even(pool, sorted(face.weights), score)
    return _weighed(pool, face, score)


def _order(pool: Pool, faces: list[int]) -> tuple[list[int], int, bool]:
    """The faces in the order held first, how many are held, whether dropped."""
    if pool.keep is None:
        return faces, 0, True  # (none held: every taken face counts)
    n, high, drop = _held(pool)
    return sorted(faces, reverse=high), n, drop


def _even(pool: Pool, faces: list[int], score: Score) -> Weights:
    """Every set of ``count`` faces as likely: how many sets by their score."""
    order, n, drop = _order(pool, faces)
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (taken, score) -> sets
    for face in order:
        states = _take(states, pool.count, (n, drop), score(face))
    found: dict[int, int] = {}
    for (taken, acc), ways in states.items():
        if taken == pool.count:
            found[acc] = found.get(acc, 0) + ways
    return Weights(found, 0, comb(len(faces), pool.count))


def _take(
    states: dict[tuple[int, int], int], most: int, held: tuple[int, bool], scored: int
) -> dict[tuple[int, int], int]:
    """One more face, taken (its score counted where the set keeps it) or not."""
    n, drop = held
    after = dict(states)
    for (taken, acc), ways in states.items():
        if taken == most:
            continue
        counted = (taken >= n) == drop  # held and kept, or past the held and dropped
        key = (taken + 1, acc + (scored if counted else 0))
        after[key] = after.get(key, 0) + ways
    return after


def _weighed(pool: Pool, face: Weights, score: Score) -> Weights:
    """Faces of different weights: each set's chance from the orders it is
    rolled in (each die rolled again while it shows a face taken)."""
    faces = sorted(face.weights)
    sets: dict[int, Fraction] = {0: Fraction(1)}  # a bit a face taken
    for _ in range(pool.count):
        sets = _draw(sets, face, faces)
    order, n, drop = _order(pool, faces)
    chances: dict[int, Fraction] = {}
    for mask, p in sets.items():
        taken = [f for f in order if mask >> faces.index(f) & 1]
        counted = taken[n:] if drop else taken[:n]
        value = sum(score(f) for f in counted)
        chances[value] = chances.get(value, Fraction(0)) + p
    denom = lcm(*(p.denominator for p in chances.values()))
    found = {v: p.numerator * (denom // p.denominator) for v, p in chances.items()}
    return Weights(found, 0, denom)


def _draw(
    sets: dict[int, Fraction], face: Weights, faces: list[int]
) -> dict[int, Fraction]:
    """One more die: each set of faces taken so far (a bit a face) with each
    face not in it, the die rolled again while it shows one taken."""
    after: dict[int, Fraction] = {}
    for mask, p in sets.items():
        taken = (f for i, f in enumerate(faces) if mask >> i & 1)
        left = face.denom - sum(face.weights[f] for f in taken)
        for i, f in enumerate(faces):
            if not mask >> i & 1:
                chance = p * Fraction(face.weights[f], left)
                after[mask | 1 << i] = after.get(mask | 1 << i, Fraction(0)) + chance
    return after


def unique_shape(pool: Pool, score: Score) -> tuple[Shape, int]:
    """The shape of ``unique(pool, score)`` and its steps, known before the work."""
    face = face_weights(pool)
    d, count = len(face.weights), pool.count
    values = [score(f) for f in face.weights]
    low, high = min(*values, 0), max(*values, 0)
    lo, hi = low * count, high * count
    if len(set(face.weights.values())) == 1:
        steps = d * (count + 1) * (hi - lo + 1)
        denom = comb(d, count)
        work = weighed(steps, denom.bit_length())
    else:
        denom = face.denom**count * d**count
        work = weighed((2**d) * d * (d + 1), denom.bit_length())
    return Shape(lo, hi, hi - lo + 1, denom), work
