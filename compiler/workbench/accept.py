"""``rulesc accept [--dry-run]``: take the worked examples' new answers as expected.

After an intended change (a house rule's figure), the worked examples that
pinned the old answers fail. This command runs every example, and for each one
whose answer changed, rewrites its ``expect`` in its rules file, in place: only
the values that changed are replaced, each where it is written, so comments,
quoting, flow or block style and every other line stay as they were. It prints
a unified diff of what it rewrote (``--dry-run``: only the diff).

It does not accept what it cannot know to be intended:
- an example marked ``from_source`` (the source's own worked example): if the
  rules and the source disagree, that is an erratum to record, not an answer;
- an example that now raises, or that expected a raise and now answers, or
  that leaves scripted dice unused, or whose expect names a field the answer
  lacks: its call, dice or field names need a person.
Each of those is a located error (exit 1), after the others are written.
"""

from __future__ import annotations

import argparse
import difflib
import enum
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from .. import progress
from ..diagnostics import Diagnostic, RulesError
from ..examples import example_value, run_example
from ..fs_errors import reading, writing
from ..model import Example, Rule, System
from . import rewrite
from .accept_house import inherited, restatement, target
from .accept_house import new_text as restated_text
from .workspace import cache_dir, open_workspace

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` of a rules file with ``new``."""

    start: int
    end: int
    new: str


def run(args: argparse.Namespace) -> int:
    rules_dir: FsPath = args.rules
    space = open_workspace(
        rules_dir, cache_dir(args), examples_must_hold=False, more=args.more_rules
    )
    restate: dict[str, tuple[System, list[str]]] = {}  # by house rules' system
    edits: dict[str, list[Edit]] = {}
    read: dict[str, bytes] = {}  # each file's bytes, read once: edited and compared
    count: dict[str, int] = {}  # worked examples accepted, by file
    changed: set[str] = set()  # files no longer as they were built
    refused: list[Diagnostic] = []
    with space.runtime() as runtime:
        for system in space.systems:
            module = runtime.module(system.id)
            for rule in system.rules:
                for ex in rule.examples:
                    failure = run_example(module, rule, ex)
                    if failure is None or ex.loc.file in changed:
                        continue
                    why = _refusal(ex, failure)
                    if why is not None:
                        refused.append(_refused(rule, ex, failure, why))
                        continue
                    answer = example_value(module, rule, ex)
                    new = plain(answer, ex.expect)
                    if inherited(system, ex):  # never into the base's files
                        restate.setdefault(system.id, (system, []))[1].append(
                            restatement(rule.id, ex.name, new)
                        )
                        continue
                    file = ex.loc.file
                    if file not in read:
                        read[file] = _bytes(rules_dir, file)
                    try:
                        path = _example_path(space, rule, ex)
                    except (LookupError, RulesError):
                        path = None
                    text = _decoded(read[file], file, path, ex.expect)
                    if text is None:
                        refused.append(_unchanged(file, _CHANGED))
                        changed.add(file)
                        edits.pop(file, None)
                        continue
                    assert path is not None
                    edits.setdefault(file, []).extend(
                        _edits(text, path, ex.expect, new)
                    )
                    count[file] = count.get(file, 0) + 1
    accepted = written = 0
    for system, entries in restate.values():
        where, shown = target(rules_dir, system)
        with reading(where.parent):
            before = where.read_text(encoding="utf-8") if where.is_file() else None
            meta = (where.parent / "system.yaml").read_text(encoding="utf-8")
        after = restated_text(system, meta.split("\n", 1)[0], before, entries)
        print(_diff_text(shown, before or "", after), end="")
        if not args.dry_run:
            with writing(where), progress.step(shown) as now:
                where.write_text(after, encoding="utf-8")
                now.written = True
        accepted += len(entries)
        written += 1
    for file in sorted(edits):
        if not args.dry_run:
            progress.at_stake(file)
    for file, changes in sorted(edits.items()):
        before = read[file].decode("utf-8")
        after = apply(before, changes)
        print(_diff_text(file, before, after), end="")
        if args.dry_run:
            accepted += count[file]
            written += 1
            continue
        with writing(rules_dir.parent / file), progress.step(file) as now:
            why_not = rewrite.replace(
                rules_dir.parent / file, read[file], after.encode("utf-8")
            )
            now.written = why_not is None
        if why_not is not None:
            refused.append(_unchanged(file, why_not))
            continue
        accepted += count[file]
        written += 1
    verb = "would rewrite" if args.dry_run else "rewrote"
    print(
        f"accept: {verb} {accepted} worked example(s) in {written} file(s)"
        + (f"; {len(refused)} need a person (below)" if refused else "")
    )
    if refused:
        raise RulesError(refused)
    return 0


_CHANGED = "it changed since rulesc accept read it"


def _unchanged(file: str, why: str) -> Diagnostic:
    """A rules file accept did not write, and why."""
    return Diagnostic(
        file,
        1,
        1,
        f"{file} was left as it is: {why}",
        "run rulesc accept again, or write its expect by hand",
    )


def _diff_text(file: str, before: str, after: str) -> str:
    """The unified diff of a rewrite, one line of the file a line (whatever its
    ending)."""
    return "".join(
        line + "\n"
        for line in difflib.unified_diff(
            rewrite.lines(before),
            rewrite.lines(after),
            f"a/{file}",
            f"b/{file}",
            lineterm="",
        )
    )


def _decoded(raw: bytes, file: str, path: Path | None, expect: Any) -> str | None:
    """The text of ``raw``, if its node at ``path`` is still ``expect`` (the
    file is as it was built), else None."""
    from ..loader import load_text

    if path is None:
        return None
    try:
        node: Any = load_text(raw, file).data
        for step in path:
            node = node[step]
    except (RulesError, LookupError, TypeError):
        return None
    return raw.decode("utf-8") if compare_plain(node, expect) else None


def _refusal(ex: Example, failure: str) -> str | None:
    """Why an example that does not hold cannot simply take its new answer."""
    if ex.from_source:
        return (
            f"it is the source's own worked example ({ex.from_source}): where the "
            "rules and the source disagree, record an erratum instead"
        )
    if ex.raises or failure.startswith("raised"):
        return (
            "whether it raises changed: fix its call, or write expect or raises by hand"
        )
    if ", got no field " in failure:
        return "its expect names a field the answer does not have: fix the name"
    if failure.endswith("scripted dice were not used"):
        return "its scripted dice no longer fit the call: write them again"
    return None


def _refused(rule: Rule, ex: Example, failure: str, why: str) -> Diagnostic:
    return Diagnostic(
        ex.loc.file,
        ex.loc.line,
        ex.loc.col,
        f"worked example {ex.name!r} of rule {rule.qualified_id!r} was not "
        f"accepted: {failure}",
        why,
    )


def _example_path(space: Any, rule: Rule, ex: Example) -> Path:
    raw, base = space.raw(rule)
    for index, item in enumerate(raw.get("examples", [])):
        if item.get("name") == ex.name:
            return (*base, "examples", index, "expect")
    raise LookupError(ex.name)


def _bytes(rules_dir: FsPath, shown: str) -> bytes:
    with reading(rules_dir.parent / shown):
        return (rules_dir.parent / shown).read_bytes()


# -- the new answer, shaped as the old expect ------------------------------------


def plain(value: Any, like: Any) -> Any:
    """``value`` as rules data (labels as text, records as mappings), keeping to
    the shape of ``like``: only the fields it names, item by item."""
    if isinstance(like, Mapping) and value is not None:
        return {key: plain(_field(value, key), like[key]) for key in like}
    if isinstance(value, enum.Enum):
        return value.value
    if type(value).__name__ == "Dice" and hasattr(type(value), "FIELDS"):
        notation = str(value)  # dice compare by notation; a fixed number may be an int
        fixed = isinstance(like, int) and re.fullmatch(r"-?[0-9]+", notation)
        return int(notation) if fixed else notation
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(plain(k, None)): plain(v, None) for k, v in value.items()}
    if isinstance(value, list | tuple) and not _is_record(value):
        items = like if isinstance(like, list) and like else [None]
        return [plain(v, items[min(i, len(items) - 1)]) for i, v in enumerate(value)]
    if _is_record(value):
        return {name: plain(getattr(value, name), None) for name in _fields(value)}
    return str(value)


def _is_record(value: Any) -> bool:
    """A record of the runtime (a row, a result) or an event (a named tuple)."""
    return hasattr(type(value), "FIELDS") or hasattr(type(value), "_fields")


def _fields(value: Any) -> list[str]:
    kind = type(value)
    return list(kind.FIELDS if hasattr(kind, "FIELDS") else kind._fields)


def _field(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k == key or (isinstance(k, enum.Enum) and k.value == key):
                return v
        return None
    return getattr(value, key, None)


# -- edits in place ----------------------------------------------------------------


def _edits(text: str, path: Path, old: Any, new: Any) -> Iterator[Edit]:
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
    if block and isinstance(value, list) and value:
        return indent.join(f"- {flow(item)}" for item in value)
    if block and isinstance(value, Mapping) and value:
        return indent.join(
            f"{_string(str(k), '')}: {flow(v)}" for k, v in value.items()
        )
    return flow(value, old)


def compare_plain(old: Any, new: Any) -> bool:
    return type(old) is type(new) and old == new


def apply(text: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.new + text[edit.end :]
    return text


def node_spans(text: str) -> dict[Path, tuple[int, int]]:
    """Where each node of a YAML document starts and ends (character offsets)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.events import (
        AliasEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    spans: dict[Path, tuple[int, int]] = {}
    # a stack of [path, kind, next key or index, pending key, start, flow style,
    # end of the last node in it]
    stack: list[list[Any]] = []

    def here() -> Path | None:
        if not stack:
            return ()
        top = stack[-1]
        if top[1] == "seq":
            index = top[2]
            top[2] += 1
            return (*top[0], index)
        if top[3] is None:
            return None  # this node is a key
        key, top[3] = top[3], None
        return (*top[0], key)

    def ends(path: Path, start: int, end: int) -> None:
        spans[path] = (start, end)
        if stack:
            stack[-1][6] = end

    for event in YAML(typ="rt").parse(text):
        if isinstance(event, ScalarEvent | AliasEvent):
            path = here()
            if path is None:
                stack[-1][3] = getattr(event, "value", "")
                stack[-1][6] = event.end_mark.index
                continue
            end = event.end_mark.index
            if getattr(event, "style", None) in ("|", ">"):
                # a block scalar's mark runs on over the line break that ends it
                # and the next line's indent: the node ends with its last character
                while end > event.start_mark.index and text[end - 1] in " \t\r\n":
                    end -= 1
            ends(path, event.start_mark.index, end)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            path = here()
            assert path is not None, "complex keys are refused by the loader"
            kind = "map" if isinstance(event, MappingStartEvent) else "seq"
            start = event.start_mark.index
            stack.append([path, kind, 0, None, start, event.flow_style, None])
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            path, _, _, _, start, flow_style, last = stack.pop()
            # a block collection ends with its last node: not with the comments,
            # blank lines or spaces the parser took in after it
            block = not flow_style and last is not None
            ends(path, start, last if block else event.end_mark.index)
    return spans


def flow(value: Any, old_text: str = "") -> str:
    """``value`` written in YAML flow style, as the rules files write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value, old_text)
    if isinstance(value, Mapping):
        return (
            "{"
            + ", ".join(f"{_string(str(k), '')}: {flow(v)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return _string(str(value), old_text)


def _reads_back(value: str) -> bool:
    """Whether ``value`` written plain is read back as this very text (by the
    rules files' own reader: no ': ', no ' #', nothing it takes for a number)."""
    if not value or value != value.strip() or any(c in value for c in "{}[],\n"):
        return False
    from ..diagnostics import RulesError
    from ..loader import load_text

    try:
        data = load_text(f"v: {value}\n".encode(), "<value>").data
    except RulesError:
        return False
    return bool(data == {"v": value})


def _string(value: str, old_text: str) -> str:
    quote = old_text[:1]
    if quote == "'":
        return "'" + value.replace("'", "''") + "'"
    if quote != '"' and _reads_back(value):
        return value
    return json.dumps(value, ensure_ascii=False)
