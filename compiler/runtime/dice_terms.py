"""Dice terms: pools that reroll, explode, keep and count, and sums of them.

The values the dice notation (``rulebook.dice_notation``) reads: a
:class:`Pool` of ``count`` dice of ``sides`` (or Fudge dice, -1/0/+1), each die
rerolled (``r``, ``ro``) and exploded (``!``, ``!!``, ``!o``) as it is rolled;
then the pool keeps or drops its highest or lowest dice (``kh``, ``kl``, ``dh``,
``dl``) and either sums the dice it keeps or counts those that meet a target
(``>=5``); the pool's value is multiplied by ``multiplier``. A :class:`DiceSum`
adds and subtracts pools and whole numbers. ``rulebook.dice_rolls`` rolls them,
``rulebook.dice_odds`` works out their exact odds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal, TypeAlias, cast

from . import _dice_spec as spec
from .errors import RuleInputError
from .json import Record

__all__ = [
    "COMPARISONS",
    "EXPLODES",
    "KEEPS",
    "Compare",
    "DiceSum",
    "Explode",
    "Face",
    "Keep",
    "Op",
    "Pool",
    "Term",
    "Value",
]

Op: TypeAlias = Literal[">=", "<=", ">", "<", "="]
COMPARISONS: tuple[Op, ...] = spec.COMPARISONS  # the dice spec's, in the order read
Explode: TypeAlias = Literal["!", "!!", "!o"]
EXPLODES: tuple[Explode, ...] = ("!!", "!o", "!")
"""``!``: a die at its highest face (or one meeting the pool's ``explode_at``)
rolls one more die, again while the new one does (each new die a die of the
pool); ``!!`` the same, the new dice added into the one die (compounding);
``!o``: one more die at most."""
Keep: TypeAlias = Literal["kh", "kl", "dh", "dl"]
KEEPS: tuple[Keep, ...] = ("kh", "kl", "dh", "dl")
Face: TypeAlias = int | tuple[str, ...]
"""A face of a die: a number, or the symbols it shows (a die of the rules' own)."""


class Value(Record):
    """A record compared, hashed and shown by its ``FIELDS``."""

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Value) and other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"{type(self).__qualname__}({shown})"


def _int(name: str, value: object, low: int | None = None) -> int:
    if type(value) is not int:
        raise RuleInputError(f"{name} must be an int, not {value!r}")
    if low is not None and value < low:
        raise RuleInputError(f"{name} must be {low} or more, not {value}")
    return value


class Compare(Value):
    """A comparison of a die's face (or result) with ``value``: ``>=5``."""

    __slots__ = ("op", "value")
    FIELDS: ClassVar[tuple[str, ...]] = ("op", "value")

    op: Op
    value: int

    def __init__(self, op: Op, value: int) -> None:
        if op not in COMPARISONS:
            raise RuleInputError(f"a comparison is one of {COMPARISONS}, not {op!r}")
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "value", _int("a comparison's value", value))

    def meets(self, face: int) -> bool:
        """Whether ``face`` meets the comparison."""
        op, value = self.op, self.value
        if op == ">=":
            return face >= value
        if op == "<=":
            return face <= value
        if op == ">":
            return face > value
        if op == "<":
            return face < value
        return face == value

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


# A plain pool's options: none (``Pool.__init__`` sets them so, unchecked).
_PLAIN = (
    ("fudge", False),
    ("reroll", None),
    ("reroll_once", False),
    ("explode", None),
    ("explode_at", None),
    ("keep", None),
    ("keep_count", 0),
    ("target", None),
    ("multiplier", 1),
    ("listed", None),
)


def _listed(faces: object, sides: int) -> tuple[Face, ...]:
    """A die's own faces, checked: ``sides`` of them, all numbers or all
    tuples of symbols (texts)."""
    if not isinstance(faces, tuple | list):
        raise RuleInputError(f"a pool's listed faces must be a tuple, not {faces!r}")
    listed = cast("Sequence[object]", faces)
    found: tuple[object, ...] = tuple(
        tuple(cast("Sequence[object]", face))
        if isinstance(face, tuple | list)
        else face
        for face in listed
    )
    if len(found) != sides:
        raise RuleInputError(f"a pool of {sides} sides lists {len(found)} faces")
    numbers = all(type(face) is int for face in found)
    symbols = all(
        isinstance(face, tuple)
        and all(type(x) is str for x in cast("tuple[object, ...]", face))
        for face in found
    )
    if not (numbers or symbols):
        raise RuleInputError(
            "a pool's listed faces are all ints, or all tuples of symbols (str)"
        )
    return cast("tuple[Face, ...]", found)


