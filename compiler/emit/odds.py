"""Odds emission: a rule's odds plan (``compiler.odds.plan``) as code the runtime's engine runs, in any target.

The code hands the engine (``rulebook._odds``, the JavaScript ``odds.js``)
the plan's steps in order: each a function of the values it reads (named as
the target writes the plan's names), what it reads and what it binds, by
number. A let's function answers its value; a source's, its chances: a dice
total, a list of dice, a pool's folds, another rule's odds, a comprehension's
list (``each``: the item's test and body each a run of its own plan, a
function of the item). A source in a
branch answers a value known for certain where its guard does not hold (it
is not rolled there). One emitter for every target: ``Syntax`` says how the
target writes a function, a call, a condition, a tuple and a text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..lang.dice import pool_of
from ..lang.naming import odds_function
from ..lang.nodes import (
    Call,
    Comp,
    Dice,
    Name,
    Node,
)
from ..odds.plan import (
    PLACEHOLDER,
    Case,
    Literal,
    Plan,
    Refusal,
    Step,
)

__all__ = ["PLACEHOLDER", "Syntax", "run_code"]


@dataclass(frozen=True, slots=True)
class Syntax:
    """How a target writes what the odds code needs."""

    emit: Callable[[Node], str]  # a node's code (the plan's names kept as they are)
    function: Callable[[Sequence[str], str], str]  # (names, body) -> a function
    call: Callable[[str, Sequence[str]], str]  # (engine function, args) -> a call
    choose: Callable[[str, str, str], str]  # (test, then, else) -> a condition
    pool: Callable[[Dice, str, str], str]  # (dice, count, sides) -> its pool
    boolean: Callable[[bool], str]
    items: Callable[[Sequence[str]], str]  # a tuple of values
    text: Callable[[str], str]  # a string of the rules, as a literal
    nothing: str  # null
    record: Callable[[Call, tuple[str, ...]], str]  # a rule's chances of fields
    literal: Callable[[object], str]  # a value written in the rules (a part)


def run_code(plan: Plan, syntax: Syntax, depth: str | None = None) -> str:
    """The code of the engine's run of ``plan``: the chances of the values it
    answers, together (explosions followed ``depth`` deep: its code; None:
    the runtime's default)."""
    steps = [_step(plan, step, syntax, depth) for step in plan.steps]
    answers = [str(a) for a in plan.answers]
    return syntax.call("run", [syntax.items(steps), syntax.items(answers)])


def _step(plan: Plan, step: Step, s: Syntax, depth: str | None) -> str:
    params = [s.emit(Name(plan.names[v], 0, 0)) for v in step.reads]
    reads = s.items([str(v) for v in step.reads])
    if step.kind == "let":
        assert step.node is not None
        body = s.function(params, s.emit(step.node))
        return s.call("let", [body, reads, str(step.binds[0])])
    if step.kind == "cases":
        body = s.function(params, _chosen(step.cases, s))
        return s.call("let", [body, reads, str(step.binds[0])])
    made = _made(step, s, depth)
    several = len(step.binds) > 1 or step.kind in ("pool", "record")
    if step.guard is not None:
        skipped = s.items([s.nothing] * len(step.binds)) if several else s.nothing
        test = s.emit(Name(plan.names[step.guard], 0, 0))
        made = s.choose(test, made, s.call("const", [skipped]))
    binds = s.items([str(v) for v in step.binds])
    extra = [s.boolean(True)] if several else []
    return s.call("source", [s.function(params, made), reads, binds, *extra])


def _chosen(cases: Sequence[Case], s: Syntax) -> str:
    """The value of the first case whose test holds (the last answers where
    none before does); a case that refuses refuses the odds too."""

    def value(case: Case) -> str:
        answer = case[1]
        if isinstance(answer, Refusal):
            return s.call("refused", [s.text(answer.text)])
        if isinstance(answer, Literal):
            return s.literal(answer.part)
        return s.emit(answer)

    code = value(cases[-1])
    for case in reversed(cases[:-1]):
        if case[0] is not None:
            code = s.choose(s.emit(case[0]), value(case), code)
    return code


def _made(step: Step, s: Syntax, depth: str | None) -> str:
    """A source's chances."""
    deep = [] if depth is None else [depth]
    match step.kind:
        case "total" | "kept" | "unread":
            assert isinstance(step.node, Dice)
            return s.call(step.kind, [*_dice(step.node, s), *deep])
        case "pool":
            groups = [
                s.call("item", [s.call("total", [*_dice(g.dice, s), *deep])])
                if g.item
                else s.call("dice", [*_dice(g.dice, s), *deep])
                for g in step.groups
            ]
            folds = []
            for fold in step.folds:
                values = [s.emit(v) for v in fold.values]
                values += [s.nothing] * (2 - len(values))
                where = s.items([str(g) for g in fold.groups])
                folds.append(s.items([s.text(fold.kind), where, *values]))
            return s.call("pool", [s.items(groups), s.items(folds)])
        case "called":
            assert isinstance(step.node, Call)
            call = step.node
            odds = replace(
                call, func=call.odds or odds_function(call.func), rolls=False
            )
            return s.call("called", [s.emit(odds)])
        case "record":
            assert isinstance(step.node, Call)
            return s.record(step.node, step.fields)
        case "each":
            assert isinstance(step.node, Comp) and step.plans is not None
            tested, body = step.plans
            item = [s.emit(Name(step.node.name, 0, 0))]
            test = (
                s.nothing
                if tested is None
                else s.function(item, run_code(tested, s, depth))
            )
            made = s.function(item, run_code(body, s, depth))
            return s.call("each", [s.emit(step.node.items), test, made])
        case _:  # rolled: a roll of a dice value
            assert isinstance(step.node, Call)
            return s.call("rolled", [s.emit(step.node.args[0])])


def _dice(node: Dice, s: Syntax) -> list[str]:
    """A dice term's pool (a function of its count and sides), count and sides."""
    pool = pool_of(node)
    count = str(pool.count) if node.count is None else s.emit(node.count)
    sides = str(pool.sides) if node.sides is None else s.emit(node.sides)
    count_name, sides_name = f"{PLACEHOLDER}c", f"{PLACEHOLDER}s"
    make = s.function([count_name, sides_name], s.pool(node, count_name, sides_name))
    return [make, count, sides]
