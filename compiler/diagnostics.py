"""Diagnostics: located errors in the rules, collected and printed together."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

Path = tuple[str | int, ...]


def pointer(path: Path) -> str:
    """The JSON pointer (RFC 6901) of a path into a rules file."""
    return "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in path
    )


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every non-printable character written as an escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One error, at a line and column (both 1-based) of one file."""

    file: str
    line: int
    col: int
    message: str
    hint: str | None = None
    pointer: str = ""

    def format_text(self) -> str:
        """``file:line:col: error: message``, then the pointer and the hint.

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
        return text

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "hint": self.hint,
            "pointer": self.pointer,
        }


def _order(d: Diagnostic) -> tuple[str, int, int, str, str, str]:
    """Sort by place, then message (a missing hint sorts first, never compared)."""
    return (d.file, d.line, d.col, d.message, d.hint or "", d.pointer)


class RulesError(Exception):
    """The rules cannot be compiled; ``diagnostics`` says every reason found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics), key=_order)
        shown = "\n".join(d.format_text() for d in self.diagnostics[:5])
        super().__init__(f"{len(self.diagnostics)} error(s) in the rules:\n{shown}")


def format_diagnostics(diagnostics: Iterable[Diagnostic], fmt: str = "text") -> str:
    """Render diagnostics for people (``text``) or tools (``json``)."""
    items = sorted(diagnostics, key=_order)
    if fmt == "json":
        return json.dumps([d.as_json() for d in items], indent=2, ensure_ascii=False)
    lines = [d.format_text() for d in items]
    lines.append(f"{len(items)} error{'s' if len(items) != 1 else ''}")
    return "\n".join(lines)
