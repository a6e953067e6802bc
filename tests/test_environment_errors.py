"""The environment is not a bug: a full disk, a read-only folder, a refused
permission give exit 1 and one line, ``rulesc: cannot write PATH: REASON``.

The suite runs as root, which permissions do not stop, so most tests inject the
OS's refusal: every call that writes (mkdir, open for writing, a write to an
open file, link, chmod, rename, replace, renameat2) is counted, and the Nth
raises ``OSError`` with an errno, for every N of a build and several errnos. A
real full and a real read-only tmpfs (mounted as root) check the same. The
output folder is left byte for byte as it was, with nothing beside it; a cache
that cannot be written is skipped and the output written all the same; only a
deliberate internal fault exits 3.
"""

from __future__ import annotations

import ctypes
import errno
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulesc import (
    cli,
    pipeline,
)
from rulesc.cli import main
from rulesc.common import fs_errors
from rulesc.front.validate import SCHEMA_DIR
from rulesc.output import (
    cache,
    writer,
)
from rulesc.output.writer import read_tree
from rulesc.workbench import watch

from .conftest import copy_rules, run_rulesc

CODES = (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EIO, errno.EDQUOT)
LINE = re.compile(r"rulesc: cannot (read|write) (\S+): (.+)")
EDIT = ("d20_scifi/cover.yaml", "title: Cover and concealment\n", "title: Cover!\n")


# rules/ alone, whatever house packs it lists: the tests of the cache's writes
# count the entries of a build of systems apart (a house build is one entry)
BASE = ("--rules", "rules")


@pytest.fixture(autouse=True)
def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESC_JOBS", "1")


