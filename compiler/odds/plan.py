"""Odds plans: a rule's odds as the steps of the runtime's engine, from its lets and the values its odds answer.

Every random part of the rule becomes a source, in the order the rule rolls
it: a dice total (``total``), a pool read through folds (``pool``: the
folds of its groups at once, ``compiler.odds.pools``), a list of dice read
as a list (``kept``), a call of a rule that rolls (``called``: its odds
function's chances; ``record``: the chances of the fields read of its
answer), a roll of a dice value (``rolled``), a comprehension whose
body or test rolls (``each``: its list, worked out item by item, the test
and the body each a plan of its own, run for each item). A source in a branch (of a
condition, ``and``, ``or`` or ``??``) is rolled only where its guard (a
value of its own) holds, as the rule rolls it. What the rule works out of
those values are lets, each read once per environment: the rule's own lets,
each answer (``cases``: the first case whose test holds), and the parts of
an expression that are known before the rest (a partial sum, the highest of
two dice...: ``a + b + c`` over three sources keeps ``a + b``, not ``a`` and
``b``). A pool, or a list, nothing reads is still rolled (``unread``): its
chance of being known (an explosion's tail) counts. The runtime orders
nothing: the steps come in the order the engine takes them, each let as
soon as what it reads is known.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..lang.dice import (
    notation_error,
    pool_of,
)
from ..lang.nodes import (
    Attr,
    Binary,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
    Index,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    StrLit,
    Unary,
    children,
    walk,
)
from ..lang.nodes import Step as LadderStep
from ..runtime.dice_terms import (
    Compare,
    Pool,
)
from .pools import (
    FoldRead,
    Pools,
    analyse,
    whole,
)

__all__ = [
    "PLACEHOLDER",
    "Answer",
    "Case",
    "Fold",
    "Group",
    "Literal",
    "Plan",
    "Refusal",
    "Step",
    "plan",
    "rolls",
]

PLACEHOLDER = "_o"
"""The prefix of the names of the values the plan adds (sources, parts)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A case that refuses: the rules' text of why."""

    text: str


@dataclass(frozen=True, slots=True)
class Literal:
    """A value written in the rules (a part of an answer the target writes)."""

    part: object


Case = tuple[Node | None, Node | Refusal | Literal]
"""A case of an answer: its test (None: where none before holds) and its
value (an expression, a value written, or a refusal)."""
Answer = Node | tuple[Case, ...]


@dataclass(frozen=True, slots=True)
class Group:
    """A group of a pool: a ``rolls`` node's dice, or one dice total (``item``)."""

    dice: Dice
    item: bool


@dataclass(frozen=True, slots=True)
class Fold:
    """A fold of a pool: its kind, the groups it reads (by place) and its values."""

    kind: str
    groups: tuple[int, ...]
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """A step of the plan: it reads and binds values (by number)."""

    kind: str  # let, cases, total, kept, unread, pool, called, record, rolled, each
    binds: tuple[int, ...]
    reads: tuple[int, ...]
    node: Node | None = None  # let: its value; a source: its dice or call
    guard: int | None = None  # a source rolled only where this value holds
    groups: tuple[Group, ...] = ()
    folds: tuple[Fold, ...] = ()
    cases: tuple[Case, ...] = ()
    fields: tuple[str, ...] = ()  # record: the fields read
    # each: the plans of its test (None: none) and of its body, for one item
    plans: tuple[Plan | None, Plan] | None = None

    @property
    def source(self) -> bool:
        return self.kind not in ("let", "cases")


@dataclass(frozen=True, slots=True)
class Plan:
    """The steps in order, the values the plan answers, and each value's name."""

    steps: tuple[Step, ...]
    answers: tuple[int, ...]
    names: tuple[str, ...]


def rolls(node: Node) -> bool:
    """Whether the expression rolls dice (its own, or a rolling rule's it calls)."""
    return any(_rolled(n) for n in walk(node))


def _rolled(node: Node) -> bool:
    return isinstance(node, Dice) or (isinstance(node, Call) and node.rolls)


def plan(
    lets: Sequence[tuple[str, Node]],
    answers: Sequence[Answer],
    guards: Sequence[tuple[int, Node]] = (),
) -> Plan:
    """The plan of the odds of ``answers`` (expressions, or cases) after
    ``lets``; ``guards``: tests among the lets (each after the first ``before``
    of them) past which, where one holds, nothing more is rolled or worked
    out (the answers' cases say what is answered there)."""
    return _Planner(lets, answers, guards).build()


