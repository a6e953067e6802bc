"""The output folder, entry by entry: ``rulesc check`` fails on every entry that is
not rulesc's nor a tool's leftover (a file, folder, link, FIFO, socket), and on
a path of rulesc's holding something else; a build replaces only rulesc's own
files and carries everything else over byte for byte."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc import cli
from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.common.diagnostics import RulesError
from rulesc.front import schemas
from rulesc.output import writer
from rulesc.output.outtree import (
    folders_of,
    foreign,
    listed,
    walk,
)
from rulesc.output.writer import write_tree

from .conftest import ROOT

SETTINGS = settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _manifest(files: dict[str, bytes]) -> dict[str, bytes]:
    doc = {"@generated": "by rulesc - DO NOT EDIT", "files": dict.fromkeys(files, "x")}
    return {**files, "manifest.json": json.dumps(doc).encode()}


OLD = _manifest(
    {
        "rulebook/a.py": b"a\r\n",
        "rulebook/gone.py": b"gone\n",
        "docs/s/r.md": b"r\n",
        "docs/old/x.md": b"x\n",
        "js/a.js": b"a\n",
    }
)
NEW = _manifest(
    {
        "rulebook/a.py": b"a\n",
        "docs/s/r.md": b"r\n",
        "docs/s/q.md": b"q\n",
        "js/a.js": b"a2\n",
        "js/b.js": b"b\n",
    }
)

# -- generated trees of other entries ----------------------------------------------

KINDS = ["file", "folder", "link in", "link out", "dangling link", "fifo", "socket"]
LEFTOVER_NAMES = ["__pycache__", "node_modules", "build", "pkg.egg-info"]
# where an entry may go: inside a folder of the output, or one of someone else's
PLACES = ["", "rulebook/", "docs/", "docs/s/", "docs/old/", "js/", "notes/"]
NAMES = ["x", "notes.txt", "a.pyc", "r.md.bak", *LEFTOVER_NAMES]

Entry = tuple[str, str]  # relative path, kind


@st.composite
def others(draw: st.DrawFn) -> list[Entry]:
    """Entries rulesc does not write, at paths it does not write."""
    found: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 6))):
        rel = draw(st.sampled_from(PLACES)) + draw(st.sampled_from(NAMES))
        taken = rel in found or rel in NEW or rel in OLD or rel in folders_of(NEW)
        if taken or any(rel.startswith(p + "/") for p in found):
            continue
        if any(p.startswith(rel + "/") for p in found) or rel.startswith("notes/"):
            continue
        found[rel] = draw(st.sampled_from(KINDS))
    return sorted(found.items())


def _make(root: Path, rel: str, kind: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "file":
        path.write_bytes(f"{rel}\r\n".encode())
    elif kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_bytes(b"inside\n")
    elif kind == "link in":
        path.symlink_to("../" * rel.count("/") + "rulebook/a.py")
    elif kind == "link out":
        path.symlink_to("/etc/hostname")
    elif kind == "dangling link":
        path.symlink_to("nowhere")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(os.fspath(path))


def _seen(root: Path, rel: str) -> Any:
    """What the entry at ``rel`` is: its type and content, byte for byte."""
    path = root / rel
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(mode):
        return ("folder", sorted((p.name, p.read_bytes()) for p in path.iterdir()))
    if stat.S_ISREG(mode):
        return ("file", path.read_bytes())
    return (stat.S_IFMT(mode), None)


def _is_leftover(rel: str, kind: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    if kind != "folder":
        return False
    return name in ("__pycache__", "node_modules") or (
        "/" not in rel and (name == "build" or name.endswith(".egg-info"))
    )


@contextmanager
def _folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:  # short: a socket's path
        yield Path(tmp) / "out"


def _unknown_lines(
    shown: str, entries: list[Entry], base: dict[str, bytes]
) -> list[str]:
    """What check says of ``entries`` made in a build of ``base``: each is named
    by its topmost folder that is not one of the build's."""
    words = {"link in": "symbolic link", "link out": "symbolic link"}
    words |= {"dangling link": "symbolic link", "fifo": "FIFO"}
    folders = folders_of(base)
    found = set()
    for rel, kind in entries:
        parts = rel.split("/")
        top = next(
            "/".join(parts[:n])
            for n in range(1, len(parts) + 1)
            if "/".join(parts[:n]) not in folders
        )
        if top != rel:
            kind = "folder"
        if not _is_leftover(top, kind):
            found.add(
                f"{shown}/{top}: unknown {words.get(kind, kind)} in {shown}/: "
                "rulesc does not write it"
            )
    return sorted(found)


