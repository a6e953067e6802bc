"""Core exactness: every whole number a lowered rule works out, proved within ``MAX_EXACT`` at build time.

A kind's lowering writes statements of its own (a process's handlers, a
pool's dealing, a recovery's heals, a track's stages): the rules' expressions
are proved where the kinds check them (``expr_exact``), these here. The
``Prover`` runs a unit's declarations over ranges (``core.exact_steps``, with
``core.ranges``): each parameter over its declared range (``min`` to ``max``,
no further than the runtime's ``limit``, and 2**53 - 1 from 0 where it has no
bound: both runtimes refuse more), each name as the statements set it, and
every expression checked again over those ranges as ``check(..., exact=True)``
checks it (``expr.rechecked``). A part that may pass ``MAX_EXACT`` is
``Unproved``, with the parameters and figures it follows from.

Each loop is counted at the most turns it takes: its proved bound, and never
more than ``MAX_ENTRIES`` (each turn records an entry: an item of the answer,
an event, or a heal). A timeline's handlers run as such a loop, one handler a
turn, each with the times and arguments scheduled for it so far; the records
another rule answers (``Each``: its procedure run over the arguments passed),
the outcomes of a state's transitions (``Apply``) and a table's rows
(``Lookup``) have the ranges their declarations give; a state's fields are
within their bounds (its transitions keep them there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.limits import MAX_EXACT
from ..front.model import Param
from ..lang.nodes import Interval
from ..runtime._support import MAX_ENTRIES
from .exact_steps import Made, Steps, Unproved, hull, put
from .ir import (
    Function,
    New,
    Procedure,
    Record,
    Run,
    Schedule,
    State,
    Table,
    Timeline,
    Transition,
    Turns,
    Unit,
)
from .ranges import Env, Value, join

__all__ = ["Prover", "Unproved"]


class Prover(Steps):
    """Proves the units of one system (``decls``: its declarations by name,
    the records other rules answer and the states they change)."""

    # -- a unit --------------------------------------------------------------------

    def prove(
        self, unit: Unit, fixed: Mapping[str, int] | None = None
    ) -> list[Unproved]:
        """What of ``unit`` may pass ``MAX_EXACT`` (nothing: it is proved);
        ``fixed``: parameters taken at one value each instead (what would
        still pass it, were they)."""
        self.found, self.fixed = {}, dict(fixed or {})
        for decl in unit.decls:
            if isinstance(decl, Function):
                env = self.params(decl.params)
                for bind in decl.binds:
                    env = put(env, bind.name, self.value(bind.checked, env))
                self.value(decl.answer, env)
            elif isinstance(decl, Procedure):
                self.procedure(decl, self.params(decl.params))
            elif isinstance(decl, State):
                fields = _fields_of(decl)
                for derived in decl.derived:
                    self.value(derived.value, fields)
                for transition in decl.transitions:
                    self.transition(decl, transition)
            elif isinstance(decl, Timeline):
                self.timeline(decl)
        return list(self.found.values())

    def params(
        self, params: Sequence[Param], given: Mapping[str, Value | None] | None = None
    ) -> Env:
        """The whole numbers among ``params``, each over what a call can give
        it, following from itself; or, where a caller passes ``given``, within
        what it passes, following from what that follows from."""
        env: Env = {}
        for p in params:
            if p.type != "int":
                continue
            lo = -MAX_EXACT if p.min is None else p.min
            hi = MAX_EXACT if p.max is None else p.max
            if p.limit is not None:
                hi = min(hi, p.limit)
            if given is None and p.name in self.fixed:
                lo = hi = self.fixed[p.name]
            value = Value(Interval(lo, hi), frozenset({p.name}))
            if given is not None:  # a callee's: it follows from what is passed
                passed = given.get(p.name)
                iv = value.iv if passed is None else _meet(value.iv, passed.iv)
                value = Value(iv, frozenset() if passed is None else passed.sources)
            env[p.name] = value
        return env

    # -- what other declarations give ---------------------------------------------

    def rows(self, name: str, function: str) -> Env:
        """The whole-number fields of the rows of the table ``function`` reads,
        as ``name.field``."""
        table = self.decls.get(function)
        found: Env = {}
        if not isinstance(table, Table):
            return found
        for _, row in table.rows:
            if not isinstance(row, New):
                continue
            for column, value in row.fields:
                if isinstance(value, int) and not isinstance(value, bool):
                    key, one = f"{name}.{column.name}", Value(Interval(value, value))
                    found[key] = hull(found.get(key), one) or one
        return found

    def answers(
        self, function: str, args: Mapping[str, Value | None]
    ) -> dict[str, Value]:
        """Each whole-number field of the records ``function`` answers, over
        the arguments a call passes."""
        key = (
            function,
            tuple(sorted((n, v) for n, v in args.items() if v is not None)),
        )
        if key not in self._answers:
            self._answers[key] = self._answered(function, args)
        return self._answers[key]

    def _answered(
        self, function: str, args: Mapping[str, Value | None]
    ) -> dict[str, Value]:
        callee = self.decls.get(function)
        if not isinstance(callee, Procedure) or not isinstance(callee.item, str):
            return {}
        with self.quieted(), self.answering() as made:
            self.procedure(callee, self.params(callee.params, args))
        return self.fields(callee.item, made)

    def outcome(self, state: str, name: str) -> dict[str, Value]:
        """Each whole-number field of what the transition ``name`` of the
        state class ``state`` answers (``""``: the whole answer)."""
        key = (state, name)
        if key not in self._outcomes:
            self._outcomes[key] = self._outcome(state, name)
        return self._outcomes[key]

    def _outcome(self, state: str, name: str) -> dict[str, Value]:
        decl = self.decls.get(state)
        if not isinstance(decl, State):
            return {}
        transition = next((t for t in decl.transitions if t.name == name), None)
        if transition is None:
            return {}
        if transition.answers is not None:
            field = decl.field(transition.answers)
            return {"": Value(Interval(field.lo, field.hi))}
        with self.quieted():
            made = self.transition(decl, transition)
        return self.fields(transition.record or "", made)

    def fields(self, record: str, made: Made) -> dict[str, Value]:
        """The parts of a record ``made`` by its fields' names."""
        decl = self.decls.get(record)
        if not isinstance(decl, Record):
            return {}
        return {
            column.name: value
            for column, value in zip(decl.fields, made, strict=False)
            if value is not None
        }

    # -- declarations -------------------------------------------------------------

    def procedure(self, decl: Procedure, env: Env) -> None:
        for bind in decl.binds:
            env = put(env, bind.name, self.value(bind.checked, env))
        if decl.turns is not None:
            env = self.turns(decl.turns, env)
        self.run(decl.body, env)

    def turns(self, turns: Turns, env: Env) -> Env:
        """The values turns carry as the kinds proved them (``decision.reach``):
        each within the hull of its start and new values, and its bounds."""
        with self.quieted():
            for carried in turns.state:
                if carried.type != "int":
                    continue
                ivs = [
                    (c.exact or c).interval
                    for c in (
                        carried.start,
                        *(s.value for s in turns.sets if s.name == carried.name),
                    )
                ]
                iv = _clamped(ivs, carried.lo, carried.hi)
                sources = self.value(carried.start, env)
                env = put(
                    env,
                    carried.name,
                    Value(iv, sources.sources if sources else frozenset()),
                )
            env = put(env, turns.counter, Value(Interval(0, turns.most or MAX_ENTRIES)))
            for bind in turns.binds:
                env = put(env, bind.name, self.value(bind.checked, env))
        return env

    def transition(self, state: State, transition: Transition) -> Made:
        """Runs a transition over the state's declared fields: the parts of what it answers."""
        env = _fields_of(state) | self.params(transition.params)
        with self.answering() as made:
            if transition.unless is not None:
                self.value(transition.unless, env)
            for bind in transition.binds:
                env = put(env, bind.name, self.value(bind.checked, env))
            for change in transition.changes:
                self.value(change.value, env)
            if transition.body is not None:
                self.run(transition.body, env)
        return made

    def timeline(self, decl: Timeline) -> None:
        """The start; then the handlers, one a turn, each run with the times
        and arguments scheduled for it so far; then the end."""
        self.handlers = {h.name: h for h in decl.handlers}
        self.states = dict(decl.states)
        env: Env | None = self.params(decl.params)
        for local, start in decl.shared:
            env = put(env or {}, local.name, self.value(start, env or {}))
        env = self.run(decl.start, env)
        if env is None:
            return

        def turn(at: Env) -> Env | None:
            found: Env | None = None
            for handler in decl.handlers:
                if f"{handler.name}#" not in at:
                    continue
                inner = put(dict(at), decl.clock, at[f"{handler.name}#"])
                for p in handler.params:
                    inner = put(inner, p.name, at.get(f"{handler.name}#{p.name}"))
                own = {
                    decl.clock,
                    *(n.name for n in (*handler.params, *handler.locals)),
                }
                out = self.run(handler.body, inner)
                if out is not None:
                    found = join(found, {k: v for k, v in out.items() if k not in own})
            return found

        self.run(decl.after, self.loop(env, turn, MAX_ENTRIES))

    def schedule(self, stmt: Schedule | Run, env: Env) -> Env:
        """A handler's time and arguments joined to those it had."""
        name = stmt.handler
        found = dict(env)
        at = self.value(stmt.at, env) or Value(Interval(None, None))
        found[f"{name}#"] = hull(found.get(f"{name}#"), at) or at
        handler = self.handlers.get(name)
        params = handler.params if handler is not None else ()
        for p, arg in zip(params, stmt.args, strict=False):
            value = self.value(arg, env)
            if value is not None:
                key = f"{name}#{p.name}"
                found[key] = hull(found.get(key), value) or value
        return found


