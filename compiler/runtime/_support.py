"""Support for the generated rule modules: argument checks and ordered labels."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import TypeVar

from .errors import RuleInputError

__all__ = ["Ladder", "bad_bool", "bad_int", "choice", "mapping", "step"]

E = TypeVar("E", bound=Enum)


def choice(kind: type[E], by_label: Mapping[str, E], value: object, name: str) -> E:
    """Return the member ``value`` names: a member, or its label in any case."""
    if type(value) is kind:
        return value
    if isinstance(value, str) and not isinstance(value, Enum):  # not another enum
        member = by_label.get(value.casefold())
        if member is not None:
            return member
    labels = ", ".join(repr(m.value) for m in kind)
    raise RuleInputError(f"{name} must be one of {labels}, not {value!r}")


def bad_int(value: object, name: str, lo: int | None, hi: int | None) -> RuleInputError:
    """The error for an argument that is not an int within ``lo..hi``."""
    if type(value) is not int:
        return RuleInputError(f"{name} must be an int, not {value!r}")
    low = "" if lo is None else str(lo)
    high = "" if hi is None else str(hi)
    return RuleInputError(f"{name} must be in {low}..{high}, not {value}")


def bad_bool(value: object, name: str) -> RuleInputError:
    """The error for an argument that is not a bool."""
    return RuleInputError(f"{name} must be True or False, not {value!r}")


class Ladder(StrEnum):
    """A label enum whose members compare by rank (lowest first), not alphabetically.

    Comparisons accept a member or a label string (any case).
    """

    @property
    def rank(self) -> int:
        """The member's position, 0 for the lowest."""
        return type(self)._member_names_.index(self.name)

    def _other(self, other: str) -> int:
        kind = type(self)
        if type(other) is kind:
            return other.rank
        folded = other.casefold() if isinstance(other, str) else None
        for member in kind:
            if member.value.casefold() == folded:
                return member.rank
        labels = ", ".join(repr(m.value) for m in kind)
        raise RuleInputError(f"cannot compare with {other!r}: use one of {labels}")

    def __lt__(self, other: str, /) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        return self.rank < self._other(other)

    def __le__(self, other: str, /) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        return self.rank <= self._other(other)

    def __gt__(self, other: str, /) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        return self.rank > self._other(other)

    def __ge__(self, other: str, /) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        return self.rank >= self._other(other)


K = TypeVar("K", bound=Enum)
V = TypeVar("V", bound=Enum)


def mapping(
    keys: type[K],
    key_by_label: Mapping[str, K],
    values: type[V],
    value_by_label: Mapping[str, V],
    value: object,
    name: str,
) -> dict[K, V]:
    """A complete mapping argument: every key member (or label) to a value."""
    if not isinstance(value, Mapping):
        raise RuleInputError(
            f"{name} must be a mapping of {keys.__name__} to {values.__name__}, not {value!r}"
        )
    result = {
        choice(keys, key_by_label, k, f"a key of {name}"): choice(
            values, value_by_label, v, f"{name}[{k!r}]"
        )
        for k, v in value.items()
    }
    missing = [m.value for m in keys if m not in result]
    if missing:
        raise RuleInputError(f"{name} has no value for {', '.join(map(repr, missing))}")
    return result


L = TypeVar("L", bound=Ladder)


def step(member: L | None, by: int, past_end: str) -> L | None:
    """The member ``by`` steps along ``member``'s ladder (negative: down).

    Past either end: None for ``"none"``, the end member for ``"clamp"``, and
    RuleInputError for ``"error"``, as the rules declare.
    """
    if member is None:
        return None
    members = list(type(member))
    at = members.index(member) + by
    if 0 <= at < len(members):
        return members[at]
    if past_end == "clamp":
        return members[0] if at < 0 else members[-1]
    if past_end == "error":
        raise RuleInputError(
            f"{member.value!r} {by:+d} steps is past the end of {type(member).__name__}"
        )
    return None