def answer_nodes(answers: Sequence[Answer]) -> list[Node]:
    """Every expression the answers read (their tests and values)."""
    found: list[Node] = []
    for answer in answers:
        if isinstance(answer, tuple):
            for test, value in answer:
                found += [test] if test is not None else []
                found += [value] if not isinstance(value, Refusal | Literal) else []
        else:
            found.append(answer)
    return found


class _Guard:
    """Where a branch is taken: its parent's guard and a test (or its negation,
    or, for ``??``, the test being null), made a value once a source needs it."""

    def __init__(self, parent: _Guard | None, test: Node, how: str) -> None:
        self.parent, self.test, self.how = parent, test, how
        self.value: int | None = None


class _Planner:
    def __init__(
        self,
        lets: Sequence[tuple[str, Node]],
        answers: Sequence[Answer],
        guards: Sequence[tuple[int, Node]] = (),
        fresh: int = 0,
    ):
        self.lets = list(lets)
        self.answers = list(answers)
        self.guards = list(guards)
        self.pools: Pools = analyse(self.lets, answer_nodes(self.answers))
        self.codes: list[str] = []
        self.var: dict[str, int] = {}  # a name the code reads -> its value
        self.steps: list[Step] = []
        self.reached: set[int] = set()
        self.fresh = fresh  # placeholders so far (a comprehension's plans go on)
        self.renamed: dict[str, str] = {}  # a let that is another's value
        self.ranks: dict[int, int] = {}
        self.live = self.live_lets()
        # each pool's folds, the same fold once: their values, made now (a
        # fold may be read before the last of its pool's groups is rolled)
        self.made: list[list[int]] = []
        self.distinct: list[list[int]] = []  # each pool's folds kept, by place
        for pool in self.pools.pools:
            seen: dict[tuple[object, ...], int] = {}
            values: list[int] = []
            kept: list[int] = []
            for index, fold in enumerate(pool.folds):
                key = (fold.kind, tuple(map(id, fold.parts)), fold.values)
                if key not in seen:
                    seen[key] = self.new()
                    kept.append(index)
                values.append(seen[key])
            self.made.append(values)
            self.distinct.append(kept)

    def live_lets(self) -> set[str]:
        """The lets the answers read, directly or through other lets."""
        values = dict(self.lets)
        found: set[str] = set()
        todo = answer_nodes(self.answers)
        while todo:
            for n in walk(todo.pop()):
                if isinstance(n, Name) and n.name in values and n.name not in found:
                    found.add(n.name)
                    todo.append(values[n.name])
        return found

    def new(self, name: str | None = None) -> int:
        """A new value, named ``name`` in the code (else a fresh placeholder)."""
        if name is None:
            self.fresh += 1
            name = f"{PLACEHOLDER}{self.fresh}"
        self.codes.append(name)
        self.var[name] = len(self.codes) - 1
        return len(self.codes) - 1

    def name(self, var: int) -> Name:
        return Name(self.codes[var], 0, 0)

    def reads(self, nodes: Sequence[Node]) -> tuple[int, ...]:
        found: dict[int, None] = {}
        for node in nodes:
            for n in walk(node):
                if isinstance(n, Name) and n.name in self.var:
                    found[self.var[n.name]] = None
        return tuple(found)

    # -- building ------------------------------------------------------------------

    def build(self) -> Plan:
        past: _Guard | None = None  # where no guard before has held
        for index, (name, value) in enumerate(self.lets):
            for before, test in self.guards:
                if before == index:
                    past = _Guard(past, self.lift(test, past, True), "not")
            if name in self.pools.names:
                for part in self.pools.names[name]:
                    self.reach(part, past)
                continue
            live = name in self.live
            lifted = self.lift(value, past, live)
            if not live:
                continue  # rolled for its tail alone: nothing reads its value
            if isinstance(lifted, Name) and lifted.name in self.var:
                self.alias(name, self.var[lifted.name])
                continue
            if past is not None:  # worked out only where no guard held
                held_at = self.guarded(past)
                assert held_at is not None
                held = self.name(held_at)
                span = (lifted.start, lifted.end)
                lifted = Cond(lifted, held, NullLit(*span), *span)
            self.let(self.split(lifted), self.new(name))
        answers = []
        for answer in self.answers:
            if isinstance(answer, tuple):
                cases = tuple(
                    (
                        None if test is None else self.lift(test, None, True),
                        value
                        if isinstance(value, Refusal | Literal)
                        else self.lift(value, None, True),
                    )
                    for test, value in answer
                )
                var = self.new()
                nodes = list(_case_nodes(cases))
                self.steps.append(Step("cases", (var,), self.reads(nodes), cases=cases))
                answers.append(var)
                continue
            lifted = self.lift(answer, None, True)
            if isinstance(lifted, Name) and lifted.name in self.var:
                answers.append(self.var[lifted.name])
            else:
                var = self.new()
                self.let(self.split(lifted), var)
                answers.append(var)
        return Plan(self.ordered(), tuple(answers), tuple(self.codes))

    def alias(self, name: str, var: int) -> None:
        """``name`` (a let) is the value ``var``: named so in the code, where
        it has no name of its own yet."""
        code = self.codes[var]
        if code.startswith(PLACEHOLDER):
            del self.var[code]
            self.codes[var] = name
            self.var[name] = var
        else:
            self.renamed[name] = code  # read by its first name

    def let(self, node: Node, var: int) -> None:
        self.steps.append(Step("let", (var,), self.reads([node]), node=node))

    def source(
        self,
        kind: str,
        binds: tuple[int, ...],
        guard: _Guard | None,
        node: Node | None = None,
        groups: tuple[Group, ...] = (),
        folds: tuple[Fold, ...] = (),
        fields: tuple[str, ...] = (),
        plans: tuple[Plan | None, Plan] | None = None,
    ) -> None:
        nodes = [node] if node is not None else []
        nodes += [g.dice for g in groups] + [v for f in folds for v in f.values]
        made = self.guarded(guard)
        reads = self.reads(nodes)
        if made is not None:
            reads = (made, *(r for r in reads if r != made))
        self.steps.append(
            Step(kind, binds, reads, node, made, groups, folds, (), fields, plans)
        )

    def guarded(self, guard: _Guard | None) -> int | None:
        """The value that holds where a branch is taken (made once)."""
        if guard is None:
            return None
        if guard.value is None:
            parent = self.guarded(guard.parent)
            test = guard.test
            span = (test.start, test.end)
            if guard.how == "not":
                test = Unary("not", test, *span)
            elif guard.how == "null":
                test = Binary("is", test, NullLit(*span), *span)
            if parent is not None:
                test = Binary("and", self.name(parent), test, *span)
            guard.value = self.new()
            self.let(test, guard.value)
        return guard.value

    # -- lifting: the random parts of an expression as values -------------------------

    def random(self, node: Node) -> bool:
        for n in walk(node):
            if _rolled(n) or id(n) in self.pools.reads:
                return True
            if isinstance(n, Name) and (n.name in self.var or n.name in self.renamed):
                return True
        return False

    def lift(self, node: Node, guard: _Guard | None, live: bool) -> Node:
        """``node`` with each random part a value's name (sources made for them)."""
        if not self.random(node):
            return node
        match node:
            case Name():
                return Name(
                    self.renamed.get(node.name, node.name), node.start, node.end
                )
            case _ if id(node) in self.pools.reads:
                return self.folded(node, guard)
            case Dice(results=False):
                return self.name(self.dice("total", node, guard, live))
            case Dice(results=True):
                return self.name(
                    self.dice("kept" if live else "unread", node, guard, live)
                )
            case Call(func="roll", rule=False):
                (arg,) = node.args
                var = self.new()
                self.source(
                    "rolled",
                    (var,),
                    guard,
                    node=replace(node, args=(self.lift(arg, guard, live),)),
                )
                return self.name(var)
            case Call(rule=True, rolls=True):
                var = self.new()
                args = tuple(self.lift(a, guard, live) for a in node.args)
                self.source("called", (var,), guard, node=replace(node, args=args))
                return self.name(var)
            case Attr(obj=Call(rule=True, rolls=True) as call):
                var = self.new()
                args = tuple(self.lift(a, guard, live) for a in call.args)
                made = replace(call, args=args)
                self.source("record", (var,), guard, node=made, fields=(node.name,))
                return self.name(var)
            case Comp() if any(rolls(p) for p in (node.body, node.test) if p):
                return self.each(node, guard, live)
            case Cond():
                test = self.settled(self.lift(node.test, guard, live), guard)
                body = self.lift(node.body, _Guard(guard, test, "holds"), live)
                orelse = self.lift(node.orelse, _Guard(guard, test, "not"), live)
                return replace(node, test=test, body=body, orelse=orelse)
            case Binary(op="and" | "or" | "??"):
                left = self.settled(self.lift(node.left, guard, live), guard)
                how = {"and": "holds", "or": "not", "??": "null"}[node.op]
                right = self.lift(node.right, _Guard(guard, left, how), live)
                return replace(node, left=left, right=right)
            case _:
                return _rebuilt(
                    node, [self.lift(c, guard, live) for c in children(node)]
                )

    def each(self, node: Comp, guard: _Guard | None, live: bool) -> Node:
        """A comprehension whose body or test rolls: a source of its list,
        its test and its body each a plan of its own (its dice rolled for
        each item), reading the item and the values of this plan they read."""
        items = self.lift(node.items, guard, live)
        inside = {id(n) for n in walk(node)}
        body = self.outer(node.body, guard, inside)
        test = None if node.test is None else self.outer(node.test, guard, inside)
        tested = None if test is None else self.sub(test)
        made = replace(node, items=items, body=body, test=test)
        var = self.new()
        plans = (tested, self.sub(body))
        self.source("each", (var,), guard, node=made, plans=plans)
        return self.name(var)

    def outer(self, node: Node, guard: _Guard | None, inside: set[int]) -> Node:
        """A comprehension's body or test with the values of this plan it
        reads as their names (a fold of a pool rolled outside it, a let's
        first name); its own dice left to its plan."""
        match node:
            case Name():
                return Name(
                    self.renamed.get(node.name, node.name), node.start, node.end
                )
            case _ if id(node) in self.pools.reads:
                at, _ = self.pools.reads[id(node)]
                parts = self.pools.pools[at].parts
                if not any(id(p) in inside for p in parts):
                    return self.folded(node, guard)
            case _:
                pass
        return _rebuilt(node, [self.outer(c, guard, inside) for c in children(node)])

    def sub(self, node: Node) -> Plan:
        """The plan of ``node`` alone (a comprehension's body or test, for
        one item), its placeholders named after this plan's."""
        planner = _Planner([], [node], fresh=self.fresh)
        made = planner.build()
        self.fresh = planner.fresh
        return made

    def dice(self, kind: str, node: Dice, guard: _Guard | None, live: bool) -> int:
        """A source of a dice term: its total, its list, or (unread) neither."""
        count = None if node.count is None else self.lift(node.count, guard, live)
        sides = None if node.sides is None else self.lift(node.sides, guard, live)
        made = replace(node, count=count, sides=sides)
        var = self.new()
        self.source(kind, (var,), guard, node=made)
        return var

    def reach(self, part: Dice, guard: _Guard | None) -> None:
        """A group of a pool is rolled here: its pool is made once all its
        groups are (a group no fold reads is rolled for its tail alone)."""
        if id(part) in self.reached:
            return
        self.reached.add(id(part))
        at = self.pools.pool_of(part)
        if at is None:
            self.dice("total" if not part.results else "unread", part, guard, False)
            return
        if all(id(p) in self.reached for p in self.pools.pools[at].parts):
            self.make_pool(at, guard)

    def folded(self, node: Node, guard: _Guard | None) -> Node:
        """A fold of a pool: its value (the pool made where its last group is
        rolled)."""
        at, index = self.pools.reads[id(node)]
        for part in self.pools.pools[at].folds[index].parts:
            self.reach(part, guard)
        return self.name(self.made[at][index])

    def make_pool(self, at: int, guard: _Guard | None) -> None:
        pool = self.pools.pools[at]
        place = {id(p): i for i, p in enumerate(pool.parts)}
        groups = []
        for part in pool.parts:
            count = None if part.count is None else self.lift(part.count, guard, True)
            sides = None if part.sides is None else self.lift(part.sides, guard, True)
            groups.append(
                Group(replace(part, count=count, sides=sides), not part.results)
            )
        folds = []
        for index in self.distinct[at]:
            read = pool.folds[index]
            values = tuple(self.lift(v, guard, True) for v in read.values)
            folds.append(
                Fold(read.kind, tuple(place[id(p)] for p in read.parts), values)
            )
        binds = tuple(dict.fromkeys(self.made[at]))
        shortcut = _shortcut(pool.parts, pool.folds, self.inline(pool.parts))
        if shortcut is not None:
            dice = groups[0].dice
            made = replace(shortcut, count=dice.count, sides=dice.sides)
            self.source("total", binds, guard, node=made)
            return
        self.source("pool", binds, guard, groups=tuple(groups), folds=tuple(folds))

    def inline(self, parts: Sequence[Dice]) -> bool:
        """Whether no let binds these groups (they are read where rolled)."""
        named = {id(p) for parts in self.pools.names.values() for p in parts}
        return not any(id(p) in named for p in parts)

    def settled(self, node: Node, guard: _Guard | None) -> Node:
        """A test (or the left of ``and``, ``or``, ``??``) that reads random
        values, made a value of its own as soon as they are known: what its
        branches and the rest read is then that one value, not every value it
        reads (a chain of tests keeps one flag, not each die). Under a guard it
        is worked out only where the guard holds (else null)."""
        if isinstance(node, Name) or len(self.reads([node])) < 2:
            return node  # (one value read: a guard reading it is as small)
        made = self.split(node)
        if guard is not None:
            held = self.guarded(guard)
            assert held is not None
            span = (node.start, node.end)
            made = Cond(made, self.name(held), NullLit(*span), *span)
        var = self.new()
        self.let(made, var)
        return self.name(var)

    # -- parts known before the rest ---------------------------------------------------

    def split(self, node: Node) -> Node:
        """``node`` with each part known before the rest a value of its own
        (worked out once, as soon as it can be)."""
        node = _associated(node, self.rank)
        return self.parted(node, self.rank(node))

    def rank(self, node: Node) -> int:
        """When the values ``node`` reads are all known: the last source they
        come from (by its place among the sources), -1 for none."""
        reads = self.reads([node])
        return max((self.rank_of(v) for v in reads), default=-1)

    def rank_of(self, var: int) -> int:
        cached = self.ranks.get(var)
        if cached is not None:
            return cached
        step = next((s for s in self.steps if var in s.binds), None)
        if step is None:  # a fold of a pool rolled later
            return len(self.steps) + len(self.codes)
        found = self.steps.index(step) if step.source else -1
        for r in step.reads:
            found = max(found, self.rank_of(r))
        self.ranks[var] = found
        return found

    def parted(self, node: Node, parent: int) -> Node:
        if isinstance(node, Name) or not self.random(node):
            return node
        node = _associated(node, self.rank)
        if isinstance(node, Cond):  # its branches are worked out where taken
            return replace(node, test=self.parted(node.test, self.rank(node)))
        if isinstance(node, Binary) and node.op in ("and", "or", "??"):
            return replace(node, left=self.parted(node.left, self.rank(node)))
        mine = self.rank(node)
        inner = _rebuilt(node, [self.parted(c, mine) for c in children(node)])
        if mine < parent and self.reads([inner]):
            var = self.new()
            self.let(inner, var)
            return self.name(var)
        return inner

    # -- order ---------------------------------------------------------------------------

    def ordered(self) -> tuple[Step, ...]:
        """The steps in the order the engine takes them: each source in the
        order made, each let as soon as what it reads is known."""
        binder = {v: i for i, s in enumerate(self.steps) for v in s.binds}
        waiting = [sum(1 for r in set(s.reads) if r in binder) for s in self.steps]
        readers: dict[int, list[int]] = {}
        for i, s in enumerate(self.steps):
            for r in set(s.reads):
                if r in binder:
                    readers.setdefault(binder[r], []).append(i)
        ready = [(int(s.source), i) for i, s in enumerate(self.steps) if not waiting[i]]
        heapq.heapify(ready)
        found: list[Step] = []
        while ready:
            _, i = heapq.heappop(ready)
            found.append(self.steps[i])
            for j in readers.get(i, ()):
                waiting[j] -= 1
                if not waiting[j]:
                    heapq.heappush(ready, (int(self.steps[j].source), j))
        assert len(found) == len(self.steps)
        return tuple(found)


