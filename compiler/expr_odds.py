"""Odds emission: an expression that rolls, as code that works out its exact chances.

The code calls the runtime's ``odds`` module (``rulebook.odds``, the
JavaScript ``odds.js``): a part of the expression without dice is a value
known for certain (``const``); a dice term is its chances (``dice``); a
condition, ``and``, ``or`` and ``??`` follow each value of what they test into
the branch it takes (``bind``); any other node combines its parts' chances
value by value (``apply``), with the node's own code (the target's emitter, the
parts that roll standing in as names) doing the work on each value; a call of
a rule that rolls is the chances its odds function answers (``called``), for
each value of its arguments. Each dice term of an expression is rolled at most
once per call, and a called rule rolls dice of its own, so the parts are
independent and this is exact. One emitter for every target: ``Syntax`` says
how the target writes a function, a call and a condition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as slot

from .expr_dice import notation_error, pool_of
from .expr_memo import Seen, remembered
from .expr_types import (
    FUNCTIONS,
    Attr,
    Binary,
    Call,
    Cond,
    Dice,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    Step,
    Unary,
    children,
    walk,
)
from .naming import odds_function
from .runtime.dice_terms import Compare, Pool

__all__ = ["PLACEHOLDER", "Guard", "Syntax", "bind_lets", "odds_code", "rolls"]

PLACEHOLDER = "_o"
"""The prefix of the names that stand for a rolling part's value."""


@dataclass(frozen=True, slots=True)
class Syntax:
    """How a target writes what the odds code needs."""

    emit: Callable[[Node], str]  # a node's code (placeholder names kept as they are)
    function: Callable[[Sequence[str], str], str]  # (names, body) -> a function
    call: Callable[[str, Sequence[str]], str]  # (odds function, args) -> a call
    choose: Callable[[str, str, str], str]  # (test, then, else) -> a condition
    is_null: Callable[[str], str]  # a name -> whether it is null
    pool: Callable[[Dice, str, str], str]  # (dice, count, sides) -> its pool
    boolean: Callable[[bool], str]
    local: Callable[[str], str] = str  # a name the rule binds, as the target writes it
    items: Callable[[Sequence[str]], str] = lambda codes: f"[{', '.join(codes)}]"


def rolls(node: Node) -> bool:
    """Whether the expression rolls dice (its own, or a rolling rule's it calls)."""
    return any(_rolled(n) for n in walk(node))


def _rolled(node: Node) -> bool:
    """Whether ``node`` itself rolls: a dice term, or a call of a rule that rolls."""
    return isinstance(node, Dice) or (isinstance(node, Call) and node.rolls)


def odds_code(
    node: Node,
    syntax: Syntax,
    depth: str | None = None,
    lets: Sequence[tuple[str, Node]] = (),
) -> str:
    """Code for the chances (the runtime's ``Dist``) of a checked expression,
    explosions followed ``depth`` dice deep (its code; None: the runtime's default),
    after ``lets``: the names the rule binds, in order, each followed into the
    rest for each value it takes (so a roll read twice is one roll)."""
    lifter = _Lifter(syntax, depth)
    return _bound(lifter, lets, lifter.chances(node), [node])


@dataclass(frozen=True, slots=True)
class Guard:
    """A test among the lets, after the first ``before`` of them: where it
    holds, the chances are ``then`` (code: an answer known, or a refusal),
    and the lets after it are not bound; ``reads``: its expressions."""

    before: int
    test: Node
    then: str
    reads: tuple[Node, ...]


def bind_lets(
    lets: Sequence[tuple[str, Node]],
    syntax: Syntax,
    code: str,
    reads: Sequence[Node],
    depth: str | None = None,
    guards: Sequence[Guard] = (),
) -> str:
    """Code for the chances of ``code`` (chances, in which the names ``lets``
    binds are free) after the lets, each followed into the rest for each value
    it takes: the odds of a rule whose own part is a call with those names
    (``reads``: every expression of that part, which may read them), the
    ``guards`` among them tried where they stand."""
    return _bound(_Lifter(syntax, depth), lets, code, reads, guards)


