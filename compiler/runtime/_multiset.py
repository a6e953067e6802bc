"""Multiset odds: a pool's dice read through folds, worked out over the multiset of their outcomes.

A pool is one or more groups of alike dice (``Group``: the weighted outcomes
of one die, from ``die_outcomes``, and how many; a pool that keeps its highest
or lowest dice is a group alone). The rest of a rule reads it only through
folds: how many of its dice lie in a range (``count``), their ``sum``, how
many there are (``len``), how many of a symbol they show (``tally``), the
highest (``max``), the lowest (``min``) or the die at one place when sorted
(``at``). ``multiset`` answers the chances of the folds' values, as icepool's
multiset evaluators do: the outcomes are taken one at a time, in order, and
for each, how many of each group's dice show it (binomial weights), the state
being how many dice are placed and the folds' values so far; never a roll nor
a multiset of dice one by one. Once the folds that depend on the order
(highest, lowest, a place) can no longer change, the dice still to place only
add to the counts and sums: their share is a power worked out once (for
counts and sums alone, that is the whole of the work). Work is counted before
it is done (``spend``), step by step, the same in JavaScript.

A die that explodes (``!``, ``!o``) adds several dice to the list: its
outcome is the tuple of them. Its weight cut off at the depth leaves the
list unknown: the tail.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod
from operator import add
from typing import Any

from ._dice_weights import chain_cost, chain_weights, chains, face_weights
from ._dist import Dist
from ._support import spend, weighed
from .dice_terms import Pool

__all__ = ["ADDITIVE", "Fold", "Group", "die_outcomes", "element", "group", "multiset"]

ADDITIVE = frozenset({"count", "sum", "len", "tally"})
"""The folds a die adds its share to (the others depend on the order)."""

Fold = tuple[str, tuple[int, ...], Any, Any]
"""A fold: its kind, the groups it reads, and its values (``count``: the
lowest and highest counted; ``at``: the place, from 0, negative from the end;
``tally``: the symbol)."""

Items = tuple[Any, ...]


class Group:
    """``count`` alike dice: each die's ``outcomes`` (the items it adds to the
    list, by weight over ``denom``; ``cut``: the weight cut off at the depth),
    of which the ``keep`` highest (``highest``) or lowest are kept (None: all)."""

    __slots__ = ("count", "cut", "denom", "highest", "keep", "outcomes")

    def __init__(
        self,
        outcomes: dict[Items, int],
        cut: int,
        denom: int,
        count: int,
        keep: int | None = None,
        highest: bool = False,
    ) -> None:
        self.outcomes = outcomes
        self.cut = cut
        self.denom = denom
        self.count = count
        self.keep = keep
        self.highest = highest


def die_outcomes(pool: Pool, depth: int) -> Dist:
    """The weighted outcomes of one die of ``pool``: the items (sorted) it
    adds to the list, one, or with ``!`` and ``!o`` the die and the dice its
    explosion adds; rerolls and compounding (``!!``) done, followed ``depth``
    dice deep. Every engine reading a die's outcomes reads them here."""
    if pool.explode is None:  # its faces (numbers, or a die's symbols)
        spend(chain_cost(pool, depth, _same))
        face = face_weights(pool)
        return Dist({(v,): w for v, w in face.weights.items()}, 0, face.denom)
    if pool.explode not in ("!", "!o"):
        spend(chain_cost(pool, depth, _same))
        chain = chain_weights(pool, depth, _same)
        return Dist({(v,): w for v, w in chain.weights.items()}, chain.top, chain.denom)
    spend(chain_cost(pool, depth, None))
    empty: tuple[int, ...] = ()
    found, cut, denom = chains(
        pool, depth, empty, lambda shown, f: tuple(sorted((*shown, f)))
    )
    return Dist(found, cut, denom)


def group(pool: Pool, depth: int) -> Group:
    """The dice of ``pool`` as a group (its keep, if any, kept)."""
    die = die_outcomes(pool, depth)
    keep = pool.kept if pool.keep is not None else None
    return Group(
        die.weights, die.cut, die.denom, pool.count, keep, pool.keep in ("kh", "dl")
    )


def element(part: Dist) -> Group:
    """One item of a list whose chances are ``part`` (a dice total)."""
    return Group({(v,): w for v, w in part.weights.items()}, part.cut, part.denom, 1)


