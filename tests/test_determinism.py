"""Determinism: the same rules give byte-identical output under any hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rulesc.output.writer import read_tree

from .conftest import GENERATED, ROOT


def _build(out: Path, seed: str) -> dict[str, bytes]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    subprocess.run(
        [sys.executable, "-m", "rulesc", "build", "--out", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return read_tree(out)


def test_two_hash_seeds_give_identical_output(tmp_path: Path) -> None:
    first = _build(tmp_path / "seed0", "0")
    second = _build(tmp_path / "seed1", "1")
    assert first == second
    assert first == read_tree(GENERATED)
