"""Write: swap a complete new output tree into place atomically, one build at a time.

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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path as FsPath

from .fs_errors import naming

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


def write_tree(out_dir: FsPath, files: Mapping[str, bytes]) -> bool:
    """Make ``out_dir`` hold exactly ``files``; False when it already did.

    An ``OSError`` (a full disk, a read-only folder...) names the path the OS
    failed on, and leaves the old tree as it was, with nothing beside it.
    """
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with build_lock(out_dir):
        _recover(out_dir)
        old = _read_tree(out_dir)
        if len(old) == len(files) and all(
            old.get(rel, (None,))[0] == blob for rel, blob in files.items()
        ):
            return False
        staging = FsPath(
            tempfile.mkdtemp(prefix=_staging_prefix(out_dir), dir=out_dir.parent)
        )
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
            _swap(staging, out_dir)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return True


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
    """Undo what a killed build left behind; call only while holding the lock."""
    leftovers = sorted(out_dir.parent.glob(_staging_prefix(out_dir) + "*"))
    for path in leftovers:
        if path.name.endswith(".old") and not out_dir.exists():
            os.rename(path, out_dir)  # killed between the two fallback renames
    for path in leftovers:
        if path.exists():
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