class Pool(Value):
    """``count`` dice of ``sides`` (Fudge dice when ``fudge``), rolled, kept, summed or counted.

    ``reroll``: a die whose face meets it is rolled again (the new face stands
    when ``reroll_once``, else again while it meets it). ``explode``: see
    ``EXPLODES``; ``explode_at``: the faces that explode (None: the highest). ``keep``, ``keep_count``: the dice the pool keeps
    (``kh3``: the 3 highest; ``dl1``: all but the lowest; a count above the
    dice keeps, or drops, them all). ``target``: the pool
    counts the kept dice that meet it instead of summing them. ``listed``:
    the faces of a die of the rules' own (its k-th face is what
    ``randint(1, sides)`` rolling k shows): numbers, which the options read as
    any die's; or tuples of symbols, which take no option and have no total
    (their pool is read by its faces).
    """

    __slots__ = (
        "count",
        "explode",
        "explode_at",
        "fudge",
        "keep",
        "keep_count",
        "listed",
        "multiplier",
        "reroll",
        "reroll_once",
        "sides",
        "target",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "count",
        "sides",
        "fudge",
        "reroll",
        "reroll_once",
        "explode",
        "explode_at",
        "keep",
        "keep_count",
        "target",
        "multiplier",
        "listed",
    )

    count: int
    sides: int
    fudge: bool
    reroll: Compare | None
    reroll_once: bool
    explode: Explode | None
    explode_at: Compare | None
    keep: Keep | None
    keep_count: int
    target: Compare | None
    multiplier: int
    listed: tuple[Face, ...] | None

    def __init__(
        self,
        count: int,
        sides: int,
        *,
        fudge: bool = False,
        reroll: Compare | None = None,
        reroll_once: bool = False,
        explode: Explode | None = None,
        explode_at: Compare | None = None,
        keep: Keep | None = None,
        keep_count: int = 0,
        target: Compare | None = None,
        multiplier: int = 1,
        listed: tuple[Face, ...] | None = None,
    ) -> None:
        _set = object.__setattr__
        if (  # a plain pool (the most made, one per roll of NdX): nothing to check
            type(count) is int
            and type(sides) is int
            and count >= 1
            and sides >= 1
            and fudge is False
            and reroll is None
            and reroll_once is False
            and explode is None
            and explode_at is None
            and keep is None
            and keep_count == 0
            and target is None
            and multiplier == 1
            and listed is None
        ):
            for name, value in _PLAIN:
                _set(self, name, value)
            _set(self, "count", count)
            _set(self, "sides", sides)
            return
        _set(self, "count", _int("a pool's count", count, 1))
        _set(self, "sides", _int("a pool's sides", sides, 1))
        _set(self, "fudge", fudge is True)
        _set(self, "listed", None if listed is None else _listed(listed, self.sides))
        _set(self, "reroll", reroll)
        _set(self, "reroll_once", reroll_once is True)
        _set(self, "explode", explode)
        if self.numeric and explode_at == Compare("=", self.top):
            explode_at = None  # the highest face: the same as none
        _set(self, "explode_at", explode_at)
        _set(self, "keep", keep)
        _set(self, "keep_count", _int("a pool's keep_count", keep_count, 0))
        _set(self, "target", target)
        _set(self, "multiplier", _int("a pool's multiplier", multiplier, 1))
        problem = self.problem()
        if problem is not None:
            raise RuleInputError(f"{self}: {problem}")

    def problem(self) -> str | None:
        """Why the pool cannot be rolled, or None (the parser's checks, again)."""
        if self.fudge and self.sides != 3:
            return "Fudge dice have 3 sides"
        if self.fudge and self.listed is not None:
            return "Fudge dice list no faces of their own"
        if not self.numeric and (
            self.reroll is not None
            or self.explode is not None
            or self.keep is not None
            or self.target is not None
            or self.multiplier != 1
        ):
            return "a die of symbols takes no option: its faces are read, not added"
        if self.reroll is not None and not isinstance(self.reroll, Compare):  # pyright: ignore[reportUnnecessaryIsInstance]
            return "reroll must be a Compare"
        if self.target is not None and not isinstance(self.target, Compare):  # pyright: ignore[reportUnnecessaryIsInstance]
            return "target must be a Compare"
        if self.explode is not None and self.explode not in EXPLODES:
            return f"explode is one of {EXPLODES}"
        if self.explode_at is not None and not isinstance(self.explode_at, Compare):  # pyright: ignore[reportUnnecessaryIsInstance]
            return "explode_at must be a Compare"
        if self.explode_at is not None and self.explode is None:
            return "explode_at without explode"
        if self.keep is not None and self.keep not in KEEPS:
            return f"keep is one of {KEEPS}"
        if not self.final_faces():
            return spec.CHECKS["never_stops"]
        if self.explode in ("!", "!!") and all(
            self.explodes(f) for f in self.final_faces()
        ):
            return spec.CHECKS["explodes_forever"]
        if self.keep is None:
            return None if self.keep_count == 0 else "keep_count without keep"
        if self.explode in ("!", "!o"):
            return spec.CHECKS["keep_adds_dice"]
        if self.keep_count < 1:
            return (
                spec.CHECKS["keep_none"]
                .replace("{keep}", self.keep)
                .replace("{count}", str(self.keep_count))
            )
        return None

    @property
    def numeric(self) -> bool:
        """Whether its faces are numbers (not a die of symbols)."""
        return self.listed is None or all(type(f) is int for f in self.listed)

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces of one die, in order of ``randint(1, sides)``'s answers
        (a die of symbols: its tuples of symbols)."""
        if self.listed is not None:
            return self.listed  # type: ignore[return-value]
        return (-1, 0, 1) if self.fudge else tuple(range(1, self.sides + 1))

    def face(self, rolled: int) -> int:
        """The face of a die whose ``randint(1, sides)`` gave ``rolled``."""
        if self.listed is not None:
            return self.listed[rolled - 1]  # type: ignore[return-value]
        return rolled - 2 if self.fudge else rolled

    @property
    def top(self) -> int:
        """The highest face (the one that explodes, without ``explode_at``)."""
        if self.listed is not None:
            return max(self.faces)
        return 1 if self.fudge else self.sides

    def explodes(self, face: int) -> bool:
        """Whether a die showing ``face`` explodes (with ``explode``)."""
        if self.explode_at is None:
            return face == self.top
        return self.explode_at.meets(face)

    def final_faces(self) -> tuple[int, ...]:
        """The faces a die can show once rerolled."""
        if self.reroll is None or self.reroll_once:
            return self.faces
        reroll = self.reroll
        return tuple(f for f in self.faces if not reroll.meets(f))

    @property
    def kept(self) -> int:
        """How many dice the pool keeps (all, without ``keep``; not counting
        dice that ``!`` adds): keeping more dice than are rolled keeps them
        all, and dropping more drops them all (as Roll20 reads ``1d6kh3``)."""
        if self.keep in ("kh", "kl"):
            return min(self.keep_count, self.count)
        return max(self.count - self.keep_count, 0)

    def __str__(self) -> str:
        text = f"{self.count}d{'F' if self.fudge else self.sides}"
        if self.listed is not None:  # its faces, in order
            text = f"{self.count}d[{','.join(map(_shown_face, self.listed))}]"
        if self.reroll is not None:
            op = "" if self.reroll.op == "=" else self.reroll.op
            text += f"{'r' if self.reroll_once else 'rr'}{op}{self.reroll.value}"
        if self.explode is not None:
            text += self.explode
        if self.explode_at is not None:
            text += str(self.explode_at)
        elif self.explode is not None and self.keep is None and self.target is not None:
            text += f"={self.top}"  # (a target right after it would read as explode_at)
        if self.keep is not None:
            text += f"{self.keep}{self.keep_count}"
        if self.target is not None:
            text += str(self.target)
        if self.multiplier != 1:
            text += f"x{self.multiplier}"
        return text


def _shown_face(face: Face) -> str:
    """A listed face as a pool's text shows it: a number, or its symbols
    joined by + (nothing for a blank face)."""
    return str(face) if isinstance(face, int) else "+".join(face)


class Term(Value):
    """One term of a sum: a pool or a whole number; ``sign`` is 1 to add it, -1 to subtract it."""

    __slots__ = ("sign", "value")
    FIELDS: ClassVar[tuple[str, ...]] = ("sign", "value")

    sign: int
    value: Pool | int

    def __init__(self, sign: int, value: Pool | int) -> None:
        if sign not in (1, -1) or type(sign) is not int:
            raise RuleInputError(f"a term's sign is 1 or -1, not {sign!r}")
        if not isinstance(value, Pool):
            _int("a term's value", value)
        object.__setattr__(self, "sign", sign)
        object.__setattr__(self, "value", value)


class DiceSum(Value):
    """Pools and whole numbers added and subtracted, in the order written."""

    __slots__ = ("terms",)
    FIELDS: ClassVar[tuple[str, ...]] = ("terms",)

    terms: tuple[Term, ...]

    def __init__(self, terms: tuple[Term, ...]) -> None:
        terms = tuple(terms)
        if not terms or not all(isinstance(t, Term) for t in terms):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise RuleInputError("a dice sum has one term or more, each a Term")
        object.__setattr__(self, "terms", terms)

    @property
    def pools(self) -> tuple[Pool, ...]:
        """The sum's pools, in order."""
        return tuple(t.value for t in self.terms if isinstance(t.value, Pool))

    def __str__(self) -> str:
        text = ""
        for i, term in enumerate(self.terms):
            shown = str(term.value)
            if term.sign < 0 or shown.startswith("-"):
                shown = shown.removeprefix("-")
                negative = (term.sign < 0) != str(term.value).startswith("-")
                text += ("-" if negative else "+") if i or negative else ""
            elif i:
                text += "+"
            text += shown
        return text