def _case_nodes(cases: Sequence[Case]) -> Iterator[Node]:
    for test, value in cases:
        if test is not None:
            yield test
        if not isinstance(value, Refusal | Literal):
            yield value


def _associated(node: Node, key: Callable[[Node], int]) -> Node:
    """Sums and the highest or lowest of several values, their parts in the
    order they are known (``a + b + c`` as ``(a + c) + b`` where ``b`` is
    known last), so that the parts known first add up first."""
    if isinstance(node, Binary) and node.op == "+" and not node.concat:
        terms = list(_terms(node))
        if len(terms) > 2:
            terms.sort(key=key)
            made = terms[0]
            for term in terms[1:]:
                made = Binary("+", made, term, node.start, node.end)
            return made
    if isinstance(node, Call) and _chained(node, node.func):
        args = sorted(_args(node, node.func), key=key)
        made = args[0]
        for arg in args[1:]:
            made = Call(node.func, (made, arg), node.start, node.end)
        return made
    return node


def _chained(node: Node, func: str) -> bool:
    """Whether ``node`` is the highest or lowest of several values (not of a
    list, nor of records by a field): ``min(a, min(b, c))`` is one of three."""
    return (
        isinstance(node, Call)
        and node.func == func
        and func in ("max", "min")
        and not node.rule
        and len(node.args) >= 2
        and not any(isinstance(a, StrLit) for a in node.args)
        and len(list(_args(node, func))) > 2
    )


