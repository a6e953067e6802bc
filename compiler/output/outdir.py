"""Output folder: whether rulesc may write its output into a folder, checked before
anything is built or touched.

A build replaces the output folder whole, so it may only be a folder rulesc made
(its ``manifest.json`` says so), or an empty or missing one. Never the rules
folder, a folder inside it or holding it, a repository's root, a file, or a
folder of someone else's files.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path as FsPath

MANIFEST = "manifest.json"
_MARK = "by rulesc"


def made_by_rulesc(folder: FsPath) -> bool:
    """Whether ``folder`` holds the manifest a rulesc build writes (a plain file:
    not a link, nor a FIFO that would never end)."""
    try:
        if not stat.S_ISREG(os.lstat(folder / MANIFEST).st_mode):
            return False
        doc = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and str(doc.get("@generated", "")).startswith(_MARK)


def refusal(out: FsPath, rules_dir: FsPath) -> str | None:
    """Why rulesc must not write into ``out``, or None when it may."""
    target, rules = out.resolve(), rules_dir.resolve()
    shown = out.as_posix()
    if target.exists() and not target.is_dir():
        return f"{shown} is not a folder"
    if target == rules or target.is_relative_to(rules):
        return f"{shown} is the rules folder or inside it; the build would replace the rules"
    if rules.is_relative_to(target):
        return f"{shown} holds the rules folder; the build would replace it"
    if target == FsPath(target.anchor) or target == FsPath.home():
        return f"{shown} is the root of a file system or a home folder"
    if (target / ".git").exists():
        return f"{shown} is the root of a repository"
    if not target.is_dir() or made_by_rulesc(target):
        return None
    try:
        empty = next(target.iterdir(), None) is None
    except OSError as exc:
        return f"{shown} cannot be read: {exc.strerror or exc}"
    if empty:
        return None
    return f"{shown} holds files rulesc did not write (it has no rulesc {MANIFEST})"
