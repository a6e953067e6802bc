"""Errors raised by the generated rules runtime."""

from __future__ import annotations

__all__ = ["RuleInputError", "RuleTypeError", "RulebookError"]


class RulebookError(Exception):
    """Base class of every error the runtime raises."""


class RuleInputError(RulebookError, ValueError):
    """A rule was called with an argument it cannot answer for.

    Raised for unknown labels, wrong types (a ``bool`` is not an ``int``),
    out-of-range numbers and scripted dice that run out or leave their die's range.
    """


class RuleTypeError(RuleInputError, TypeError):
    """A value that is no value of the runtime, given to ``rulebook.json``'s
    ``to_data``, ``record`` or ``dumps``: a ``RuleInputError`` that is a
    ``TypeError`` too, as those functions promised before."""
