"""Dice: the value type of every dice expression, exact distributions, scripted rolls."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, ClassVar, Protocol

from . import _dice_spec as spec
from ._support import MAX_ENTRIES, Frozen, count_sums, shown, too_many
from .errors import RuleInputError

if TYPE_CHECKING:  # re is imported when first needed (to parse notation)
    import re

__all__ = [
    "RNG",
    "Dice",
    "DiceSyntaxError",
    "Scripted",
    "check_rng",
    "draw",
    "parse_dice",
    "randint_of",
]


_MAX_WORK = spec.DICE_WORK_PER_ENTRY * MAX_ENTRIES
"""The most dice x possible sums an exact distribution adds up (what rulesc
itself allows the rules: 100 dice and 10,000 sums)."""
_CACHED_SUMS = MAX_ENTRIES // 10  # larger distributions are not kept
_MAX_DIGITS = 15  # the most digits of a number in dice notation
_MOST_FIGURE = 10**_MAX_DIGITS - 1  # so the largest figure of a Dice


class RNG(Protocol):
    """Anything with ``randint(a, b)``; ``random.Random(seed)`` is one."""

    def randint(self, a: int, b: int, /) -> int:
        """A whole number from ``a`` to ``b``, both included."""
        ...


class Dice(Frozen):
    """A dice expression: (sum of ``count`` dice of ``sides``) x multiplier + modifier.

    A constant has ``count`` 0 (and ``sides`` 0). A record (see
    :class:`~rulebook._support.Frozen`): immutable, equal and hashed by its fields.
    """

    __slots__ = ("count", "modifier", "multiplier", "sides", "unit")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "count",
        "sides",
        "modifier",
        "multiplier",
        "unit",
    )

    count: int
    sides: int
    modifier: int
    multiplier: int
    unit: str | None

    def __init__(
        self,
        count: int,
        sides: int,
        modifier: int = 0,
        multiplier: int = 1,
        unit: str | None = None,
    ) -> None:
        _set = object.__setattr__
        figures = {
            "count": count,
            "sides": sides,
            "modifier": modifier,
            "multiplier": multiplier,
        }
        for field, value in figures.items():
            if type(value) is not int:
                raise RuleInputError(f"Dice {field} must be an int, not {shown(value)}")
            if not -_MOST_FIGURE <= value <= _MOST_FIGURE:
                raise RuleInputError(
                    f"Dice {field} must be in {-_MOST_FIGURE}..{_MOST_FIGURE}, not "
                    f"{shown(value)}: dice notation's numbers have at most "
                    f"{_MAX_DIGITS} digits"
                )
            _set(self, field, value)
        if unit is not None and not isinstance(unit, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise RuleInputError(f"Dice unit must be a str or None, not {shown(unit)}")
        _set(self, "unit", None if unit is None else str.__str__(unit))
        if self.count < 0:
            raise RuleInputError(f"Dice count must be 0 or more, not {self.count}")
        if self.count and self.sides < 1:
            raise RuleInputError(f"Dice sides must be 1 or more, not {self.sides}")
        if not self.count and (self.sides or self.multiplier != 1):
            raise RuleInputError("a constant (count 0) has sides 0 and multiplier 1")
        if self.multiplier < 1:
            raise RuleInputError(
                f"Dice multiplier must be 1 or more, not {self.multiplier}"
            )

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(count={self.count!r}, sides={self.sides!r}, "
            f"modifier={self.modifier!r}, multiplier={self.multiplier!r}, "
            f"unit={self.unit!r})"
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dice) and other.__class__ is self.__class__:
            return (
                self.count,
                self.sides,
                self.modifier,
                self.multiplier,
                self.unit,
            ) == (
                other.count,
                other.sides,
                other.modifier,
                other.multiplier,
                other.unit,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.count, self.sides, self.modifier, self.multiplier, self.unit))

    @property
    def min(self) -> int:
        """The smallest value the expression can give."""
        return self.count * self.multiplier + self.modifier

    @property
    def max(self) -> int:
        """The largest value the expression can give."""
        return self.count * self.sides * self.multiplier + self.modifier

    @property
    def mean(self) -> Fraction:
        """The exact expected value."""
        return (
            Fraction(self.count * (self.sides + 1) * self.multiplier, 2) + self.modifier
        )

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of every value, in ascending order of value.

        Raises ``RuleInputError`` for more than ``MAX_ENTRIES`` possible sums, or
        when ``count`` x the possible sums passes ``_MAX_WORK`` (each die adds to
        every sum): limits of the runtime.
        """
        sums = self.count * (self.sides - 1) + 1
        if sums > MAX_ENTRIES or self.count * sums > _MAX_WORK:
            raise RuleInputError(
                f"{self} has {sums:,} possible sums from {self.count:,} dice: an exact "
                f"distribution is worked out for at most {MAX_ENTRIES:,} sums and "
                f"{_MAX_WORK:,} dice x sums (a limit of the runtime, not of the rules)"
            )
        if sums <= _CACHED_SUMS:
            counts = _sum_counts(self.count, self.sides)
        else:
            counts = _count_sums(self.count, self.sides)
        total = self.sides**self.count
        return {
            s * self.multiplier + self.modifier: Fraction(n, total)
            for s, n in counts.items()
        }

    def roll(self, rng: RNG) -> int:
        """Roll the dice: one ``rng.randint(1, sides)`` call per die, in order.

        Raises ``RuleInputError`` for an ``rng`` whose ``randint`` raises or answers
        anything but an int in ``1..sides`` (see :func:`draw`), and for more than
        ``MAX_ENTRIES`` dice (a limit of the runtime).
        """
        randint = randint_of(rng)
        sides, count = self.sides, self.count
        if count == 1:  # the common case, kept cheap for simulations
            return draw(randint, 1, sides) * self.multiplier + self.modifier
        if count > MAX_ENTRIES:
            raise too_many(f"die rolls ({self} rolls {count})")
        total = 0
        for _ in range(count):
            total += draw(randint, 1, sides)
        return total * self.multiplier + self.modifier

    def to_dict(self) -> dict[str, str | int | None]:
        """The dice as plain JSON-able data: their notation and every figure."""
        return {
            "notation": str(self),
            "count": self.count,
            "sides": self.sides,
            "modifier": self.modifier,
            "multiplier": self.multiplier,
            "unit": self.unit,
        }

    def __str__(self) -> str:
        if not self.count:
            return str(self.modifier)
        text = f"{self.count}d{self.sides}"
        if self.multiplier != 1:
            text += f"x{self.multiplier}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text


