"""A repeating decision as code: its loop of turns, and its odds as an absorbing chain.

One writer for both targets: ``Target`` says how each writes a name, a
statement and a tuple of values. The loop starts the state, then while the
ending does not hold takes a turn: its names bound in order (dice rolled with
the caller's rng), then every new value worked out from the values before
the turn and set at once. The odds code hands the runtime's chain solver
(``_chain.absorbed``) the start, a turn's chances of the next state (the
names' chances followed into the new values, as ``expr_odds`` does), the
ending and the answer; the state it follows holds only the values the ending
or the answer read, directly or through the turn (``relevant``: a list the
turn only grows, read by neither, is not followed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ... import expr
from ...expr_odds import Syntax, bind_lets
from ...kinds.decision.model import TURNS, DecisionRule, Repeat, StateValue

__all__ = [
    "Target",
    "answer_nodes",
    "followed",
    "loop_lines",
    "odds_code",
    "relevant",
]


@dataclass(frozen=True, slots=True)
class Target:
    """How a target writes the loop (``emit``: a checked expression's code)."""

    emit: Callable[[expr.Node], str]
    name: Callable[[str], str]  # a state value or a turn's name
    start: str  # declares a state value: "" or "let "
    declared: Callable[[StateValue], str]  # a state value's name as declared
    held: Callable[[StateValue, str], str]  # a state value's code as it is held
    bind: str  # declares a turn's name: "" or "const "
    end: str  # ends a statement: "" or ";"
    loop: Callable[[str], str]  # the loop's head, from its condition's code
    close: str | None  # closes a block, or None
    stop: Callable[[int], str]  # stops after so many turns
    count: str  # counts a turn (the runtime refuses past its limit)
    assign: Callable[[list[str], list[str]], str]  # names <- values, at once
    tuple: Callable[[list[str]], str]
    nothing: str  # no bound on the turns: "None" or "null"


def loop_lines(rule: DecisionRule, target: Target, call: str) -> list[str]:
    """The body of a repeating decision's function after its checks: the
    loop of turns, then ``call`` (its cases, given the state and ``turns``)."""
    repeat = rule.repeat
    assert repeat is not None
    t = target
    lines = [
        f"{t.start}{t.declared(v)} = {t.held(v, t.emit(v.start.node))}{t.end}"
        for v in rule.state
    ]
    lines.append(f"{t.start}{TURNS} = 0{t.end}")
    lines.append(t.loop(t.emit(repeat.until.node)))
    inner = "    " if t.close is None else "  "
    if repeat.max_turns is not None:
        lines += [inner + line for line in t.stop(repeat.max_turns).split("\n")]
    lines.append(inner + t.count)
    for let in repeat.lets:
        lines.append(
            f"{inner}{t.bind}{t.name(let.name)} = {t.emit(let.checked.node)}{t.end}"
        )
    values_of = {v.name: v for v in rule.state}
    names = [t.name(s.name) for s in repeat.sets]
    values = [t.held(values_of[s.name], t.emit(s.clamped.node)) for s in repeat.sets]
    lines.append(inner + t.assign(names, values))
    if t.close is not None:
        lines.append(t.close)
    lines.append(f"return {call}{t.end}")
    return lines


def relevant(rule: DecisionRule) -> tuple[list[StateValue], list[str]]:
    """The state values the odds follow (those the ending or the odds' answer
    read, directly or through the turn) and the turn's names they need."""
    repeat = rule.repeat
    assert repeat is not None and rule.odds is not None
    return followed(repeat, [repeat.until.node, *answer_nodes(rule)])


def followed(
    repeat: Repeat, reads: Sequence[expr.Node]
) -> tuple[list[StateValue], list[str]]:
    """The state values ``reads`` follow from, directly or through the turn
    (in the state's order), and the turn's names they need (in order)."""
    wanted: set[str] = set()
    for read in reads:
        wanted |= expr.names_used(read)
    sets = {s.name: s.clamped.node for s in repeat.sets}
    lets = {let.name: let.checked.node for let in repeat.lets}
    todo = list(wanted)
    while todo:
        name = todo.pop()
        node = sets[name] if name in sets else lets.get(name)
        for used in expr.names_used(node) if node is not None else ():
            if used not in wanted:
                wanted.add(used)
                todo.append(used)
    state = [v for v in repeat.state if v.name in wanted]
    return state, [let.name for let in repeat.lets if let.name in wanted]


def answer_nodes(rule: DecisionRule) -> list[expr.Node]:
    """The cases' conditions and the odds field's expressions."""
    found: list[expr.Node] = []
    for case in rule.cases:
        if case.when is not None:
            found.append(case.when.node)
        kind, item = dict(case.values or ()).get(rule.odds or "", ("", None))
        if kind == "expr" and item is not None:
            found.append(item.node)
    return found


def odds_code(
    rule: DecisionRule,
    syntax: Syntax,
    target: Target,
    value: Callable[[tuple[str, Any]], str],
    chain: Callable[[Sequence[str]], str],
) -> str:
    """The chances of the odds field: the chain solved by the runtime
    (``chain``: its call, given the arguments' code; ``value``: a case's
    value's code)."""
    repeat = rule.repeat
    assert repeat is not None
    state, needed = relevant(rule)
    names = [target.name(v.name) for v in state]
    start = target.tuple([target.held(v, target.emit(v.start.node)) for v in state])
    sets = {s.name: s.clamped.node for s in repeat.sets}
    after = target.tuple(
        [
            target.held(v, target.emit(sets[v.name]))
            if v.name in sets
            else target.name(v.name)
            for v in state
        ]
    )
    lets = [(let.name, let.checked.node) for let in repeat.lets if let.name in needed]
    reads = [sets[v.name] for v in state if v.name in sets]  # all `after` reads
    turn = syntax.function(
        names, bind_lets(lets, syntax, syntax.call("const", [after]), reads)
    )
    ends = syntax.function(names, target.emit(repeat.until.node))
    answer = syntax.function([TURNS, *names], _cases(rule, syntax, value))
    most = target.nothing if repeat.max_turns is None else str(repeat.max_turns)
    return chain([start, turn, ends, answer, most])


def _cases(
    rule: DecisionRule, syntax: Syntax, value: Callable[[tuple[str, Any]], str]
) -> str:
    """The odds field's value, the cases tried in order (the last answers otherwise)."""
    odds = rule.odds or ""
    cases = [c for c in rule.cases if c.values is not None]
    code = value(dict(cases[-1].values or ())[odds])
    for case in reversed(cases[:-1]):
        if case.when is None:
            continue
        test = value(("expr", case.when))
        code = syntax.choose(test, value(dict(case.values or ())[odds]), code)
    return code