def _bound(
    lifter: _Lifter,
    lets: Sequence[tuple[str, Node]],
    code: str,
    reads: Sequence[Node],
    guards: Sequence[Guard] = (),
) -> str:
    s = lifter.syntax
    hoisted: list[tuple[str, str]] = []  # (name, chances) worked out once, first
    for after in reversed(range(len(lets) + 1)):
        for guard in reversed([g for g in guards if g.before == after]):
            code = s.choose(s.emit(guard.test), guard.then, code)
        if not after:
            break
        at = after - 1
        name, value = lets[at]
        rest = s.function([s.local(name)], code)
        chances = lifter.chances(value)
        later = [v for _, v in lets[at + 1 :]] + list(reads)
        later += [r for g in guards if g.before > at for r in g.reads]
        key = _read_through(name, {n for n, _ in lets[at:]}, later)
        counted = _counted(value, key)
        if counted is not None:
            # read only through one count: that count, not the multisets of dice
            chances = s.call("repeated", [lifter.dice(counted[0]), str(counted[1])])
        elif key:
            codes = list(dict.fromkeys(s.emit(read) for read in _guarded(key)))
            seen = s.function([s.local(name)], s.items(codes))
            chances = s.call("group", [chances, seen])
        earlier = {n for n, _ in lets[:at]}
        guarded = any(g.before <= at for g in guards)  # worked out only past them
        if not guarded and not any(
            isinstance(n, Name) and n.name in earlier for n in walk(value)
        ):
            # its chances are the same for every value of the names before it
            hoisted.append((lifter.fresh(), chances))
            chances = hoisted[-1][0]
        code = s.call("bind", [chances, rest])
    if hoisted:
        names, parts = zip(*reversed(hoisted), strict=True)
        code = f"({s.function(names, code)})({', '.join(parts)})"
    return code


# the functions of a list that read it as a multiset (a pool's dice read only
# through them: one list of each count, sum, length, highest and lowest stands
# for all, the rest answering alike for each)
_FOLDS = ("count", "sum", "len", "max", "min", "tally")


def _counted(value: Node, reads: Sequence[Node]) -> tuple[Dice, int] | None:
    """Where ``value`` is a pool's dice (``rolls(D)``) and every read of it is
    the same ``count`` of whole numbers: D counting the dice that meet that
    target, and a face that meets it (a list of that many stands for each
    count); else None."""
    if not reads or not isinstance(value, Dice) or not value.results:
        return None
    first = reads[0]
    if not isinstance(first, Call) or first.func != "count":
        return None
    if any(not isinstance(r, Call) or r.args[1:] != first.args[1:] for r in reads):
        return None
    shortcut = _as_total(replace(first, args=(value, *first.args[1:])))
    if shortcut is None:
        return None
    values = [_whole(arg) for arg in first.args[1:]]
    assert values[0] is not None  # (_as_total takes whole numbers only)
    face = values[0] if len(values) == 1 else pool_of(shortcut).target
    if not isinstance(face, int):  # low..high: a face inside, as the target says
        assert face is not None and values[-1] is not None
        face = values[0] if face.op == ">=" else values[-1]
    return shortcut, face


def _guarded(reads: Sequence[Node]) -> list[Node]:
    """The reads as a key: the highest or lowest of a list only when it has
    one (an empty list has none: the rest may read it only when it is not
    empty), and then its length beside it."""
    found: list[Node] = []
    for read in reads:
        assert isinstance(read, Call)
        if read.func in ("max", "min"):
            span = (read.start, read.end)
            length = Call("len", read.args, *span)
            some = Binary(">", length, IntLit(0, *span), *span)
            found += [length, Cond(read, some, IntLit(0, *span), *span)]
        else:
            found.append(read)
    return found