def multiset(groups: Sequence[Group], folds: Sequence[Fold]) -> Dist:
    """The chances of the folds' values (a tuple, in the folds' order) over
    the dice of ``groups``: each group alone, then merged (a count adds, a
    highest takes the higher), unless a sorted place reads several groups."""
    denom = prod(g.denom**g.count for g in groups)
    known = prod((g.denom - g.cut) ** g.count for g in groups)
    bits = denom.bit_length()
    if any(f[0] == "at" and len(f[1]) > 1 for f in folds):
        return Dist(_evaluate(groups, folds, bits), denom - known, denom)
    found: dict[Items, int] | None = None
    for g, one in enumerate(groups):
        own = [i for i, f in enumerate(folds) if g in f[1]]
        alone = [(folds[i][0], (0,), folds[i][2], folds[i][3]) for i in own]
        part = _evaluate([one], alone, bits)
        if found is None and len(own) == len(folds):
            found = part  # the first group, read by every fold
            continue
        if found is None:
            found = {tuple(_IDENTITY[f[0]] for f in folds): 1}
        found = _merge(found, part, own, [folds[i][0] for i in own], bits)
    if found is None:  # no dice: every fold as it starts
        found = {tuple(_IDENTITY[f[0]] for f in folds): 1}
    return Dist(found, denom - known, denom)


_IDENTITY: dict[str, Any] = {
    "count": 0,
    "sum": 0,
    "len": 0,
    "tally": 0,
    "max": None,
    "min": None,
    "at": None,
}


def _merge(
    found: dict[Items, int],
    part: dict[Items, int],
    at: list[int],
    kinds: list[str],
    bits: int,
) -> dict[Items, int]:
    """``found`` with a group's own folds (``part``, of the folds ``at``)
    merged in: counts and sums added, the highest and lowest compared."""
    if not at:
        (w,) = part.values()
        return {v: x * w for v, x in found.items()}
    spend(weighed(len(found) * len(part), bits))
    after: dict[Items, int] = {}
    for va, wa in found.items():
        for vb, wb in part.items():
            new = list(va)
            for j, i in enumerate(at):
                a, b = va[i], vb[j]
                kind = kinds[j]
                if kind == "max":
                    new[i] = b if a is None or (b is not None and b > a) else a
                elif kind == "min":
                    new[i] = b if a is None or (b is not None and b < a) else a
                elif kind == "at":
                    new[i] = b
                else:
                    new[i] = a + b
            key = tuple(new)
            after[key] = after.get(key, 0) + wa * wb
    return after


def _evaluate(
    groups: Sequence[Group], folds: Sequence[Fold], bits: int
) -> dict[Items, int]:
    """The weights of the folds' values over the dice of ``groups`` together."""
    shape = _Shape(groups, folds, bits)
    if shape.ordered:
        return _ordered(shape)
    total: dict[tuple[int, ...], int] = {shape.zero: 1}
    for g in range(len(groups)):
        total = _convolve(total, shape.power(g, 0, groups[g].count), bits)
    return total  # every fold adds: their values are the shares


