"""Odds of a rule's answer: what a generated ``<function>_odds`` answers.

Each rule that rolls has an odds function, derived from the rule by rulesc and
worked out by the runtime's engine (``rulebook._odds``): it answers a
:class:`Chances`, each answer the rule can give with its exact chance; where
the rule names several fields for its odds, an :class:`OddsByField`, each
field's own ``Chances``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from itertools import islice
from typing import Any, TypeVar, cast

from ._support import MAX_ENTRIES, shown, too_many
from .errors import RuleInputError

__all__ = ["Chances", "OddsByField"]

K = TypeVar("K")


class Chances(dict[K, Fraction]):
    """Each answer a rule can give with its exact chance, answers ascending.

    ``tail``: the chance that an explosion was cut off at the depth, leaving
    the answer unknown (0 for a rule without unbounded explosions); the chances
    listed sum to ``1 - tail``. Made from pairs of an answer and a ``Fraction``
    (anything else is refused with ``RuleInputError``).
    """

    __slots__ = ("_tail",)

    def __init__(
        self, chances: Iterable[tuple[K, Fraction]] = (), tail: Fraction = Fraction(0)
    ) -> None:
        if type(tail) is not Fraction or not 0 <= tail <= 1:
            raise RuleInputError(f"tail must be a Fraction in 0..1, not {shown(tail)}")
        pairs = _pairs(chances, "chances", "an answer and a Fraction")
        for pair in pairs:
            whole = cast("tuple[object, ...]", pair) if type(pair) is tuple else ()
            if (
                len(whole) != 2
                or type(whole[1]) is not Fraction
                or not _answer(whole[0])
            ):
                raise RuleInputError(
                    f"a chance is a pair of an answer and a Fraction, not {shown(pair)}"  # pyright: ignore[reportUnknownArgumentType]
                )
        super().__init__(cast("list[tuple[K, Fraction]]", pairs))
        self._tail = tail

    @property
    def tail(self) -> Fraction:
        """The chance left unknown by an explosion cut off at the depth."""
        return self._tail

    def at_least(self, value: int) -> Fraction:
        """The chance of an answer of ``value`` or more, for a rule answering
        whole numbers: all but the chance of the answers below it (the tail
        counted in, as an explosion cut off only adds). Raises
        ``RuleInputError`` for a ``value`` that is not an int, and for answers
        that are not whole numbers."""
        if type(value) is not int:
            raise RuleInputError(f"value must be an int, not {shown(value)}")
        below = Fraction(0)
        for answer, chance in self.items():
            number: object = answer
            if type(number) is not int:
                raise RuleInputError(
                    f"at_least compares whole-number answers, not {shown(number)}"
                )
            if number < value:
                below += chance
        return 1 - below


def _pairs(items: Iterable[object], what: str, pair: str) -> list[object]:
    """The pairs of ``items`` (at most ``MAX_ENTRIES``; a caller's iterable
    that raises is refused with ``RuleInputError``)."""
    try:
        pairs = list(islice(items, MAX_ENTRIES + 1))
    except RuleInputError:
        raise
    except Exception as error:
        raise RuleInputError(
            f"{what} must be pairs of {pair}, not {shown(items)}"
        ) from error
    if len(pairs) > MAX_ENTRIES:
        raise too_many(what)
    return pairs


def _answer(value: object) -> bool:
    """Whether ``value`` is an answer a rule gives: a number, a flag, a label,
    null, or a tuple of them (the dice a pool keeps)."""
    if type(value) is tuple:
        return all(_answer(item) for item in cast("tuple[object, ...]", value))
    return value is None or type(value) in (int, bool) or isinstance(value, str)


class OddsByField(Mapping[str, Chances[Any]]):
    """Each field's own chances (a ``Chances``), by the field's name, in the
    order the rules name them: what an odds function answers for a rule
    whose odds are of several fields, all from one working out.

    A read-only mapping (assigning raises ``AttributeError``, as for a
    record); equal to any mapping of the same items. Made from pairs of a
    field's name and its ``Chances`` (anything else is refused with
    ``RuleInputError``).
    """

    __slots__ = ("_fields",)
    _fields: dict[str, Chances[Any]]

    def __init__(self, fields: Iterable[tuple[str, Chances[Any]]] = ()) -> None:
        found: dict[str, Chances[Any]] = {}
        for pair in _pairs(fields, "fields", "a name and Chances"):
            whole = cast("tuple[object, ...]", pair) if type(pair) is tuple else ()
            if (
                len(whole) != 2
                or not isinstance(whole[0], str)
                or not isinstance(whole[1], Chances)
            ):
                raise RuleInputError(
                    f"a field's odds are a pair of its name and Chances, not {shown(pair)}"  # pyright: ignore[reportUnknownArgumentType]
                )
            name, chances = whole
            assert isinstance(name, str) and isinstance(chances, Chances)
            found[str.__str__(name)] = chances
        object.__setattr__(self, "_fields", found)

    def __getitem__(self, name: str) -> Chances[Any]:
        return self._fields[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        return f"OddsByField({self._fields!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: the odds are read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete {name!r}: the odds are read-only")
