"""Usage errors: a workbench command used wrongly, with how to use it right;
and whole numbers read from the command line, within what rulesc takes."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from ..common.diagnostics import quoted

# A whole number on the command line has at most as many digits as one in the
# rules (compiler.front.loader.MAX_INT_DIGITS): far below Python's limit on turning
# text into an int (sys.get_int_max_str_digits()), and any rule answers it.
MAX_DIGITS = 15
_WHOLE = re.compile(r"[-+]?[0-9]+")


class UsageError(Exception):
    """The command was used wrongly: say how, and how to do it right."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def whole_number(text: str, what: str, allowed: str = "a whole number") -> int:
    """The int ``text`` writes in ASCII digits (at most ``MAX_DIGITS`` of them,
    with an optional sign), else a usage error naming ``what`` and the limit."""
    for index, ch in enumerate(text):
        if not ch.isascii() and ch.isnumeric():
            raise UsageError(
                f"{what} takes {allowed}, not {quoted(text)}: {ch!r} "
                f"(U+{ord(ch):04X}, character {index + 1}) is not an ASCII digit",
                "write the number with the digits 0 to 9",
            )
    word = text.strip()
    if not _WHOLE.fullmatch(word):
        raise UsageError(f"{what} takes {allowed}, not {quoted(text)}")
    if len(word.lstrip("+-")) > MAX_DIGITS:
        raise UsageError(
            f"{what} takes {allowed}; {quoted(text)} has more than {MAX_DIGITS} digits",
            f"rulesc reads whole numbers of at most {MAX_DIGITS} digits",
        )
    return int(word)


def number_option(name: str) -> Callable[[str], int]:
    """An argparse ``type`` for a whole-number option such as ``--seed``."""

    def read(text: str) -> int:
        try:
            return whole_number(text, name)
        except UsageError as exc:
            rest = exc.message.removeprefix(f"{name} ")
            raise argparse.ArgumentTypeError(rest) from None

    read.__name__ = "whole number"  # what argparse calls the type, if it must
    return read
