"""rulesc build --out: only a folder rulesc made, or an empty or missing one.

Every refused folder is refused with exit 2 before anything is touched; proven
on a throwaway clone of a project (its rules, a .git folder, other files)."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from rulesc.output.outdir import refusal

from .conftest import copy_rules, run_rulesc


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        h.update(path.relative_to(root).as_posix().encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A throwaway project: a git repository with the rules and a file of its own."""
    root = tmp_path / "project"
    copy_rules(root / "rules")
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("mine\n", encoding="utf-8")
    (root / "README.md").write_text("a project\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


REFUSED = [
    ("rules", "is the rules folder or inside it"),
    ("rules/d20_scifi", "is the rules folder or inside it"),
    (".", "holds the rules folder"),
    ("..", "holds the rules folder"),
    ("notes", "holds files rulesc did not write"),
    ("README.md", "is not a folder"),
    (".git", "holds files rulesc did not write"),
]


@pytest.mark.parametrize(("out", "why"), REFUSED)
def test_a_folder_rulesc_must_not_replace_is_refused_untouched(
    clone: Path, out: str, why: str
) -> None:
    before = _digest(clone.parent)
    done = run_rulesc("build", "--out", out, cwd=clone)
    assert done.returncode == 2, done.stdout + done.stderr
    assert why in done.stderr and "rulesc build: error: --out" in done.stderr
    assert done.stdout == ""
    assert _digest(clone.parent) == before


def test_a_repository_root_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "elsewhere"
    (repo / ".git").mkdir(parents=True)
    assert (
        refusal(repo, tmp_path / "rules")
        == f"{repo.as_posix()} is the root of a repository"
    )


def test_new_empty_and_rulesc_folders_are_built_into(clone: Path) -> None:
    (clone / "empty").mkdir()
    for out in ("fresh/output", "empty", "generated"):
        done = run_rulesc("build", "--out", out, cwd=clone)
        assert done.returncode == 0, done.stderr
        assert (clone / out / "manifest.json").is_file()
    # A folder rulesc built may gain caches and leftovers: it is still its own.
    for leftover in ("__pycache__", "build", "rulebook.egg-info", "node_modules"):
        (clone / "generated" / leftover).mkdir()
        (clone / "generated" / leftover / "x").write_text("x", encoding="utf-8")
    done = run_rulesc("build", "--out", "generated", cwd=clone)
    assert done.returncode == 0, done.stderr
    assert (clone / "notes" / "todo.txt").read_text(encoding="utf-8") == "mine\n"


def test_a_manifest_not_written_by_rulesc_does_not_count(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"name": "someone else"}', encoding="utf-8")
    problem = refusal(folder, tmp_path / "rules")
    assert problem is not None and "did not write" in problem
    (folder / "manifest.json").write_text('{"@generated": "by rulesc - DO NOT EDIT"}')
    assert refusal(folder, tmp_path / "rules") is None


def test_watch_refuses_the_same_folders(clone: Path) -> None:
    done = run_rulesc(
        "build", "--watch", "--out", "rules", "--max-builds", "1", cwd=clone
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "is the rules folder" in done.stderr
