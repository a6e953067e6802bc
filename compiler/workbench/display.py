"""Errors for people and for tools.

``text`` is the classic ``file:line:col: error: message`` list. On a terminal
each error also shows its YAML line with a caret under the offending node, in
colour unless ``NO_COLOR`` is set (https://no-color.org); piped or redirected,
the text is exactly the classic list, so scripts and logs keep reading it.
``json`` is a stable list of objects (file, line, col, end_col, message, hint,
pointer, notes).
``github`` prints workflow commands, so a GitHub Actions run annotates the
rules files' lines.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path as FsPath
from typing import TextIO

from ..common.diagnostics import (
    MAX_QUOTED,
    Diagnostic,
    format_diagnostics,
    order,
)
from ..common.visible import visible
from .output import raw as raw_stream

FORMATS = ("text", "json", "github")
_ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"

_RED, _BOLD, _BLUE, _CYAN, _RESET = (
    "\x1b[31m",
    "\x1b[1m",
    "\x1b[34m",
    "\x1b[36m",
    "\x1b[0m",
)


def _option(argv: Sequence[str], name: str) -> str | None:
    """The value of ``--name X`` or ``--name=X`` (the last one given wins)."""
    found = None
    for index, word in enumerate(argv):
        if word == name and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith(name + "="):
            found = word.split("=", 1)[1]
    return found


def requested_format(argv: Sequence[str]) -> str:
    fmt = _option(argv, "--format")
    return fmt if fmt in FORMATS else "text"


def source_root(argv: Sequence[str]) -> FsPath:
    """The folder errors' file paths are relative to: the rules folder's parent."""
    rules = _option(argv, "--rules")
    return FsPath(rules).parent if rules else FsPath(".")


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (or TERM=dumb)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def print_diagnostics(
    diagnostics: Iterable[Diagnostic],
    argv: Sequence[str],
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> None:
    """Print errors in the format ``argv`` asks for (text goes to stderr)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    items = list(diagnostics)
    fmt = requested_format(argv)
    if fmt == "json":
        print(format_diagnostics(items, "json"), file=out)
    elif fmt == "github":
        print(github(items), file=out)
    else:
        terminal = _isatty(err)
        color = use_color(err)
        # the text escapes the rules' characters itself: its colour is rulesc's own
        print(
            text(items, root=source_root(argv), snippets=terminal, color=color),
            file=raw_stream(err) if color else err,
        )


# -- text --------------------------------------------------------------------------


def text(
    diagnostics: Iterable[Diagnostic],
    *,
    root: FsPath = FsPath("."),
    snippets: bool = True,
    color: bool = False,
) -> str:
    """The classic list; with ``snippets``, each error's YAML line and a caret."""
    items = sorted(diagnostics, key=order)
    if not snippets and not color:
        return format_diagnostics(items, "text")
    cache: dict[str, list[str] | None] = {}
    blocks = []
    for d in items:
        head, *rest = d.format_text().split("\n")
        if color:
            place, _, message = head.partition(": error: ")
            head = f"{_BOLD}{place}{_RESET}: {_BOLD}{_RED}error{_RESET}: {_BOLD}{message}{_RESET}"
            rest = [
                f"  {_CYAN}{line[2:6]}{_RESET}:{line[len('  hint:') :]}"
                if line.startswith(("  hint:", "  note:"))
                else line
                for line in rest
            ]
        lines = [head]
        if snippets:
            lines += snippet(d, _lines(d.file, root, cache), color=color)
        blocks.append("\n".join(lines + rest))
    count = len(items)
    blocks.append(f"{count} error{'s' if count != 1 else ''}")
    return "\n".join(blocks)


def _lines(
    file: str, root: FsPath, cache: dict[str, list[str] | None]
) -> list[str] | None:
    if file not in cache:
        cache[file] = None
        for base in (root, FsPath(".")):
            path = base / file
            try:
                if path.is_file() and path.stat().st_size <= 1 << 20:
                    raw = path.read_bytes().decode("utf-8", errors="replace")
                    cache[file] = raw.split("\n")
                    break
            except OSError:
                continue
    return cache[file]