def _read_through(name: str, bound: set[str], nodes: Sequence[Node]) -> list[Node]:
    """The reads of ``name`` in ``nodes`` when every one is a fold of it (its
    other arguments reading no name bound from it on, and no dice), else none:
    then the values of ``name`` with the same folds are one to the rest."""
    found: list[Node] = []
    inside: set[int] = set()
    for node in nodes:
        for n in walk(node):
            if (
                isinstance(n, Call)
                and n.func in _FOLDS
                and not n.rule
                and (n.func not in ("max", "min") or len(n.args) == 1)
                and isinstance(n.args[0], Name)
                and n.args[0].name == name
            ):
                others = [m for arg in n.args[1:] for m in walk(arg)]
                if any(_rolled(m) for m in others) or any(
                    isinstance(m, Name) and m.name in bound for m in others
                ):
                    return []
                found.append(n)
                inside.add(id(n.args[0]))
            elif isinstance(n, Name) and n.name == name and id(n) not in inside:
                return []
    return found


@dataclass(slots=True)
class _Lifter:
    syntax: Syntax
    depth: str | None  # the code of how many dice deep explosions are followed
    names: int = 0
    rolling: Seen[bool] = slot(default_factory=dict)

    def rolls(self, node: Node) -> bool:
        """``rolls(node)``, each node's worked out once (from its children's)."""
        return remembered(self.rolling, node, self._rolls)

    def _rolls(self, node: Node) -> bool:
        return _rolled(node) or any(self.rolls(child) for child in children(node))

    def fresh(self) -> str:
        self.names += 1
        return f"{PLACEHOLDER}{self.names}"

    def const(self, code: str) -> str:
        return self.syntax.call("const", [code])

    def chances(self, node: Node) -> str:
        s = self.syntax
        if not self.rolls(node):
            return self.const(s.emit(node))
        match node:
            case Dice():
                return self.dice(node)
            case Call(rolls=True):
                return self.called(node)
            case Cond():
                test, name = self.chances(node.test), self.fresh()
                branch = s.choose(
                    name, self.chances(node.body), self.chances(node.orelse)
                )
                return s.call("bind", [test, s.function([name], branch)])
            case Binary(op="and" | "or" | "??"):
                left, name = self.chances(node.left), self.fresh()
                right, known = self.chances(node.right), self.const(name)
                if node.op == "and":
                    branch = s.choose(name, right, known)
                elif node.op == "or":
                    branch = s.choose(name, known, right)
                else:
                    branch = s.choose(s.is_null(name), right, known)
                return s.call("bind", [left, s.function([name], branch)])
            case Call(func="count" | "sum"):
                shortcut = _as_total(node)
                if shortcut is not None:
                    return self.dice(shortcut)
            case _:
                pass
        return self.combined(node)

    def dice(self, node: Dice) -> str:
        s = self.syntax
        pool = pool_of(node)
        count = (
            self.const(str(pool.count))
            if node.count is None
            else self.chances(node.count)
        )
        sides = (
            self.const(str(pool.sides))
            if node.sides is None
            else self.chances(node.sides)
        )
        c, n = self.fresh(), self.fresh()
        make = s.function([c, n], s.pool(node, c, n))
        flag = s.boolean(node.results)
        depth = [] if self.depth is None else [self.depth]
        return s.call("dice", [make, count, sides, flag, *depth])

    def called(self, node: Call) -> str:
        """A call of a rule that rolls: the chances its odds function answers
        for its arguments, followed for each value of an argument that rolls
        (the arguments' dice and the rule's are independent)."""
        s = self.syntax
        if node.func == "roll":  # a dice value's roll: its distribution
            (dice,) = node.args
            if self.rolls(dice):
                name = self.fresh()
                then = s.function([name], s.call("rolled", [name]))
                return s.call("bind", [self.chances(dice), then])
            return s.call("rolled", [s.emit(dice)])
        bound: list[tuple[str, str]] = []
        args: list[Node] = []
        for arg in node.args:
            if self.rolls(arg):
                name = self.fresh()
                bound.append((name, self.chances(arg)))
                args.append(Name(name, arg.start, arg.end))
            else:
                args.append(arg)
        odds = replace(
            node,
            func=node.odds or odds_function(node.func),
            args=tuple(args),
            rolls=False,
        )
        code = s.call("called", [s.emit(odds)])
        for name, chances in reversed(bound):
            code = s.call("bind", [chances, s.function([name], code)])
        return code

    def combined(self, node: Node) -> str:
        names: list[str] = []
        parts: list[str] = []
        kept: list[Node] = []
        for child in _parts(node):
            if self.rolls(child):
                name = self.fresh()
                names.append(name)
                parts.append(self.chances(child))
                kept.append(Name(name, child.start, child.end))
            else:
                kept.append(child)
        code = self.syntax.emit(_rebuilt(node, kept))
        return self.syntax.call("apply", [self.syntax.function(names, code), *parts])


