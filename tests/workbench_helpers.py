"""Shared by the workbench tests: one project copy (rules/ and a build cache) that
the read-only commands (roll, explain, simulate) run in, and the command runner."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from .conftest import copy_rules


@pytest.fixture(scope="session")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder holding a copy of rules/; its build cache fills on first use.

    Tests must not change it: those that edit rules make their own copy.
    """
    root = tmp_path_factory.mktemp("workbench")
    copy_rules(root / "rules")
    return root


def rulesc(
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run rulesc as a user would (``python -m compiler``), capturing its output."""
    return subprocess.run(
        [sys.executable, "-m", "rulesc", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the one line of ``path`` that contains ``text``."""
    found = [
        n
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if text in line
    ]
    assert len(found) == 1, (text, found)
    return found[0]
