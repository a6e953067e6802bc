"""The Makefile's set-up: ``make build`` needs Python alone; ``make test`` brings
Node.js and npm where they are missing (issue 24)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _dry_run(target: str, path: str) -> str:
    """What ``make TARGET`` would run, every prerequisite taken as out of date."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make on this machine")
    done = subprocess.run(
        [make, "--dry-run", "--always-make", "--no-print-directory", target],
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_build_runs_no_node_or_npm(tmp_path: Path) -> None:
    # a PATH with the tools a build uses, and no node or npm
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "test", "touch", "python3", "make"):
        found = shutil.which(tool)
        if found is not None:
            (bin_dir / tool).symlink_to(found)
    commands = _dry_run("build", str(bin_dir))
    assert "rulesc build" in commands
    words = commands.replace("\n", " ").split()
    assert not {"npm", "node", "npx"} & set(words), commands
    assert "node_modules" not in commands


def test_make_test_installs_node_where_missing() -> None:
    commands = _dry_run("test", os.environ.get("PATH", ""))
    assert "npm ci" in commands
    assert "apt-get install" in commands and "nodejs npm" in commands