def _as_total(node: Call) -> Dice | None:
    """``sum(rolls(D))`` as D's total, and ``count(rolls(D), ...)`` of whole
    numbers as D counting the dice that meet a target, where D has none (the
    dice core then works it out as a convolution, not a multiset of dice)."""
    dice = node.args[0]
    if not isinstance(dice, Dice) or not dice.results:
        return None
    pool = pool_of(dice)
    if pool.target is not None or pool.multiplier != 1:
        return None
    if node.func == "sum":
        return replace(dice, results=False)
    values = [_whole(arg) for arg in node.args[1:]]
    if dice.sides is not None or pool.explode == "!!" or None in values:
        return None
    faces = pool.final_faces()
    target: Compare
    if len(values) == 1 and values[0] is not None:
        target = Compare("=", values[0])
    elif values[1] is not None and values[1] >= max(faces) and values[0] is not None:
        target = Compare(">=", values[0])
    elif values[0] is not None and values[0] <= min(faces) and values[1] is not None:
        target = Compare("<=", values[1])
    else:
        return None
    text = str(_counting(pool, target))  # the pool says its own notation
    written = text if dice.written[:1].isdigit() else text[text.index("d") :]
    if notation_error(written, dice.count is not None) is not None:
        return None  # a value the notation cannot state (below 0)
    return replace(dice, written=written, results=False)


def _counting(pool: Pool, target: Compare) -> Pool:
    """``pool`` counting the dice that meet ``target``."""
    return Pool(
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


def _whole(node: Node) -> int | None:
    """A whole number written as one, or None."""
    if isinstance(node, IntLit):
        return node.value
    if isinstance(node, Unary) and node.op == "-" and isinstance(node.operand, IntLit):
        return -node.operand.value
    return None


def _lookup(node: Node) -> bool:
    """A table lookup ``table(key)``, whose row a field is read of."""
    return isinstance(node, Call) and not node.rule and node.func not in FUNCTIONS


def _parts(node: Node) -> tuple[Node, ...]:
    """The node's operands, in order (a field of a table lookup: the key)."""
    if isinstance(node, Attr) and isinstance(node.obj, Call) and _lookup(node.obj):
        return node.obj.args
    return children(node)


def _rebuilt(node: Node, parts: list[Node]) -> Node:
    """The node with its operands (as ``_parts`` lists them) replaced."""
    match node:
        case Unary():
            return replace(node, operand=parts[0])
        case Binary():
            return replace(node, left=parts[0], right=parts[1])
        case Call():
            return replace(node, args=tuple(parts))
        case Attr(obj=Call() as lookup) if _lookup(lookup):
            return replace(node, obj=replace(lookup, args=tuple(parts)))
        case Attr():
            return replace(node, obj=parts[0])
        case Index():
            return replace(node, obj=parts[0], index=parts[1])
        case Step():
            return replace(node, operand=parts[0], by=parts[1])
        case ListLit():
            return replace(node, items=tuple(parts))
        case _:
            pass
    raise AssertionError(node)
