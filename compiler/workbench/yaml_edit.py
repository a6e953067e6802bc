"""YAML edit: where each node of a document stands, and a key or an item added to a mapping or list of it in the document's own style.

``rulesc accept`` changes rules files by text, never by dumping a tree: what it
does not change keeps its bytes. ``nodes`` places every node of a document;
``add`` writes one more key into a mapping, or one more item at the end of a
list, where the YAML says it belongs: in a flow collection (``[...]``,
``{...}``) after its last entry; in a block one on lines of its own after the
line its last entry ends on (after the lines a kept block scalar holds), at
the indentation of its entries, with the line ending of the line before. What
it adds is written in block style in a block collection (a ``Flow`` value in
flow style) and in flow style in a flow one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from . import rewrite
from .yaml_text import flow, string

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Node:
    """One node of a document: where it starts and ends (character offsets;
    a block collection ends with its last entry), its kind (``map``, ``seq``,
    ``scalar``), whether it is in flow style, its column, where the text it
    holds runs to (after a block scalar's line break and kept lines: the start
    of the next line), its entries' keys, and whether it ends the file without
    a line break that would change it (a block scalar not stripped)."""

    start: int
    end: int
    kind: str
    flow: bool
    col: int
    tail: int
    keys: tuple[str | int, ...] = ()
    open_end: bool = False


@dataclass
class _Open:
    """A collection being read: its path, kind, start event and style, its
    entries' keys so far, the key read and waiting for its value (and where
    that key ends), and where its last node ends and runs to."""

    path: Path
    kind: str
    begun: Any
    flow: bool
    keys: list[str | int] = field(default_factory=list)
    key: str | None = None
    key_end: int = 0
    last: Node | None = None


def nodes(text: str) -> dict[Path, Node]:
    """Every node of a YAML document, by its path."""
    from ruamel.yaml import YAML
    from ruamel.yaml.events import (
        AliasEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    found: dict[Path, Node] = {}
    stack: list[_Open] = []

    def here() -> Path | None:
        if not stack:
            return ()
        top = stack[-1]
        if top.kind == "seq":
            top.keys.append(len(top.keys))
            return (*top.path, top.keys[-1])
        if top.key is None:
            return None  # this node is a key
        key, top.key = top.key, None
        top.keys.append(key)
        return (*top.path, key)

    def ends(path: Path, node: Node) -> None:
        found[path] = node
        if stack:
            stack[-1].last = node

    for event in YAML(typ="rt").parse(text):
        if isinstance(event, ScalarEvent | AliasEvent):
            path = here()
            if path is None:
                stack[-1].key = getattr(event, "value", "")
                stack[-1].key_end = event.end_mark.index
                continue
            start, end = event.start_mark.index, event.end_mark.index
            node = Node(start, end, "scalar", False, _col(text, start), end)
            if getattr(event, "style", None) in ("|", ">"):
                node = _block_scalar(text, node)
            elif getattr(event, "style", None) is None and not getattr(
                event, "value", "x"
            ):
                # an empty value: the parser places it at the next token
                at = _empty_at(text, stack[-1]) if stack else start
                node = Node(at, at, "scalar", False, _col(text, at), at)
            ends(path, node)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            path = here()
            assert path is not None, "complex keys are refused by the loader"
            kind = "map" if isinstance(event, MappingStartEvent) else "seq"
            stack.append(_Open(path, kind, event, bool(event.flow_style)))
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            top = stack.pop()
            start = top.begun.start_mark.index
            col = top.begun.start_mark.column
            last = top.last
            if top.flow or last is None:
                node = Node(start, event.end_mark.index, top.kind, top.flow, col, 0)
                node = replace(node, tail=node.end)
            else:
                # a block collection ends with its last node: not with the
                # comments, blank lines or spaces the parser took in after it
                node = Node(start, last.end, top.kind, False, col, last.tail)
                node = replace(node, open_end=last.open_end)
            ends(top.path, replace(node, keys=tuple(top.keys)))
    return found


def _block_scalar(text: str, node: Node) -> Node:
    """A block scalar's node: its mark runs on over the line break that ends it,
    the lines it keeps, and the next line's indent; it ends with its last
    character and runs to the start of the line after it."""
    end = node.end
    while end > node.start and text[end - 1] in " \t\r\n":
        end -= 1
    breaks = list(rewrite.LINE_BREAK.finditer(text, end, node.end))
    if breaks:
        return replace(node, end=end, tail=breaks[-1].end())
    header = re.match(r"[|>][-+0-9]*", text[node.start :])
    stripped = header is not None and "-" in header.group()
    return replace(node, end=end, tail=node.end, open_end=not stripped)


def _col(text: str, index: int) -> int:
    return index - (max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1)


def _empty_at(text: str, within: _Open) -> int:
    """Where an empty value stands: just after its key's ``:`` (after its key,
    when no ``:`` is written, as in ``{a}``), or just after its ``-``."""
    if within.kind == "map":
        at = within.key_end
        while at < len(text) and text[at] in " \t":
            at += 1
        return at + 1 if text[at : at + 1] == ":" else within.key_end
    at = within.begun.start_mark.index if within.last is None else within.last.end
    while at < len(text) and text[at] != "-":  # past the entry before, its comment
        if text[at] == "#":
            found = rewrite.LINE_BREAK.search(text, at)
            at = found.start() if found else len(text)
        else:
            at += 1
    return at + 1


def node_spans(text: str) -> dict[Path, tuple[int, int]]:
    """Where each node of a YAML document starts and ends (character offsets)."""
    return {path: (node.start, node.end) for path, node in nodes(text).items()}


def add(text: str, path: Path, key: str | None, value: Any) -> str:
    """``text`` with ``value`` added to the collection at ``path``: under
    ``key`` in a mapping, at the end of a list (``key`` None)."""
    found = nodes(text)
    node = found[path]
    if node.kind != ("seq" if key is None else "map"):
        raise LookupError(path)
    entry = "" if key is None else f"{string(key)}: "
    if node.flow:
        if node.keys:
            at = found[(*path, node.keys[-1])].end
            return text[:at] + ", " + entry + flow(value) + text[at:]
        return text[: node.start + 1] + entry + flow(value) + text[node.start + 1 :]
    if node.keys:
        first = found[(*path, node.keys[0])]
        last = found[(*path, node.keys[-1])]
    else:  # an empty block collection is only ever written in flow style
        raise LookupError(path)
    if key is None:
        lines = _block(value, max(first.col, node.col + 2))
        lines[0] = " " * node.col + "-" + lines[0][node.col + 1 :]
    else:
        lines = _entry(key, value, node.col)
    return _after_line(text, last, lines)


def _after_line(text: str, last: Node, lines: list[str]) -> str:
    """``text`` with ``lines`` after the line ``last`` ends on (a block
    scalar: after the lines it runs over), each with that line's ending."""
    at = last.tail
    if at and text[at - 1] in "\r\n":  # at the start of a line
        ending = "\r\n" if text[at - 2 : at] == "\r\n" else text[at - 1]
    elif found := rewrite.LINE_BREAK.search(text, at):
        at, ending = found.end(), found.group()
    elif last.open_end:  # a line break after it would change its text
        raise LookupError("a block scalar ends the file")
    else:  # the last line, with no line ending
        ending = rewrite.break_at(text, last.end)
        return text + "".join(ending + line for line in lines)
    return text[:at] + "".join(line + ending for line in lines) + text[at:]


