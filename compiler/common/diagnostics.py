"""Diagnostics: located errors in the rules, collected and printed together."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .visible import visible
from .yes_no import bool_hint

Path = tuple[str | int, ...]

# The one remedy for stale output (generated/ or schema/), in the same words
# wherever it is given: rulesc check, the golden test, make update-goldens.
REMEDY = "run `rulesc build` (or `make build`) and commit what it writes"

# An error quotes at most this many characters of a value (a key, a text, a
# line of a formula); a longer one is cut, with an ellipsis and its length.
MAX_QUOTED = 80
# A quoted value in a message: 'text' or "text" as repr writes it, its quote
# marks not inside a word (so the apostrophe of "rule's" opens nothing).
_QUOTED = re.compile(r"""(?<!\w)(['"])((?:(?!\1)[^\\\n]|\\.)*)\1(?!\w)""")


def pointer(path: Path) -> str:
    """The JSON pointer (RFC 6901) of a path into a rules file."""
    return "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in path
    )


def cut(text: str, most: int = MAX_QUOTED) -> str:
    """``text``, or its first ``most - 1`` characters and an ellipsis."""
    return text if len(text) <= most else text[: most - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _length(count: int) -> str:
    return f"{count:,} characters"


def quoted(value: object) -> str:
    """``repr(value)`` as an error quotes it: a long text is cut to
    ``MAX_QUOTED`` characters, ``'aaaa…' (100,000 characters)``."""
    if isinstance(value, str):
        shown = repr(value)
        if len(shown) - 2 <= MAX_QUOTED:
            return shown
        head = value[: MAX_QUOTED - 1]  # as much as fits once escaped
        while len(repr(head)) - 2 > MAX_QUOTED - 1:
            head = head[:-1]
        return f"{head + chr(0x2026)!r} ({_length(len(value))})"
    shown = repr(value)
    if len(shown) <= MAX_QUOTED:
        return shown
    return f"{cut(shown)} ({_length(len(shown))})"


def shorten(message: str) -> str:
    """``message`` with every quoted value longer than ``MAX_QUOTED`` cut."""
    if len(message) <= MAX_QUOTED:
        return message

    def one(match: re.Match[str]) -> str:
        mark, inner = match.group(1), match.group(2)
        if len(inner) <= MAX_QUOTED:
            return match.group()
        return f"{mark}{cut(inner)}{mark} ({_length(len(inner))})"

    return _QUOTED.sub(one, message)


def shorten_hint(hint: str) -> str:
    """A hint with every long quoted value cut, line by line."""
    return "\n".join(shorten(line) for line in hint.split("\n"))


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One error, at a line and column (both 1-based) of one file.

    ``end_col`` (exclusive, on the same line) ends the span of the culprit when
    it is known, as for a name inside a formula; a terminal draws the caret
    from ``col`` to it. ``notes`` are the other places the error concerns, such
    as each use of a wrong declaration: ``used at FILE:LINE:COL``. The hint is
    advice only, never a quote of the source.
    """

    file: str
    line: int
    col: int
    message: str
    hint: str | None = None
    pointer: str = ""
    end_col: int | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Every error is made here: a long value it quotes is cut, in every format.
        object.__setattr__(self, "message", shorten(self.message))
        object.__setattr__(self, "hint", bool_hint(self.message, self.hint))
        if self.hint:
            object.__setattr__(self, "hint", shorten_hint(self.hint))
        if len(self.pointer) > 4 * MAX_QUOTED:
            object.__setattr__(self, "pointer", cut(self.pointer, 4 * MAX_QUOTED))
        if self.end_col is not None and self.end_col <= self.col:
            object.__setattr__(self, "end_col", None)
        object.__setattr__(self, "notes", tuple(shorten(n) for n in self.notes))

    def format_text(self) -> str:
        """``file:line:col: error: message``, then the pointer, the hint and
        one ``note:`` line per note.

        Characters that a terminal would act on or hide (control characters,
        bidirectional marks) are shown as escapes: error output is never a way to
        smuggle text past the reader.
        """
        text = f"{self.file}:{self.line}:{self.col}: error: {self.message}"
        text = visible(text)
        if self.pointer:
            text += f"\n  at {visible(self.pointer)}"
        if self.hint:
            hint = "\n".join(visible(line) for line in self.hint.split("\n"))
            text += f"\n  hint: {hint}"
        for note in self.notes:
            text += f"\n  note: {visible(note)}"
        return text

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "end_col": self.end_col,
            "message": self.message,
            "hint": self.hint,
            "pointer": self.pointer,
            "notes": list(self.notes),
        }


def order(d: Diagnostic) -> tuple[str, int, int, str, str, str, tuple[str, ...]]:
    """Sort by place, then message (a missing hint sorts first, never compared)."""
    return (d.file, d.line, d.col, d.message, d.hint or "", d.pointer, d.notes)


class RulesError(Exception):
    """The rules cannot be compiled; ``diagnostics`` says every reason found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics), key=order)
        shown = "\n".join(d.format_text() for d in self.diagnostics[:5])
        super().__init__(f"{len(self.diagnostics)} error(s) in the rules:\n{shown}")


def format_diagnostics(diagnostics: Iterable[Diagnostic], fmt: str = "text") -> str:
    """Render diagnostics for people (``text``) or tools (``json``)."""
    items = sorted(diagnostics, key=order)
    if fmt == "json":
        return json.dumps([d.as_json() for d in items], indent=2, ensure_ascii=False)
    lines = [d.format_text() for d in items]
    lines.append(f"{len(items)} error{'s' if len(items) != 1 else ''}")
    return "\n".join(lines)
