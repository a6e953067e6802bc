"""Synthetic rule sets for ``make bench``: N copies of every real system.

Copy ``k`` of system ``s`` is the system ``s_xK`` (``K`` zero-padded), the same
rules under a new system id, each file ending in a comment naming the copy, so
that no two files are byte-identical: nothing can be reused from one copy to
another, and a build of scale N does N times the work of the real rules.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

_TITLE = re.compile(r"^(\s+title: )([A-Za-z][^#:'\"\n]*)$", re.M)


def copy_id(system: str, copy: int) -> str:
    return f"{system}_x{copy:04d}"


def make_rules(real: Path, scale: int, into: Path) -> list[str]:
    """Write ``scale`` copies of every system of ``real`` into ``into``; the ids."""
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    made: list[str] = []
    for folder in sorted(p for p in real.iterdir() if p.is_dir()):
        texts = {p.name: p.read_text("utf-8") for p in sorted(folder.glob("*.yaml"))}
        for copy in range(scale):
            new = copy_id(folder.name, copy)
            target = into / new
            target.mkdir()
            for name, text in texts.items():
                renamed = re.sub(
                    rf"^system: {re.escape(folder.name)}$",
                    f"system: {new}",
                    text,
                    count=1,
                    flags=re.M,
                )
                (target / name).write_text(
                    f"{renamed}# synthetic copy {copy} of {folder.name}\n", "utf-8"
                )
            made.append(new)
    return made


def edit_one_file(rules: Path, system: str, stamp: str) -> Path:
    """Change what one rules file says (the first rule title in it that is plain
    text), as an author would, so that the build's output changes."""
    for path in sorted((rules / system).glob("*.yaml")):
        if path.name == "system.yaml":
            continue
        text = path.read_text("utf-8")
        match = _TITLE.search(text)
        if match:
            base = re.sub(r" \(edit \S+\)$", "", match.group(2))
            edited = f"{match.group(1)}{base} (edit {stamp})"
            path.write_text(text[: match.start()] + edited + text[match.end() :])
            return path
    raise LookupError(f"no plain rule title to edit in {rules / system}")
