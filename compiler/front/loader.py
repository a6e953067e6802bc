"""Load: read rules files into plain JSON trees that remember positions.

The tree is built from the parser's events, not from constructed objects, so only
plain JSON values come out (no ``ScalarBoolean``, dates or tagged objects), nothing
is ever instantiated from a tag, aliases cannot expand, and every node keeps its
1-based line and column. The bytes are checked before the parser sees them: a size
limit (read no further), UTF-8 only, no byte order mark, no control characters.
Every failure, including any exception the YAML library raises, is a located error.

Two parsers emit the events. libyaml's (PyYAML's ``CParser``, in C) reads every
file first; ruamel.yaml's pure-Python parser (YAML 1.2) is the reference: a file
the C parser refuses, or whose tree the builder refuses for any reason (an alias, a
tag, a directive, a duplicate key, a value JSON lacks...), is read again by ruamel
from the start, so every error a user sees is ruamel's, located as before, and the
C parser only ever supplies trees. tests/test_loader_parsers.py loads every corpus
file and mutations of them both ways and compares trees, positions and spans.
"""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import (
    Diagnostic,
    Path,
    RulesError,
    pointer,
)
from . import yaml_words

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_INT_DIGITS = 15

Json = Any  # dict[str, Json] | list[Json] | str | int | float | bool | None


@dataclass(slots=True)
class SourceFile:
    """One loaded rules file: its plain tree and where every node of it stands."""

    path: str  # as shown in diagnostics, e.g. rules/d20_scifi/cover.yaml
    data: Json
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    first_line: str = ""
    text: str = ""  # the file as read, to place a span inside a value
    # each scalar's source characters (start and end index into text) and style
    scalars: dict[Path, tuple[int, int, str | None]] = field(default_factory=dict)
    key_scalars: dict[Path, tuple[int, int, str | None]] = field(default_factory=dict)
    # nodes that another file wrote (a house rule's override, compiler/front/house.py):
    # their path here -> that file and the node's path in it
    borrowed: dict[Path, tuple[SourceFile, Path]] = field(default_factory=dict)

    def lender(self, path: Path) -> tuple[SourceFile, Path] | None:
        """The file that wrote the node at ``path`` (or a node around it) and
        its path there, when another file did; None when this one did."""
        for size in range(len(path), -1, -1):
            found = self.borrowed.get(path[:size])
            if found is not None:
                return found[0], (*found[1], *path[size:])
        return None

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
        self,
        path: Path,
        message: str,
        hint: str | None = None,
        *,
        key: bool = False,
        span: tuple[str, int, int] | None = None,
        notes: tuple[str, ...] = (),
    ) -> Diagnostic:
        """An error at the node at ``path``; with ``span`` (the node's text as
        the error read it, and a start and end offset into it), at the part of
        the node those offsets cover, when the file shows where that is. A node
        another file wrote (``borrowed``) is placed in that file."""
        if self.borrowed and (found := self.lender(path)) is not None:
            other, there = found
            return other.error(there, message, hint, key=key, span=span, notes=notes)
        line, col = self.where(path, key=key)
        end = self.end_col(path, line, col, key=key)
        if span is not None and (place := self.inside(path, *span)) is not None:
            line, col, end = place
        return Diagnostic(
            self.path, line, col, message, hint, pointer(path), end, notes
        )

    def end_col(
        self, path: Path, line: int, col: int, *, key: bool = False
    ) -> int | None:
        """Where on its line the scalar at ``path`` (or its key) that starts at
        ``line``:``col`` ends; None for a mapping or list, or a node elsewhere."""
        entry = (self.key_scalars if key else self.scalars).get(path)
        if entry is None or _line_col(self.text, entry[0]) != (line, col):
            return None
        stop = self.text.find("\n", entry[0])
        last = entry[1] if stop < 0 else min(entry[1], stop)
        last = len(self.text[entry[0] : last].rstrip()) + entry[0]
        return col + last - entry[0] if last > entry[0] else None

    def inside(
        self, path: Path, value: str, start: int, end: int
    ) -> tuple[int, int, int] | None:
        """Line, column and end column (exclusive, on that line) of the
        characters ``start..end`` of ``value``, the scalar at ``path``; None when
        the scalar is not ``value`` as written (an escape, a composed text)."""
        entry = self.scalars.get(path)
        if entry is None:
            return None
        at = _char_positions(self.text[entry[0] : entry[1]], entry[2], value)
        if at is None:
            return None
        inner = [
            at[i] for i in range(max(0, start), min(end, len(value))) if at[i] >= 0
        ]
        if not inner:  # an empty span: the next character shown, or just past the end
            after = [p for p in at[max(0, start) :] if p >= 0]
            before = [p for p in at[: max(0, start)] if p >= 0]
            if after:
                inner = [after[0]]
            elif before:
                inner = [before[-1] + 1]
            else:
                return None
        first, last = entry[0] + inner[0], entry[0] + inner[-1] + 1
        line, col = _line_col(self.text, first)
        stop = self.text.find("\n", first)
        if stop >= 0 and last > stop:
            last = stop
        return line, col, col + max(1, last - first)