@pytest.fixture
def in_copy(rules_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The rules copy, run from its project folder; schema/ is not written."""
    monkeypatch.chdir(rules_copy.parent)
    monkeypatch.setattr(cli, "_own_schemas", lambda: None)
    return rules_copy


def _edit(rules: Path, change: tuple[str, str, str] = EDIT) -> None:
    path = rules / change[0]
    text = path.read_text(encoding="utf-8")
    assert text.count(change[1]) == 1
    path.write_text(text.replace(change[1], change[2]), encoding="utf-8")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- the fault injector -----------------------------------------------------------


class _Failing:
    """An open file whose first write stores half of it, then fails as a full
    disk does: the OS names no path."""

    def __init__(self, real: Any, code: int) -> None:
        self._real = real
        self._code = code

    def write(self, data: Any) -> int:
        self._real.write(data[: len(data) // 2])
        raise OSError(self._code, os.strerror(self._code))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __enter__(self) -> _Failing:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()


class Injector:
    """Counts the calls that write; call number ``at`` fails with ``code``.

    ``style`` "open" fails the call itself (the OS names its path); "write" lets
    a file open and fails its first write (the OS names none).
    """

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.at: int | None = None
        self.code = errno.ENOSPC
        self.style = "open"
        self.active = True
        self.fired: tuple[str, str, str | None] | None = None  # kind, path, shown
        self.existed = False  # what the failed call made was there before

    def hit(self, kind: str, path: str) -> bool:
        if not self.active:
            return False
        n = len(self.calls)
        self.calls.append((kind, path))
        return n == self.at

    def error(self, path: str | None, path2: str | None = None) -> OSError:
        return OSError(self.code, os.strerror(self.code), path, None, path2)

    def install(self, mp: pytest.MonkeyPatch) -> None:
        inj = self
        real_open = io.open

        def opened(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if not any(c in mode for c in "wax+"):
                return real_open(file, mode, *args, **kwargs)
            if isinstance(file, int):  # os.fdopen of a temporary file
                path = os.readlink(f"/proc/self/fd/{file}")
                base = os.path.basename(path)
                # schemas.write names the schema its temporary file replaces
                shown = os.path.join(os.path.dirname(path), base[1:].rsplit(".", 1)[0])
            else:
                path = shown = os.fsdecode(os.fspath(file))
            if not inj.hit("open", path):
                return real_open(file, mode, *args, **kwargs)
            if inj.style == "write":
                inj.fired = ("write", path, shown)
                return _Failing(real_open(file, mode, *args, **kwargs), inj.code)
            inj.fired = ("open", path, path)
            if isinstance(file, int):
                os.close(file)
            raise inj.error(path)

        mp.setattr(io, "open", opened)
        mp.setattr("builtins.open", opened)

        def one_path(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
            def call(path: Any, *args: Any, **kwargs: Any) -> Any:
                shown = os.fsdecode(os.fspath(path))
                if inj.hit(kind, shown):
                    inj.fired = (kind, shown, shown)
                    inj.existed = os.path.exists(shown)
                    raise inj.error(shown)
                return real(path, *args, **kwargs)

            return call

        def two_paths(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
            def call(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
                shown = os.fsdecode(os.fspath(src))
                if inj.hit(kind, shown):
                    inj.fired = (kind, shown, shown)
                    raise inj.error(shown, os.fsdecode(os.fspath(dst)))
                return real(src, dst, *args, **kwargs)

            return call

        real_os_open = os.open

        def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                shown = os.fsdecode(os.fspath(path))
                if inj.hit("os.open", shown):
                    inj.fired = ("os.open", shown, shown)
                    raise inj.error(shown)
            return real_os_open(path, flags, *args, **kwargs)

        mp.setattr(os, "open", os_open)
        mp.setattr(os, "mkdir", one_path("mkdir", os.mkdir))
        mp.setattr(os, "chmod", one_path("chmod", os.chmod))
        mp.setattr(os, "link", two_paths("link", os.link))
        mp.setattr(os, "rename", two_paths("rename", os.rename))
        mp.setattr(os, "replace", two_paths("replace", os.replace))

        exchange = writer._renameat2()
        if exchange is None:
            return

        def renameat2(fd1: int, src: bytes, fd2: int, dst: bytes, flags: int) -> int:
            shown = os.fsdecode(dst)
            if inj.hit("renameat2", shown):
                inj.fired = ("renameat2", shown, shown)
                ctypes.set_errno(inj.code)
                return -1
            return exchange(fd1, src, fd2, dst, flags)  # type: ignore[operator,no-any-return]

        mp.setattr(writer, "_renameat2", lambda: renameat2)


def _listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def _temporaries(folder: Path) -> list[str]:
    """Temporary files or folders a write may have left under ``folder``."""
    return [
        name
        for name in _listing(folder)
        if ".new-" in name or "/.tmp-" in name or "/.rules." in name
    ]


# -- a project whose build must write -----------------------------------------------


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """generated/ holds the build of rules/ before ``EDIT``; rules/ holds it
    after; the cache holds both builds, so a build does nothing but write;
    schema/ (a copy) has one composed schema stale, so that it is written too."""
    root = tmp_path_factory.mktemp("project")
    rules = root / "rules"
    copy_rules(rules)
    schema = root / "schema"
    shutil.copytree(SCHEMA_DIR, schema)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.setenv("RULESC_JOBS", "1")
        mp.setattr(cli, "_own_schemas", lambda: None)
        _edit(rules)
        assert main(["build"]) == 0
        _edit(rules, (EDIT[0], EDIT[2], EDIT[1]))
        assert main(["build"]) == 0
        _edit(rules)
    (schema / "rules.schema.json").write_text("{}\n", encoding="utf-8")
    return root


@contextmanager
def _case(
    project: Path, tmp_path: Path, mp: pytest.MonkeyPatch, name: str
) -> Iterator[Path]:
    folder = tmp_path / name
    shutil.copytree(project, folder, symlinks=True)
    with mp.context() as inner:
        inner.chdir(folder)
        inner.setattr(cli, "_own_schemas", lambda: folder / "schema")
        yield folder


def _expected_line(inj: Injector) -> str:
    assert inj.fired is not None
    shown = inj.fired[2]
    assert shown is not None
    return f"rulesc: cannot write {fs_errors.shown(shown)}: {os.strerror(inj.code)}"


def _survivable(inj: Injector) -> bool:
    """A fault the build goes on after: a hard link falls back to a write, the
    set-aside old tree that cannot be renamed is removed, a folder that is
    there already is taken as made (``Path.mkdir(exist_ok=True)``), a fault
    never met."""
    if inj.fired is None:
        return True
    kind, path, _ = inj.fired
    return (
        kind == "link"
        or (kind == "rename" and path.endswith(".old"))
        or (kind == "mkdir" and inj.existed)
    )


def _cases(calls: list[tuple[str, str]]) -> list[tuple[int, int, str]]:
    """Every call number with errnos and styles in turn, and the first call of
    each kind with every errno in both styles."""

    def styles(n: int) -> tuple[str, ...]:
        return ("open", "write") if calls[n][0] == "open" else ("open",)

    cases = {
        (n, CODES[n % len(CODES)], styles(n)[(n // len(CODES)) % len(styles(n))])
        for n in range(len(calls))
    }
    firsts: dict[str, int] = {}
    for n, (kind, _) in enumerate(calls):
        firsts.setdefault(kind, n)
    for n in firsts.values():
        cases |= {(n, code, style) for code in CODES for style in styles(n)}
    return sorted(cases)


@pytest.mark.parametrize("swap", ["exchange", "two renames"])
def test_a_write_the_os_refuses_at_any_call_leaves_the_output_as_it_was(
    swap: str,
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old = read_tree(project / "generated")
    schema_old = read_tree(project / "schema")
    beside = sorted(os.listdir(project))
    if swap == "two renames":
        monkeypatch.setattr(writer, "_renameat2", lambda: None)

    with _case(project, tmp_path, monkeypatch, "dry") as folder:
        dry = Injector()
        with monkeypatch.context() as mp:
            dry.install(mp)
            assert _run(["build"], capsys)[0] == 0
        new = read_tree(folder / "generated")
        schema_new = read_tree(folder / "schema")
    assert new != old and schema_new != schema_old
    kinds = {kind for kind, _ in dry.calls}
    swapping = {"renameat2"} if swap == "exchange" else {"rename"}
    assert {"mkdir", "open", "link", "chmod", "os.open", "replace"} | swapping <= kinds

    failed = 0
    for n, code, style in _cases(dry.calls):
        label = f"call {n} ({dry.calls[n]}) {errno.errorcode[code]} {style}"
        with _case(project, tmp_path, monkeypatch, f"case{n}-{code}-{style}") as folder:
            inj = Injector()
            inj.at, inj.code, inj.style = n, code, style
            with monkeypatch.context() as mp:
                inj.install(mp)
                exit_code, out, err = _run(["build"], capsys)
            if _survivable(inj):
                assert (exit_code, err) == (0, ""), label
                assert read_tree(folder / "generated") == new, label
            else:
                failed += 1
                assert exit_code == 1, f"{label}: {err}"
                assert out == "", label
                assert err.splitlines() == [_expected_line(inj)], label
                assert not LINE.fullmatch(err.strip())[2].startswith("/"), label  # type: ignore[index]
                assert read_tree(folder / "generated") == old, label
            assert sorted(os.listdir(folder)) == beside, label
            assert _temporaries(folder) == [], label
            schemas = read_tree(folder / "schema")
            assert sorted(schemas) == sorted(schema_old), label
            for name, blob in schemas.items():  # each file replaced whole
                assert blob in (schema_old[name], schema_new[name]), label
    # The table mostly met real refusals (a hard link of an unchanged file is
    # survivable: it falls back to a write, however many files are unchanged).
    links = sum(1 for kind, _ in dry.calls if kind == "link")
    assert failed >= (len(dry.calls) - links) // 2


def test_the_message_names_the_path_relative_to_the_current_folder_or_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = tmp_path / "work"
    inside.mkdir()
    monkeypatch.chdir(inside)
    for code in CODES:
        reason = os.strerror(code)
        for path, shown in [
            (inside / "generated" / "a.py", "generated/a.py"),
            (Path("generated/b.md"), "generated/b.md"),
            (tmp_path / "elsewhere" / "c", (tmp_path / "elsewhere" / "c").as_posix()),
        ]:
            with (
                pytest.raises(fs_errors.EnvironmentProblem) as caught,
                fs_errors.writing(inside),
            ):
                raise OSError(code, reason, str(path))
            assert caught.value.line == f"rulesc: cannot write {shown}: {reason}"
            # no path from the OS: the one being written is named
            with (
                pytest.raises(fs_errors.EnvironmentProblem) as caught,
                fs_errors.writing(inside),
                fs_errors.naming(path),
            ):
                raise OSError(code, reason)
            assert caught.value.line == f"rulesc: cannot write {shown}: {reason}"
        # a full disk or a read-only folder met while reading is a write
        with (
            pytest.raises(fs_errors.EnvironmentProblem) as caught,
            fs_errors.reading(inside),
        ):
            raise OSError(code, reason, "rules/x")
        verb = "read" if code in (errno.EACCES, errno.EIO) else "write"
        assert caught.value.line == f"rulesc: cannot {verb} rules/x: {reason}"
    with (
        pytest.raises(fs_errors.EnvironmentProblem) as caught,
        fs_errors.writing(inside),
    ):
        raise OSError(errno.ENOSPC, "No space left on device", "a\x1bb")
    assert caught.value.line == "rulesc: cannot write a\\x1bb: No space left on device"


# -- the cache ----------------------------------------------------------------------


def test_the_cache_is_written_after_the_output(
    in_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    inj = Injector()
    with monkeypatch.context() as mp:
        inj.install(mp)
        assert _run(["build"], capsys)[0] == 0
    cache_dir = str(in_copy.parent / ".generated.cache")
    out_dir = str(in_copy.parent / "generated")
    staging = str(in_copy.parent / ".generated.new-")
    order = [
        "cache" if path.startswith(cache_dir) else "output"
        for _, path in inj.calls
        if path.startswith((cache_dir, out_dir, staging))
    ]
    assert "cache" in order and "output" in order
    assert order == sorted(order, key=lambda where: where == "cache"), order


def test_worker_processes_keep_their_entries_until_the_output_is_written(
    rules_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        shutil.copytree(rules_copy / "d20_scifi", rules_copy / f"d20_copy{n}")
        for path in (rules_copy / f"d20_copy{n}").glob("*.yaml"):
            text = re.sub(
                r"^system: d20_scifi$",
                f"system: d20_copy{n}",
                path.read_text(),
                flags=re.M,
            )
            path.write_text(text)
    monkeypatch.setenv("RULESC_JOBS", "2")
    monkeypatch.setattr(cache, "_PARALLEL_FROM", 2)
    store = tmp_path / "cache"
    built = cache.build(rules_copy, store, later=True)
    assert not store.exists() or _listing(store) == []  # nothing written yet
    built.remember()
    entries = _listing(store)
    assert any("/system/" in name for name in entries)
    sources = [name for name in entries if "/source/" in name]
    assert len(sources) == len(list(rules_copy.glob("*/*.yaml")))  # the workers' too
    assert dict(cache.build(rules_copy, store).files) == dict(built.files)


@pytest.mark.parametrize("code", CODES)
def test_a_cache_write_that_fails_is_removed_and_the_rest_skipped(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = {f"k{i}": {"value": i, "blob": bytes(100 * i)} for i in range(12)}
    dry = Injector()
    with monkeypatch.context() as mp:
        dry.install(mp)
        store = cache.Store(tmp_path / "dry", "f" * 64, later=True)
        for key, value in entries.items():
            store.save("system", key, value)
        store.flush()
    total = len(dry.calls)
    assert total >= 3 * len(entries)  # mkdir, mkstemp, write, replace for each
    for n in range(total):
        for style in ("open", "write"):
            root = tmp_path / f"n{n}-{style}"
            inj = Injector()
            inj.at, inj.code, inj.style = n, code, style
            with monkeypatch.context() as mp:
                inj.install(mp)
                store = cache.Store(root, "f" * 64, later=True)
                for key, value in entries.items():
                    store.save("system", key, value)
                store.flush()  # never raises
            assert all(".tmp-" not in name for name in _listing(root) if root.exists())
            if inj.fired is not None and not (inj.fired[0] == "mkdir" and inj.existed):
                assert store.broken
                assert len(inj.calls) == n + 1  # nothing written after the fault
            for key, value in entries.items():
                found = store.load("system", key, dict)
                assert found in (None, value)


@pytest.mark.parametrize("at", ["first", "middle", "last"])
def test_a_build_whose_cache_cannot_be_written_still_writes_the_output(
    at: str,
    in_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = in_copy.parent
    monkeypatch.chdir(root)
    monkeypatch.setattr(cli, "_own_schemas", lambda: None)
    reference = dict(pipeline.build(in_copy).files)
    remember = cache.Built.remember

    def counting(inj: Injector) -> Callable[[cache.Built], None]:
        """``Built.remember`` with ``inj`` counting (and failing) its writes alone."""
        inj.active = False

        def remember_counted(self: cache.Built) -> None:
            inj.active = True
            try:
                remember(self)
            finally:
                inj.active = False

        return remember_counted

    for out in ("dry", "dry2"):  # the second as the real one: templates compiled
        dry = Injector()
        with monkeypatch.context() as mp:
            mp.setattr(cache.Built, "remember", counting(dry))
            dry.install(mp)
            assert _run(["build", *BASE, "--out", out], capsys)[0] == 0
    inj = Injector()
    monkeypatch.setattr(cache.Built, "remember", counting(inj))
    writes = len(dry.calls)
    assert writes > 20
    inj.at = {"first": 0, "middle": writes // 2, "last": writes - 1}[at]
    inj.code = errno.ENOSPC
    with monkeypatch.context() as mp:
        inj.install(mp)
        code, out, err = _run(["build", *BASE], capsys)
    assert inj.fired is not None
    assert (code, err) == (0, "")
    assert out.startswith("ok: ")
    assert read_tree(root / "generated") == reference
    assert _temporaries(root) == []
    # the next build fills the cache
    assert _run(["build", *BASE], capsys)[0] == 0
    assert any("/build/" in name for name in _listing(root / ".generated.cache"))


# -- reading ------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["validate", "build", "check", "build --no-cache"])
@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO, errno.EPERM])
def test_a_rules_folder_that_cannot_be_listed(
    command: str,
    code: int,
    in_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    refused = str(in_copy / "d20_scifi")
    iterdir, scandir = Path.iterdir, os.scandir

    def listing(path: Path) -> Any:
        if os.path.abspath(path) == refused:
            raise OSError(code, os.strerror(code), str(path))
        return iterdir(path)

    def scanning(path: Any = ".") -> Any:
        if os.path.abspath(path) == refused:
            raise OSError(code, os.strerror(code), os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(Path, "iterdir", listing)
    monkeypatch.setattr(os, "scandir", scanning)
    exit_code, out, err = _run(command.split(), capsys)
    assert (exit_code, out) == (1, "")
    assert err == f"rulesc: cannot read rules/d20_scifi: {os.strerror(code)}\n"
    assert not (in_copy.parent / "generated").exists()


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO, errno.EISDIR])
def test_a_rules_file_that_cannot_be_read_is_a_located_error(
    code: int,
    in_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    refused = str(in_copy / "d20_scifi" / "cover.yaml")
    real_open = io.open

    def opened(file: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(file, int) and os.path.abspath(file) == refused:
            raise OSError(code, os.strerror(code), os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", opened)
    monkeypatch.setattr(cache, "_read", lambda path: None)  # the cache reads none
    for command in (["validate"], ["build"]):
        exit_code, _, err = _run(command, capsys)
        assert exit_code == 1
        assert err.splitlines() == [
            "rules/d20_scifi/cover.yaml:1:1: error: cannot read the file: "
            + os.strerror(code),
            "1 error",
        ]


def test_a_rules_file_that_is_a_folder_is_a_located_error(
    in_copy: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (in_copy / "d20_scifi" / "folder.yaml").mkdir()
    exit_code, _, err = _run(["build"], capsys)
    assert exit_code == 1
    assert err.splitlines()[0] == (
        "rules/d20_scifi/folder.yaml:1:1: error: not a regular file"
    )


# -- internal errors stay exit 3 -----------------------------------------------------


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("rulesc.pipeline.generate", RuntimeError("injected fault")),
        ("rulesc.pipeline.load_file", KeyError("injected fault")),
        ("rulesc.output.writer._swap", ValueError("injected fault")),
        ("rulesc.output.writer._recover", AttributeError("injected fault")),
    ],
)
def test_only_an_injected_internal_fault_exits_3(
    where: str,
    error: Exception,
    in_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run(["build", "--no-cache"], capsys)[0] == 0
    old = read_tree(in_copy.parent / "generated")
    _edit(in_copy)

    def fault(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(where, fault)
    exit_code, _, err = _run(["build", "--no-cache"], capsys)
    assert exit_code == 3
    lines = err.splitlines()
    assert lines[0] == f"rulesc: internal error: {type(error).__name__}: {error}"
    assert lines[1].startswith("This is a bug in rulesc")
    assert read_tree(in_copy.parent / "generated") == old
    assert _temporaries(in_copy.parent) == []


# -- build --watch ------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_watch_reports_a_refused_write_and_goes_on(
    code: int,
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with _case(project, tmp_path, monkeypatch, "watch") as folder:
        old = read_tree(folder / "generated")
        inj = Injector()
        inj.at, inj.code = 1, code  # the lock file

        def changed(*args: Any) -> str | None:
            inj.active = False  # the disk was cleared; the rules saved again
            return None

        monkeypatch.setattr(watch, "_wait_for_change", changed)
        with monkeypatch.context() as mp:
            inj.install(mp)
            argv = ["build", "--watch", "--max-builds", "1", "--poll", "0.01"]
            exit_code, out, err = _run(argv, capsys)
            assert exit_code == 1
            assert err.splitlines() == [_expected_line(inj)]
            assert out.splitlines()[1].endswith("] generated/ was left as it was")
            assert read_tree(folder / "generated") == old
            assert _temporaries(folder) == []
            inj.calls.clear()
            inj.active = True
            argv[3] = "2"
            exit_code, out, err = _run(argv, capsys)
        assert (exit_code, err) == (0, _expected_line(inj) + "\n")
        assert "] ok: " in out.splitlines()[-1]
        assert read_tree(folder / "generated") != old


# -- a real full disk and a real read-only folder ------------------------------------


@contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` at ``where``. The suite runs as root: a machine that
    cannot mount one fails here, never skips."""
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"cannot mount a tmpfs (run as root): {done.stderr}"
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def _fill(disk: Path, leave: int = 0) -> None:
    """Fill ``disk`` until only ``leave`` bytes are free."""
    info = os.statvfs(disk)
    free = info.f_bavail * info.f_frsize
    with open(disk / "filler", "wb") as out:
        out.write(bytes(max(free - leave, 0)))
    if leave == 0:
        with pytest.raises(OSError) as caught, open(disk / "more", "wb") as out:
            out.write(bytes(1 << 16))
            out.flush()
        assert caught.value.errno == errno.ENOSPC
        (disk / "more").unlink()


def test_a_real_full_disk(rules_copy: Path) -> None:
    root = rules_copy.parent
    # room for two outputs (the old one stays until the swap) and the cache
    with _tmpfs(root / "disk", "32m") as disk:
        first = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert first.returncode == 0, first.stderr
        old = read_tree(disk / "generated")
        cached = _listing(disk / ".generated.cache")
        _fill(disk)
        _edit(rules_copy)
        done = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert done.returncode == 1, done.stderr
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        found = LINE.fullmatch(lines[0])
        assert found is not None, lines
        assert found[1] == "write" and found[3] == "No space left on device"
        assert found[2].startswith("disk/.generated.new-"), lines
        assert read_tree(disk / "generated") == old
        assert _temporaries(disk) == []
        assert _listing(disk / ".generated.cache") == cached  # never reached
        (disk / "filler").unlink()
        again = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert again.returncode == 0, again.stderr
        assert read_tree(disk / "generated") == dict(pipeline.build(rules_copy).files)


def test_a_real_disk_with_room_for_the_output_but_not_the_cache(
    rules_copy: Path,
) -> None:
    root = rules_copy.parent
    reference = dict(pipeline.build(rules_copy).files)
    room = sum(-(-len(blob) // 4096) * 4096 for blob in reference.values())
    # room for the output and a cache entry of it, once the filler is gone
    with _tmpfs(root / "disk", "32m") as disk:
        _fill(disk, leave=room + (64 << 10))
        done = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert (done.returncode, done.stderr) == (0, "")
        assert read_tree(disk / "generated") == reference
        assert _temporaries(disk) == []
        entries = _listing(disk / ".generated.cache")
        assert not any("/build/" in name for name in entries)  # it did not fit
        (disk / "filler").unlink()
        again = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert (again.returncode, again.stderr) == (0, "")
        assert any("/build/" in name for name in _listing(disk / ".generated.cache"))


def test_a_real_read_only_folder(rules_copy: Path) -> None:
    root = rules_copy.parent
    with _tmpfs(root / "disk", "8m") as disk:
        first = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert first.returncode == 0, first.stderr
        old = read_tree(disk / "generated")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        _edit(rules_copy)
        done = run_rulesc("build", *BASE, "--out", "disk/generated", cwd=root)
        assert done.returncode == 1, done.stderr
        assert done.stderr == (
            "rulesc: cannot write disk/.generated.lock: Read-only file system\n"
        )
        assert read_tree(disk / "generated") == old
        assert sorted(os.listdir(disk)) == [
            ".generated.cache",
            ".generated.lock",
            "generated",
        ]
        assert (
            run_rulesc("check", *BASE, "--out", "disk/generated", cwd=root).returncode
            == 1
        )
    assert sys.platform == "linux"
