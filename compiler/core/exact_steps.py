"""Core exact steps: a lowered rule's statements run over the ranges of its whole numbers (``core.exact`` proves with them).

``Steps`` works each expression out again over the ranges of the names it
reads (``expr.rechecked``), recording each part that may pass ``MAX_EXACT``
(``Unproved``) with what it follows from; runs statements, a test narrowing the
ranges of its branches (``core.ranges``); and works each loop out over at most
the turns it takes: its turns followed one by one (``ROUNDS``), then, for a
range still growing, each further turn taken to grow it by at most what one
turn grows it at any of the ranges it would reach (tried at a few of them);
where no such growth holds, it has no bound. What other declarations give (a
table's rows, the records a rule answers, a transition's outcome, a handler's
schedule) is ``core.exact.Prover``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..common.limits import MAX_EXACT
from ..lang import expr
from ..lang.nodes import (
    Checked,
    Context,
    Interval,
    IntLit,
    Node,
    names_used,
    walk,
)
from ..runtime._support import MAX_ENTRIES
from .ir import (
    Append,
    Apply,
    Decl,
    Each,
    Emit,
    Handler,
    If,
    Lookup,
    Make,
    Part,
    Read,
    Refuse,
    Return,
    Run,
    Schedule,
    Set,
    Stmt,
    While,
    Written,
    body_expressions,
    statements_of,
)
from .ranges import Env, Value, growth, join, narrowed, widened, wider

__all__ = ["ROUNDS", "Made", "Steps", "Unproved", "hull", "put"]

ROUNDS = 4  # a loop's turns followed one by one before its growth is worked out
_TRIES = 4  # growths tried before a range is taken to grow without bound


@dataclass(frozen=True, slots=True)
class Unproved:
    """A part of an expression that may pass ``MAX_EXACT``: the expression's
    source, the checker's message and hint, and what it follows from: the
    parameters (by name) and the figures (``#`` and the digits)."""

    text: str
    message: str
    hint: str
    sources: frozenset[str]


Made = list[Value | None]  # an answer's parts, by position: the range of each


class Steps:
    """Runs statements over ranges (see the module); ``decls``: the system's
    declarations by name."""

    def __init__(self, decls: Mapping[str, Decl]) -> None:
        self.decls = decls
        self.found: dict[int, Unproved] = {}  # by expression, the first found
        self.fixed: dict[str, int] = {}  # parameters taken at one value
        self.quiet = 0  # > 0: working a loop out, nothing recorded
        self.made: Made | None = None  # the answer's parts (a summary's)
        self.handlers: dict[str, Handler] = {}
        self.states: dict[str, str] = {}  # a timeline's local -> its state's class
        self._memo: dict[
            tuple[int, tuple[tuple[str, Interval], ...]],
            tuple[Interval | None, expr.ExprError | None],
        ] = {}
        self._names: dict[int, tuple[frozenset[str], frozenset[str], Checked]] = {}
        self._outcomes: dict[tuple[str, str], dict[str, Value]] = {}
        self._loops: dict[tuple[int, tuple[tuple[str, Value], ...]], Env | None] = {}
        self._touches: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self._answers: dict[
            tuple[str, tuple[tuple[str, Value], ...]], dict[str, Value]
        ] = {}

    # -- expressions -------------------------------------------------------------

    def value(self, item: Part, env: Env) -> Value | None:
        """The range of ``item`` over ``env`` (None: no whole number), each
        part that may pass ``MAX_EXACT`` recorded."""
        if isinstance(item, Read):
            return env.get(f"{item.name}.{item.field}")
        if isinstance(item, Written):
            number = item.value
            if isinstance(number, int) and not isinstance(number, bool):
                return Value(Interval(number, number))
            return None
        if not isinstance(item, Checked):
            return None
        if item.context is None:  # a value the lowering made, not an expression
            if item.type == "int" and item.interval is not None:
                return Value(item.interval)
            return None
        held = self._names.get(id(item))
        if held is None:
            held = self._names[id(item)] = (*_reads(item.context.node), item)
        names, figures = held[0], held[1]
        ranges = tuple(sorted((n, env[n].iv) for n in names if n in env))
        sources = figures.union(*(env[n].sources for n in names if n in env))
        key = (id(item), ranges)
        if key not in self._memo:
            if item.exact is not None and _as_checked(item.context, ranges):
                checked, error = item.exact, None  # proved as the kind checked it
            else:
                checked, error = expr.rechecked(item, dict(ranges))
            iv = checked.interval if checked.type == "int" else None
            self._memo[key] = (iv, error)
        iv, error = self._memo[key]
        if error is not None and not self.quiet and id(item) not in self.found:
            part = _part(item.context.node, error.start, error.end)
            reads, written = _reads(part)
            cause = written.union(*(env[n].sources for n in reads if n in env))
            self.found[id(item)] = Unproved(
                expr.to_source(item.node), error.message, error.hint or "", cause
            )
        return None if iv is None else Value(iv, sources)

    @contextmanager
    def quieted(self) -> Iterator[None]:
        self.quiet += 1
        try:
            yield
        finally:
            self.quiet -= 1

    @contextmanager
    def answering(self) -> Iterator[Made]:
        """The parts of the answers made within (each a hull of its values)."""
        saved, self.made = self.made, []
        try:
            yield self.made
        finally:
            self.made = saved

    def answer(self, parts: Sequence[Part], env: Env) -> None:
        values = [self.value(part, env) for part in parts]
        if self.made is None:
            return
        while len(self.made) < len(values):
            self.made.append(None)
        for at, value in enumerate(values):
            self.made[at] = hull(self.made[at], value)

    # -- statements --------------------------------------------------------------

    def run(self, body: Sequence[Stmt], env: Env | None) -> Env | None:
        """``env`` after ``body`` (None: every path through it ended)."""
        for stmt in body:
            if env is None:
                return None
            env = self.step(stmt, env)
        return env

    def step(self, stmt: Stmt, env: Env) -> Env | None:
        if isinstance(stmt, Set):
            return put(env, stmt.name, self.value(stmt.value, env))
        if isinstance(stmt, Emit | Return):
            made = stmt.values if isinstance(stmt, Emit) else stmt.value
            parts = made.values if isinstance(made, Make) else made
            self.answer(parts if isinstance(parts, tuple) else (parts,), env)
            return env if isinstance(stmt, Emit) else None
        if isinstance(stmt, Refuse):
            return None
        if isinstance(stmt, If):
            if not isinstance(stmt.test, Checked):
                return join(self.run(stmt.then, env), self.run(stmt.otherwise, env))
            self.value(stmt.test, env)
            held = narrowed(stmt.test.node, env, True)
            failed = narrowed(stmt.test.node, env, False)
            return join(self.run(stmt.then, held), self.run(stmt.otherwise, failed))
        if isinstance(stmt, While):
            return self.repeat(stmt, env)
        if isinstance(stmt, Lookup):
            self.value(stmt.key, env)
            return {**env, **self.rows(stmt.name, stmt.function)}
        if isinstance(stmt, Schedule | Run):
            return self.schedule(stmt, env)
        if isinstance(stmt, Apply):
            for arg in stmt.args:
                self.value(arg, env)
            outcome = self.outcome(self.states.get(stmt.state, ""), stmt.transition)
            for name, field in stmt.fields:
                env = put(env, name, outcome.get(field))
            return env
        if isinstance(stmt, Append):
            self.value(stmt.value, env)
            return env
        return self.each(stmt, env)

    def repeat(self, stmt: While, env: Env) -> Env | None:
        """A loop, over the names it reads and sets alone (the others pass it
        as they are); worked out once for each of their ranges while nothing
        is recorded (neither what passes the limit nor an answer's parts)."""
        names, handlers = self._touched(stmt)
        inside = {k: v for k, v in env.items() if _touches(k, names, handlers)}
        key = (id(stmt), tuple(sorted(inside.items())))
        kept = self.quiet and self.made is None  # nothing to record, no answer
        if kept and key in self._loops:
            found = self._loops[key]
        else:
            found = self._repeat(stmt, inside)
            if kept:
                self._loops[key] = found
        if found is None:
            return None
        return {k: v for k, v in env.items() if k not in inside} | found

    def _repeat(self, stmt: While, env: Env) -> Env | None:
        test = stmt.test
        most = min(stmt.bound, MAX_ENTRIES) if stmt.bound > 0 else MAX_ENTRIES

        def turn(at: Env) -> Env | None:
            self.value(test, at)
            return self.run(stmt.body, narrowed(test.node, at, True))

        head = self.loop(env, turn, most)
        self.value(test, head)
        return narrowed(test.node, head, False)

    def _touched(self, stmt: While) -> tuple[frozenset[str], frozenset[str]]:
        """The names a loop reads or sets, and the handlers it schedules."""
        found = self._touches.get(id(stmt))
        if found is None:
            names: set[str] = set()
            handlers: set[str] = set()
            for item in (stmt.test, *body_expressions(stmt.body)):
                node = item.context.node if item.context is not None else item.node
                names |= names_used(node)
            for sub in statements_of(stmt.body):
                if isinstance(sub, Set | Lookup):
                    names.add(sub.name)
                elif isinstance(sub, Apply | Each):
                    names.update(name for name, _ in sub.fields)
                elif isinstance(sub, Schedule | Run):
                    handlers.add(sub.handler)
                if isinstance(sub, Emit | Return):
                    made = sub.values if isinstance(sub, Emit) else sub.value
                    parts = made.values if isinstance(made, Make) else (made,)
                    names.update(p.name for p in parts if isinstance(p, Read))
            found = self._touches[id(stmt)] = (frozenset(names), frozenset(handlers))
        return found

    def each(self, stmt: Each, env: Env) -> Env | None:
        args = {name: self.value(value, env) for name, value in stmt.args}
        fields = self.answers(stmt.function, args)
        record = {name: fields.get(field) for name, field in stmt.fields}

        def turn(at: Env) -> Env | None:
            for name, value in record.items():
                at = put(at, name, value)
            return self.run(stmt.body, at)

        return self.loop(env, turn, MAX_ENTRIES)

    def loop(self, env: Env, turn: Callable[[Env], Env | None], most: int) -> Env:
        """The ranges once a loop of at most ``most`` turns ends, each turn
        (``turn``) recorded over the ranges it runs on (see the module)."""
        with self.quieted():
            before, head, taken, stable = env, env, 0, False
            while taken < min(most, ROUNDS):
                grown = join(head, turn(head)) or head
                taken += 1
                if grown == head:
                    stable = True
                    break
                before, head = head, grown
            if not stable and taken < most:
                before, head = self.accelerate(head, turn, most - taken)
        runs_on = head if stable else before
        turn(runs_on)
        return head

    def accelerate(
        self, head: Env, turn: Callable[[Env], Env | None], left: int
    ) -> tuple[Env, Env]:
        """The ranges ``left`` more turns run on, and those they end at: each
        turn grows a range by at most what one turn grows it at any of the
        ranges tried; where no such growth holds, without bound."""
        grown = growth(head, turn(head))
        for _ in range(_TRIES):
            for turns in sorted({t for t in (0, left // 16, left - 1) if t < left}):
                at = widened(head, grown, turns)
                more = wider(grown, growth(at, turn(at)))
                if more is not None:
                    grown = more
                    break
            else:
                return widened(head, grown, left - 1), widened(head, grown, left)
        endless = {
            name: (None if down else 0, None if up else 0)
            for name, (down, up) in grown.items()
        }
        return widened(head, endless, 1), widened(head, endless, 1)

    # -- what other declarations give (core.exact.Prover) -------------------------

    def rows(self, name: str, function: str) -> Env:
        raise NotImplementedError

    def answers(
        self, function: str, args: Mapping[str, Value | None]
    ) -> dict[str, Value]:
        raise NotImplementedError

    def outcome(self, state: str, name: str) -> dict[str, Value]:
        raise NotImplementedError

    def schedule(self, stmt: Schedule | Run, env: Env) -> Env:
        raise NotImplementedError


def _reads(node: Node) -> tuple[frozenset[str], frozenset[str]]:
    """The names an expression reads, and the figures it writes (each whole
    number but 0 and 1, as ``#`` and its digits: a source of what it works out)."""
    figures = frozenset(
        f"#{abs(sub.value)}"
        for sub in walk(node)
        if isinstance(sub, IntLit) and abs(sub.value) > 1
    )
    return names_used(node), figures


def _as_checked(context: Context, ranges: Sequence[tuple[str, Interval]]) -> bool:
    """Whether each name's range is what the expression was checked with
    (a bound missing from a parameter's is 2**53 - 1 from 0, as the check
    takes it)."""
    for name, iv in ranges:
        param = context.params.get(name)
        if param is None:
            return False
        if param.bound is not None:
            held = (param.bound.exact or param.bound).interval
        else:
            low = -MAX_EXACT if param.min is None else param.min
            held = Interval(low, MAX_EXACT if param.max is None else param.max)
        if held != iv:
            return False
    return True


def _part(node: Node, start: int, end: int) -> Node:
    """The part of ``node`` written at ``start``..``end`` (``node`` where none is)."""
    return next(
        (sub for sub in walk(node) if (sub.start, sub.end) == (start, end)), node
    )


def _touches(key: str, names: frozenset[str], handlers: frozenset[str]) -> bool:
    """Whether a loop reading and setting ``names`` and scheduling
    ``handlers`` reads or sets the entry ``key`` (a name, a field of a
    record a name holds, or what a handler is scheduled with)."""
    if "#" in key:
        return key.partition("#")[0] in handlers
    return key in names or key.partition(".")[0] in names


def put(env: Env, name: str, value: Value | None) -> Env:
    """``env`` with ``name`` holding ``value`` (None: no whole number)."""
    found = dict(env)
    if value is None:
        found.pop(name, None)
    else:
        found[name] = value
    return found


def hull(a: Value | None, b: Value | None) -> Value | None:
    if a is None or b is None:
        return a if b is None else b
    lo = None if a.iv.lo is None or b.iv.lo is None else min(a.iv.lo, b.iv.lo)
    hi = None if a.iv.hi is None or b.iv.hi is None else max(a.iv.hi, b.iv.hi)
    return Value(Interval(lo, hi), a.sources | b.sources)