def check_rng(rng: object) -> None:
    """Refuse, with ``RuleInputError``, anything that cannot roll dice."""
    randint_of(rng)


Randint = Callable[[int, int], object]


def randint_of(rng: object) -> Randint:
    """``rng``'s ``randint`` method; ``RuleInputError`` if it has none."""
    try:
        randint = getattr(rng, "randint", None)
    except Exception:  # a hostile __getattr__: still not an rng
        randint = None
    if not callable(randint):
        raise RuleInputError(
            "rng must have a randint(a, b) method, such as random.Random(), "
            f"not {shown(rng)}"
        )
    return randint  # type: ignore[no-any-return]


def draw(randint: Randint, a: int, b: int) -> int:
    """``randint(a, b)``, checked: every die the runtime rolls is rolled here.

    Raises ``RuleInputError`` naming the rng when it raises (other than with a
    ``RuleInputError`` of its own, such as a :class:`Scripted` script running out)
    or answers anything but an ``int`` (not a bool, not a subclass) in ``a..b``.
    """
    if type(a) is not int or type(b) is not int:
        raise RuleInputError(
            f"a die's range must be two ints, not {shown(a)} and {shown(b)}"
        )
    if not callable(randint):
        raise RuleInputError(f"randint must be callable, not {shown(randint)}")
    try:
        value = randint(a, b)
    except RuleInputError:
        raise
    except Exception as error:
        raise RuleInputError(
            f"rng.randint({shown(a)}, {shown(b)}) raised {type(error).__name__}: "
            f"it must return an int in {shown(a)}..{shown(b)}"
        ) from error
    if type(value) is int and a <= value <= b:
        return value
    raise RuleInputError(
        f"rng.randint({shown(a)}, {shown(b)}) returned {shown(value)}: "
        f"it must return an int in {shown(a)}..{shown(b)}"
    )


def _count_sums(count: int, sides: int) -> dict[int, int]:
    """How many ways each sum of ``count`` dice of ``sides`` can come up."""
    return {count + i: n for i, n in enumerate(count_sums(count, sides))}


_sum_counts = lru_cache(maxsize=256)(_count_sums)  # the small ones, kept