def snippet(
    d: Diagnostic, lines: list[str] | None, *, color: bool = False
) -> list[str]:
    """The error's line of the file, numbered, with a caret under ``col`` to
    ``end_col`` (when the error has one), else under the node at ``col``."""
    if lines is None or not 1 <= d.line <= len(lines):
        return []
    raw = lines[d.line - 1].rstrip("\r")
    col = max(1, min(d.col, len(raw) + 1))
    start = col - 1
    if d.end_col is not None:
        width = max(1, min(d.end_col - 1, len(raw)) - start)
    else:
        width = _node_width(raw, start)
    shown, offset = _display(raw, start)
    end = _display(raw, start + width)[1]
    shown_width = max(1, end - offset)
    if len(shown) > 2 * MAX_QUOTED:  # a long line is shown around the caret
        lo = max(0, offset - MAX_QUOTED // 2)
        hi = min(len(shown), offset + min(shown_width, MAX_QUOTED) + MAX_QUOTED // 2)
        lead = _ELLIPSIS if lo else ""
        shown = lead + shown[lo:hi] + (_ELLIPSIS if hi < len(shown) else "")
        shown_width = min(shown_width, hi - offset)
        offset = offset - lo + len(lead)
    number = str(d.line)
    gutter = " " * len(number)
    caret = "^" + "~" * (shown_width - 1)
    bar = "|"
    if color:
        bar = f"{_BLUE}|{_RESET}"
        number = f"{_BLUE}{number}{_RESET}"
        caret = f"{_BOLD}{_RED}{caret}{_RESET}"
    return [
        f"{gutter} {bar}",
        f"{number} {bar} {shown}".rstrip(),
        f"{gutter} {bar} {' ' * offset}{caret}",
    ]


def _display(line: str, upto: int) -> tuple[str, int]:
    """The line as shown (tabs as spaces, hidden characters escaped), and how
    wide its first ``upto`` characters are shown."""
    tidy = line.replace("\t", " ")
    return visible(tidy), len(visible(tidy[:upto]))


def _node_width(line: str, start: int) -> int:
    """How many characters of ``line`` from ``start`` the node there spans."""
    if start >= len(line):
        return 1
    first = line[start]
    closing = {'"': '"', "'": "'", "{": "}", "[": "]"}.get(first)
    if closing is not None:
        depth = 0
        for index in range(start + 1, len(line)):
            ch = line[index]
            if first in "\"'" and ch == closing:
                return index - start + 1
            if first in "{[" and ch == first:
                depth += 1
            elif first in "{[" and ch == closing:
                if depth == 0:
                    return index - start + 1
                depth -= 1
        return len(line.rstrip()) - start
    in_flow = sum(line[:start].count(c) for c in "{[") > sum(
        line[:start].count(c) for c in "}]"
    )
    end = start
    while end < len(line):
        ch = line[end]
        if ch == "#" and end > start and line[end - 1] == " ":
            break
        if ch == ":" and (end + 1 == len(line) or line[end + 1] == " "):
            break
        if in_flow and ch in ",}]":
            break
        end += 1
    return max(1, len(line[start:end].rstrip()))


# -- github -------------------------------------------------------------------------


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def github(diagnostics: Iterable[Diagnostic]) -> str:
    """One ``::error`` workflow command per error (GitHub Actions annotations)."""
    lines = []
    for d in sorted(diagnostics, key=order):
        message = visible(d.message)
        if d.pointer:
            message += f"\nat {visible(d.pointer)}"
        if d.hint:
            message += "\nhint: " + "\n".join(visible(x) for x in d.hint.split("\n"))
        message += "".join(f"\nnote: {visible(note)}" for note in d.notes)
        end = f",endColumn={d.end_col}" if d.end_col is not None else ""
        lines.append(
            f"::error file={_property(d.file)},line={d.line},col={d.col}{end},"
            f"title={_property('rulesc')}::{_data(message)}"
        )
    return "\n".join(lines)
