"""Turns code: a procedure's turns as a loop, and their odds as an absorbing chain, in any target.

One writer for both targets: ``Target`` says how each writes a name, a
statement and a tuple of values. The loop starts the carried state, then
while the ending does not hold takes a turn: its names bound in order (dice
rolled with the caller's rng), then every new value worked out from the values
before the turn and set at once. The odds code hands the runtime's chain solver
(``_chain.absorbed``) the start (the chances of each, a plan of the engine,
where it rolls), a turn's chances of the next state (a plan of the engine:
the turn's names, then the new values), the ending and the answer (a tuple
of the fields whose odds it works out); the state it follows holds only the values the ending
or the answer read, directly or through the turn (``core.turns.followed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.ir import Carried, If, Make, Part, Refuse, Return, Stmt, Turns
from ..core.turns import followed
from ..lang import expr
from ..odds.plan import (
    plan,
    rolls,
)
from .odds import (
    Syntax,
    run_code,
)

__all__ = ["Target", "loop_lines", "odds_cases", "turns_odds"]


@dataclass(frozen=True, slots=True)
class Target:
    """How a target writes the loop (``emit``: a checked expression's code)."""

    emit: Callable[[expr.Node], str]
    name: Callable[[str], str]  # a carried value's or a turn's name
    start: str  # declares a carried value: "" or "let "
    declared: Callable[[Carried], str]  # a carried value's name as declared
    held: Callable[[Carried, str], str]  # a carried value's code as it is held
    bind: str  # declares a turn's name: "" or "const "
    end: str  # ends a statement: "" or ";"
    loop: Callable[[str], str]  # the loop's head, from its condition's code
    close: str | None  # closes a block, or None
    stop: Callable[[int], str]  # stops after so many turns
    count: Callable[[str], str]  # counts a turn (the runtime refuses past its limit)
    assign: Callable[[list[str], list[str]], str]  # names <- values, at once
    tuple: Callable[[list[str]], str]
    nothing: str  # no bound on the turns: "None" or "null"


def loop_lines(turns: Turns, target: Target, call: str) -> list[str]:
    """The lines that take the turns, then answer ``call`` (the procedure's
    private function, given the state as it ended and the count of turns)."""
    t = target
    counter = t.name(turns.counter)
    lines = [
        f"{t.start}{t.declared(v)} = {t.held(v, t.emit(v.start.node))}{t.end}"
        for v in turns.state
    ]
    lines.append(f"{t.start}{counter} = 0{t.end}")
    lines.append(t.loop(t.emit(turns.until.node)))
    inner = "    " if t.close is None else "  "
    if turns.most is not None:
        lines += [inner + line for line in t.stop(turns.most).split("\n")]
    lines.append(inner + t.count(counter))
    for b in turns.binds:
        lines.append(
            f"{inner}{t.bind}{t.name(b.name)} = {t.emit(b.checked.node)}{t.end}"
        )
    carried = {v.name: v for v in turns.state}
    names = [t.name(s.name) for s in turns.sets]
    values = [t.held(carried[s.name], t.emit(s.value.node)) for s in turns.sets]
    lines.append(inner + t.assign(names, values))
    if t.close is not None:
        lines.append(t.close)
    lines.append(f"return {call}{t.end}")
    return lines


def turns_odds(
    turns: Turns,
    fields: Sequence[Sequence[tuple[expr.Checked | None, Part]]],
    syntax: Syntax,
    target: Target,
    part: Callable[[Part], str],
    chain: Callable[[Sequence[str]], str],
    depth: expr.Node | None = None,
) -> str:
    """The chances of fields of the answer together: the chain solved by the
    runtime (``fields``: for each field, each test in order, None for the
    last, with the field's value where it holds; ``part``: a value's code;
    ``chain``: the solver's call, given the arguments' code; ``depth``: how
    many turns deep the odds follow turns with no bound, the rest the tail)."""
    reads = [turns.until.node]
    for cases in fields:
        for test, value in cases:
            reads += [test.node] if test is not None else []
            reads += [value.node] if isinstance(value, expr.Checked) else []
    state, needed = followed(turns, reads)
    names = [target.name(v.name) for v in state]
    start = target.tuple([target.held(v, target.emit(v.start.node)) for v in state])
    if any(rolls(v.start.node) for v in state):  # the chances of each start
        starts = [(f"{v.name}", v.start.node) for v in state]
        held = [expr.Name(v.name, 0, 0) for v in state]
        start = run_code(plan(starts, held), syntax)
    sets = {s.name: s.value.node for s in turns.sets}
    after = [sets[v.name] if v.name in sets else expr.Name(v.name, 0, 0) for v in state]
    binds = [(b.name, b.checked.node) for b in turns.binds if b.name in needed]
    turn = syntax.function(names, run_code(plan(binds, after), syntax))
    ends = syntax.function(names, target.emit(turns.until.node))
    answer = syntax.function(
        [target.name(turns.counter), *names],
        target.tuple([_chosen(cases, syntax, part) for cases in fields]),
    )
    most = target.nothing if turns.most is None else str(turns.most)
    deep = [] if depth is None else [target.emit(depth)]
    return chain([start, turn, ends, answer, most, *deep])


def _chosen(
    cases: Sequence[tuple[expr.Checked | None, Part]],
    syntax: Syntax,
    part: Callable[[Part], str],
) -> str:
    """The value the cases give, tried in order (the last answers otherwise)."""
    code = part(cases[-1][1])
    for test, value in reversed(cases[:-1]):
        if test is not None:
            code = syntax.choose(syntax.emit(test.node), part(value), code)
    return code


def odds_cases(
    body: Sequence[Stmt], at: int
) -> list[tuple[expr.Checked | None, Part]] | None:
    """A body of cases (tests each ending it with an answer, then the answer
    where none holds) as each test with the value at ``at`` of its answer
    (a case that refuses has none: it is left out); None where the body is
    not of that shape."""
    found: list[tuple[expr.Checked | None, Part]] = []
    for index, stmt in enumerate(body):
        last = index == len(body) - 1
        end: Stmt
        test: expr.Checked | None
        if isinstance(stmt, If) and isinstance(stmt.test, expr.Checked):
            if stmt.otherwise or len(stmt.then) != 1:
                return None
            end, test = stmt.then[0], stmt.test
        elif last:
            end, test = stmt, None
        else:
            return None
        if isinstance(end, Refuse):
            continue
        if not isinstance(end, Return):
            return None
        made = end.value
        found.append((test, made.values[at] if isinstance(made, Make) else made))
    return found or None