@SETTINGS
@given(others(), st.sets(st.sampled_from(sorted(NEW)), max_size=2))
def test_check_names_every_entry_that_is_not_rulesc_s(
    entries: list[Entry], replaced: set[str]
) -> None:
    """Each other entry is unknown unless a leftover; each of rulesc's files
    made a link, FIFO or folder is named as such."""
    with _folder() as out:
        write_tree(out, NEW)
        for rel, kind in entries:
            _make(out, rel, kind)
        for rel in replaced:
            (out / rel).unlink()
            _make(out, rel, "fifo" if rel.endswith("json") else "link in")
        tree = walk(out, set(NEW) | listed(out))
        got = [f"{d.file}: {d.message}" for d in foreign("out", tree, NEW)]
        misplaced = [
            f"out/{rel}: out/{rel} is a {'FIFO' if rel.endswith('json') else 'symbolic link'} "
            "where rulesc writes a file"
            for rel in sorted(replaced)
        ]
        want = _unknown_lines("out", entries, NEW) + misplaced
        assert sorted(got) == sorted(want)


@SETTINGS
@given(others())
def test_a_build_carries_over_what_is_not_rulesc_s_byte_for_byte(
    entries: list[Entry],
) -> None:
    with _folder() as out:
        write_tree(out, OLD)
        for rel, kind in entries:
            _make(out, rel, kind)
        before = {rel: _seen(out, rel) for rel, _ in entries}
        assert write_tree(out, NEW)
        assert {rel: _seen(out, rel) for rel, _ in entries} == before
        tree = walk(out, set(NEW))
        assert tree.files == NEW and not tree.misplaced
        # an entry in a folder rulesc no longer writes keeps the folder
        assert set(tree.others) == {
            "docs/old" if rel.startswith("docs/old/") else rel for rel, _ in entries
        }
        assert not write_tree(out, NEW)  # nothing left to do
        assert sorted(p.name for p in out.parent.iterdir()) == [".out.lock", "out"]


def test_a_file_where_the_build_writes_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(out, OLD)
    (out / "js" / "b.js").write_bytes(b"mine\n")
    before = {p: _seen(out, p) for p in (*OLD, "js/b.js")}
    with pytest.raises(RulesError) as caught:
        write_tree(out, NEW, shown="out")
    assert [d.format_text() for d in caught.value.diagnostics] == [
        "out/js/b.js:1:1: error: the build would write out/js/b.js, which rulesc "
        "did not write (it is not in out/manifest.json)\n"
        "  hint: move it out of the way, then build again"
    ]
    assert {p: _seen(out, p) for p in before} == before


def test_a_file_holding_what_the_build_writes_is_taken_as_rulesc_s(
    tmp_path: Path,
) -> None:
    """A manifest from the other side of a merge may leave out a file the tree
    has exactly as the build writes it: the build goes on (different bytes are
    still refused, above)."""
    out = tmp_path / "out"
    write_tree(out, OLD)
    (out / "js" / "b.js").write_bytes(NEW["js/b.js"])
    assert write_tree(out, NEW, shown="out")
    assert {rel: (out / rel).read_bytes() for rel in NEW} == dict(NEW)


def test_an_entry_made_during_the_build_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    write_tree(out, OLD)
    swap = writer._swap

    def meanwhile(staging: Path, out_dir: Path) -> None:
        (out_dir / "rulebook" / "late.txt").write_bytes(b"late\r\n")
        swap(staging, out_dir)

    monkeypatch.setattr(writer, "_swap", meanwhile)
    write_tree(out, NEW)
    assert (out / "rulebook" / "late.txt").read_bytes() == b"late\r\n"
    assert walk(out, set(NEW)).files == NEW


def test_a_failed_swap_puts_other_entries_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    write_tree(out, OLD)
    _make(out, "notes", "folder")
    _make(out, "rulebook/__pycache__", "folder")

    def refused(staging: Path, out_dir: Path) -> None:
        raise OSError(28, "No space left on device", str(out_dir))

    monkeypatch.setattr(writer, "_swap", refused)
    with pytest.raises(OSError):
        write_tree(out, NEW)
    assert walk(out, set(OLD)).files == OLD
    assert _seen(out, "notes") == ("folder", [("inside.txt", b"inside\n")])
    assert (out / "rulebook" / "__pycache__" / "inside.txt").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.lock", "out"]


