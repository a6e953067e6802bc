"""Odds of a rule that repeats a turn until an ending holds: an absorbing Markov chain solved exactly.

A state is a tuple of the values the rule carries from turn to turn (those
its ending and its answer read); the turns start from one, or from each of
the states a start that rolls gives, with its chance. ``turn(*state)`` gives the chances of the
next state (``_odds.Dist``); a state where ``ends(*state)`` holds takes no
turn. With no bound on the turns, the chance of ending in each ending state
is the start's row of the chain's absorption (the expected visits ``v`` of
the states that take turns solve ``v (I - Q) = e_start``, over fractions, by
Gaussian elimination on sparse rows: each state's row holds only the states
that lead to it). With ``max_turns``, the chances are followed turn by turn
up to it, and the answer may read the count of turns; with ``depth`` (no
bound on the turns) as far, the chance of the runs still going after it the
tail. No sequence of rolls is
enumerated. The weight an explosion's depth cut off (a turn's ``cut``) is
followed as a state of its own: it is the answer's tail.

``next_turn`` counts a run's turns, refusing one past the runtime's limit.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import lcm
from typing import Any, cast

from ._odds import Dist
from ._support import MAX_ENTRIES, spend, too_many
from .errors import RuleInputError

__all__ = ["absorbed", "next_turn"]

State = tuple[Any, ...]


def next_turn(turns: int) -> int:
    """The count of turns after one more; past ``MAX_ENTRIES`` turns a run
    that has not ended is refused (a limit of the runtime, not of the rules)."""
    if turns >= MAX_ENTRIES:
        raise too_many("turns")
    return turns + 1


def absorbed(
    start: State | Dist,
    turn: Callable[..., Dist],
    ends: Callable[..., object],
    answer: Callable[..., object],
    max_turns: int | None,
    depth: int | None = None,
) -> Dist:
    """The chances of ``answer(turns, *state)`` where the turns stop, from
    ``start``, or from each state with its chance where the start rolls (a
    ``Dist``; its ``cut`` joins the tail); ``turns`` is None without
    ``max_turns`` or ``depth``: the answer then does not read it. With
    ``depth``, turns followed that deep exactly: the runs still going are the
    tail."""
    starts, lost = _starts(start)
    if depth is not None:
        return _forward(starts, lost, turn, ends, answer, depth, tail=True)
    if max_turns is not None:
        return _forward(starts, lost, turn, ends, answer, max_turns)
    order: list[State] = []  # the states that take turns, as found
    index: dict[State, int] = {}
    ending: dict[State, None] = {}
    steps: list[tuple[dict[State, Fraction], Fraction]] = []
    todo = list(starts)
    while todo:
        state = todo.pop()
        if state in index or state in ending:
            continue
        if ends(*state):
            ending[state] = None
            continue
        if len(order) >= MAX_ENTRIES:
            raise too_many("states")
        index[state] = len(order)
        order.append(state)
        after = turn(*state)
        steps.append(
            (
                {t: Fraction(w, after.denom) for t, w in after.weights.items()},
                Fraction(after.cut, after.denom),
            )
        )
        todo += [t for t in after.weights if t not in index and t not in ending]
    found: dict[Any, Fraction] = {}
    for state in ending.keys() & starts.keys():  # it ends before any turn
        value = _key(answer(None, *state))
        found[value] = found.get(value, Fraction(0)) + starts[state]
    if not order:
        return _dist(found, lost)
    # v_j - sum_i v_i Q[i][j] = [j's chance to start]: row j reads its predecessors
    rows: list[dict[int, Fraction]] = [{j: Fraction(1)} for j in range(len(order))]
    for i, (moves, _) in enumerate(steps):
        for t, p in moves.items():
            j = index.get(t)
            if j is not None:
                rows[j][i] = rows[j].get(i, Fraction(0)) - p
    visits = _solve(rows, [starts.get(state, Fraction(0)) for state in order])
    cut = lost
    for i, (moves, dropped) in enumerate(steps):
        if not visits[i]:
            continue
        cut += visits[i] * dropped
        for t, p in moves.items():
            if t in ending:
                value = _key(answer(None, *t))
                found[value] = found.get(value, Fraction(0)) + visits[i] * p
    return _dist(found, cut)


def _starts(start: State | Dist) -> tuple[dict[State, Fraction], Fraction]:
    """The states the turns start from, each with its chance, and the chance
    an explosion's depth cut off the start."""
    if not isinstance(start, Dist):
        return {start: Fraction(1)}, Fraction(0)
    chances = {t: Fraction(w, start.denom) for t, w in start.weights.items()}
    return chances, Fraction(start.cut, start.denom)


