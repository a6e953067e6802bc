"""Dice rolls: a dice expression rolled with the caller's rng, every die in the order written.

One ``rng.randint(1, sides)`` call per face (``randint(1, 3)`` for a Fudge
die, whose face is the answer less 2; a die of the rules' own shows its k-th
face for k): the expression's tree left to right as written (depth first),
each pool's dice in turn, a die's rerolls right after it, then the dice its
explosion adds, each with its own rerolls; a unique die showing an earlier
die's face is rolled again at once. Labels draw nothing. A face is raised to
the pool's minimum and lowered to its maximum as rolled, before any test.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import ClassVar, TypeAlias, cast

from ._support import MAX_ENTRIES, shown, too_many
from .dice import RNG, Randint, draw, randint_of
from .dice_terms import (
    AnyNode,
    Condition,
    DiceSum,
    Face,
    Keep,
    Number,
    Pool,
    Term,
    Value,
    number,
)
from .dice_tree import Binary, Call, Group, Labeled, Test
from .errors import RuleInputError

__all__ = ["NodeRoll", "Part", "PoolRoll", "Rolled", "roll", "tally", "total"]


class PoolRoll(Value):
    """One roll of a pool.

    ``dice``: each die's result in the order rolled (a die that ``!``, ``!p``
    or ``!o`` adds is a die of its own, ``!p``'s counting its face less 1;
    ``!!`` adds into its die); ``faces``: every face each die showed, rerolled
    faces included; ``kept``: whether each die is kept; ``hits``, ``fails``:
    whether each kept die meets the pool's target, its failure; ``value``: the
    kept dice's sum, or the hits less the fails, times the multiplier.
    """

    __slots__ = ("dice", "faces", "fails", "hits", "kept", "value")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "dice",
        "faces",
        "kept",
        "hits",
        "value",
        "fails",
    )

    dice: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]
    kept: tuple[bool, ...]
    hits: tuple[bool, ...]
    value: int
    fails: tuple[bool, ...]

    def __init__(
        self,
        dice: tuple[int, ...],
        faces: tuple[tuple[int, ...], ...],
        kept: tuple[bool, ...],
        hits: tuple[bool, ...],
        value: int,
        fails: tuple[bool, ...] = (),
    ) -> None:
        _set = object.__setattr__
        _set(self, "dice", dice)
        _set(self, "faces", faces)
        _set(self, "kept", kept)
        _set(self, "hits", hits)
        _set(self, "value", value)
        _set(self, "fails", fails or (False,) * len(dice))


class NodeRoll(Value):
    """One roll of a node that is no pool (a product, a call, a group, a
    comparison of totals, a label, a sum in parentheses): its ``value``, the
    roll of each part in order, and for a group whether each item is ``kept``."""

    __slots__ = ("kept", "parts", "value")
    FIELDS: ClassVar[tuple[str, ...]] = ("value", "parts", "kept")

    value: Number
    parts: tuple[Part, ...]
    kept: tuple[bool, ...]

    def __init__(
        self, value: Number, parts: tuple[Part, ...], kept: tuple[bool, ...] = ()
    ) -> None:
        _set = object.__setattr__
        _set(self, "value", value)
        _set(self, "parts", parts)
        _set(self, "kept", kept)


Part: TypeAlias = "PoolRoll | int | Fraction | NodeRoll"
"""The roll of one node: a pool's, a number (itself), or another node's."""


def _pool_rolls(parts: Sequence[Part]) -> Iterator[PoolRoll]:
    for part in parts:
        if isinstance(part, PoolRoll):
            yield part
        elif isinstance(part, NodeRoll):
            yield from _pool_rolls(part.parts)


class Rolled(Value):
    """A roll of a ``DiceSum``: its ``total`` and each term's roll (a number
    stands for itself, signed; a pool's or a node's roll is unsigned)."""

    __slots__ = ("terms", "total")
    FIELDS: ClassVar[tuple[str, ...]] = ("total", "terms")

    total: Number
    terms: tuple[Part, ...]

    def __init__(self, total: Number, terms: tuple[Part, ...]) -> None:
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "terms", terms)

    @property
    def results(self) -> tuple[int, ...]:
        """The dice the pools kept, in order (every pool of the tree)."""
        return tuple(
            die
            for term in _pool_rolls(self.terms)
            for die, kept in zip(term.dice, term.kept, strict=True)
            if kept
        )

    @property
    def rolled(self) -> tuple[int, ...]:
        """Every face rolled, in order, rerolled and dropped ones included."""
        return tuple(
            face
            for term in _pool_rolls(self.terms)
            for faces in term.faces
            for face in faces
        )


class _Dice:
    """Rolls dice one by one, counting them against ``MAX_ENTRIES``."""

    def __init__(self, rng: RNG) -> None:
        self.randint: Randint = randint_of(rng)
        self.rolled = 0

    def die(self, pool: Pool, taken: Sequence[int] = ()) -> tuple[int, list[int]]:
        """One die with its rerolls (and, for a unique die, rolled again while
        it shows a face of ``taken``): its face and every face it showed."""
        face = self.face(pool)
        faces = [face]
        reroll = pool.reroll
        while reroll is not None and reroll.meets(face):
            face = self.face(pool)
            faces.append(face)
            if pool.reroll_once:
                break
        while pool.unique and face in taken:
            face = self.face(pool)
            faces.append(face)
        return face, faces

    def face(self, pool: Pool) -> int:
        self.rolled += 1
        if self.rolled > MAX_ENTRIES:
            raise too_many("die rolls")
        return pool.face(draw(self.randint, 1, pool.sides))


def roll(dice: DiceSum, rng: RNG) -> Rolled:
    """Roll ``dice`` with ``rng`` (anything with ``randint(a, b)``).

    Raises ``RuleInputError`` for an ``rng`` that answers anything but a face
    (see ``rulebook.dice.draw``), past ``MAX_ENTRIES`` die rolls, and for a
    division by zero.
    """
    if not isinstance(dice, DiceSum):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"dice must be a DiceSum, not {shown(dice)}")
    roller = _Dice(rng)
    value, terms = _sum(dice, roller)
    return Rolled(value, terms)


def _value(part: Part) -> Number:
    return part if isinstance(part, int | Fraction) else part.value


def _sum(dice: DiceSum, roller: _Dice) -> tuple[Number, tuple[Part, ...]]:
    found: Number = 0
    parts: list[Part] = []
    for term in dice.terms:
        part = _node(term.value, roller)
        found += term.sign * _value(part)
        parts.append(term.sign * part if isinstance(part, int | Fraction) else part)
    return number(found), tuple(parts)


def _node(node: AnyNode, roller: _Dice) -> Part:
    """The roll of one node of the tree."""
    if isinstance(node, int | Fraction):
        return node
    if isinstance(node, Pool):
        return _roll_pool(node, roller)
    if isinstance(node, DiceSum):
        return NodeRoll(*_sum(node, roller))
    if isinstance(node, Group):
        return _group(node, roller)
    parts = tuple(_node(cast("AnyNode", c), roller) for c in node.children())
    values = [_value(p) for p in parts]
    return NodeRoll(_apply(node, values), parts)


def _apply(node: AnyNode, values: list[Number]) -> Number:
    """The value of a product, call, comparison of totals or label of these values."""
    if isinstance(node, Binary):
        left, right = values
        if node.op == "*":
            return number(Fraction(left) * right)
        if right == 0:
            raise RuleInputError("division by zero")
        return number(Fraction(left) / right)
    if isinstance(node, Test):
        return 1 if node.holds(*values) else 0
    if isinstance(node, Call):
        return _call(node.name, values)
    if isinstance(node, Labeled):
        return values[0]
    raise RuleInputError(f"not a node of a dice expression: {shown(node)}")


def _call(name: str, values: list[Number]) -> Number:
    if name == "max":
        return max(values)
    if name == "min":
        return min(values)
    (value,) = values
    if name == "abs":
        return -value if value < 0 else value
    if name == "floor":
        return math.floor(value)
    if name == "ceil":
        return math.ceil(value)
    return math.floor(value + Fraction(1, 2))  # round: half up


def _group(group: Group, roller: _Dice) -> NodeRoll:
    parts = tuple(_node(item, roller) for item in group.items)
    values = [_value(p) for p in parts]
    kept = _kept(group.keep, group.keep_count, values)
    found: Number = _counted(values, kept, group.target, group.failure)
    return NodeRoll(number(found), parts, kept)


def _counted(
    values: Sequence[Number],
    kept: Sequence[bool],
    target: Condition | None,
    failure: Condition | None,
) -> Number:
    """The kept values' sum, or (with a target) those meeting it less those meeting the failure."""
    if target is None:
        return sum((v for v, k in zip(values, kept, strict=True) if k), 0)
    pairs = list(zip(values, kept, strict=True))
    hits = sum(1 for v, k in pairs if k and target.meets(v))
    fails = sum(1 for v, k in pairs if k and failure is not None and failure.meets(v))
    return hits - fails


