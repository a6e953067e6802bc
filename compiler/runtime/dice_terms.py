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

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import ClassVar, Literal, TypeAlias, cast

from . import _dice_spec as spec
from .errors import RuleInputError
from .json import Record

__all__ = [
    "COMPARISONS",
    "EXPLODES",
    "KEEPS",
    "SORTS",
    "AnyNode",
    "AnyOf",
    "Branch",
    "Compare",
    "Condition",
    "DiceSum",
    "Explode",
    "Face",
    "Keep",
    "Number",
    "Op",
    "Pool",
    "Sort",
    "Term",
    "Value",
]

Op: TypeAlias = Literal[">=", "<=", ">", "<", "="]
COMPARISONS: tuple[Op, ...] = spec.COMPARISONS  # the dice spec's, in the order read
Explode: TypeAlias = Literal["!", "!!", "!p", "!o"]
EXPLODES: tuple[Explode, ...] = ("!!", "!p", "!o", "!")
"""``!``: a die at its highest face (or one meeting the pool's ``explode_at``)
rolls one more die, again while the new one does (each new die a die of the
pool); ``!!`` the same, the new dice added into the one die (compounding);
``!p`` (penetrating) as ``!``, each die an explosion adds counting its face
less 1 (the explode test reads the face before the 1 is taken); ``!o``: one
more die at most."""
Sort: TypeAlias = Literal["a", "d"]
SORTS: tuple[Sort, ...] = ("a", "d")
Number: TypeAlias = int | Fraction
"""A dice expression's value: a whole number, or an exact fraction when not whole."""


def number(value: int | Fraction) -> Number:
    """``value`` as a ``Number``: a ``Fraction`` that is whole becomes an int."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


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

    PRECEDENCE: ClassVar[int] = -1
    """How tightly a node of a dice expression binds when written (-1: no node)."""

    def children(self) -> tuple[object, ...]:
        """The nodes of a dice expression right under this one, in the order written."""
        return ()


def _int(name: str, value: object, low: int | None = None) -> int:
    if type(value) is not int:
        raise RuleInputError(f"{name} must be an int, not {value!r}")
    if low is not None and value < low:
        raise RuleInputError(f"{name} must be {low} or more, not {value}")
    return value


def holds(op: Op, left: Number, right: Number) -> bool:
    """Whether ``left op right`` holds."""
    if op == ">=":
        return left >= right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    if op == "<":
        return left < right
    return left == right


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

    def meets(self, face: Number) -> bool:
        """Whether ``face`` (or a total) meets the comparison."""
        return holds(self.op, face, self.value)

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


class AnyOf(Value):
    """Two or more comparisons, met when any of them is: ``r1r3`` rerolls a 1 or a 3."""

    __slots__ = ("conditions",)
    FIELDS: ClassVar[tuple[str, ...]] = ("conditions",)

    conditions: tuple[Compare, ...]

    def __init__(self, conditions: tuple[Compare, ...]) -> None:
        found = tuple(conditions)
        if len(found) < 2 or not all(isinstance(c, Compare) for c in found):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise RuleInputError("AnyOf takes two Compare conditions or more")
        object.__setattr__(self, "conditions", found)

    def meets(self, face: Number) -> bool:
        """Whether ``face`` (or a total) meets any of the conditions."""
        return any(c.meets(face) for c in self.conditions)

    def __str__(self) -> str:
        return "".join(map(str, self.conditions))


Condition: TypeAlias = Compare | AnyOf
"""What a die's face is tested against: one comparison, or any of several."""


def _conditions(condition: Condition) -> tuple[Compare, ...]:
    return condition.conditions if isinstance(condition, AnyOf) else (condition,)


