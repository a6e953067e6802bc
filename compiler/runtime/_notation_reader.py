"""Notation reader: the text of a dice expression and the place reading has got to (``rulebook.dice_notation``'s)."""

from __future__ import annotations

from . import _dice_spec as spec
from .dice import DiceSyntaxError

__all__ = ["FOLLOWERS", "SPACES", "Reader", "words"]

SPACES = " \t"
FOLLOWERS = " \t+-*/)},[<>="
"""What may follow an atom (a pool's or a group's options end there)."""


def words(key: str, **values: object) -> str:
    """The definition's words for ``key``, each ``{name}`` in them filled in."""
    text = spec.WORDS[key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


class Reader:
    """The text and the place reading has got to."""

    def __init__(self, text: str, bare_d6: bool) -> None:
        self.text = text
        self.at = 0
        self.bare_d6 = bare_d6
        self.hint = spec.HINT  # what a mistake here is told to write
        self.depth = 0  # the parentheses, groups, calls and minus signs open here

    def deeper(self) -> None:
        """One more level of nesting (refused past ``MAX_NESTING``)."""
        self.depth += 1
        if self.depth > spec.MAX_NESTING:
            raise self.fail(
                words("nesting", most=spec.MAX_NESTING),
                self.at,
                words("nesting_hint"),
            )

    def peek(self, length: int = 1) -> str:
        return self.text[self.at : self.at + length]

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in SPACES:
            self.at += 1

    def fail(
        self, message: str, offset: int, hint: str | None = None
    ) -> DiceSyntaxError:
        return DiceSyntaxError(
            f"bad dice expression {self.text!r}: {message}",
            offset,
            self.hint if hint is None else hint,
        )

    def unexpected(self, offset: int | None = None) -> DiceSyntaxError:
        at = self.at if offset is None else offset
        if at >= len(self.text):
            return self.fail("it ends too soon", at)
        return self.fail(f"unexpected {self.text[at]!r}", at)

    def stray(self) -> DiceSyntaxError:
        """The error for what stands here: an operator the notation refuses, or unexpected."""
        for refused in spec.REFUSED_OPERATORS:
            if self.peek(len(refused.token)) == refused.token:
                return self.fail(refused.message, self.at, refused.hint)
        return self.unexpected()

    def digits(self) -> str:
        start = self.at
        while self.at < len(self.text) and "0" <= self.text[self.at] <= "9":
            self.at += 1
        found = self.text[start : self.at]
        if len(found) > spec.MAX_DIGITS:
            raise self.fail(f"a number has more than {spec.MAX_DIGITS} digits", start)
        return found

    def number(self) -> int | None:
        start = self.at
        digits = self.digits()
        if not digits:
            return None
        if len(digits) > 1 and digits[0] == "0":
            raise self.fail("a number starts with 0", start)
        return int(digits)

    def needed(self, what: str) -> int:
        value = self.number()
        if value is None:
            raise self.fail(f"{what} is missing", self.at)
        return value

    def signed(self, what: str) -> int:
        negative = self.peek() == "-"
        self.at += negative
        value = self.needed(what)
        return -value if negative else value