def _args(node: Node, func: str) -> Iterator[Node]:
    """The values a chain of ``func`` (max or min) of several values reads."""
    if (
        isinstance(node, Call)
        and node.func == func
        and not node.rule
        and len(node.args) >= 2
        and not any(isinstance(a, StrLit) for a in node.args)
    ):
        for arg in node.args:
            yield from _args(arg, func)
    else:
        yield node


def _terms(node: Node) -> Iterator[Node]:
    if isinstance(node, Binary) and node.op == "+" and not node.concat:
        yield from _terms(node.left)
        yield from _terms(node.right)
    else:
        yield node


def _shortcut(
    parts: Sequence[Dice], folds: Sequence[FoldRead], inline: bool
) -> Dice | None:
    """A pool of one ``rolls`` group read only through one sum, or one count
    of whole numbers: the dice's own total (a count, the dice meeting a
    target), worked out as a convolution (with its tail as a total's)."""
    if len(parts) != 1 or not parts[0].results:
        return None
    kinds = {(f.kind, f.values) for f in folds}
    if len(kinds) != 1:
        return None
    ((kind, values),) = kinds
    dice = parts[0]
    if kind == "sum" and (inline or pool_of(dice).explode is None):
        return _as_total(dice, "sum", ())
    if kind == "count":
        return _as_total(dice, "count", values)
    return None