# A plain pool's options: none (``Pool.__init__`` sets them so, unchecked).
_PLAIN = (
    ("fudge", False),
    ("minimum", None),
    ("maximum", None),
    ("reroll", None),
    ("reroll_once", False),
    ("explode", None),
    ("explode_at", None),
    ("unique", False),
    ("keep", None),
    ("keep_count", 0),
    ("target", None),
    ("failure", None),
    ("sort", None),
    ("multiplier", 1),
    ("listed", None),
)
FUDGE_1: tuple[int, ...] = (-1, 0, 0, 0, 0, 1)
"""The faces of ``dF.1``: one -1, four blanks, one +1."""


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

    Each face as rolled is raised to ``minimum`` and lowered to ``maximum``
    (when set), before any test. ``reroll``: a die whose face meets it is
    rolled again (the new face stands when ``reroll_once``, else again while
    it meets it). ``explode``: see ``EXPLODES``; ``explode_at``: the faces
    that explode (None: the highest). ``unique``: a die showing a face an
    earlier die of the pool shows is rolled again until it does not.
    ``keep``, ``keep_count``: the dice the pool keeps, among all its dice
    (those explosions add too): ``kh3`` the 3 highest, ``dl1`` all but the
    lowest; a count above the dice keeps, or drops, them all. ``target``: the
    pool counts the kept dice that meet it instead of summing them, less
    those that meet ``failure``. ``sort``: the roll shows its dice sorted
    (display only). ``listed``: the faces of a die of the rules' own (its
    k-th face is what ``randint(1, sides)`` rolling k shows): numbers, which
    the options read as any die's; or tuples of symbols, which take no option
    and have no total (their pool is read by its faces).
    """

    __slots__ = (
        "count",
        "explode",
        "explode_at",
        "failure",
        "fudge",
        "keep",
        "keep_count",
        "listed",
        "maximum",
        "minimum",
        "multiplier",
        "reroll",
        "reroll_once",
        "sides",
        "sort",
        "target",
        "unique",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "count",
        "sides",
        "fudge",
        "minimum",
        "maximum",
        "reroll",
        "reroll_once",
        "explode",
        "explode_at",
        "unique",
        "keep",
        "keep_count",
        "target",
        "failure",
        "sort",
        "multiplier",
        "listed",
    )
    PRECEDENCE: ClassVar[int] = 3

    count: int
    sides: int
    fudge: bool
    minimum: int | None
    maximum: int | None
    reroll: Condition | None
    reroll_once: bool
    explode: Explode | None
    explode_at: Condition | None
    unique: bool
    keep: Keep | None
    keep_count: int
    target: Condition | None
    failure: Condition | None
    sort: Sort | None
    multiplier: int
    listed: tuple[Face, ...] | None

    def __init__(
        self,
        count: int,
        sides: int,
        *,
        fudge: bool = False,
        minimum: int | None = None,
        maximum: int | None = None,
        reroll: Condition | None = None,
        reroll_once: bool = False,
        explode: Explode | None = None,
        explode_at: Condition | None = None,
        unique: bool = False,
        keep: Keep | None = None,
        keep_count: int = 0,
        target: Condition | None = None,
        failure: Condition | None = None,
        sort: Sort | None = None,
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
            and minimum is None
            and maximum is None
            and reroll is None
            and reroll_once is False
            and explode is None
            and explode_at is None
            and unique is False
            and keep is None
            and keep_count == 0
            and target is None
            and failure is None
            and sort is None
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
        _set(self, "minimum", None if minimum is None else _int("minimum", minimum))
        _set(self, "maximum", None if maximum is None else _int("maximum", maximum))
        _set(self, "reroll", reroll)
        _set(self, "reroll_once", reroll_once is True)
        _set(self, "explode", explode)
        _set(self, "unique", unique is True)
        _set(self, "keep", keep)
        _set(self, "keep_count", _int("a pool's keep_count", keep_count, 0))
        _set(self, "target", target)
        _set(self, "failure", failure)
        _set(self, "sort", sort)
        _set(self, "multiplier", _int("a pool's multiplier", multiplier, 1))
        _set(self, "explode_at", explode_at)
        problem = self.problem()
        if problem is None and self.numeric and explode_at == Compare("=", self.top):
            _set(self, "explode_at", None)  # the highest face: the same as none
        if problem is not None:
            raise RuleInputError(f"{self}: {problem}")

    def problem(self) -> str | None:
        """Why the pool cannot be rolled, or None (the parser's checks, again)."""
        return _kind_problem(self) or _option_problem(self) or _count_problem(self)

    @property
    def numeric(self) -> bool:
        """Whether its faces are numbers (not a die of symbols)."""
        return self.listed is None or all(type(f) is int for f in self.listed)

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces of one die, in order of ``randint(1, sides)``'s answers
        (a die of symbols: its tuples of symbols), before ``minimum`` and ``maximum``."""
        if self.listed is not None:
            return self.listed  # type: ignore[return-value]
        return (-1, 0, 1) if self.fudge else tuple(range(1, self.sides + 1))

    def face(self, rolled: int) -> int:
        """The face of a die whose ``randint(1, sides)`` gave ``rolled``
        (``minimum`` and ``maximum`` applied)."""
        if self.listed is not None:
            return self.bounded(self.listed[rolled - 1])  # type: ignore[arg-type]
        return self.bounded(rolled - 2 if self.fudge else rolled)

    def bounded(self, face: int) -> int:
        """``face`` raised to ``minimum`` and lowered to ``maximum``."""
        if self.minimum is not None and face < self.minimum:
            face = self.minimum
        if self.maximum is not None and face > self.maximum:
            face = self.maximum
        return face

    @property
    def shown_faces(self) -> tuple[int, ...]:
        """The faces a die can show as rolled, ``minimum`` and ``maximum`` applied."""
        if self.minimum is None and self.maximum is None:
            return self.faces
        return tuple(self.bounded(f) for f in self.faces)

    @property
    def top(self) -> int:
        """The highest face (the one that explodes, without ``explode_at``)."""
        if self.listed is not None:
            return max(self.shown_faces)
        return self.bounded(1 if self.fudge else self.sides)

    def explodes(self, face: int) -> bool:
        """Whether a die showing ``face`` explodes (with ``explode``)."""
        if self.explode_at is None:
            return face == self.top
        return self.explode_at.meets(face)

    def final_faces(self) -> tuple[int, ...]:
        """The faces a die can show once rerolled."""
        if self.reroll is None or self.reroll_once:
            return self.shown_faces
        reroll = self.reroll
        return tuple(f for f in self.shown_faces if not reroll.meets(f))

    @property
    def kept(self) -> int:
        """How many dice the pool keeps (all, without ``keep``; not counting
        dice that ``!`` adds): keeping more dice than are rolled keeps them
        all, and dropping more drops them all (as Roll20 reads ``1d6kh3``)."""
        if self.keep in ("kh", "kl"):
            return min(self.keep_count, self.count)
        return max(self.count - self.keep_count, 0)

    def __str__(self) -> str:
        text = f"{self.count}d{_sides_text(self)}"
        if self.minimum is not None:
            text += f"min{self.minimum}"
        if self.maximum is not None:
            text += f"max{self.maximum}"
        if self.reroll is not None:
            token = "ro" if self.reroll_once else "rr"
            text += "".join(token + _written(c, "") for c in _conditions(self.reroll))
        if self.explode is not None:
            text += self.explode + _explode_at_text(self)
        if self.unique:
            text += "u"
        text += counting_text(self.keep, self.keep_count, self.target, self.failure)
        if self.sort is not None:
            text += f"s{self.sort}"
        if self.multiplier != 1:
            text += f"x{self.multiplier}"
        return text


def _kind_problem(pool: Pool) -> str | None:
    """What is wrong with the pool's kind of die or the types of its options."""
    if pool.fudge and pool.listed not in (None, FUDGE_1):
        return "Fudge dice list no faces of their own"
    if pool.fudge and pool.sides != (3 if pool.listed is None else len(FUDGE_1)):
        return "Fudge dice have 3 sides"
    if not pool.numeric and any(
        getattr(pool, name) != plain
        for name, plain in _PLAIN
        if name not in ("fudge", "listed")
    ):
        return "a die of symbols takes no option: its faces are read, not added"
    for name in ("reroll", "explode_at", "target", "failure"):
        if not isinstance(getattr(pool, name), Compare | AnyOf | None):
            return f"{name} must be a Compare or an AnyOf"
    if pool.explode is not None and pool.explode not in EXPLODES:
        return f"explode is one of {EXPLODES}"
    if pool.keep is not None and pool.keep not in KEEPS:
        return f"keep is one of {KEEPS}"
    if pool.sort is not None and pool.sort not in SORTS:
        return f"sort is one of {SORTS}"
    return None


def _option_problem(pool: Pool) -> str | None:
    """What is wrong with the pool's options together."""
    if pool.explode_at is not None and pool.explode is None:
        return "explode_at without explode"
    if pool.failure is not None and pool.target is None:
        return spec.CHECKS["failure_needs_target"]
    if (
        pool.minimum is not None
        and pool.maximum is not None
        and pool.minimum > pool.maximum
    ):
        return spec.CHECKS["minimum_above_maximum"]
    if pool.unique and (
        pool.reroll is not None
        or pool.explode is not None
        or pool.minimum is not None
        or pool.maximum is not None
    ):
        return spec.CHECKS["unique_alone"]
    if not pool.final_faces():
        return spec.CHECKS["never_stops"]
    if pool.explode in ("!", "!!", "!p") and all(
        pool.explodes(f) for f in pool.final_faces()
    ):
        return spec.CHECKS["explodes_forever"]
    return None


def _count_problem(pool: Pool) -> str | None:
    """What is wrong with how many dice the pool rolls and keeps."""
    if pool.unique and pool.count > len(set(pool.faces)):
        return spec.CHECKS["unique_faces"].replace("{faces}", str(len(set(pool.faces))))
    if pool.keep is None:
        return None if pool.keep_count == 0 else "keep_count without keep"
    if pool.keep_count < 1:
        return (
            spec.CHECKS["keep_none"]
            .replace("{keep}", pool.keep)
            .replace("{count}", str(pool.keep_count))
        )
    return None


def _sides_text(pool: Pool) -> str:
    if pool.listed == FUDGE_1 and pool.fudge:
        return "F.1"
    if pool.fudge:
        return "F"
    if pool.listed is not None:  # its faces, in order
        return f"[{','.join(map(_shown_face, pool.listed))}]"
    return str(pool.sides)


def _written(compare: Compare, plain: str) -> str:
    """A comparison as the notation writes it (``>`` and ``<`` as ``>=``
    and ``<=`` of the next whole number; ``=`` as ``plain`` before a value of
    0 or more)."""
    op, value = compare.op, compare.value
    if op == ">":
        return f">={value + 1}"
    if op == "<":
        return f"<={value - 1}"
    if op == "=" and value < 0:  # (-1 right after an option is the next term)
        plain = "="
    return f"{plain if op == '=' else op}{value}"


def condition_text(condition: Condition, token: str) -> str:
    """A condition as the notation writes it, each comparison after ``token``."""
    return "".join(token + _written(c, "=") for c in _conditions(condition))


def counting_text(
    keep: Keep | None,
    keep_count: int,
    target: Condition | None,
    failure: Condition | None,
) -> str:
    """The options that keep and count (a pool's or a group's), as written."""
    text = "" if keep is None else f"{keep}{keep_count}"
    if target is not None:
        text += condition_text(target, "")
    if failure is not None:
        text += condition_text(failure, "f")
    return text


def _explode_at_text(pool: Pool) -> str:
    if pool.explode_at is not None:
        return "!".join(_written(c, "=") for c in _conditions(pool.explode_at))
    if pool.keep is None and not pool.unique and pool.target is not None:
        return f"={pool.top}"  # (a target right after it would read as explode_at)
    return ""


def _shown_face(face: Face) -> str:
    """A listed face as a pool's text shows it: a number, or its symbols
    joined by + (nothing for a blank face)."""
    return str(face) if isinstance(face, int) else "+".join(face)


class Branch(Value):
    """A node of a dice expression other than a pool, a number or a sum (each
    of ``rulebook.dice_tree``'s: ``Binary``, ``Call``, ``Group``, ``Test``, ``Labeled``)."""

    __slots__ = ()
    PRECEDENCE: ClassVar[int] = 3


AnyNode: TypeAlias = "Pool | int | Fraction | DiceSum | Branch"
"""A node of a dice expression, as this module knows it (``rulebook.dice_tree.Node``
names each kind of ``Branch``)."""


def is_node(value: object) -> bool:
    """Whether ``value`` is a node of a dice expression (a ``Node``)."""
    if isinstance(value, Value):
        return value.PRECEDENCE >= 0
    return (type(value) is int) or isinstance(value, Fraction)


def _decimal(value: Fraction) -> str | None:
    """``value`` (not negative) as a decimal the notation reads, if it has one."""
    rest, places = value.denominator, 0
    for prime in (2, 5):
        found = 0
        while rest % prime == 0:
            rest, found = rest // prime, found + 1
        places = max(places, found)
    if rest != 1:
        return None
    digits = str(value.numerator * 10**places // value.denominator).rjust(
        places + 1, "0"
    )
    return f"{digits[:-places]}.{digits[-places:]}" if places else digits


def number_text(value: Number) -> str:
    """A number as the notation writes it: ``3``, ``1.5`` (a fraction with no
    decimal: ``(1/3)``, which reads back as a division)."""
    if isinstance(value, int):
        return str(value)
    sign = "-" if value < 0 else ""
    found = _decimal(abs(value))
    if found is None:
        return f"({value})"
    return sign + found


def written(node: AnyNode, need: int) -> str:
    """``node``'s text where the place needs a precedence of ``need`` or more
    (0: a whole expression; 1: a term of a sum; 2: the left of ``*`` ``/``;
    3: an atom), bracketed where it binds looser."""
    if isinstance(node, int | Fraction):
        text = number_text(node)
        return f"({text})" if need and node < 0 else text
    text = str(node)
    return f"({text})" if need > node.PRECEDENCE else text


class Term(Value):
    """One term of a sum: any node of a dice expression; ``sign`` is 1 to add it, -1 to subtract it."""

    __slots__ = ("sign", "value")
    FIELDS: ClassVar[tuple[str, ...]] = ("sign", "value")

    sign: int
    value: AnyNode

    def __init__(self, sign: int, value: AnyNode) -> None:
        if sign not in (1, -1) or type(sign) is not int:
            raise RuleInputError(f"a term's sign is 1 or -1, not {sign!r}")
        if not is_node(value):
            raise RuleInputError(
                f"a term's value is a Pool, a number or a node of a dice expression, not {value!r}"
            )
        object.__setattr__(self, "sign", sign)
        object.__setattr__(
            self, "value", number(value) if isinstance(value, Fraction) else value
        )


class DiceSum(Value):
    """Terms added and subtracted, in the order written."""

    __slots__ = ("terms",)
    FIELDS: ClassVar[tuple[str, ...]] = ("terms",)
    PRECEDENCE: ClassVar[int] = 0

    terms: tuple[Term, ...]

    def __init__(self, terms: tuple[Term, ...]) -> None:
        terms = tuple(terms)
        if not terms or not all(isinstance(t, Term) for t in terms):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise RuleInputError("a dice sum has one term or more, each a Term")
        object.__setattr__(self, "terms", terms)

    def children(self) -> tuple[object, ...]:
        """Its nodes below it, in the order written."""
        return tuple(t.value for t in self.terms)

    @property
    def pools(self) -> tuple[Pool, ...]:
        """Every pool of the expression, in the order written (depth first)."""
        return tuple(_pools(self))

    def __str__(self) -> str:
        if len(self.terms) == 1 and self.terms[0].sign > 0:
            return written(self.terms[0].value, 0)
        text = ""
        for i, term in enumerate(self.terms):
            value = term.value
            negative = term.sign < 0
            if isinstance(value, int | Fraction) and value < 0:
                value, negative = -value, not negative
            shown = written(value, 1)
            text += ("-" if negative else "+" if i else "") + shown
        return text


def _pools(node: object) -> Iterator[Pool]:
    if isinstance(node, Pool):
        yield node
    elif isinstance(node, Value):
        for child in node.children():
            yield from _pools(child)