def test_entries_a_killed_build_moved_aside_come_back(tmp_path: Path) -> None:
    """Killed after moving others' entries into its new tree, before the swap:
    the next build puts them back, then builds."""
    out = tmp_path / "out"
    write_tree(out, OLD)
    staging = tmp_path / ".out.new-killed"
    for rel, blob in NEW.items():
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        (staging / rel).write_bytes(blob)
    _make(staging, "notes.txt", "file")
    _make(staging, "js/node_modules", "folder")
    write_tree(out, NEW)
    assert _seen(out, "notes.txt") == ("file", b"notes.txt\r\n")
    assert (out / "js" / "node_modules" / "inside.txt").is_file()
    assert not staging.exists()


# -- rulesc check and build, end to end ----------------------------------------------


@pytest.fixture(scope="module")
def cookbook_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cookbook")
    shutil.copytree(ROOT / "tests" / "cookbook", root / "rules")
    assert (
        main(["build", "--rules", str(root / "rules"), "--out", str(root / "g")]) == 0
    )
    return root


@pytest.fixture
def project(
    cookbook_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    root = tmp_path / "p"
    shutil.copytree(cookbook_build, root, symlinks=True)
    monkeypatch.chdir(root)
    monkeypatch.setattr(cli, "_own_schemas", lambda: None)
    return root


def _check(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", "--rules", "rules", "--out", "g"])
    return code, capsys.readouterr().err


def test_check_fails_on_a_fifo_a_foreign_link_and_an_extra_folder(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _check(capsys) == (EXIT_OK, "")
    os.mkfifo(project / "g" / "pipe")
    (project / "g" / "rulebook" / "passwd.py").symlink_to("/etc/passwd")
    (project / "g" / "docs" / "mine").mkdir()
    for leftover in (
        "build",
        "rulebook.egg-info",
        "js/node_modules",
        "rulebook/__pycache__",
    ):
        (project / "g" / leftover).mkdir()
    code, err = _check(capsys)
    assert code == EXIT_RULES
    hint = (
        "  hint: remove it: g/ holds only what rulesc writes, and the leftovers "
        "__pycache__/, node_modules/, build/ and *.egg-info/ (at the top)"
    )
    assert err.splitlines() == [
        "g/docs/mine:1:1: error: unknown folder in g/: rulesc does not write it",
        hint,
        "g/pipe:1:1: error: unknown FIFO in g/: rulesc does not write it",
        hint,
        "g/rulebook/passwd.py:1:1: error: unknown symbolic link in g/: rulesc does not write it",
        hint,
        "3 errors",
    ]


def test_check_fails_on_a_link_where_rulesc_writes_a_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = project / "g" / "rules.json"
    (project / "copy.json").write_bytes(target.read_bytes())
    target.unlink()
    target.symlink_to("../copy.json")  # the very bytes, through a link
    code, err = _check(capsys)
    assert code == EXIT_RULES
    assert err.splitlines()[0] == (
        "g/rules.json:1:1: error: g/rules.json is a symbolic link where rulesc writes a file"
    )
    assert main(["build", "--rules", "rules", "--out", "g"]) == EXIT_OK
    assert not target.is_symlink() and (project / "copy.json").is_file()
    assert _check(capsys)[0] == EXIT_OK


def test_a_build_into_another_folder_leaves_schema_alone(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = project / "schema"
    shutil.copytree(schemas.SCHEMA_DIR, schema)
    (schema / "mine.schema.json").write_text('{"$comment": "mine"}\n')
    (schema / "table.schema.json").write_text("{}\n")  # stale
    orphan = json.dumps({"$comment": "@generated by rulesc build from x - DO NOT EDIT"})
    (schema / "gone.schema.json").write_text(orphan)
    before = {p.name: p.read_bytes() for p in schema.iterdir()}
    monkeypatch.setattr(cli, "_own_schemas", lambda: schema)
    assert main(["build", "--rules", "rules", "--out", "g"]) == EXIT_OK
    assert {p.name: p.read_bytes() for p in schema.iterdir()} == before
    assert _check(capsys)[0] == EXIT_OK  # nor does a check of it read schema/
    # the checkout's own generated/, beside schema/: its composed schemas only
    shutil.copytree(project / "g", project / "generated")
    assert main(["build", "--rules", "rules"]) == EXIT_OK
    after = {p.name: p.read_bytes() for p in schema.iterdir()}
    assert after["mine.schema.json"] == before["mine.schema.json"]
    assert "gone.schema.json" not in after
    assert (
        after["table.schema.json"] == schemas.composed()["table.schema.json"].encode()
    )
    capsys.readouterr()
    assert main(["check", "--rules", "rules"]) == EXIT_RULES
    assert capsys.readouterr().err.splitlines()[:2] == [
        f"{schema}/mine.schema.json:1:1: error: a schema of no registered kind, not "
        "composed by rulesc",
        "  hint: remove it, or make it the schema.json of a kind",
    ]


@pytest.mark.parametrize("when", ["before the swap", "after the swap"])
def test_ctrl_c_during_a_build_is_reported_as_it_ended(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    when: str,
) -> None:
    """Ctrl-C at the swap is held until the swap is done and recorded: the report
    says what happened."""
    (project / "rules" / "cookbook" / "system.yaml").write_text(
        (project / "rules" / "cookbook" / "system.yaml")
        .read_text()
        .replace("title: Cookbook", "title: Cookbook 2")
    )
    before = walk(project / "g", listed(project / "g")).files
    swap, chmod = writer._swap, os.chmod

    def interrupted_swap(staging: Path, out_dir: Path) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        swap(staging, out_dir)

    def interrupted_chmod(path: Any, mode: int, **kw: Any) -> None:
        chmod(path, mode, **kw)
        if Path(path).name.startswith(".g.new-"):
            raise KeyboardInterrupt

    if when == "after the swap":
        monkeypatch.setattr(writer, "_swap", interrupted_swap)
    else:
        monkeypatch.setattr(os, "chmod", interrupted_chmod)
    assert main(["build", "--no-cache", "--rules", "rules", "--out", "g"]) == 130
    err = capsys.readouterr().err
    now = walk(project / "g", listed(project / "g")).files
    if when == "after the swap":
        assert err == "rulesc: interrupted; g/ was written\n"
        assert now != before and b"Cookbook 2" in now["docs/index.md"]
    else:
        assert err == "rulesc: interrupted; g/ was left as it was\n"
        assert now == before
    assert (
        sorted(p.name for p in project.iterdir() if p.name.startswith(".g.new")) == []
    )


def test_build_watch_keeps_what_is_not_rulesc_s(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules" / "cookbook" / "system.yaml").write_text(
        (project / "rules" / "cookbook" / "system.yaml")
        .read_text()
        .replace("title: Cookbook", "title: Cookbook 3")
    )
    _make(project / "g", "notes.txt", "file")
    _make(project / "g", "rulebook/__pycache__", "folder")
    watch = ["build", "--watch", "--max-builds", "1", "--rules", "rules", "--out", "g"]
    assert main(watch) == EXIT_OK
    assert "g/ written" in capsys.readouterr().out
    assert _seen(project / "g", "notes.txt") == ("file", b"notes.txt\r\n")
    assert (project / "g" / "rulebook" / "__pycache__" / "inside.txt").is_file()
    # a file of someone else's where the build would write: refused, untouched
    (project / "rules" / "cookbook" / "system.yaml").write_text(
        (project / "rules" / "cookbook" / "system.yaml")
        .read_text()
        .replace("title: Cookbook 3", "title: Cookbook 4")
    )
    (project / "g" / "manifest.json").write_bytes(
        (project / "g" / "manifest.json")
        .read_bytes()
        .replace(b'"docs/index.md"', b'"docs/indexx.md"')
    )
    index = (project / "g" / "docs" / "index.md").read_bytes()
    assert main(watch) == EXIT_RULES
    captured = capsys.readouterr()
    assert "1 error; g/ was left as it was" in captured.out
    assert (
        "g/docs/index.md:1:1: error: the build would write g/docs/index.md, which "
        "rulesc did not write (it is not in g/manifest.json)"
    ) in captured.err
    assert (project / "g" / "docs" / "index.md").read_bytes() == index
