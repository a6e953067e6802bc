"""Output: what rulesc prints goes through one guard that escapes control characters.

Every command prints text from the rules (labels, titles, units, descriptions,
example names, rule ids). ``main`` puts a :class:`Guarded` stream over
``sys.stdout`` and ``sys.stderr`` for the whole command, so no character a
terminal acts on reaches it from the rules, whatever command prints it: C0
and C1 controls, DEL, bidirectional controls (U+202A-U+202E, U+2066-U+2069),
zero-width and other format characters (U+200B-U+200F, U+FEFF), line and
paragraph separators, and anything else ``str.isprintable`` refuses, except the
newline and tab of rulesc's own layout. Each is written ``\\uXXXX`` (a pair for
one past U+FFFF), which JSON reads back as the same character, so ``--json``
and ``--format json`` output stays valid JSON.

rulesc's own control codes (colour on a terminal, a progress bar's carriage
return) are written to the guarded stream's ``raw`` stream, never through it.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from ..common.visible import utf16_escape

_KEPT = frozenset("\n\t")


def terminal_safe(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape
    (newline and tab kept)."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch in _KEPT else utf16_escape(ch) for ch in text
    )


class Guarded:
    """A text stream that writes ``terminal_safe`` text to ``raw``."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterator[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding...
        return getattr(self.raw, name)


def raw(stream: Any) -> Any:
    """The stream under a guard (``stream`` itself if unguarded): for rulesc's
    own control codes, whose text is escaped already."""
    return stream.raw if isinstance(stream, Guarded) else stream


@contextmanager
def guarded() -> Generator[None]:
    """``sys.stdout`` and ``sys.stderr`` guarded for the time of a command."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Guarded(raw(saved[0])), Guarded(raw(saved[1]))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
