"""Environment problems: the machine said no (a full disk, a read-only folder...).

A full disk, a read-only or unreadable folder, a permission the OS refused: none
of these is a mistake in the rules nor a bug in rulesc. ``writing`` and
``reading`` turn an ``OSError`` raised inside them into an ``EnvironmentProblem``
naming the path the OS failed on, which ``rulesc`` prints as one line,
``rulesc: cannot write PATH: REASON`` (or ``cannot read``), with exit 1. Only
these two turn an ``OSError`` into that: any other escapes as an internal error.
Where the OS names no path (a failed write to an open file), ``naming`` adds the
file being written.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path as FsPath

from .visible import visible

# Only a write gets these: under ``reading`` they still say "cannot write".
_WRITE_ONLY = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})


class EnvironmentProblem(Exception):
    """rulesc could not read or write ``path``; ``reason`` is what the OS said."""

    def __init__(self, verb: str, path: str, reason: str) -> None:
        self.verb = verb
        self.path = path
        self.reason = reason
        super().__init__(f"cannot {verb} {path}: {reason}")

    @property
    def line(self) -> str:
        """The one line ``rulesc`` prints on stderr."""
        return visible(f"rulesc: {self}")


def shown(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """``path`` relative to the current folder when inside it, else absolute."""
    text = os.fsdecode(path)
    absolute = FsPath(os.path.abspath(text))
    try:
        return absolute.relative_to(FsPath.cwd()).as_posix()
    except (ValueError, OSError):
        return absolute.as_posix()


def problem(
    exc: OSError, verb: str, fallback: FsPath | str | None
) -> EnvironmentProblem:
    """The ``EnvironmentProblem`` that ``exc`` is, naming the path the OS failed on
    (or ``fallback`` when the OS names none, as for a write to an open file)."""
    if exc.errno in _WRITE_ONLY:
        verb = "write"
    path = exc.filename if exc.filename is not None else fallback
    if path is None:
        path = tempfile.gettempdir()
    reason = exc.strerror or (os.strerror(exc.errno) if exc.errno else str(exc))
    return EnvironmentProblem(verb, shown(path), reason or type(exc).__name__)


@contextmanager
def naming(path: FsPath | str) -> Iterator[None]:
    """An ``OSError`` raised inside names ``path`` when the OS named none (as for
    a write to an open file): it stays an ``OSError``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = os.fspath(path)
        raise


@contextmanager
def writing(path: FsPath | str) -> Iterator[None]:
    """Writing ``path`` (or under it): an ``OSError`` is an ``EnvironmentProblem``."""
    try:
        yield
    except OSError as exc:
        raise problem(exc, "write", path) from exc


@contextmanager
def reading(path: FsPath | str) -> Iterator[None]:
    """Reading ``path`` (or under it): an ``OSError`` is an ``EnvironmentProblem``.

    The only writes while rulesc reads and builds go to temporary folders (and to
    the build cache, which skips what it cannot write): a full disk or a
    read-only folder met there without a path named names the temporary folder.
    """
    try:
        yield
    except OSError as exc:
        fallback = tempfile.gettempdir() if exc.errno in _WRITE_ONLY else path
        raise problem(exc, "read", fallback) from exc
