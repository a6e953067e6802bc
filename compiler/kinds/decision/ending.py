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
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ... import expr
from ...expr_dice import pool_of
from ...expr_types import Rounding
from ...kinds.decision.model import Repeat, StateValue
from ...model import Param
from ...runtime._odds import results
from ...runtime.dice_odds import DEPTH
from ...runtime.dice_odds import odds as total_odds
from ...runtime.dice_terms import DiceSum, Pool, Term
from ...runtime.errors import RuleInputError

__all__ = ["MAX_PROOF_STEPS", "TooLarge", "never_ends", "outcomes"]

MAX_PROOF_STEPS = 2_000_000
"""The values the proof works out (a limit of the tool: a rule past it
declares ``max_turns`` instead)."""

Tables = Mapping[str, Mapping[str, Mapping[str, object]]]
State = tuple[Any, ...]


class TooLarge(Exception):
    """The proof would pass ``MAX_PROOF_STEPS``."""


def never_ends(
    params: Sequence[Param],
    inputs: list[list[Any]],
    state: Sequence[StateValue],
    repeat: Repeat,
    rounding: Rounding,
    tables: Tables,
) -> str | None:
    """Why the turns may never end, or None when they end for every call
    (``inputs``: every value of each parameter). Raises ``TooLarge``."""
    names = [p.name for p in params]
    spent = [0]
    for combo in itertools.product(*inputs):
        env = dict(zip(names, combo, strict=True))
        start = tuple(
            expr.evaluate(v.start.node, env, rounding=rounding, tables=tables)
            for v in state
        )
        stuck = _stuck(env, start, state, repeat, rounding, tables, spent)
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
    spent: list[int],
) -> State | None:
    """A state reached from ``start`` that cannot reach the ending, or None."""

    def ends(s: State) -> bool:
        scope = env | {v.name: x for v, x in zip(state, s, strict=True)}
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
    spent: list[int],
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
        spent[0] += len(state)
        if spent[0] > MAX_PROOF_STEPS:
            raise TooLarge
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
    spent: list[int],
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
            options = _support(dice, count, sides)
            at = calls[0]
            calls[0] += 1
            if at >= len(prefix):
                taken.append(0)
                todo.extend([*taken[:-1], j] for j in range(1, len(options)))
            return options[taken[at]]

        spent[0] += 1
        if spent[0] > MAX_PROOF_STEPS:
            raise TooLarge
        value = expr.evaluate(node, scope, rounding=rounding, tables=tables, dice=roll)
        if value not in found:
            found.append(value)
    return found


def _support(dice: expr.Dice, count: int | None, sides: int | None) -> list[Any]:
    """The values a dice term can roll: its totals, or the lists of the dice it keeps."""
    pool = pool_of(dice)
    if dice.sides is not None:
        assert sides is not None
        pool = Pool(1 if count is None else count, sides)
    elif count is not None:
        if count == 0:
            return [[] if dice.results else 0]
        pool = pool.replace(count=count)
    return _support_of(pool, dice.results)


@lru_cache(maxsize=256)
def _support_of(pool: Pool, listed: bool) -> list[Any]:
    try:
        if listed:
            return [list(v) for v in sorted(results(pool, DEPTH).weights)]
        chances = total_odds(DiceSum((Term(1, pool),)), DEPTH)
    except RuleInputError as error:
        raise TooLarge from error
    return sorted(chances.chances)
