"""Load: read rules files with ruamel.yaml into plain JSON trees that remember positions.

The tree is built from the parser's events, not from ruamel's constructed objects,
so only plain JSON values come out (no ``ScalarBoolean``, dates or tagged objects),
nothing is ever instantiated from a tag, aliases cannot expand, and every node keeps
its 1-based line and column.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml import events as ev

from .diagnostics import Diagnostic, Path, RulesError, pointer

MAX_FILE_BYTES = 512 * 1024
MAX_DEPTH = 32

Json = Any  # dict[str, Json] | list[Json] | str | int | float | bool | None


@dataclass(slots=True)
class SourceFile:
    """One loaded rules file: its plain tree and where every node of it stands."""

    path: str  # as shown in diagnostics, e.g. rules/d20_scifi/cover.yaml
    data: Json
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    first_line: str = ""

    def where(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """Line and column of the node at ``path`` (its key with ``key``).

        Falls back to the nearest enclosing node that has a position.
        """
        table = self.key_positions if key else self.positions
        if path in table:
            return table[path]
        while path:
            path = path[:-1]
            if path in self.positions:
                return self.positions[path]
        return (1, 1)

    def error(
        self, path: Path, message: str, hint: str | None = None, *, key: bool = False
    ) -> Diagnostic:
        line, col = self.where(path, key=key)
        return Diagnostic(self.path, line, col, message, hint, pointer(path))


_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE = re.compile(r"true|True|TRUE")
_FALSE = re.compile(r"false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+")
_INT_OTHER = re.compile(r"0o[0-7]+|0x[0-9a-fA-F]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
_DATE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f\ufeff]")


class _Fail(Exception):
    def __init__(self, line: int, col: int, message: str, hint: str | None) -> None:
        self.args = (line, col, message, hint)


def load_file(fs_path: FsPath, shown_path: str) -> SourceFile:
    """Load one rules file; raise ``RulesError`` with located diagnostics."""
    raw = fs_path.read_bytes()
    try:
        return _load(raw, shown_path)
    except _Fail as fail:
        line, col, message, hint = fail.args
        raise RulesError([Diagnostic(shown_path, line, col, message, hint)]) from None


def load_text(raw: bytes, shown_path: str) -> SourceFile:
    """Load rules from bytes (for tests and tools); errors as in ``load_file``."""
    try:
        return _load(raw, shown_path)
    except _Fail as fail:
        line, col, message, hint = fail.args
        raise RulesError([Diagnostic(shown_path, line, col, message, hint)]) from None


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _decode(raw: bytes) -> str:
    if len(raw) > MAX_FILE_BYTES:
        raise _Fail(
            1,
            1,
            f"file is {len(raw)} bytes; rules files may be at most {MAX_FILE_BYTES}",
            "split the rules across several files",
        )
    if raw.startswith(b"\xef\xbb\xbf"):
        raise _Fail(
            1, 1, "file starts with a byte order mark", "save it as UTF-8 without BOM"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8")
        line, col = _line_col(good, len(good))
        raise _Fail(
            line,
            col,
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
            "save the file as UTF-8",
        ) from None
    bad = _CONTROL.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        raise _Fail(
            line,
            col,
            f"control character U+{ord(bad.group()):04X} is not allowed",
            "remove it; write it as an escape inside a double-quoted string if it is meant",
        )
    return text


def _load(raw: bytes, shown_path: str) -> SourceFile:
    text = _decode(raw)
    source = SourceFile(shown_path, None, first_line=text.split("\n", 1)[0])
    yaml = YAML(typ="rt", pure=True)
    try:
        source.data = _Builder(source, iter(yaml.parse(text))).document()
    except _Fail:
        raise
    except Exception as exc:  # any parser error, of whatever class, becomes located
        raise _parser_failure(exc) from None
    return source


def _parser_failure(exc: Exception) -> _Fail:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = getattr(exc, "problem", None) or str(exc).strip().splitlines()[0]
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    hint = None
    if "\\t" in message or "\t" in message or "tab" in message:
        hint = "indent with spaces; YAML does not allow tabs for indentation"
    return _Fail(line, col, message, hint)


class _Builder:
    """Turns the parser's event stream into a plain tree, rejecting what JSON lacks."""

    def __init__(self, source: SourceFile, events: Any) -> None:
        self.source = source
        self.events = events

    def next(self) -> Any:
        return next(self.events)

    def document(self) -> Json:
        self.expect(ev.StreamStartEvent)
        start = self.next()
        if isinstance(start, ev.StreamEndEvent):
            return None
        if start.version is not None or start.tags:
            raise self.fail(
                start,
                "YAML directives are not allowed",
                "remove the %YAML or %TAG line",
            )
        value = self.node(self.next(), (), 0)
        self.expect(ev.DocumentEndEvent)
        end = self.next()
        if not isinstance(end, ev.StreamEndEvent):
            raise self.fail(
                end, "only one YAML document per file", "remove the extra '---'"
            )
        return value

    def expect(self, kind: type) -> Any:
        event = self.next()
        if not isinstance(event, kind):
            raise self.fail(event, f"unexpected {type(event).__name__}")
        return event

    def fail(self, event: Any, message: str, hint: str | None = None) -> _Fail:
        mark = event.start_mark
        return _Fail(mark.line + 1, mark.column + 1, message, hint)

    def check_node(self, event: Any, depth: int) -> None:
        if isinstance(event, ev.AliasEvent):
            raise self.fail(
                event, "aliases (*name) are not allowed", "write the value out"
            )
        if getattr(event, "anchor", None) is not None:
            raise self.fail(
                event,
                "anchors (&name) are not allowed",
                "write the value out in each place",
            )
        if event.tag is not None and not (
            isinstance(event, ev.ScalarEvent) and event.tag == "!"
        ):
            raise self.fail(
                event,
                f"explicit tag {event.tag!r} is not allowed",
                "remove the tag; quote text instead",
            )
        if depth > MAX_DEPTH:
            raise self.fail(
                event,
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure",
            )

    def node(self, event: Any, path: Path, depth: int) -> Json:
        self.check_node(event, depth)
        self.source.positions[path] = (
            event.start_mark.line + 1,
            event.start_mark.column + 1,
        )
        if isinstance(event, ev.ScalarEvent):
            return self.scalar(event)
        if isinstance(event, ev.SequenceStartEvent):
            items: list[Json] = []
            while not isinstance(nxt := self.next(), ev.SequenceEndEvent):
                items.append(self.node(nxt, (*path, len(items)), depth + 1))
            return items
        if isinstance(event, ev.MappingStartEvent):
            return self.mapping(path, depth)
        raise self.fail(event, f"unexpected {type(event).__name__}")

    def mapping(self, path: Path, depth: int) -> dict[str, Json]:
        result: dict[str, Json] = {}
        while not isinstance(key_event := self.next(), ev.MappingEndEvent):
            self.check_node(key_event, depth + 1)
            if not isinstance(key_event, ev.ScalarEvent):
                raise self.fail(
                    key_event,
                    "complex mapping keys are not allowed",
                    "use a plain text key",
                )
            key = key_event.value
            if key_event.style is None and key == "<<":
                raise self.fail(
                    key_event, "merge keys (<<) are not allowed", "write the keys out"
                )
            if key_event.style is None and not isinstance(self.scalar(key_event), str):
                raise self.fail(
                    key_event, f"mapping key {key!r} is not text", f'quote it: "{key}"'
                )
            child = (*path, key)
            if key in result:
                first = self.source.key_positions[child]
                raise self.fail(
                    key_event,
                    f"duplicate key {key!r} (first at line {first[0]})",
                    "remove one of them",
                )
            self.source.key_positions[child] = (
                key_event.start_mark.line + 1,
                key_event.start_mark.column + 1,
            )
            result[key] = self.node(self.next(), child, depth + 1)
        return result

    def scalar(self, event: Any) -> Json:
        value: str = event.value
        if event.style == ">":
            return value.replace("\a", "")  # ruamel marks folds with BEL
        if event.style is not None or event.tag == "!":
            return value
        if _NULL.fullmatch(value):
            return None
        if _TRUE.fullmatch(value):
            return True
        if _FALSE.fullmatch(value):
            return False
        if _INT.fullmatch(value):
            digits = value.lstrip("+-")
            if len(digits) > 1 and digits.startswith("0"):
                raise self.fail(
                    event,
                    f"number {value!r} has a leading zero",
                    f"write {int(value)}, or quote it if it is text",
                )
            return int(value)
        if _INT_OTHER.fullmatch(value):
            raise self.fail(
                event,
                f"{value!r} is not a plain decimal number",
                "write it in decimal, or quote it",
            )
        if _FLOAT.fullmatch(value) and math.isfinite(float(value)):
            return float(value)
        if _FLOAT.fullmatch(value) or _SPECIAL_FLOAT.fullmatch(value):
            raise self.fail(
                event,
                f"{value!r} is not a finite number",
                "rules use finite numbers only",
            )
        if _DATE.fullmatch(value):
            raise self.fail(
                event,
                f"{value!r} looks like a date",
                f'quote it if it is text: "{value}"',
            )
        return value
