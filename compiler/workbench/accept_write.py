"""Accept's writes: each rules file it changes, checked to load and read back every answer written in it, shown as a diff and put in place whole, or left as it is with the reason.

Every file ``rulesc accept`` writes, a base file or a house rules' file (new
or not), goes the one way: its bytes read once (``Drafts.open``), its text
edited as the YAML says (``yaml_edit``), then ``write_all``: the text must
load as a rules file and hold each accepted answer where it was written; the
diff printed is of that very text; ``rewrite`` puts it in place atomically,
refusing a file with other hard links or changed since it was read.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import (
    Diagnostic,
    RulesError,
)
from ..common.fs_errors import (
    reading,
    writing,
)
from ..front.loader import load_text
from ..output import progress
from . import rewrite
from .yaml_edit import Path, compare_plain


@dataclass
class Draft:
    """One rules file accept writes: its bytes as read (None: a file not
    there), its text so far, and each answer written in it (path, value)."""

    before: bytes | None
    text: str
    answers: list[tuple[Path, Any]] = field(default_factory=list)


class Drafts:
    """The files of one run of accept, each read once, by shown path; those
    found changed since the build are ``stale``: never written."""

    def __init__(self, rules_dir: FsPath) -> None:
        self.rules_dir = rules_dir
        self.files: dict[str, Draft] = {}
        self.stale: set[str] = set()

    def path(self, shown: str) -> FsPath:
        return self.rules_dir.parent / shown

    def open(self, shown: str, new: Callable[[], str] | None = None) -> Draft:
        """The file's draft, read when first asked for (a file not there is
        made by ``new``, if given)."""
        if shown not in self.files:
            path = self.path(shown)
            with reading(path):
                there = new is None or os.path.lexists(path)
                raw = path.read_bytes() if there else None
            text = raw.decode("utf-8") if raw is not None else new() if new else ""
            self.files[shown] = Draft(raw, text)
        return self.files[shown]

    def refuse(self, shown: str, refused: list[Diagnostic], why: str) -> None:
        """Leave the file as it is, said once."""
        if shown not in self.stale:
            self.stale.add(shown)
            refused.append(unchanged(shown, why))


def unchanged(file: str, why: str) -> Diagnostic:
    """A rules file accept did not write, and why."""
    return Diagnostic(
        file,
        1,
        1,
        f"{file} was left as it is: {why}",
        "run rulesc accept again, or write its expect by hand",
    )


def write_all(
    drafts: Drafts, dry_run: bool, refused: list[Diagnostic]
) -> tuple[int, int]:
    """Write (``dry_run``: only show) every draft that changed; how many
    worked examples and files were (or would be) written."""
    todo = {
        shown: draft
        for shown, draft in sorted(drafts.files.items())
        if shown not in drafts.stale
        and draft.answers
        and (draft.before is None or draft.text.encode("utf-8") != draft.before)
    }
    for shown in todo:
        if not dry_run:
            progress.at_stake(shown)
    accepted = written = 0
    for shown, draft in todo.items():
        why = _unreadable(shown, draft)
        if why is not None:
            refused.append(unchanged(shown, why))
            continue
        print(diff_text(shown, _text(draft.before), draft.text), end="")
        if not dry_run:
            with writing(drafts.path(shown)), progress.step(shown) as now:
                why = rewrite.write(
                    drafts.path(shown), draft.before, draft.text.encode("utf-8")
                )
                now.written = why is None
            if why is not None:
                refused.append(unchanged(shown, why))
                continue
        accepted += len(draft.answers)
        written += 1
    return accepted, written


def _text(raw: bytes | None) -> str:
    return raw.decode("utf-8") if raw is not None else ""


def _unreadable(shown: str, draft: Draft) -> str | None:
    """Why the draft's text is not fit to write: it does not load as a rules
    file, or does not hold an answer where it was written (None: it is)."""
    try:
        data = load_text(draft.text.encode("utf-8"), shown).data
    except RulesError as exc:
        return f"written, it would not load ({exc.diagnostics[0].message})"
    for path, value in draft.answers:
        node: Any = data
        try:
            for step in path:
                node = node[step]
        except (LookupError, TypeError):
            node = None
        if not compare_plain(node, value):
            return "accept could not write an answer so that it reads back"
    return None


def diff_text(file: str, before: str, after: str) -> str:
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
