"""The proof that a repeating decision's turns end: every state it can reach can reach its ending.

A decision that repeats a turn without ``max_turns`` must end with probability
1. The proof follows only the state the ending reads, directly or through the
turn (the caller passes it, with the turn's names and new values it needs: a
list the turn only grows and the ending never reads has no part in it). Where
that state is finite (flags, labels, numbers with both bounds) and the
parameters take finitely many values, the build searches the graph of states
for each call: from the start, every turn goes to the states its names'
possible values lead to (each dice term's exact possible values, from the
runtime's odds engine), and an ending state takes no turn. The turns end with
probability 1 exactly when every state reached can reach an ending one (a
finite chain whose every state can be absorbed is absorbed almost surely).

The search spends from its system's ``Allowance`` (``limits.MAX_PROOF_WORK``)
as it goes: each expression it works out costs the nodes of that expression,
each dice term's possible values the steps the odds engine takes to find them
(worked out before they are found).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ...common.limits import Allowance
from ...front.model import Param
from ...kinds.decision.model import Repeat, StateValue
from ...lang import expr
from ...lang.dice import rolled_pool
from ...lang.nodes import (
    Rounding,
    walk,
)
from ...runtime._odds import results
from ...runtime._support import CALL, enter_call, leave_call
from ...runtime.dice_odds import DEPTH, counted_odds
from ...runtime.dice_terms import Pool
from ...runtime.errors import RuleInputError

__all__ = ["Spent", "TooLarge", "never_ends", "outcomes"]

Tables = Mapping[str, Mapping[str, Mapping[str, object]]]
State = tuple[Any, ...]


class TooLarge(Exception):
    """The proof would spend more than its allowance."""


def never_ends(
    params: Sequence[Param],
    inputs: list[list[Any]],
    state: Sequence[StateValue],
    repeat: Repeat,
    rounding: Rounding,
    tables: Tables,
    allowance: Allowance,
) -> str | None:
    """Why the turns may never end, or None when they end for every call
    (``inputs``: every value of each parameter). Raises ``TooLarge`` once the
    search would spend more than ``allowance`` holds."""
    names = [p.name for p in params]
    nodes = [repeat.until.node, *(let.checked.node for let in repeat.lets)]
    nodes += [s.clamped.node for s in repeat.sets]
    spent = Spent(allowance, {id(n): sum(1 for _ in walk(n)) for n in nodes})
    for combo in itertools.product(*inputs):
        env = dict(zip(names, combo, strict=True))
        starts = itertools.product(  # (a start that rolls: each value it can)
            *(outcomes(v.start.node, env, rounding, tables, spent) for v in state)
        )
        stuck = next(
            (
                found
                for start in starts
                if (found := _stuck(env, start, state, repeat, rounding, tables, spent))
                is not None
            ),
            None,
        )
        if stuck is not None:
            shown = ", ".join(f"{k}={v!r}" for k, v in env.items())
            at = ", ".join(
                f"{v.name}={value!r}" for v, value in zip(state, stuck, strict=True)
            )
            return f"from {at} the ending can never be reached" + (
                f" (for {shown})" if shown else ""
            )
    return None


def _stuck(
    env: dict[str, Any],
    start: State,
    state: Sequence[StateValue],
    repeat: Repeat,
    rounding: Rounding,
    tables: Tables,
    spent: Spent,
) -> State | None:
    """A state reached from ``start`` that cannot reach the ending, or None."""

    def ends(s: State) -> bool:
        scope = env | {v.name: x for v, x in zip(state, s, strict=True)}
        spent.evaluates(repeat.until.node)
        return bool(
            expr.evaluate(repeat.until.node, scope, rounding=rounding, tables=tables)
        )

    edges: dict[State, set[State]] = {}
    todo = [start]
    while todo:
        s = todo.pop()
        if s in edges:
            continue
        edges[s] = (
            set() if ends(s) else _turn(env, s, state, repeat, rounding, tables, spent)
        )
        todo += [t for t in edges[s] if t not in edges]
    back: dict[State, set[State]] = {s: set() for s in edges}
    for s, after in edges.items():
        for t in after:
            back[t].add(s)
    done = [s for s, after in edges.items() if not after]
    reach = set(done)
    while done:
        for s in back[done.pop()]:
            if s not in reach:
                reach.add(s)
                done.append(s)
    return next((s for s in edges if s not in reach), None)


def _turn(
    env: dict[str, Any],
    s: State,
    state: Sequence[StateValue],
    repeat: Repeat,
    rounding: Rounding,
    tables: Tables,
    spent: Spent,
) -> set[State]:
    """The states one turn from ``s`` can lead to."""
    scopes = [env | {v.name: x for v, x in zip(state, s, strict=True)}]
    for let in repeat.lets:
        scopes = [
            scope | {let.name: value}
            for scope in scopes
            for value in outcomes(let.checked.node, scope, rounding, tables, spent)
        ]
    found: set[State] = set()
    sets = {s.name: s.clamped.node for s in repeat.sets}
    for scope in scopes:
        for name in sets:
            spent.evaluates(sets[name])
        found.add(
            tuple(
                expr.evaluate(sets[v.name], scope, rounding=rounding, tables=tables)
                if v.name in sets
                else scope[v.name]
                for v in state
            )
        )
    return found


def outcomes(
    node: expr.Node,
    scope: dict[str, Any],
    rounding: Rounding,
    tables: Tables,
    spent: Spent,
) -> list[Any]:
    """Every value ``node`` can take: each dice term's possible values tried
    in turn (a roll replayed with one choice more each time)."""
    found: list[Any] = []
    todo: list[list[int]] = [[]]
    while todo:
        prefix = todo.pop()
        taken = list(prefix)
        calls = [0]

        def roll(
            dice: expr.Dice,
            count: int | None,
            sides: int | None,
            prefix: list[int] = prefix,
            taken: list[int] = taken,
            calls: list[int] = calls,
        ) -> Any:
            options = _support(dice, count, sides, spent)
            at = calls[0]
            calls[0] += 1
            if at >= len(prefix):
                taken.append(0)
                todo.extend([*taken[:-1], j] for j in range(1, len(options)))
            return options[taken[at]]

        spent.evaluates(node)
        value = expr.evaluate(node, scope, rounding=rounding, tables=tables, dice=roll)
        if value not in found:
            found.append(value)
    return found


def _support(
    dice: expr.Dice, count: int | None, sides: int | None, spent: Spent
) -> list[Any]:
    """The values a dice term can roll: its totals, or the lists of the dice it keeps."""
    pool = rolled_pool(dice, count, sides)
    if pool is None:  # no die
        return [[] if dice.results else 0]
    key = (pool, dice.results)
    found = spent.supports.get(key)
    if found is None:  # worked out once for the whole search
        found = spent.supports[key] = _support_of(pool, dice.results, spent)
    return found


def _support_of(pool: Pool, listed: bool, spent: Spent) -> list[Any]:
    """The values, from the odds engine: a call of the runtime of its own,
    whose steps (refused past the runtime's limit before they are taken) the
    search spends."""
    found: list[Any]
    enter_call()
    try:
        if listed:
            found = [list(v) for v in sorted(results(pool, DEPTH).weights)]
        else:
            found = sorted(counted_odds(pool, DEPTH).chances)
    except RuleInputError as error:
        raise TooLarge from error
    finally:
        leave_call()
    spent.take(CALL.work + len(found))
    return found


class Spent:
    """What the search has spent of its allowance: the nodes of each
    expression it works out (by the expression's identity, counted once),
    and the steps of each dice term's possible values."""

    def __init__(self, allowance: Allowance, sizes: dict[int, int]) -> None:
        self.allowance = allowance
        self.sizes = sizes
        self.supports: dict[tuple[Pool, bool], list[Any]] = {}

    def evaluates(self, node: expr.Node) -> None:
        self.take(self.sizes.get(id(node), 1))

    def take(self, work: int) -> None:
        if not self.allowance.take(work):
            raise TooLarge
