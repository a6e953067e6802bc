"""Odds of a rule's answer: what a generated ``<function>_odds`` answers.

Each rule that rolls has an odds function, derived from the rule by rulesc and
worked out by the runtime's engine (``rulebook._odds``): it answers a
:class:`Chances`, each answer the rule can give with its exact chance.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from itertools import islice
from typing import TypeVar, cast

from ._support import MAX_ENTRIES, shown, too_many
from .errors import RuleInputError

__all__ = ["Chances"]

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
        try:
            pairs = list(islice(chances, MAX_ENTRIES + 1))
        except RuleInputError:
            raise
        except Exception as error:
            raise RuleInputError(
                f"chances must be pairs of an answer and a Fraction, not {shown(chances)}"
            ) from error
        if len(pairs) > MAX_ENTRIES:
            raise too_many("chances")
        for pair in pairs:
            if (
                type(pair) is not tuple
                or len(pair) != 2
                or type(pair[1]) is not Fraction
                or not _answer(pair[0])
            ):
                raise RuleInputError(
                    f"a chance is a pair of an answer and a Fraction, not {shown(pair)}"
                )
        super().__init__(pairs)
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


def _answer(value: object) -> bool:
    """Whether ``value`` is an answer a rule gives: a number, a flag, a label,
    null, or a tuple of them (the dice a pool keeps)."""
    if type(value) is tuple:
        return all(_answer(item) for item in cast("tuple[object, ...]", value))
    return value is None or type(value) in (int, bool) or isinstance(value, str)