class _Shape:
    """What the work over a pool's outcomes reads: the steps in order (each an
    outcome of one group), each step's share of every count and sum, and
    what the steps from each point on can still show."""

    def __init__(self, groups: Sequence[Group], folds: Sequence[Fold], bits: int):
        self.groups, self.folds, self.bits = groups, folds, bits
        self.adds = [i for i, f in enumerate(folds) if f[0] in ADDITIVE]
        self.ords = [i for i, f in enumerate(folds) if f[0] not in ADDITIVE]
        self.zero = (0,) * len(self.adds)
        self.keeping = any(g.keep is not None for g in groups)
        self.ordered = bool(self.ords) or self.keeping
        kinds = {folds[i][0] for i in self.ords}
        if self.keeping:
            self.descending = groups[0].highest
        else:
            self.descending = "max" in kinds or "min" not in kinds
        steps = [
            (g, items, w)
            for g, one in enumerate(groups)
            for items, w in sorted(one.outcomes.items())
        ]
        if not all(type(x) is int for _, items, _ in steps for x in items):
            pass  # faces of symbols (only folds that add read them): no highest
        elif self.descending:
            steps.sort(key=lambda s: (-max(s[1]), s[0], s[1]))
        else:
            steps.sort(key=lambda s: (min(s[1]), s[0], s[1]))
        self.steps = steps
        self.vecs = [self.share(g, items) for g, items, _ in steps]
        count = len(steps)
        self.last = {g: i for i, (g, _, _) in enumerate(steps)}
        # from each point b on (the steps b, b + 1, ...): each group's weight
        # still to come, and its highest and lowest item
        self.rest = [[0] * (count + 1) for _ in groups]
        self.high: list[list[Any]] = [[None] * (count + 1) for _ in groups]
        self.low: list[list[Any]] = [[None] * (count + 1) for _ in groups]
        for b in reversed(range(count)):
            g, items, w = steps[b]
            for h in range(len(groups)):
                self.rest[h][b] = self.rest[h][b + 1]
                self.high[h][b] = self.high[h][b + 1]
                self.low[h][b] = self.low[h][b + 1]
            self.rest[g][b] += w
            if self.ords:
                top, bottom = max(items), min(items)
                high, low = self.high[g][b], self.low[g][b]
                self.high[g][b] = top if high is None or top > high else high
                self.low[g][b] = bottom if low is None or bottom < low else low
        self.targets = [self.target(folds[i]) for i in self.ords]
        self.powers: dict[tuple[int, int, int], dict[tuple[int, ...], int]] = {}

    def share(self, g: int, items: Items) -> tuple[int, ...]:
        """A die of group ``g`` showing ``items``: its share of each count and sum."""
        found: list[int] = []
        for i in self.adds:
            kind, reads, a, b = self.folds[i]
            found.append(_score(kind, a, b, items) if g in reads else 0)
        return tuple(found)

    def added(self, g: int) -> bool:
        """Whether a count or sum reads the dice of group ``g``."""
        return any(g in self.folds[i][1] for i in self.adds)

    def target(self, fold: Fold) -> int:
        """The place an ``at`` fold reads, counted in the order the outcomes
        are taken; -1 where there is no such place."""
        kind, reads, place, _ = fold
        if kind != "at":
            return -1
        size = sum(_kept(self.groups[g], self.groups[g].count) for g in reads)
        if place < 0:
            place += size
        if not 0 <= place < size:
            return -1
        found: int = size - 1 - place if self.descending else place
        return found

    def values(self, ordered: tuple[Any, ...], added: tuple[int, ...]) -> Items:
        """The folds' values in their order, from the order's and the sums'."""
        found: list[Any] = [None] * len(self.folds)
        for j, i in enumerate(self.ords):
            found[i] = ordered[j]
        for j, i in enumerate(self.adds):
            found[i] = added[j]
        return tuple(found)

    def power(self, g: int, b: int, left: int) -> dict[tuple[int, ...], int]:
        """The shares of ``left`` dice of group ``g`` showing the outcomes
        from step ``b`` on (weighed over the group's whole denominator)."""
        key = (g, b, left)
        found = self.powers.get(key)
        if found is None:
            classes: dict[tuple[int, ...], int] = {}
            for i in range(b, len(self.steps)):
                if self.steps[i][0] == g:
                    vec = self.vecs[i]
                    classes[vec] = classes.get(vec, 0) + self.steps[i][2]
            found = self.powers[key] = _power(classes, left, self.zero, self.bits)
        return found


def _score(kind: str, a: Any, b: Any, items: Items) -> int:
    """A die's share of an adding fold."""
    if kind == "count":
        return sum(1 for x in items if a <= x <= b)
    if kind == "sum":
        total: int = sum(items)
        return total
    if kind == "len":
        return len(items)
    return sum(x.count(a) if isinstance(x, tuple) else int(x == a) for x in items)


def _kept(group: Group, placed: int) -> int:
    """How many of ``placed`` dice of a group (the first in the order) it keeps."""
    return placed if group.keep is None else min(placed, group.keep)


def _power(
    classes: dict[tuple[int, ...], int], n: int, zero: tuple[int, ...], bits: int
) -> dict[tuple[int, ...], int]:
    """The shares of ``n`` dice, each showing one of ``classes`` (shares by
    weight): for each class in turn how many dice show it, binomially weighed;
    with the last, every die left is placed, those not showing it adding
    nothing (showing a class of no share)."""
    rest = classes.get(zero, 0)
    order = [c for c in classes if c != zero]
    if not order:
        return {zero: rest**n}
    states: dict[tuple[int, tuple[int, ...]], int] = {(0, zero): 1}
    for vec in order[:-1]:
        states = _place(states, vec, classes[vec], n, None, bits)
    ended = _place(states, order[-1], classes[order[-1]], n, rest, bits)
    return {v: w for (_, v), w in ended.items()}


