"""Write: swap a complete new output tree into place atomically, one build at a time.

Only rulesc's own files are replaced: whatever else is in the output folder
(``compiler.output.outtree``) is carried into the new tree as it is.

The new tree is written beside the output folder, then exchanged with it in one
``renameat2(RENAME_EXCHANGE)`` call on Linux (two renames elsewhere). A build that
fails or is killed before the exchange leaves the old tree untouched; a lock file
keeps two builds from swapping at once. Whatever a killed build left beside the
output (a staging folder, or the old tree set aside by the two-rename fallback) is
cleaned up or put back by the next build, under the lock.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path as FsPath

from ..common.diagnostics import (
    Diagnostic,
    RulesError,
)
from ..common.fs_errors import naming
from . import progress
from .changes import Changes, compare
from .outdir import (
    MANIFEST,
    made_by_rulesc,
)
from .outtree import (
    Tree,
    folders_of,
    listed,
    walk,
)

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
# renameat2 cannot exchange here (an old kernel, libc or file system): rename twice
_NO_EXCHANGE = frozenset({errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP})


def read_tree(out_dir: FsPath) -> dict[str, bytes]:
    """Every file under ``out_dir`` by its relative POSIX path."""
    return {rel: blob for rel, (blob, _) in _read_tree(out_dir).items()}


_Seen = tuple[int, int, int, int]  # device, inode, size, modification time (ns)


def _read_tree(out_dir: FsPath) -> dict[str, tuple[bytes, _Seen]]:
    """``read_tree``, with what each file was when it was read (``_link``).

    Folders named ``__pycache__`` are left out; links to files are read, links
    to folders are not followed.
    """
    found: dict[str, tuple[bytes, _Seen]] = {}
    if not out_dir.is_dir():
        return found
    folders = [("", os.fspath(out_dir))]
    while folders:
        prefix, folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append((f"{prefix}{entry.name}/", entry.path))
                elif entry.is_file():
                    with open(entry.path, "rb") as handle:
                        blob = handle.read()
                        st = os.fstat(handle.fileno())
                    seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
                    found[prefix + entry.name] = (blob, seen)
    return dict(sorted(found.items()))


@contextmanager
def build_lock(out_dir: FsPath) -> Iterator[None]:
    """Hold an exclusive lock for writing ``out_dir``."""
    lock_path = out_dir.parent / f".{out_dir.name}.lock"
    with open(lock_path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def write_tree(
    out_dir: FsPath, files: Mapping[str, bytes], *, shown: str | None = None
) -> bool:
    """``write_counted``; False when ``out_dir`` already held ``files``."""
    return write_counted(out_dir, files, shown=shown).written


def write_counted(
    out_dir: FsPath, files: Mapping[str, bytes], *, shown: str | None = None
) -> Changes:
    """Make ``out_dir`` hold exactly ``files``, and keep what is not rulesc's;
    the files changed, unchanged and removed (none written when it already did).

    What is not rulesc's (``compiler.output.outtree``: a tool's leftovers, anyone's
    files) is moved into the new tree as it is, before the swap (and whatever
    appeared meanwhile, after it). A file rulesc did not write where the build
    would write one is refused (``RulesError``), with nothing touched. An
    ``OSError`` (a full disk, a read-only folder...) names the path the OS
    failed on, and leaves the old tree as it was, with nothing beside it.
    ``shown`` is the folder as messages name it.
    """
    shown = out_dir.as_posix() if shown is None else shown
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with build_lock(out_dir):
        _recover(out_dir)
        before = listed(out_dir) if made_by_rulesc(out_dir) else None
        if before is None:  # missing or empty (``outdir``), or a test's own tree
            old, others, misplaced = _read_tree(out_dir), set[str](), False
        else:
            tree = walk(out_dir, set(files) | before)
            _refuse_foreign(shown, tree, before, files)
            old = {rel: (blob, tree.seen[rel]) for rel, blob in tree.files.items()}
            others, misplaced = set(tree.others), bool(tree.misplaced)
        if (
            not misplaced
            and len(old) == len(files)
            and all(old.get(rel, (None,))[0] == blob for rel, blob in files.items())
        ):
            return compare({}, {}, written=False)
        changes = compare({r: b for r, (b, _) in old.items()}, files, written=True)
        staging = FsPath(
            tempfile.mkdtemp(prefix=_staging_prefix(out_dir), dir=out_dir.parent)
        )
        stranded = False  # someone else's entries left in staging: keep it
        try:
            folders = {staging}
            for rel, blob in files.items():
                target = staging / rel
                if target.parent not in folders:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    folders.add(target.parent)
                was = old.get(rel)
                if (
                    was is None
                    or was[0] != blob
                    or not _link(out_dir / rel, target, was)
                ):
                    with naming(target):  # a failed write names no path
                        target.write_bytes(blob)
            os.chmod(staging, 0o755)
            with progress.step(f"{shown}/"):
                moved = _carry(out_dir, staging, others)
                try:
                    _swap(staging, out_dir)
                except BaseException:
                    stranded = _carry(staging, out_dir, moved) != moved
                    raise
                if before is not None:  # what appeared while the build wrote
                    late = walk(staging, set(files) | before, read=False).others
                    stranded = _carry(staging, out_dir, late) != sorted(late)
        finally:
            if not stranded:
                shutil.rmtree(staging, ignore_errors=True)
        return changes


def _refuse_foreign(
    shown: str, tree: Tree, before: set[str], files: Mapping[str, bytes]
) -> None:
    """Refuse to write where a file rulesc did not write is, unless it holds the
    very bytes the build writes there (a manifest taken from the other side of a
    merge leaves out files that the tree has, exactly as they are built)."""
    mine = before | folders_of(before)
    found = sorted(
        rel
        for rel in (*tree.files, *tree.misplaced)
        if rel not in mine and tree.files.get(rel) != files.get(rel)
    )
    if found:
        raise RulesError(
            [
                Diagnostic(
                    f"{shown}/{rel}",
                    1,
                    1,
                    f"the build would write {shown}/{rel}, which rulesc did not "
                    f"write (it is not in {shown}/{MANIFEST})",
                    "move it out of the way, then build again",
                )
                for rel in found
            ]
        )


def _carry(source: FsPath, target: FsPath, rels: Iterable[str]) -> list[str]:
    """Move each entry at ``rels`` from under ``source`` to the same place under
    ``target`` (its folders made as needed) where nothing is there yet; the
    ones moved, in order. A move the OS refuses stops there."""
    moved = []
    for rel in sorted(rels):
        if os.path.lexists(target / rel):
            continue
        try:
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.rename(source / rel, target / rel)
        except OSError:
            break
        moved.append(rel)
    return moved


def _link(source: FsPath, target: FsPath, was: tuple[bytes, _Seen]) -> bool:
    """Hard-link an unchanged file into the new tree instead of writing it again.

    Cheaper than a copy, and removing the old tree then frees nothing. The link
    must still be the very file that was read (``was``: its content and what it
    was then), unchanged since: else it is read again and compared (the file may
    have changed since it was read); False, with nothing left at ``target``,
    when it cannot be used.
    """
    blob, seen = was
    try:
        if not stat.S_ISREG(os.lstat(source).st_mode):
            return False  # the new tree holds plain files only
        os.link(source, target, follow_symlinks=False)
    except OSError:
        return False
    try:
        st = os.stat(target)
        if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) == seen:
            return True
        if target.read_bytes() == blob:
            return True
        target.unlink()
    except OSError:
        target.unlink(missing_ok=True)
    return False


def _staging_prefix(out_dir: FsPath) -> str:
    return f".{out_dir.name}.new-"


def _recover(out_dir: FsPath) -> None:
    """Undo what a killed build left behind; call only while holding the lock.

    Someone else's entries in a staging folder (moved there from the output
    folder before a swap, or left in the old tree after it) go back into the
    output folder; a staging folder is removed once nothing of theirs is in it.
    """
    leftovers = sorted(out_dir.parent.glob(_staging_prefix(out_dir) + "*"))
    for path in leftovers:
        if path.name.endswith(".old") and not out_dir.exists():
            os.rename(path, out_dir)  # killed between the two fallback renames
    for path in leftovers:
        if not path.exists():
            continue
        if out_dir.is_dir() and made_by_rulesc(path):
            others = sorted(walk(path, listed(path), read=False).others)
            if _carry(path, out_dir, others) != others:
                continue  # not all of it could go back: keep it
        shutil.rmtree(path, ignore_errors=True)


@cache
def _renameat2() -> object | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    libc = ctypes.CDLL(name, use_errno=True)
    return getattr(libc, "renameat2", None)


def _swap(staging: FsPath, out_dir: FsPath) -> None:
    """Put ``staging`` at ``out_dir``; the old tree, if any, ends up at ``staging``."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    exchange = _renameat2()
    if exchange is not None:
        result = exchange(  # type: ignore[operator]
            _AT_FDCWD,
            os.fsencode(staging),
            _AT_FDCWD,
            os.fsencode(out_dir),
            _RENAME_EXCHANGE,
        )
        if result == 0:
            return
        code = ctypes.get_errno()
        if code not in _NO_EXCHANGE:  # the OS refused the swap itself
            raise OSError(code, os.strerror(code), str(out_dir))
    aside = staging.with_name(staging.name + ".old")
    os.rename(out_dir, aside)
    try:
        os.rename(staging, out_dir)
    except BaseException:
        os.rename(aside, out_dir)  # the old tree back in place
        raise
    try:
        os.rename(aside, staging)  # removed with the staging folder
    except OSError:
        shutil.rmtree(aside, ignore_errors=True)