def total(pool: Pool, rng: RNG) -> int:
    """The total of one roll of ``pool``: the same dice, rolled in the same
    order and refused alike, as ``roll(DiceSum((Term(1, pool),)), rng).total``,
    without keeping each die (a plain pool of dice summed takes a short way)."""
    if not isinstance(pool, Pool):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"pool must be a Pool, not {shown(pool)}")
    if (
        pool.fudge
        or pool.listed is not None
        or pool.minimum is not None
        or pool.maximum is not None
        or pool.reroll is not None
        or pool.explode is not None
        or pool.unique
        or pool.keep is not None
        or pool.target is not None
    ):
        return cast("int", roll(DiceSum((Term(1, pool),)), rng).total)
    randint = randint_of(rng)
    count, sides = pool.count, pool.sides
    if count > MAX_ENTRIES:
        raise too_many("die rolls")
    found = 0
    for _ in range(count):
        found += draw(randint, 1, sides)
    return found * pool.multiplier


def _roll_pool(pool: Pool, roller: _Dice) -> PoolRoll:
    dice: list[int] = []
    faces: list[tuple[int, ...]] = []
    for _ in range(pool.count):
        face, shown = roller.die(pool, dice)
        if pool.explode == "!!":
            value = face
            while pool.explodes(face):
                face, more = roller.die(pool)
                shown += more
                value += face
            dice.append(value)
            faces.append(tuple(shown))
            continue
        dice.append(face)
        faces.append(tuple(shown))
        extra = 0
        while pool.explode is not None and pool.explodes(face):
            if pool.explode == "!o" and extra:
                break
            face, shown = roller.die(pool)
            dice.append(face - 1 if pool.explode == "!p" else face)
            faces.append(tuple(shown))
            extra += 1
    kept = _kept(pool.keep, pool.keep_count, dice)
    target, failure = pool.target, pool.failure
    hits = tuple(
        k and target is not None and target.meets(d)
        for d, k in zip(dice, kept, strict=True)
    )
    fails = tuple(
        k and failure is not None and failure.meets(d)
        for d, k in zip(dice, kept, strict=True)
    )
    if not pool.numeric:  # a die of symbols: its faces are read, not added
        value = 0
    elif target is None:
        value = sum(d for d, k in zip(dice, kept, strict=True) if k)
    else:
        value = sum(hits) - sum(fails)
    return PoolRoll(
        tuple(dice), tuple(faces), kept, hits, value * pool.multiplier, fails
    )


def _kept(
    keep: Keep | None, keep_count: int, values: Sequence[Number]
) -> tuple[bool, ...]:
    """Which of ``values`` are kept, among all of them (ties: the first ranks first)."""
    if keep is None:
        return (True,) * len(values)
    highest = keep in ("kh", "dl")
    if keep in ("kh", "kl"):
        many = min(keep_count, len(values))
    else:
        many = max(len(values) - keep_count, 0)
    order = sorted(
        range(len(values)), key=lambda i: (-values[i] if highest else values[i], i)
    )
    chosen = set(order[:many])
    return tuple(i in chosen for i in range(len(values)))


def tally(faces: Sequence[Face], symbol: str) -> int:
    """How many times ``symbol`` shows on ``faces`` (dice of symbols: each
    face a tuple of them, a symbol perhaps more than once on one face)."""
    if type(symbol) is not str:
        raise RuleInputError(f"symbol must be a str, not {shown(symbol)}")
    found = 0
    for face in faces:
        if not isinstance(face, tuple):
            raise RuleInputError(f"a face of symbols is a tuple, not {shown(face)}")
        found += face.count(symbol)
    return found
