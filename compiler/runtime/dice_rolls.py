"""Dice rolls: a ``DiceSum`` rolled with the caller's rng, every die in the order written.

One ``rng.randint(1, sides)`` call per die (``randint(1, 3)`` for a Fudge die,
whose face is the answer less 2; a die of the rules' own shows its k-th face
for k): the pools left to right, each pool's dice in
turn, a die's rerolls right after it, then the dice its explosion adds, each
with its own rerolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ._support import MAX_ENTRIES, shown, too_many
from .dice import RNG, Randint, draw, randint_of
from .dice_terms import DiceSum, Face, Pool, Term, Value
from .errors import RuleInputError

__all__ = ["PoolRoll", "Rolled", "roll", "tally", "total"]


class PoolRoll(Value):
    """One roll of a pool.

    ``dice``: each die's result in the order rolled (a die that ``!`` or ``!o``
    adds is a die of its own; ``!!`` adds into its die); ``faces``: every face
    each die showed, rerolled faces included; ``kept``: whether each die is
    kept; ``hits``: whether each kept die meets the pool's target; ``value``:
    the kept dice's sum, or the count of hits, times the multiplier.
    """

    __slots__ = ("dice", "faces", "hits", "kept", "value")
    FIELDS: ClassVar[tuple[str, ...]] = ("dice", "faces", "kept", "hits", "value")

    dice: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]
    kept: tuple[bool, ...]
    hits: tuple[bool, ...]
    value: int

    def __init__(
        self,
        dice: tuple[int, ...],
        faces: tuple[tuple[int, ...], ...],
        kept: tuple[bool, ...],
        hits: tuple[bool, ...],
        value: int,
    ) -> None:
        _set = object.__setattr__
        _set(self, "dice", dice)
        _set(self, "faces", faces)
        _set(self, "kept", kept)
        _set(self, "hits", hits)
        _set(self, "value", value)


class Rolled(Value):
    """A roll of a ``DiceSum``: its ``total`` and each term's roll (a whole
    number stands for itself, signed)."""

    __slots__ = ("terms", "total")
    FIELDS: ClassVar[tuple[str, ...]] = ("total", "terms")

    total: int
    terms: tuple[PoolRoll | int, ...]

    def __init__(self, total: int, terms: tuple[PoolRoll | int, ...]) -> None:
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "terms", terms)

    @property
    def results(self) -> tuple[int, ...]:
        """The dice the pools kept, in order."""
        return tuple(
            die
            for term in self.terms
            if isinstance(term, PoolRoll)
            for die, kept in zip(term.dice, term.kept, strict=True)
            if kept
        )

    @property
    def rolled(self) -> tuple[int, ...]:
        """Every face rolled, in order, rerolled and dropped ones included."""
        return tuple(
            face
            for term in self.terms
            if isinstance(term, PoolRoll)
            for faces in term.faces
            for face in faces
        )


class _Dice:
    """Rolls dice one by one, counting them against ``MAX_ENTRIES``."""

    def __init__(self, rng: RNG) -> None:
        self.randint: Randint = randint_of(rng)
        self.rolled = 0

    def die(self, pool: Pool) -> tuple[int, list[int]]:
        """One die with its rerolls: its face and every face it showed."""
        face = self.face(pool)
        faces = [face]
        reroll = pool.reroll
        while reroll is not None and reroll.meets(face):
            face = self.face(pool)
            faces.append(face)
            if pool.reroll_once:
                break
        return face, faces

    def face(self, pool: Pool) -> int:
        self.rolled += 1
        if self.rolled > MAX_ENTRIES:
            raise too_many("die rolls")
        return pool.face(draw(self.randint, 1, pool.sides))


def roll(dice: DiceSum, rng: RNG) -> Rolled:
    """Roll ``dice`` with ``rng`` (anything with ``randint(a, b)``).

    Raises ``RuleInputError`` for an ``rng`` that answers anything but a face
    (see ``rulebook.dice.draw``) and past ``MAX_ENTRIES`` die rolls.
    """
    if not isinstance(dice, DiceSum):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"dice must be a DiceSum, not {shown(dice)}")
    roller = _Dice(rng)
    terms: list[PoolRoll | int] = []
    total = 0
    for term in dice.terms:
        if isinstance(term.value, Pool):
            rolled = _roll_pool(term.value, roller)
            total += term.sign * rolled.value
            terms.append(rolled)
        else:
            total += term.sign * term.value
            terms.append(term.sign * term.value)
    return Rolled(total, tuple(terms))


def total(pool: Pool, rng: RNG) -> int:
    """The total of one roll of ``pool``: the same dice, rolled in the same
    order and refused alike, as ``roll(DiceSum((Term(1, pool),)), rng).total``,
    without keeping each die (a plain pool of dice summed takes a short way)."""
    if not isinstance(pool, Pool):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"pool must be a Pool, not {shown(pool)}")
    if (
        pool.fudge
        or pool.listed is not None
        or pool.reroll is not None
        or pool.explode is not None
        or pool.keep is not None
        or pool.target is not None
    ):
        return roll(DiceSum((Term(1, pool),)), rng).total
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
        face, shown = roller.die(pool)
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
            dice.append(face)
            faces.append(tuple(shown))
            extra += 1
    kept = _kept(pool, dice)
    target = pool.target
    hits = tuple(
        k and target is not None and target.meets(d)
        for d, k in zip(dice, kept, strict=True)
    )
    if not pool.numeric:  # a die of symbols: its faces are read, not added
        value = 0
    elif target is None:
        value = sum(d for d, k in zip(dice, kept, strict=True) if k)
    else:
        value = sum(hits)
    return PoolRoll(tuple(dice), tuple(faces), kept, hits, value * pool.multiplier)


def _kept(pool: Pool, dice: list[int]) -> tuple[bool, ...]:
    """Which dice the pool keeps (ties: the die rolled first ranks first)."""
    if pool.keep is None:
        return (True,) * len(dice)
    highest = pool.keep in ("kh", "dl")
    order = sorted(
        range(len(dice)), key=lambda i: (-dice[i] if highest else dice[i], i)
    )
    chosen = set(order[: pool.kept])
    return tuple(i in chosen for i in range(len(dice)))


def tally(faces: Sequence[Face], symbol: str) -> int:
    """How many times ``symbol`` shows on ``faces`` (dice of symbols: each
    face a tuple of them, a symbol perhaps more than once on one face)."""
    if type(symbol) is not str:
        raise RuleInputError(f"symbol must be a str, not {shown(symbol)}")
    if not isinstance(faces, tuple | list):
        raise RuleInputError(f"faces must be a list of faces, not {shown(faces)}")
    found = 0
    for face in faces:
        if not isinstance(face, tuple):
            raise RuleInputError(f"a face of symbols is a tuple, not {shown(face)}")
        found += face.count(symbol)
    return found
