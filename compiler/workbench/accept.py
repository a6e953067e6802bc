"""``rulesc accept [--dry-run]``: take the worked examples' new answers as expected.

After an intended change (a house rule's figure), the worked examples that
pinned the old answers fail. This command runs every example, and for each one
whose answer changed, rewrites its ``expect`` in its rules file, in place: only
the values that changed are replaced, each where it is written, so comments,
quoting, flow or block style and every other line stay as they were
(``yaml_edit``), each text written so that it loads (``yaml_text``). An
example a system of house rules inherits is restated in the house rules'
files instead (``accept_house``). Every file is written the one way
(``accept_write``); it prints a unified diff of what it rewrote
(``--dry-run``: only the diff).

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
import enum
import re
from collections.abc import Mapping
from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import (
    Diagnostic,
    RulesError,
)
from ..examples import example_value, run_example
from ..front.loader import load_text
from ..front.model import (
    Example,
    Rule,
)
from ..lang.py_names import field_of
from . import rewrite
from .accept_house import Pack, inherited
from .accept_write import Drafts, write_all
from .workspace import cache_dir, open_workspace
from .yaml_edit import Edit, Path, apply, compare_plain, edits


def run(args: argparse.Namespace) -> int:
    rules_dir: FsPath = args.rules
    space = open_workspace(
        rules_dir, cache_dir(args), examples_must_hold=False, more=args.more_rules
    )
    drafts = Drafts(rules_dir)
    changes: dict[str, list[Edit]] = {}  # by base file: edits of what it read
    restate: list[tuple[Pack, Rule, Example, Any]] = []  # into house rules' files
    packs: dict[str, Pack] = {}
    refused: list[Diagnostic] = []
    with space.runtime() as runtime:
        for system in space.systems:
            module = runtime.module(system.id)
            for rule in system.rules:
                for ex in rule.examples:
                    failure = run_example(module, rule, ex)
                    if failure is None or ex.loc.file in drafts.stale:
                        continue
                    why = _refusal(ex, failure)
                    if why is not None:
                        refused.append(_refused(rule, ex, failure, why))
                        continue
                    new = plain(example_value(module, rule, ex), ex.expect)
                    if inherited(system, ex):  # never into the base's files
                        if system.id not in packs:
                            packs[system.id] = Pack(rules_dir, system, drafts)
                        restate.append((packs[system.id], rule, ex, new))
                        continue
                    file = ex.loc.file
                    draft = drafts.open(file)
                    try:
                        path = _example_path(space, rule, ex)
                    except (LookupError, RulesError):
                        path = None
                    if not _as_built(draft.before, file, path, ex.expect):
                        drafts.refuse(file, refused, rewrite.CHANGED)
                        continue
                    assert path is not None
                    changes.setdefault(file, []).extend(
                        edits(draft.text, path, ex.expect, new)
                    )
                    draft.answers.append((path, new))
    for file, found in changes.items():
        drafts.files[file].text = apply(drafts.files[file].text, found)
    for pack, rule, ex, new in restate:
        pack.restate(rule.id, ex.name, ex.expect, new, refused)
    accepted, written = write_all(drafts, args.dry_run, refused)
    verb = "would rewrite" if args.dry_run else "rewrote"
    print(
        f"accept: {verb} {accepted} worked example(s) in {written} file(s)"
        + (f"; {len(refused)} need a person (below)" if refused else "")
    )
    if refused:
        raise RulesError(refused)
    return 0


def _as_built(raw: bytes | None, file: str, path: Path | None, expect: Any) -> bool:
    """Whether ``raw`` holds ``expect`` at ``path`` (the file is as built)."""
    if path is None or raw is None:
        return False
    try:
        node: Any = load_text(raw, file).data
        for step in path:
            node = node[step]
    except (RulesError, LookupError, TypeError):
        return False
    return compare_plain(node, expect)


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
        attrs = _fields(value)
        keys = getattr(type(value), "_KEYS", attrs)  # the rules' names (round)
        return {
            key: plain(getattr(value, attr), None)
            for attr, key in zip(attrs, keys, strict=True)
        }
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
    return getattr(value, field_of(value, key), None)  # round: the attribute round_
