"""Output tree: every entry of an output folder, its type, and whose it is.

An output folder holds rulesc's outputs (the files a build writes, and those its
``manifest.json`` lists from the build before), the folders they are in, the
leftovers of tools run on it (``LEFTOVERS``) and nothing else: any other entry
is someone else's. A build carries those over into the new tree untouched;
``rulesc check`` fails on them, as unknown.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path as FsPath

from ..common.diagnostics import (
    REMEDY,
    Diagnostic,
)
from .outdir import MANIFEST

# Folders tools leave in an output folder: Python's bytecode cache (anywhere),
# npm's packages (anywhere), and what ``pip install`` of the folder leaves at its top.
LEFTOVERS = "__pycache__/, node_modules/, build/ and *.egg-info/ (at the top)"


def is_leftover(rel: str, mode: int) -> bool:
    """Whether the entry at ``rel`` (of type ``mode``) is a tool's leftover folder."""
    if not stat.S_ISDIR(mode):
        return False
    name = rel.rsplit("/", 1)[-1]
    if name in ("__pycache__", "node_modules"):
        return True
    return "/" not in rel and (name == "build" or name.endswith(".egg-info"))


def kind(mode: int) -> str:
    """What an entry is, in words."""
    for test, word in (
        (stat.S_ISREG, "file"),
        (stat.S_ISDIR, "folder"),
        (stat.S_ISLNK, "symbolic link"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "device"),
        (stat.S_ISBLK, "device"),
    ):
        if test(mode):
            return word
    return "special file"


def listed(folder: FsPath) -> set[str]:
    """The files the manifest in ``folder`` lists (none when it has no readable one)."""
    try:
        if not stat.S_ISREG(os.lstat(folder / MANIFEST).st_mode):
            return set()  # a link or a FIFO is no manifest
        doc = json.loads((folder / MANIFEST).read_bytes())
        files = doc["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return set()
    if not isinstance(files, dict):
        return set()
    return {p for p in files if isinstance(p, str)} | {MANIFEST}


@dataclass
class Tree:
    """An output folder seen against the paths that are rulesc's (``owned``)."""

    files: dict[str, bytes] = field(default_factory=dict)  # owned, plain files
    # what each of ``files`` was when read: device, inode, size, modification time
    seen: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    misplaced: dict[str, str] = field(default_factory=dict)  # owned, not a file
    others: dict[str, int] = field(default_factory=dict)  # someone else's, by mode

    def unknown(self) -> dict[str, str]:
        """The entries neither rulesc's nor a leftover, with what each is."""
        return {
            rel: kind(mode)
            for rel, mode in self.others.items()
            if not is_leftover(rel, mode)
        }


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder the files at ``paths`` are in, as relative paths."""
    found = set()
    for path in paths:
        parts = path.split("/")[:-1]
        for n in range(1, len(parts) + 1):
            found.add("/".join(parts[:n]))
    return found


def walk(out_dir: FsPath, owned: set[str], *, read: bool = True) -> Tree:
    """Every entry of ``out_dir``, not following symbolic links: the owned plain
    files (their bytes when ``read``), the owned paths holding something else,
    and the topmost entry of everything else (a folder of someone else's is one
    entry, not descended into)."""
    tree = Tree()
    if not out_dir.is_dir():
        return tree
    folders = folders_of(owned)
    pending = [("", os.fspath(out_dir))]
    while pending:
        prefix, folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            continue  # removed meanwhile
        for entry in entries:
            rel = prefix + entry.name
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
                if rel in owned and stat.S_ISREG(mode) and read:
                    blob, st = _read(entry.path)
                    mode = st.st_mode
                    if stat.S_ISREG(mode):
                        tree.files[rel] = blob
                        tree.seen[rel] = (
                            st.st_dev,
                            st.st_ino,
                            st.st_size,
                            st.st_mtime_ns,
                        )
                        continue
            except FileNotFoundError:
                continue  # removed meanwhile
            if rel in owned and stat.S_ISREG(mode):
                tree.files[rel] = b""
            elif rel in owned:
                tree.misplaced[rel] = kind(mode)
            elif rel in folders and stat.S_ISDIR(mode):
                pending.append((rel + "/", entry.path))
            elif rel in folders:
                tree.misplaced[rel] = kind(mode)
            else:
                tree.others[rel] = mode
    tree.files = dict(sorted(tree.files.items()))
    return tree


def _read(path: str) -> tuple[bytes, os.stat_result]:
    """The bytes of the plain file at ``path`` and what it is; only what it is
    if it is no longer a plain file (made a link or a FIFO since it was seen)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        return b"", os.lstat(path)  # a symbolic link now
    with open(fd, "rb") as handle:
        st = os.fstat(fd)
        blob = handle.read() if stat.S_ISREG(st.st_mode) else b""
    return blob, st


def foreign(shown_out: str, tree: Tree, fresh: Mapping[str, bytes]) -> list[Diagnostic]:
    """Each entry of the output folder that is not rulesc's nor a leftover, and
    each of rulesc's paths that holds something other than what it writes."""
    problems = [
        Diagnostic(
            f"{shown_out}/{rel}",
            1,
            1,
            f"unknown {what} in {shown_out}/: rulesc does not write it",
            f"remove it: {shown_out}/ holds only what rulesc writes, and the "
            f"leftovers {LEFTOVERS}",
        )
        for rel, what in sorted(tree.unknown().items())
    ]
    folders = folders_of(fresh)
    problems += [
        Diagnostic(
            f"{shown_out}/{rel}",
            1,
            1,
            f"{shown_out}/{rel} is a {what} where rulesc writes a "
            f"{'folder' if rel in folders else 'file'}",
            REMEDY,
        )
        for rel, what in sorted(tree.misplaced.items())
    ]
    return problems


def as_compared(tree: Tree, fresh: Mapping[str, bytes]) -> dict[str, bytes]:
    """The output folder's files to compare with ``fresh``: a path ``foreign``
    reports (a link, a FIFO... where rulesc writes) is not reported again."""
    found = dict(tree.files)
    for rel in tree.misplaced:
        for path in fresh:
            if path == rel or path.startswith(rel + "/"):
                found[path] = fresh[path]
    return found