_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE = re.compile(r"true|True|TRUE")
_FALSE = re.compile(r"false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+")
_INT_OTHER = re.compile(r"0o[0-7]+|0x[0-9a-fA-F]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
_DATE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?")
# The first characters those patterns can match (only _NULL matches nothing).
_SPECIAL_STARTS = frozenset("0123456789+-.~nNtTfF")
# Everything the YAML reader refuses, plus characters that would make line numbers
# ambiguous (lone CR, U+2028/U+2029) or hide in the text (BOM, C1 controls).
_BAD_CHAR = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# What a text may not hold even as an escape ("\0", "\x00", "\u0000"): NUL,
# which ends a string for C, terminals and many a database and tool the
# outputs reach (the other controls are written as escapes in every output).
_UNCARRIED = re.compile("\x00")


def refused(ch: str) -> bool:
    """Whether a rules file may not hold the character ``ch`` as itself (a
    carriage return alone included): written in a file, it must be an escape of
    a double-quoted text. ``rulesc accept`` writes by this list."""
    return _BAD_CHAR.match(ch) is not None


_SAFE_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\.yaml")
_YAML_TAG_PREFIX = "tag:yaml.org,2002:"


class _Fail(Exception):
    def __init__(self, line: int, col: int, message: str, hint: str | None) -> None:
        self.args = (line, col, message, hint)


def load_file(fs_path: FsPath, shown_path: str) -> SourceFile:
    """Load one rules file; raise ``RulesError`` with located diagnostics."""
    try:
        _check_file_name(fs_path.name)
        return _load(_read_bounded(fs_path), shown_path)
    except _Fail as fail:
        raise _located(fail, shown_path) from None


def link_problem(path: FsPath, rules_dir: FsPath) -> Diagnostic | None:
    """Why the symbolic link ``path`` under ``rules_dir`` is refused, or None.

    A link may lead to a file or folder inside the rules folder, nowhere else:
    one leading outside it, to nothing, or round in a loop is a located error
    naming the link. The target is never read, and its path is not shown.
    """
    if not path.is_symlink():
        return None
    shown = path.relative_to(rules_dir.parent).as_posix()
    hint = "copy the file or folder into the rules folder instead of linking to it"
    try:
        target = FsPath(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        return Diagnostic(
            shown,
            1,
            1,
            "symbolic link to nothing: its target does not exist",
            "remove the link, or make it lead to a rules file inside the rules folder",
        )
    except (OSError, RuntimeError):
        return Diagnostic(
            shown,
            1,
            1,
            "symbolic link that loops: following it never ends",
            "remove the link",
        )
    if not target.is_relative_to(FsPath(os.path.realpath(rules_dir))):
        return Diagnostic(
            shown,
            1,
            1,
            f"symbolic link leading outside the rules folder {rules_dir.name}/",
            hint,
        )
    return None


def load_text(raw: bytes, shown_path: str) -> SourceFile:
    """Load rules from bytes (for tests and tools); errors as in ``load_file``."""
    try:
        if len(raw) > MAX_FILE_BYTES:
            raise _too_big(len(raw))
        return _load(raw, shown_path)
    except _Fail as fail:
        raise _located(fail, shown_path) from None


def _located(fail: _Fail, shown_path: str) -> RulesError:
    line, col, message, hint = fail.args
    return RulesError([Diagnostic(shown_path, line, col, message, hint)])


def _check_file_name(name: str) -> None:
    if not _SAFE_FILE_NAME.fullmatch(name):
        raise _Fail(
            1,
            1,
            f"file name {name!r} may use only ASCII letters, digits, '_', '-' and '.'",
            "rename the file; its name appears in the generated code and docs",
        )


def _too_big(size: int | None) -> _Fail:
    shown = f"{size} bytes" if size is not None else "larger than that"
    return _Fail(
        1,
        1,
        f"file is {shown}; rules files may be at most {MAX_FILE_BYTES} bytes",
        "split the rules across several files",
    )


def _read_bounded(fs_path: FsPath) -> bytes:
    """The file's bytes, reading no more than one byte past the size limit."""
    try:
        if not stat.S_ISREG(os.stat(fs_path).st_mode):
            raise _Fail(1, 1, "not a regular file", "rules files are plain files")
        with open(fs_path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise _Fail(1, 1, f"cannot read the file: {exc.strerror}", None) from None
    if len(raw) > MAX_FILE_BYTES:
        raise _too_big(size if size > MAX_FILE_BYTES else None)
    return raw


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _decode(raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raise _Fail(
            1,
            1,
            "file starts with a byte order mark (U+FEFF)",
            "save it as UTF-8 without a BOM",
        )
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _Fail(1, 1, "file is UTF-16 or UTF-32, not UTF-8", "save it as UTF-8")
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
    bad = _BAD_CHAR.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        message, hint = _char_problem(bad.group()[0])
        raise _Fail(line, col, message, hint)
    return text


def _char_problem(ch: str) -> tuple[str, str]:
    code = ord(ch)
    if ch == "\r":
        return (
            "carriage return (U+000D) without a line feed",
            "save the file with LF (or CRLF) line endings",
        )
    kind = "control character" if unicodedata.category(ch) == "Cc" else "character"
    name = unicodedata.name(ch, "")
    shown = f"{kind} U+{code:04X}" + (f" ({name})" if name else "")
    return (
        f"{shown} is not allowed",
        f'remove it; if the text needs it, write it as "\\u{code:04x}" '
        "inside a double-quoted string",
    )


def _load(raw: bytes, shown_path: str) -> SourceFile:
    text = _decode(raw)
    first_line = text.split("\n", 1)[0]
    if FAST_PARSER and _fast_suits(text) and _fast_kit() is not None:
        source = SourceFile(shown_path, None, first_line=first_line, text=text)
        try:
            source.data = _Builder(source, text, _fast_events(text)).document()
        except (_Fail, _Refused):
            pass  # read again by the reference parser, for its exact error
        else:
            return source
    source = SourceFile(shown_path, None, first_line=first_line, text=text)
    source.data = _Builder(source, text, _reference_events(text)).document()
    return source


def _fast_suits(text: str) -> bool:
    """Whether libyaml may read ``text`` first: not when it holds a tab (libyaml,
    YAML 1.1, takes tabs where ruamel, YAML 1.2, refuses them) or does not end
    its last line (libyaml places what ends the file on a line after it)."""
    return "\t" not in text and (not text or text.endswith("\n"))


# libyaml's parser reads every file first (False: ruamel's alone, as a test does).
FAST_PARSER = True


class _Refused(Exception):
    """The C parser raised: the reference parser reads the file instead."""


class _Events:
    """The event classes of one parser, by the names both parsers give them."""

    def __init__(self, module: Any) -> None:
        self.StreamStartEvent = module.StreamStartEvent
        self.StreamEndEvent = module.StreamEndEvent
        self.DocumentEndEvent = module.DocumentEndEvent
        self.ScalarEvent = module.ScalarEvent
        self.SequenceStartEvent = module.SequenceStartEvent
        self.SequenceEndEvent = module.SequenceEndEvent
        self.MappingStartEvent = module.MappingStartEvent
        self.MappingEndEvent = module.MappingEndEvent
        self.AliasEvent = module.AliasEvent


@cache
def _fast_kit() -> tuple[Any, _Events] | None:
    """libyaml's parser and PyYAML's event classes; None when PyYAML was built
    without libyaml (then ruamel reads every file)."""
    try:
        from yaml import events
        from yaml._yaml import CParser
    except ImportError:
        return None
    return CParser, _Events(events)


@cache
def _reference_kit() -> tuple[Any, _Events]:
    # imported only when a file needs it (an error to place)
    from ruamel.yaml import YAML, events

    return YAML, _Events(events)


def _fast_events(text: str) -> tuple[Iterator[Any], _Events, bool]:
    """libyaml's events for ``text``, each as ruamel gives it (a plain scalar's
    style None). An empty value (``key:`` with nothing after it) is refused:
    where ruamel places it depends on the tokens and comments around it. The
    builder turns any exception the parser raises into ``_Refused``."""
    kit = _fast_kit()
    assert kit is not None
    parser_class, kinds = kit
    starts = (kinds.SequenceStartEvent, kinds.MappingStartEvent)
    ends = (kinds.SequenceEndEvent, kinds.MappingEndEvent)

    def events() -> Iterator[Any]:
        parser = parser_class(text)
        depth = 0
        try:
            while (event := parser.get_event()) is not None:
                style = getattr(event, "style", None)
                if depth == 0 and isinstance(event, kinds.ScalarEvent):
                    raise _Refused  # a whole file of one value: ruamel's to read
                if isinstance(event, starts):
                    depth += 1
                elif isinstance(event, ends):
                    depth -= 1
                elif style == "":
                    if event.value == "":
                        raise _Refused
                    event.style = None
                elif style in ("|", ">") and not _plain_block(text, event):
                    raise _Refused
                yield event
        finally:
            parser.dispose()

    return events(), kinds, True


# A block scalar's header as libyaml and ruamel read it alike: an indicator, a
# chomping sign and indentation digit, then nothing but spaces on the line.
_BLOCK_HEADER = re.compile(r"[|>](?:[-+]?[1-9]?|[1-9][-+]) *\n")
_BLANK_WITH_SPACES = re.compile(r"\n +(?=\n)")


def _plain_block(text: str, event: Any) -> bool:
    """Whether the block scalar of ``event`` is one both parsers read alike: a
    plain header, a first line that is not blank, and no blank line holding
    spaces (their rules for such lines differ)."""
    header = _BLOCK_HEADER.match(text, event.start_mark.index)
    if header is None:
        return False
    first = text[header.end() : text.find("\n", header.end())]
    if not first.strip(" "):
        return False
    found = _BLANK_WITH_SPACES.search(text, header.end() - 1, event.end_mark.index)
    return found is None


def _reference_events(text: str) -> tuple[Iterator[Any], _Events, bool]:
    """ruamel's pure-Python (YAML 1.2) events for ``text``."""
    yaml_class, kinds = _reference_kit()
    return iter(yaml_class(typ="safe", pure=True).parse(text)), kinds, False


def _parser_failure(exc: Exception, text: str, fallback: tuple[int, int]) -> _Fail:
    """A located error, in the project's words (``yaml_words``), for any
    exception the YAML parser raised."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    position = getattr(exc, "position", None)
    if mark is not None and isinstance(getattr(mark, "line", None), int):
        line, col = mark.line + 1, mark.column + 1
    elif isinstance(position, int) and 0 <= position <= len(text):
        line, col = _line_col(text, position)
    else:
        line, col = fallback
    problem = getattr(exc, "problem", None)
    if not isinstance(problem, str) or not problem:
        problem = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    problem = re.sub(r"\(('[^']*'),\)", r"\1", problem)
    context = getattr(exc, "context", None)
    began: Any = getattr(exc, "context_mark", None)
    lines = text.split("\n")
    (line, col), message, hint = yaml_words.said(
        yaml_words.Found(
            problem,
            context if isinstance(context, str) else "",
            (line, col),
            (began.line + 1, began.column + 1)
            if isinstance(getattr(began, "line", None), int)
            else None,
            lines[line - 1] if 0 < line <= len(lines) else "",
        )
    )
    return _Fail(line, col, message, hint)


def _bracketed(text: str, start: int) -> str | None:
    """The value from ``start`` to the comma, or end of the collection, outside
    its brackets (on one line): what a rules author meant, cut off at a comma
    inside them; None where its brackets do not close on the line."""
    depth, at = 0, start
    while at < len(text) and text[at] != "\n":
        char = text[at]
        if depth == 0 and char in ",}]":
            break
        depth += (char in "([") - (char in ")]")
        at += 1
    return text[start:at].rstrip(" ") if depth == 0 else None


def _quoted(text: str) -> str:
    """``text`` as a quoted YAML scalar (single quotes where it holds a double one)."""
    if '"' in text:
        return "'" + text.replace("'", "''") + "'"
    return f'"{text}"'


def _tag_text(tag: str) -> str:
    if tag.startswith(_YAML_TAG_PREFIX):
        return "!!" + tag.removeprefix(_YAML_TAG_PREFIX)
    return tag


def _directive_hint(name: str) -> str:
    if name == "%YAML":
        return (
            "remove the line; rules files are always read as YAML 1.2, where yes, "
            "no, on and off are text and 0755 is not a number"
        )
    return "remove the line"


class _Builder:
    """Turns the parser's event stream into a plain tree, rejecting what JSON lacks."""

    def __init__(
        self,
        source: SourceFile,
        text: str,
        events: tuple[Iterator[Any], _Events, bool],
    ) -> None:
        self.source = source
        self.text = text
        self.events, self.ev, self.fast = events
        self.reached = (1, 1)  # where the parser got to: the last event's end
        self.flow: str | None = None  # the flow collection read in, if any

    def next(self) -> Any:
        try:
            event = next(self.events)
        except Exception as exc:  # any parser error, of whatever class, is located
            if self.fast:  # ... by the reference parser
                raise _Refused from None
            raise _parser_failure(exc, self.text, self.reached) from None
        self.reached = (event.end_mark.line + 1, event.end_mark.column + 1)
        return event

    def document(self) -> Json:
        self.expect(self.ev.StreamStartEvent)
        start = self.next()
        if isinstance(start, self.ev.StreamEndEvent):
            return None
        self.check_directives(start)
        value = self.node(self.next(), (), 0)
        self.expect(self.ev.DocumentEndEvent)
        end = self.next()
        if not isinstance(end, self.ev.StreamEndEvent):
            raise self.fail(
                end, "only one YAML document per file", "remove the extra '---'"
            )
        return value

    def check_directives(self, start: Any) -> None:
        """Refuse every %-directive: %YAML 1.1 would change what values mean."""
        if getattr(start, "explicit", False):
            before = self.text.split("\n", start.start_mark.line)[:-1]
            for number, line in enumerate(before, 1):
                if line.startswith("%"):
                    name = line.split()[0]
                    raise _Fail(
                        number,
                        1,
                        f"YAML directive {name} is not allowed",
                        _directive_hint(name),
                    )
        if start.version is not None or start.tags:
            raise self.fail(
                start,
                "YAML directives are not allowed",
                "remove the %YAML or %TAG line",
            )

    def expect(self, kind: type) -> Any:
        event = self.next()
        if not isinstance(event, kind):
            raise self.fail(event, f"unexpected {type(event).__name__}")
        return event

    def fail(self, event: Any, message: str, hint: str | None = None) -> _Fail:
        mark = event.start_mark
        return _Fail(mark.line + 1, mark.column + 1, message, hint)

    def check_node(self, event: Any, depth: int) -> None:
        if isinstance(event, self.ev.AliasEvent):
            raise self.fail(
                event, "aliases (*name) are not allowed", "write the value out"
            )
        if getattr(event, "anchor", None) is not None:
            raise self.fail(
                event,
                "anchors (&name) are not allowed",
                "write the value out in each place",
            )
        if getattr(event, "tag", None) is not None:
            raise self.fail(
                event,
                f"explicit tag {_tag_text(event.tag)} is not allowed",
                "remove the tag; rules hold only text, whole numbers, true, false "
                "and null (quote text that looks like something else)",
            )
        if depth > MAX_DEPTH:
            raise self.fail(
                event,
                f"nesting deeper than {MAX_DEPTH} levels",
                "flatten the structure",
            )
        half = (
            _SURROGATE.search(event.value)
            if isinstance(event, self.ev.ScalarEvent)
            else None
        )
        if half is not None:
            raise self.fail(
                event,
                f"text holds a lone surrogate U+{ord(half.group()):04X}, which is not a character",
                "write the character itself, or one escape such as \\U0001F600",
            )
        if isinstance(event, self.ev.ScalarEvent) and _UNCARRIED.search(event.value):
            raise self.fail(
                event,
                "text holds a NUL character (U+0000), which the generated code, "
                "docs and tools cannot carry",
                "remove the escape (\\0, \\x00 or \\u0000) from the text",
            )

    def node(self, event: Any, path: Path, depth: int) -> Json:
        self.check_node(event, depth)
        self.source.positions[path] = (
            event.start_mark.line + 1,
            event.start_mark.column + 1,
        )
        if isinstance(event, self.ev.ScalarEvent):
            self.source.scalars[path] = (
                event.start_mark.index,
                event.end_mark.index,
                event.style,
            )
            self.check_comma(event)
            return self.scalar(event)
        outer = self.flow
        if getattr(event, "flow_style", False):
            self.flow = (
                "[ ] list"
                if isinstance(event, self.ev.SequenceStartEvent)
                else "{ } mapping"
            )
        try:
            if isinstance(event, self.ev.SequenceStartEvent):
                items: list[Json] = []
                while not isinstance(nxt := self.next(), self.ev.SequenceEndEvent):
                    items.append(self.node(nxt, (*path, len(items)), depth + 1))
                return items
            if isinstance(event, self.ev.MappingStartEvent):
                return self.mapping(path, depth)
        finally:
            self.flow = outer
        raise self.fail(event, f"unexpected {type(event).__name__}")

    def check_comma(self, event: Any) -> None:
        """Refuse a plain value of a flow collection cut off at a comma inside
        its brackets (``{then: max(a, b)}`` reads ``max(a`` and a key ``b)``),
        saying to quote the whole of it."""
        value = event.value
        if self.flow is None or event.style is not None:
            return
        if value.count("(") <= value.count(")"):
            return
        end = event.end_mark.index
        if not self.text[end:].lstrip(" \n").startswith(","):
            return
        whole = _bracketed(self.text, event.start_mark.index)
        if whole is None:  # (a value such as ':-(' stands as written)
            return
        raise self.fail(
            event,
            f"a comma inside the brackets of {whole!r} ends the value in a "
            f"{self.flow}: it reads {value!r}",
            f"quote the whole expression: {_quoted(whole)}",
        )

    def mapping(self, path: Path, depth: int) -> dict[str, Json]:
        result: dict[str, Json] = {}
        while not isinstance(key_event := self.next(), self.ev.MappingEndEvent):
            self.check_node(key_event, depth + 1)
            if not isinstance(key_event, self.ev.ScalarEvent):
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
                    "a key is written once in a mapping: remove one of them, "
                    "or merge what they hold",
                )
            where = (key_event.start_mark.line + 1, key_event.start_mark.column + 1)
            self.source.key_positions[child] = where
            self.source.key_scalars[child] = (
                key_event.start_mark.index,
                key_event.end_mark.index,
                key_event.style,
            )
            value = self.next()
            result[key] = self.node(value, child, depth + 1)
            if self.is_empty(value):
                # The parser places an empty value at the next token; the key is
                # where a reader looks for it.
                self.source.positions[child] = where
        return result

    def is_empty(self, event: Any) -> bool:
        return (
            isinstance(event, self.ev.ScalarEvent)
            and event.style is None
            and not event.value
        )

    def scalar(self, event: Any) -> Json:
        value: str = event.value
        if event.style is not None:
            return value
        if value and value[0] not in _SPECIAL_STARTS:
            return value  # text: every pattern below starts with one of those
        if _NULL.fullmatch(value):
            return None
        if _TRUE.fullmatch(value):
            return True
        if _FALSE.fullmatch(value):
            return False
        if _INT.fullmatch(value):
            return self.integer(event, value)
        if _INT_OTHER.fullmatch(value):
            raise self.fail(
                event,
                f"{value!r} is not a plain decimal number",
                "write it in decimal, or quote it if it is text",
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

    def integer(self, event: Any, value: str) -> int:
        digits = value.lstrip("+-")
        if len(digits) > MAX_INT_DIGITS:
            raise self.fail(
                event,
                f"number {_shorten(value)} has more than {MAX_INT_DIGITS} digits",
                f"rules numbers are at most {MAX_INT_DIGITS} digits long; quote it if it is text",
            )
        if len(digits) > 1 and digits.startswith("0"):
            raise self.fail(
                event,
                f"number {value!r} has a leading zero",
                f"write {int(value)}, or quote it if it is text",
            )
        return int(value)


def _char_positions(region: str, style: str | None, value: str) -> list[int] | None:
    """Where in ``region`` (a scalar as the file writes it) each character of
    ``value`` stands: -1 for white space (folded, indented away), None when the
    value is not its characters in order (an escape in a double-quoted text)."""
    start = 0
    if style in ("'", '"'):
        start = 1
    elif style in ("|", ">"):
        start = region.find("\n") + 1
        if start == 0:
            return None
    found: list[int] = []
    j = start
    for ch in value:
        if ch.isspace():
            found.append(-1)
            continue
        while j < len(region) and region[j] != ch:
            if not (region[j].isspace() or (style == "'" and region[j] == "'")):
                return None
            j += 1
        if j >= len(region):
            return None
        found.append(j)
        j += 1
    return found


def _shorten(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...{text[-10:]}"