def _place(
    states: dict[tuple[int, tuple[int, ...]], int],
    vec: tuple[int, ...],
    w: int,
    n: int,
    rest: int | None,
    bits: int,
) -> dict[tuple[int, tuple[int, ...]], int]:
    """``states`` (dice placed, shares) after a class of weight ``w`` and
    share ``vec``: each k of the dice left showing it. The last class (where
    ``rest`` is given: the weight of the dice that add nothing) places every
    die left, ``rest`` weighing those not showing it."""
    spend(weighed(sum(n - p + 1 for p, _ in states), bits))
    after: dict[tuple[int, tuple[int, ...]], int] = {}
    steps = [tuple(k * v for v in vec) for k in range(n + 1)]
    rows: dict[int, list[int]] = {}
    for (placed, sofar), ways in states.items():
        left = n - placed
        row = rows.get(left)
        if row is None:
            row = rows[left] = [
                comb(left, k) * w**k * (1 if rest is None else rest ** (left - k))
                for k in range(left + 1)
            ]
        for k in range(left + 1):
            weight = row[k]
            if not weight:
                continue
            key = (
                placed + k if rest is None else n,
                tuple(map(add, sofar, steps[k])) if k else sofar,
            )
            after[key] = after.get(key, 0) + ways * weight
    return after


def _convolve(
    a: dict[tuple[int, ...], int], b: dict[tuple[int, ...], int], bits: int
) -> dict[tuple[int, ...], int]:
    """The shares of two independent parts added."""
    if len(a) == 1 and a.get(tuple(0 for _ in next(iter(a)))) == 1:
        return b
    if len(b) == 1:
        ((vb, wb),) = b.items()
        if not any(vb):
            return {v: x * wb for v, x in a.items()}
    spend(weighed(len(a) * len(b), bits))
    found: dict[tuple[int, ...], int] = {}
    for va, wa in a.items():
        for vb, wb in b.items():
            key = tuple(map(add, va, vb))
            found[key] = found.get(key, 0) + wa * wb
    return found


State = tuple[tuple[int, ...], tuple[Any, ...], tuple[int, ...]]
"""How many dice of each group are placed, the order-bound folds' values and
the counts' and sums'."""


def _ordered(shape: _Shape) -> dict[Items, int]:
    """The outcomes taken in order, a state being how many dice of each group
    are placed and the folds' values so far; a state whose order-bound folds
    can change no more is done, the dice still to place added as a power."""
    groups, ords, folds = shape.groups, shape.ords, shape.folds
    reads = [folds[i][1] for i in ords]
    kinds = [folds[i][0] for i in ords]
    first: State = ((0,) * len(groups), (None,) * len(ords), shape.zero)
    states: dict[State, int] = {first: 1}
    done: dict[Items, int] = {}
    for b, (g, items, w) in enumerate(shape.steps):
        n, keep = groups[g].count, groups[g].keep
        last = shape.last[g] == b
        spend(weighed(sum(1 if last else n - s[0][g] + 1 for s in states), shape.bits))
        top, bottom, vec = max(items), min(items), shape.vecs[b]
        rows: dict[int, list[int]] = {}
        moved: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # order-bound folds, k > 0
        after: dict[State, int] = {}
        for state, ways in states.items():
            placed, ordered, added = state
            left = n - placed[g]
            row = rows.get(left)
            if row is None:
                row = rows[left] = [comb(left, k) * w**k for k in range(left + 1)]
            for k in (left,) if last else range(left + 1):
                weight = ways * row[k]
                if not k:
                    after[state] = after.get(state, 0) + weight
                    continue
                kept = k if keep is None else max(0, min(k, keep - placed[g]))
                new_placed = (*placed[:g], placed[g] + k, *placed[g + 1 :])
                if kept:
                    if "at" in kinds:
                        new_ordered = _placed(
                            shape, kinds, reads, state, g, kept, items
                        )
                    elif ordered in moved:
                        new_ordered = moved[ordered]
                    else:
                        new_ordered = moved[ordered] = _moved(
                            kinds, reads, ordered, g, top, bottom
                        )
                    if kept > 1:
                        added = tuple(
                            a + kept * v for a, v in zip(added, vec, strict=True)
                        )
                    elif any(vec):
                        added = tuple(map(add, added, vec))
                    key = (new_placed, new_ordered, added)
                    added = state[2]
                else:
                    key = (new_placed, ordered, added)
                after[key] = after.get(key, 0) + weight
        states = {}
        final: list[tuple[State, int]] = []
        for state, ways in after.items():
            if _final(shape, state, b + 1):
                final.append((state, ways))
            else:
                states[state] = ways
        _finish(shape, final, b + 1, done)
    _finish(shape, list(states.items()), len(shape.steps), done)
    return done


