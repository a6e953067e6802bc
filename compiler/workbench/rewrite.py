"""Rewrite: replace a rules file's bytes whole, keeping what is not being changed.

``rulesc accept`` edits rules files in place. Whatever it does not edit stays as
it was: each line's ending (LF, CRLF or CR, mixed as they come), the file's mode,
and a symbolic link (the file it leads to is rewritten, the link is kept). A file
that changed since it was read (an editor saved it meanwhile) is not written, nor
is one with other hard links (a new file in its place would part them): each is
a reason, given back to be reported, and the file is left as it is. A new
file (a house rules' ``accepted.yaml``) is put in place whole, and only while
there is still none: one that appeared meanwhile is left as it is.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import tempfile
from pathlib import Path as FsPath

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def lines(text: str) -> list[str]:
    """The lines of ``text`` as YAML reads them (``\\n``, ``\\r\\n`` or ``\\r``
    ends one), each without its ending."""
    return [LINE_BREAK.sub("", line) for line in _LINE.findall(text)]


def break_at(text: str, index: int) -> str:
    """The line ending of the line holding ``index`` (the file's first one if that
    line has none, else ``\\n``)."""
    found = LINE_BREAK.search(text, index) or LINE_BREAK.search(text)
    return found.group() if found else "\n"


def _before_replace(target: FsPath) -> None:
    """Called after the new text is written beside ``target`` and before it is
    checked and put in place (tests change the file here)."""


CHANGED = "it changed since rulesc accept read it"


def write(path: FsPath, before: bytes | None, after: bytes) -> str | None:
    """``after`` in place of the file at ``path`` read as ``before`` (None: a
    file that was not there), by ``replace`` or ``create``."""
    return create(path, after) if before is None else replace(path, before, after)


def replace(path: FsPath, before: bytes, after: bytes) -> str | None:
    """Put ``after`` in place of the file at ``path`` (through a symbolic link:
    the file it leads to), whole or not at all, if it still holds ``before``;
    else, or when it has other hard links, why it was left as it is.

    An ``OSError`` (a full disk, a read-only folder) escapes with nothing left
    beside the file.
    """
    target = FsPath(os.path.realpath(path))
    st = os.stat(target)
    if st.st_nlink > 1:
        return (
            f"it has {st.st_nlink - 1} other hard link(s), which a rewritten file "
            "would no longer share"
        )
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(after)
        os.chmod(tmp, st.st_mode & 0o7777)
        _before_replace(target)
        if _changed(target, before, st):
            os.unlink(tmp)
            return CHANGED
        os.replace(tmp, target)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
    return None


def create(path: FsPath, after: bytes) -> str | None:
    """Put a new file ``after`` at ``path`` (its mode as the umask gives a new
    file), whole or not at all, if there is still nothing there (not even a
    symbolic link); else why it was left as it is.

    An ``OSError`` escapes as ``replace``'s does, with nothing left beside it.
    """
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(after)
        _before_replace(path)
        try:
            os.link(tmp, path)  # never over a file: one there is an error
        except FileExistsError:
            return CHANGED
        except OSError as exc:  # a file system without hard links
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            if os.path.lexists(path):
                return CHANGED
            os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return None


def _changed(target: FsPath, before: bytes, seen: os.stat_result) -> bool:
    """Whether ``target`` is no longer the file read as ``before``."""
    try:
        with open(target, "rb") as handle:
            now = handle.read(len(before) + 1)
            st = os.fstat(handle.fileno())
    except OSError:
        return True
    return now != before or (st.st_dev, st.st_ino) != (seen.st_dev, seen.st_ino)
