"""Success pools: roll a handful of dice and count those that meet a target.

A die showing ``again_at`` or more is rolled again and may add more successes.
A pool of no dice (or fewer) is a single chance die: only ``chance_success_at``
succeeds (and rolls again like any die), and ``chance_dramatic_at`` is a
dramatic failure. Each die's re-rolls come right after it, before the next die.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from ._support import MAX_ENTRIES, shown, too_many
from .dice import RNG, Randint, draw, randint_of
from .errors import RuleInputError
from .json import JSON, Record, to_data

__all__ = ["PoolDistribution", "PoolResult", "SuccessPool"]


class PoolResult(Record):
    """One roll of a pool."""

    __slots__ = ("dramatic_failure", "rolls", "successes")
    FIELDS: ClassVar[tuple[str, ...]] = ("successes", "dramatic_failure", "rolls")

    successes: int
    dramatic_failure: bool
    rolls: tuple[int, ...]  # every die result, re-rolls included, in order

    def __init__(
        self, successes: int, dramatic_failure: bool, rolls: tuple[int, ...]
    ) -> None:
        _set = object.__setattr__
        _set(self, "successes", successes)
        _set(self, "dramatic_failure", dramatic_failure)
        _set(self, "rolls", rolls)

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(successes={self.successes!r}, "
            f"dramatic_failure={self.dramatic_failure!r}, rolls={self.rolls!r})"
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PoolResult) and other.__class__ is self.__class__:
            return (self.successes, self.dramatic_failure, self.rolls) == (
                other.successes,
                other.dramatic_failure,
                other.rolls,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.successes, self.dramatic_failure, self.rolls))


class PoolDistribution(dict[int, Fraction]):
    """The exact chance of each success count from 0 up to a limit.

    ``tail`` is the chance of more successes than the counts listed (never
    dropped); ``dramatic_failure`` the chance of a dramatic failure.
    """

    tail: Fraction
    dramatic_failure: Fraction

    def to_dict(self) -> dict[str, JSON]:
        """The distribution as plain JSON-able data: each count (as a string) to its
        chance as an ``"n/d"`` string, then ``tail`` and ``dramatic_failure``."""
        data = to_data(self)
        assert isinstance(data, dict)
        return data

    def at_least(self, successes: int) -> Fraction:
        """The exact chance of ``successes`` or more."""
        if type(successes) is not int:
            raise RuleInputError(f"successes must be an int, not {shown(successes)}")
        below = sum((p for k, p in self.items() if k < successes), Fraction(0))
        return 1 - below


class SuccessPool(Record):
    """The figures of a success-counting dice pool (all from the rules data)."""

    __slots__ = (
        "again_at",
        "chance_dramatic_at",
        "chance_success_at",
        "listed_beyond",
        "max_dice",
        "sides",
        "success_at",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "sides",
        "success_at",
        "again_at",
        "chance_success_at",
        "chance_dramatic_at",
        "listed_beyond",
        "max_dice",
    )

    sides: int
    success_at: int
    again_at: int
    chance_success_at: int
    chance_dramatic_at: int
    listed_beyond: int  # distributions list counts up to dice + this
    max_dice: int  # the largest pool rolled or given a distribution

    def __init__(
        self,
        sides: int,
        success_at: int,
        again_at: int,
        chance_success_at: int,
        chance_dramatic_at: int,
        listed_beyond: int,
        max_dice: int,
    ) -> None:
        _set = object.__setattr__
        _set(self, "sides", sides)
        _set(self, "success_at", success_at)
        _set(self, "again_at", again_at)
        _set(self, "chance_success_at", chance_success_at)
        _set(self, "chance_dramatic_at", chance_dramatic_at)
        _set(self, "listed_beyond", listed_beyond)
        _set(self, "max_dice", max_dice)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(sides={self.sides!r}, success_at={self.success_at!r}, again_at={self.again_at!r}, chance_success_at={self.chance_success_at!r}, chance_dramatic_at={self.chance_dramatic_at!r}, listed_beyond={self.listed_beyond!r}, max_dice={self.max_dice!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SuccessPool) and other.__class__ is self.__class__:
            return (
                self.sides,
                self.success_at,
                self.again_at,
                self.chance_success_at,
                self.chance_dramatic_at,
                self.listed_beyond,
                self.max_dice,
            ) == (
                other.sides,
                other.success_at,
                other.again_at,
                other.chance_success_at,
                other.chance_dramatic_at,
                other.listed_beyond,
                other.max_dice,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash(
            (
                self.sides,
                self.success_at,
                self.again_at,
                self.chance_success_at,
                self.chance_dramatic_at,
                self.listed_beyond,
                self.max_dice,
            )
        )

    def roll(self, dice: int, rng: RNG) -> PoolResult:
        """Roll a pool of ``dice`` dice (a chance die for 0 or fewer).

        Raises ``RuleInputError`` for a bad ``rng`` (see :func:`~rulebook.dice.draw`)
        and when the re-rolls would pass ``MAX_ENTRIES`` rolls (a limit of the
        runtime: only an rng that keeps answering ``again_at`` or more gets there).
        """
        _check_dice(dice, self.max_dice)
        randint = randint_of(rng)
        rolls: list[int] = []
        if dice <= 0:
            first = draw(randint, 1, self.sides)
            rolls.append(first)
            if first == self.chance_dramatic_at:
                return PoolResult(0, True, tuple(rolls))
            if first < self.chance_success_at:
                return PoolResult(0, False, tuple(rolls))
            return PoolResult(1 + self._again(randint, rolls), False, tuple(rolls))
        successes = 0
        for _ in range(dice):
            face = draw(randint, 1, self.sides)
            rolls.append(face)
            if face >= self.success_at:
                successes += 1
            if face >= self.again_at:
                successes += self._again(randint, rolls)
        return PoolResult(successes, False, tuple(rolls))

    def _again(self, randint: Randint, rolls: list[int]) -> int:
        """Successes from re-rolling one die that showed ``again_at`` or more."""
        successes = 0
        while True:
            if len(rolls) >= MAX_ENTRIES:
                raise too_many(
                    f"die rolls (rng.randint(1, {self.sides}) kept answering "
                    f"{self.again_at} or more, and each is rolled again)"
                )
            face = draw(randint, 1, self.sides)
            rolls.append(face)
            if face >= self.success_at:
                successes += 1
            if face < self.again_at:
                return successes

    def distribution(self, dice: int) -> PoolDistribution:
        """The exact chance of each success count for a pool of ``dice``."""
        _check_dice(dice, self.max_dice)
        cached = _distribution(self, dice)
        fresh = PoolDistribution(cached)  # a copy: callers may change theirs
        fresh.tail = cached.tail
        fresh.dramatic_failure = cached.dramatic_failure
        return fresh

    def mean(self, dice: int) -> Fraction:
        """The exact expected number of successes."""
        _check_dice(dice, None)
        sides = Fraction(self.sides)
        succeed = (self.sides - self.success_at + 1) / sides
        again = (self.sides - self.again_at + 1) / sides
        per_die = succeed / (1 - again)
        if dice > 0:
            return dice * per_die
        chance = (self.sides - self.chance_success_at + 1) / sides
        return chance * (1 + per_die)


def _check_dice(dice: object, most: int | None) -> None:
    if type(dice) is not int:
        raise RuleInputError(f"dice must be an int, not {shown(dice)}")
    if most is not None and dice > most:
        raise RuleInputError(f"dice must be at most {most}, not {shown(dice)}")


def _one_die(pool: SuccessPool, limit: int) -> list[int]:
    """Chance of 0..limit successes from one die (with its re-rolls), each as a
    whole number of ``sides ** (limit + 1)`` parts."""
    sides = pool.sides
    fail = pool.success_at - 1
    stop = pool.again_at - pool.success_at
    again = pool.sides - pool.again_at + 1
    odds = [fail * sides**limit]
    for k in range(1, limit + 1):
        odds.append(
            (again**k * fail + again ** (k - 1) * stop * sides) * sides ** (limit - k)
        )
    return odds


def _convolve(a: list[int], b: list[int], limit: int) -> list[int]:
    out = [0] * (limit + 1)
    for i, p in enumerate(a):
        if p:
            for j, q in enumerate(b[: limit + 1 - i]):
                out[i + j] += p * q
    return out


@lru_cache(maxsize=64)
def _distribution(pool: SuccessPool, dice: int) -> PoolDistribution:
    # Whole numbers over one denominator, made Fractions at the end: the same
    # exact chances as Fraction arithmetic throughout, without a gcd per step.
    limit = max(dice, 1) + pool.listed_beyond
    die = _one_die(pool, limit)
    parts = pool.sides ** (limit + 1)  # the denominator of one die's chances
    dramatic = Fraction(0)
    if dice <= 0:
        chance = pool.sides - pool.chance_success_at + 1
        dramatic = Fraction(1, pool.sides)
        whole = [(pool.sides - chance) * parts] + [chance * p for p in die[:limit]]
        denominator = pool.sides * parts
    else:
        whole = [1] + [0] * limit
        for _ in range(dice):
            whole = _convolve(whole, die, limit)
        denominator = parts**dice
    odds = [Fraction(n, denominator) for n in whole]
    result = PoolDistribution(enumerate(odds))
    result.tail = Fraction(denominator - sum(whole), denominator)
    result.dramatic_failure = dramatic
    return result