def _fields_of(state: State) -> Env:
    """A state's whole-number fields, each within its bounds (its transitions
    keep it there)."""
    return {
        f.name: Value(Interval(f.lo, f.hi)) for f in state.fields if f.type == "int"
    }


def _meet(a: Interval, b: Interval) -> Interval:
    """The part of ``a`` that ``b`` holds (``a`` where they do not meet: the
    call is refused there)."""
    lo = a.lo if b.lo is None or (a.lo is not None and a.lo > b.lo) else b.lo
    hi = a.hi if b.hi is None or (a.hi is not None and a.hi < b.hi) else b.hi
    if lo is not None and hi is not None and lo > hi:
        return a
    return Interval(lo, hi)


def _clamped(
    ivs: Sequence[Interval | None], lo: int | None, hi: int | None
) -> Interval:
    """The hull of ``ivs`` within ``lo``..``hi``."""
    low: int | None = lo
    high: int | None = hi
    if all(iv is not None and iv.lo is not None for iv in ivs):
        least = min(iv.lo for iv in ivs if iv is not None and iv.lo is not None)
        low = least if lo is None else max(lo, least)
    if all(iv is not None and iv.hi is not None for iv in ivs):
        most = max(iv.hi for iv in ivs if iv is not None and iv.hi is not None)
        high = most if hi is None else min(hi, most)
    return Interval(low, high)
