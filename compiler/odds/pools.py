"""Odds pools: the lists of dice a rule's odds read only through folds, grouped into the pools the engine works out.

A list of dice is a pool expression: ``rolls(D)`` (a group of D's dice), a
list of dice totals (``[1d6, 1d8]``: a group of one die each), lists of them
joined with ``+``, ``sorted`` of one, or a name a ``let`` binds to one. A
fold reads a pool expression as a multiset: ``count(x, v)``, ``count(x, lo,
hi)``, ``sum(x)``, ``len(x)``, ``max(x)``, ``min(x)``, ``tally(x, symbol)``
and ``sorted(x)[i]``. A name bound to a pool expression whose every read
(among the expressions the odds follow) is a fold, or a part of another such
name's pool, is a pool; any other read (the list as a whole) makes it a
list, worked out as one. Groups that one fold reads together are one pool
(a component); the engine works each pool out over the multiset of its
outcomes (``rulebook._multiset``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..lang.dice import pool_of
from ..lang.nodes import (
    Binary,
    Call,
    Dice,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    StrLit,
    Unary,
    children,
    walk,
)

__all__ = ["FoldRead", "Pool", "Pools", "analyse", "pool_parts", "whole"]

FOLDS = ("count", "sum", "len", "max", "min", "tally")


@dataclass(frozen=True, slots=True)
class FoldRead:
    """A fold of a pool expression: its kind, the groups it reads (the
    ``rolls`` nodes and dice items, in order) and its values (``count``: the
    lowest and highest counted; ``at``: the place; ``tally``: the symbol)."""

    kind: str
    parts: tuple[Dice, ...]
    values: tuple[Node, ...]


@dataclass(slots=True)
class Pool:
    """Groups read by folds together: worked out as one source."""

    parts: list[Dice] = field(default_factory=list)
    folds: list[FoldRead] = field(default_factory=list)
    reads: list[Node] = field(default_factory=list)  # each fold's node, as folds


@dataclass(slots=True)
class Pools:
    """What the odds read of a rule's lists of dice: the names that are
    pools (by name: their groups), each fold read (by the id of its node)
    and the pools they make."""

    names: dict[str, tuple[Dice, ...]]
    reads: dict[int, tuple[int, int]]  # fold node id -> (pool, fold)
    pools: list[Pool]
    home: dict[int, int]  # group (id of its node) -> pool

    def pool_of(self, part: Dice) -> int | None:
        return self.home.get(id(part))


def pool_parts(
    node: Node, names: dict[str, tuple[Dice, ...]]
) -> tuple[Dice, ...] | None:
    """The groups of a pool expression, in order; None for any other list."""
    match node:
        case Dice(results=True):
            return (node,)
        case ListLit():
            if all(isinstance(i, Dice) and not i.results for i in node.items):
                return tuple(i for i in node.items if isinstance(i, Dice))
            return None
        case Binary(concat=True):
            left = pool_parts(node.left, names)
            right = pool_parts(node.right, names)
            return None if left is None or right is None else left + right
        case Call(func="sorted", rule=False) if len(node.args) == 1:
            return pool_parts(node.args[0], names)
        case Name() if node.name in names:
            return names[node.name]
        case _:
            return None


def _fold(node: Node, names: dict[str, tuple[Dice, ...]]) -> FoldRead | None:
    """``node`` as a fold of a pool expression, or None."""
    if isinstance(node, Index):
        obj = node.obj
        place = whole(node.index)
        if (
            not isinstance(obj, Call)
            or obj.func != "sorted"
            or obj.rule
            or place is None
        ):
            return None
        parts = pool_parts(obj, names)
        if parts is None or not _distinct(parts) or any(map(_chains, parts)):
            return None
        if len(parts) > 1 and any(p.results and pool_of(p).keep for p in parts):
            return None  # a place among groups of which one keeps
        return FoldRead("at", parts, (node.index,))
    if not isinstance(node, Call) or node.rule or node.func not in FOLDS:
        return None
    if node.func in ("max", "min") and len(node.args) != 1:
        return None
    parts = pool_parts(node.args[0], names)
    if parts is None or not _distinct(parts):
        return None
    values = node.args[1:]
    if any(
        isinstance(n, Dice) or (isinstance(n, Call) and n.rolls)
        for v in values
        for n in walk(v)
    ):
        return None
    if node.func == "count":
        values = (values[0], values[-1])
    elif node.func == "tally" and not (
        len(values) == 1 and isinstance(values[0], StrLit)
    ):
        return None
    return FoldRead(node.func, parts, values)


def _chains(part: Dice) -> bool:
    """Whether a die of ``part`` may add several dice to the list (``!``, ``!o``)."""
    return part.results and pool_of(part).explode in ("!", "!o")


def _distinct(parts: tuple[Dice, ...]) -> bool:
    """Whether no group is read twice (``x + x`` is the same dice twice)."""
    return len({id(p) for p in parts}) == len(parts)


def whole(node: Node) -> int | None:
    """A whole number written as one (``3``, ``-3``), or None."""
    if isinstance(node, IntLit):
        return node.value
    if isinstance(node, Unary) and node.op == "-" and isinstance(node.operand, IntLit):
        return -node.operand.value
    return None


def analyse(lets: Sequence[tuple[str, Node]], answers: Sequence[Node]) -> Pools:
    """The pools of a rule whose odds read ``answers`` after ``lets``."""
    candidates: dict[str, tuple[Dice, ...]] = {}
    for name, value in lets:
        parts = pool_parts(value, candidates)
        if parts is not None and _distinct(parts):
            candidates[name] = parts
    values = dict(lets)
    while True:
        found, whole = _reads(values, candidates, answers)
        if not whole:
            break
        for name in whole:
            del candidates[name]
    pools = _components(found)
    reads = {}
    home: dict[int, int] = {}
    for p, pool in enumerate(pools):
        for f, node in enumerate(pool.reads):
            reads[id(node)] = (p, f)
        for part in pool.parts:
            home[id(part)] = p
    return Pools(candidates, reads, pools, home)


def _reads(
    values: dict[str, Node],
    names: dict[str, tuple[Dice, ...]],
    answers: Sequence[Node],
) -> tuple[list[tuple[Node, FoldRead]], set[str]]:
    """The folds the odds read (from ``answers``, and the lets they read), in
    the order they are met, and the pool names read otherwise (as lists)."""
    found: list[tuple[Node, FoldRead]] = []
    whole: set[str] = set()
    seen: set[str] = set()

    def visit(node: Node) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            fold = _fold(n, names)
            if fold is not None:
                found.append((n, fold))
                more = [*fold.values]
                for part in fold.parts:  # a group's count and sides are read too
                    more.extend(children(part))
                stack.extend(reversed(more))
                continue
            if isinstance(n, Name) and n.name in names:
                whole.add(n.name)  # a pool read as a list
            elif isinstance(n, Name) and n.name in values and n.name not in seen:
                seen.add(n.name)
                visit(values[n.name])
            stack.extend(reversed(children(n)))

    for node in answers:
        visit(node)
    return found, whole


def _components(found: list[tuple[Node, FoldRead]]) -> list[Pool]:
    """The folds grouped into pools: groups one fold reads together are one."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    order: dict[int, Dice] = {}
    for _, fold in found:
        first = id(fold.parts[0]) if fold.parts else None
        for part in fold.parts:
            order.setdefault(id(part), part)
            if first is not None:
                parent[root(id(part))] = root(first)
    pools: dict[int, Pool] = {}
    for key, part in order.items():
        pools.setdefault(root(key), Pool()).parts.append(part)
    for node, fold in found:
        if not fold.parts:
            continue
        pool = pools[root(id(fold.parts[0]))]
        pool.folds.append(fold)
        pool.reads.append(node)
    return list(pools.values())