def _as_total(dice: Dice, func: str, values: tuple[Node, ...]) -> Dice | None:
    """``sum(rolls(D))`` as D's total, and ``count(rolls(D), ...)`` of whole
    numbers as D counting the dice that meet a target, where D has none."""
    pool = pool_of(dice)
    if pool.target is not None or pool.multiplier != 1:
        return None
    if func == "sum":
        return replace(dice, results=False)
    whole_values = [whole(v) for v in values]
    if dice.sides is not None or pool.explode == "!!" or None in whole_values:
        return None
    low, high = whole_values
    assert low is not None and high is not None
    faces = pool.final_faces()
    target: Compare
    if low == high:
        target = Compare("=", low)
    elif high >= max(faces):
        target = Compare(">=", low)
    elif low <= min(faces):
        target = Compare("<=", high)
    else:
        return None
    counting = Pool(
        pool.count,
        pool.sides,
        fudge=pool.fudge,
        reroll=pool.reroll,
        reroll_once=pool.reroll_once,
        explode=pool.explode,
        explode_at=pool.explode_at,
        keep=pool.keep,
        keep_count=pool.keep_count,
        target=target,
    )
    text = str(counting)  # the pool says its own notation
    written = text if dice.written[:1].isdigit() else text[text.index("d") :]
    if notation_error(written, dice.count is not None) is not None:
        return None  # a value the notation cannot state (below 0)
    return replace(dice, written=written, results=False)


def _rebuilt(node: Node, parts: list[Node]) -> Node:
    """The node with its operands (as ``children`` lists them) replaced."""
    match node:
        case Unary():
            return replace(node, operand=parts[0])
        case Binary():
            return replace(node, left=parts[0], right=parts[1])
        case Cond():
            return replace(node, body=parts[0], test=parts[1], orelse=parts[2])
        case Call():
            return replace(node, args=tuple(parts))
        case Attr():
            return replace(node, obj=parts[0])
        case Index():
            return replace(node, obj=parts[0], index=parts[1])
        case LadderStep():
            return replace(node, operand=parts[0], by=parts[1])
        case ListLit():
            return replace(node, items=tuple(parts))
        case Construct():
            return replace(node, args=tuple(parts))
        case Method():
            return replace(node, obj=parts[0], args=tuple(parts[1:]))
        case Comp():
            test = parts[2] if node.test is not None else None
            return replace(node, items=parts[0], body=parts[1], test=test)
        case Dice():
            at = iter(parts)
            count = next(at) if node.count is not None else None
            sides = next(at) if node.sides is not None else None
            return replace(node, count=count, sides=sides)
        case _:
            pass
    return node
