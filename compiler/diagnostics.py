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
        text = f"{self.file}:{self.line}:{self.col}: error: {self.message}"
        if self.pointer:
            text += f"\n  at {self.pointer}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
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


class RulesError(Exception):
    """The rules cannot be compiled; ``diagnostics`` says every reason found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics))
        super().__init__(f"{len(self.diagnostics)} error(s) in the rules")


def format_diagnostics(diagnostics: Iterable[Diagnostic], fmt: str = "text") -> str:
    """Render diagnostics for people (``text``) or tools (``json``)."""
    items = sorted(diagnostics)
    if fmt == "json":
        return json.dumps([d.as_json() for d in items], indent=2, ensure_ascii=False)
    lines = [d.format_text() for d in items]
    lines.append(f"{len(items)} error{'s' if len(items) != 1 else ''}")
    return "\n".join(lines)
