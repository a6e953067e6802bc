"""The writer links unchanged files into the new tree instead of writing them."""

from __future__ import annotations

import os
from pathlib import Path

from rulesc.output.writer import (
    read_tree,
    write_tree,
)

OLD = {"rulebook/a.py": b"a\n", "rulebook/b.py": b"b\n", "docs/c.md": b"c\n"}


def test_unchanged_files_keep_their_inode(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write_tree(out, OLD)
    before = {rel: os.stat(out / rel).st_ino for rel in OLD}
    new = dict(OLD, **{"rulebook/b.py": b"b2\n", "docs/d.md": b"d\n"})
    assert write_tree(out, new)
    assert read_tree(out) == new
    assert os.stat(out / "rulebook/a.py").st_ino == before["rulebook/a.py"]
    assert os.stat(out / "docs/c.md").st_ino == before["docs/c.md"]
    assert os.stat(out / "rulebook/a.py").st_nlink == 1  # the old tree is gone


def test_a_symlink_in_the_old_tree_is_not_linked(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write_tree(out, OLD)
    elsewhere = tmp_path / "a.py"
    elsewhere.write_bytes(b"a\n")
    (out / "rulebook/a.py").unlink()
    (out / "rulebook/a.py").symlink_to(elsewhere)
    write_tree(out, dict(OLD, **{"docs/c.md": b"c2\n"}))
    assert not (out / "rulebook/a.py").is_symlink()
    assert (out / "rulebook/a.py").read_bytes() == b"a\n"