def _nested(value: Any) -> bool:
    return isinstance(value, Mapping | list) and bool(value)


def _entry(key: str, value: Any, col: int) -> list[str]:
    """``key: value`` at column ``col``, a nested value in block style below it."""
    pad = " " * col
    if not _nested(value):
        return [f"{pad}{string(key)}: {flow(value)}"]
    return [f"{pad}{string(key)}:", *_block(value, col + 2)]


def _block(value: Any, col: int) -> list[str]:
    """``value`` in block style, each line at column ``col`` (a list's items
    with their ``-`` there)."""
    if isinstance(value, Mapping) and value:
        return [line for k, v in value.items() for line in _entry(str(k), v, col)]
    if isinstance(value, list) and value:
        lines: list[str] = []
        for item in value:
            inner = (
                _block(item, col + 2)
                if _nested(item)
                else [" " * (col + 2) + flow(item)]
            )
            lines += [" " * col + "- " + inner[0][col + 2 :], *inner[1:]]
        return lines
    return [" " * col + flow(value)]


# -- edits in place ----------------------------------------------------------------


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` of a rules file with ``new``."""

    start: int
    end: int
    new: str


def edits(text: str, path: Path, old: Any, new: Any) -> Iterator[Edit]:
    """The smallest replacements that turn the node at ``path`` from ``old`` to
    ``new``: each changed scalar where it stands; a whole node, in flow style,
    only where its shape changed."""
    spans = node_spans(text)
    yield from _diff(text, spans, path, old, new)


def _diff(
    text: str, spans: dict[Path, tuple[int, int]], path: Path, old: Any, new: Any
) -> Iterator[Edit]:
    if compare_plain(old, new):
        return
    same_keys = (
        isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new)
    )
    same_length = (
        isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
    )
    if same_keys:
        for key in old:
            yield from _diff(text, spans, (*path, key), old[key], new[key])
        return
    if same_length:
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from _diff(text, spans, (*path, index), a, b)
        return
    start, end = spans[path]
    yield Edit(start, end, written(new, text, start, end))


def written(value: Any, text: str, start: int, end: int) -> str:
    """``value`` in place of ``text[start:end]``: a block list or mapping stays
    one, its items in flow style, at the old node's indentation."""
    old = text[start:end]
    block = old[:1] not in ("{", "[", "'", '"') and (
        rewrite.LINE_BREAK.search(old) is not None or old[:2] == "- "
    )
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    indent = rewrite.break_at(text, start) + " " * (start - line_start)
    if start == end:  # an empty value, after its ':' or '-' (or its key alone)
        return (" " if text[start - 1 : start] in (":", "-") else ": ") + flow(value)
    if block and isinstance(value, list) and value:
        return indent.join(f"- {flow(item)}" for item in value)
    if block and isinstance(value, Mapping) and value:
        return indent.join(f"{string(str(k))}: {flow(v)}" for k, v in value.items())
    return flow(value, old)


def compare_plain(old: Any, new: Any) -> bool:
    """Whether two values of rules data are the same (``1`` is not ``True``)."""
    return type(old) is type(new) and old == new


def apply(text: str, changes: list[Edit]) -> str:
    """``text`` with ``changes`` made (none overlapping)."""
    for edit in sorted(changes, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.new + text[edit.end :]
    return text