def _moved(
    kinds: list[str],
    reads: list[tuple[int, ...]],
    ordered: tuple[Any, ...],
    g: int,
    top: Any,
    bottom: Any,
) -> tuple[Any, ...]:
    """The highest and lowest after dice of group ``g`` showing an outcome
    (a sorted place is left as it was)."""
    found = list(ordered)
    for j, kind in enumerate(kinds):
        if g in reads[j]:
            now = found[j]
            if kind == "max":
                found[j] = top if now is None or top > now else now
            elif kind == "min":
                found[j] = bottom if now is None or bottom < now else now
    return tuple(found)


def _placed(
    shape: _Shape,
    kinds: list[str],
    reads: list[tuple[int, ...]],
    state: State,
    g: int,
    kept: int,
    items: Items,
) -> tuple[Any, ...]:
    """The order-bound folds after ``kept`` dice of group ``g`` showing
    ``items`` are placed (a sorted place among them)."""
    placed, ordered, _ = state
    found = list(_moved(kinds, reads, ordered, g, max(items), min(items)))
    for j, kind in enumerate(kinds):
        if kind == "at" and g in reads[j] and ordered[j] is None:
            target = shape.targets[j]
            before = sum(_kept(shape.groups[h], placed[h]) for h in reads[j])
            if before <= target < before + kept:
                found[j] = items[0]
    return tuple(found)


def _final(shape: _Shape, state: State, b: int) -> bool:
    """Whether the order-bound folds of ``state`` can change no more after
    the first ``b`` steps."""
    groups = shape.groups
    placed, ordered, _ = state
    if shape.keeping:
        if placed[0] >= (groups[0].keep or 0):  # a keeping group is alone
            return True
        if shape.adds:
            return False
    for j, i in enumerate(shape.ords):
        kind, reads, _, _ = shape.folds[i]
        value = ordered[j]
        for g in reads:
            if placed[g] >= groups[g].count:
                continue
            if kind == "at":
                if value is None and shape.targets[j] >= 0:
                    return False
            elif value is None:
                return False
            elif kind == "max":
                high = shape.high[g][b]
                if high is not None and high > value:
                    return False
            else:
                low = shape.low[g][b]
                if low is not None and low < value:
                    return False
    return True


def _finish(
    shape: _Shape, final: list[tuple[State, int]], b: int, done: dict[Items, int]
) -> None:
    """States done after ``b`` steps: each with the shares of the dice still
    to place (from the steps after), into ``done`` by the folds' values."""
    groups = shape.groups
    parts: list[tuple[State, int, dict[tuple[int, ...], int]]] = []
    units = 0
    for state, ways in final:
        placed = state[0]
        rest: dict[tuple[int, ...], int] = {shape.zero: 1}
        for g, one in enumerate(groups):
            left = one.count - placed[g]
            if not left:
                continue
            dropped = one.keep is not None and placed[g] >= one.keep
            part: dict[tuple[int, ...], int]
            if dropped or not shape.added(g):
                part = {shape.zero: shape.rest[g][b] ** left}
            else:
                part = shape.power(g, b, left)
            rest = _convolve(rest, part, shape.bits)
        units += len(rest)
        parts.append((state, ways, rest))
    if not parts:
        return
    spend(weighed(units, shape.bits))
    for (_, ordered, added), ways, rest in parts:
        for vec, w in rest.items():
            key = shape.values(ordered, tuple(map(add, added, vec)))
            done[key] = done.get(key, 0) + ways * w


def _same(value: int) -> int:
    return value