class Scripted:
    """An RNG that returns scripted die results in order (how worked examples fix dice).

    Raises ``RuleInputError`` when a result is outside the die's range or the
    script runs out.
    """

    __slots__ = ("_results", "_used")

    def __init__(self, results: Iterable[int]) -> None:
        try:
            given = tuple(islice(results, MAX_ENTRIES + 1))
        except RuleInputError:
            raise
        except Exception as error:
            raise RuleInputError(
                f"scripted results must be an iterable of ints, not {shown(results)}"
            ) from error
        if len(given) > MAX_ENTRIES:
            raise too_many("scripted results")
        for value in given:
            if type(value) is not int:
                raise RuleInputError(
                    f"scripted results must be ints, not {shown(value)}"
                )
        self._results: tuple[int, ...] = given
        self._used = 0

    @property
    def remaining(self) -> int:
        """How many scripted results are still unused."""
        return len(self._results) - self._used

    def randint(self, a: int, b: int, /) -> int:
        """The next scripted result; ``RuleInputError`` if none is left or it is
        outside ``a..b``."""
        if type(a) is not int or type(b) is not int:
            raise RuleInputError(
                f"a die's range must be two ints, not {shown(a)} and {shown(b)}"
            )
        if self._used >= len(self._results):
            raise RuleInputError(
                f"the dice script ran out: all {len(self._results)} results were used"
            )
        value = self._results[self._used]
        if not a <= value <= b:
            raise RuleInputError(
                f"scripted result #{self._used + 1} is {shown(value)}, "
                f"outside the die's range {a}..{b}"
            )
        self._used += 1
        return value

    def __repr__(self) -> str:
        return f"Scripted({shown(list(self._results))}, used={self._used})"


class DiceSyntaxError(RuleInputError):
    """A dice expression that does not parse; ``offset`` is where it went wrong."""

    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


_NUMBER = r"(?:0|[1-9][0-9]*)"


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The notation's patterns (dice, constant, overlong number), compiled on first use."""
    import re

    return (
        re.compile(
            rf"(?P<count>{_NUMBER})d(?P<sides>{_NUMBER})?"
            rf"(?:x(?P<mult>{_NUMBER}))?(?:(?P<sign>[+-])(?P<mod>{_NUMBER}))?"
        ),
        re.compile(rf"-?{_NUMBER}"),
        re.compile(rf"[0-9]{{{_MAX_DIGITS + 1},}}"),
    )


_HINT = "write NdS with optional xM and +K or -K (e.g. 2d10+10, 2d6x10), Nd for d6s, or a whole number"


def parse_dice(text: str, unit: str | None = None, *, bare_d6: bool = False) -> Dice:
    """Parse the rules' dice notation: ``NdS``, ``+k``/``-k``, ``xk``, constants.

    With ``bare_d6`` (GURPS notation) ``Nd`` means N six-sided dice.
    """
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"text must be a str, not {shown(text)}")
    text = str.__str__(text)  # the plain value, whatever a subclass says
    if unit is not None and not isinstance(unit, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"unit must be a str or None, not {shown(unit)}")
    if type(bare_d6) is not bool:
        raise RuleInputError(f"bare_d6 must be True or False, not {shown(bare_d6)}")
    dice_re, const_re, long_number = _patterns()
    for offset, ch in enumerate(text):
        if not ch.isascii() and ch.isnumeric():
            import unicodedata

            name = unicodedata.name(ch, "")
            raise DiceSyntaxError(
                f"bad dice expression {shown(text)}: {ch!r} is not an ASCII digit "
                f"(U+{ord(ch):04X}{' ' + name if name else ''})",
                offset,
                "write the number with the digits 0 to 9",
            )
    if long := long_number.search(text):
        raise DiceSyntaxError(
            f"bad dice expression: a number has more than {_MAX_DIGITS} digits",
            long.start(),
            _HINT,
        )
    if const_re.fullmatch(text):
        return Dice(0, 0, int(text), 1, unit)
    match = dice_re.match(text)
    if match is None:
        raise _syntax_error(text, _digits(text, 0))
    if match.end() != len(text):
        raise _syntax_error(text, match.end())
    count = int(match["count"])
    if match["sides"] is None and not bare_d6:
        raise DiceSyntaxError(
            f"bad dice expression {shown(text)}: the die's sides are missing",
            match.end("count") + 1,
            "write the sides after the d, e.g. 3d6 (only GURPS notation allows a bare Nd)",
        )
    sides = int(match["sides"]) if match["sides"] is not None else 6
    if count < 1:
        raise DiceSyntaxError("a dice expression needs at least one die", 0, _HINT)
    if sides < 1:
        raise DiceSyntaxError(
            "a die needs at least one side", match.start("sides"), _HINT
        )
    mult = int(match["mult"]) if match["mult"] is not None else 1
    if mult < 1:
        raise DiceSyntaxError(
            "the multiplier must be 1 or more", match.start("mult"), _HINT
        )
    mod = int(match["mod"] or 0) * (-1 if match["sign"] == "-" else 1)
    return Dice(count, sides, mod, mult, unit)


def _digits(text: str, start: int) -> int:
    end = start
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return end


def _syntax_error(text: str, offset: int) -> DiceSyntaxError:
    found = repr(text[offset]) if offset < len(text) else "the end"
    return DiceSyntaxError(
        f"bad dice expression {shown(text)}: unexpected {found}", offset, _HINT
    )