def _forward(
    starts: dict[State, Fraction],
    lost: Fraction,
    turn: Callable[..., Dist],
    ends: Callable[..., object],
    answer: Callable[..., object],
    max_turns: int,
    *,
    tail: bool = False,
) -> Dist:
    """The chances followed turn by turn, up to ``max_turns`` (with ``tail``,
    the runs that have not ended by then are cut off: the tail)."""
    now = dict(starts)
    found: dict[Any, Fraction] = {}
    cut = lost
    turns: dict[State, Dist] = {}
    for taken in range(max_turns + 1):
        after: dict[State, Fraction] = {}
        for state, p in now.items():
            if tail and taken == max_turns and not ends(*state):
                cut += p
                continue
            if taken == max_turns or ends(*state):
                value = _key(answer(taken, *state))
                found[value] = found.get(value, Fraction(0)) + p
                continue
            if state not in turns:
                if len(turns) >= MAX_ENTRIES:
                    raise too_many("states")
                turns[state] = turn(*state)
            step = turns[state]
            cut += p * Fraction(step.cut, step.denom)
            for t, w in step.weights.items():
                after[t] = after.get(t, Fraction(0)) + p * Fraction(w, step.denom)
        spend(len(after))
        now = after
        if not now:
            break
    return _dist(found, cut)


def _solve(rows: list[dict[int, Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """The solution of ``rows`` (sparse: column -> coefficient) times x =
    ``rhs`` (each state's chance to start), by Gaussian elimination in the
    order the states were found (no pivoting: the matrix of an absorbing
    chain's transient states is an M-matrix, whose pivots are positive)."""
    n = len(rows)
    rhs = list(rhs)
    below: list[set[int]] = [set() for _ in range(n)]  # column -> rows under it
    for j, row in enumerate(rows):
        for k in row:
            if k < j:
                below[k].add(j)
    for k in range(n):
        pivot = rows[k].get(k, Fraction(0))
        if not pivot:
            raise RuleInputError("the turns may never end: no chance of the ending")
        for j in sorted(below[k]):
            factor = rows[j].pop(k, Fraction(0)) / pivot
            if not factor:
                continue
            spend(len(rows[k]))
            for c, v in rows[k].items():
                if c == k:
                    continue
                value = rows[j].get(c, Fraction(0)) - factor * v
                if value:
                    rows[j][c] = value
                    if k < c < j:
                        below[c].add(j)
                else:
                    rows[j].pop(c, None)
            rhs[j] -= factor * rhs[k]
    x = [Fraction(0)] * n
    for k in reversed(range(n)):
        total = rhs[k] - sum(
            (v * x[c] for c, v in rows[k].items() if c > k), Fraction(0)
        )
        x[k] = total / rows[k][k]
    return x


def _dist(found: dict[Any, Fraction], cut: Fraction) -> Dist:
    """Chances as fractions, as a ``Dist`` over their common denominator."""
    denom = lcm(cut.denominator, *(p.denominator for p in found.values()))
    weights = {v: p.numerator * (denom // p.denominator) for v, p in found.items()}
    return Dist(weights, cut.numerator * (denom // cut.denominator), denom)


def _key(value: object) -> object:
    """An answer as a key of the chances: a list as a tuple."""
    if isinstance(value, list):
        return tuple(cast("list[object]", value))
    return value
