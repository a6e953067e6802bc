"""Changes: how many files a build changed in its output folder, and how it says so."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Changes:
    """The files of a build against the output folder it replaced."""

    changed: int = 0  # new files among them (``added``)
    added: int = 0
    unchanged: int = 0
    removed: int = 0
    written: bool = False  # the folder was swapped (a misplaced entry alone does)

    def text(self, total: int, shown: str) -> str:
        """The line a build prints after ``ok: ``."""
        if not self.written:
            return f"{total} files in {shown}/ already up to date"
        changed = _files(self.changed) + " changed"
        if self.added:
            changed += f" ({self.added} new)"
        parts = [changed, f"{self.unchanged} unchanged"]
        if self.removed:
            parts.append(f"{self.removed} removed")
        return f"{shown}/ written: " + ", ".join(parts)


def _files(count: int) -> str:
    return f"{count} file{'' if count == 1 else 's'}"


def compare(
    old: Mapping[str, bytes | None], new: Mapping[str, bytes], *, written: bool
) -> Changes:
    """The changes from ``old`` (a file's bytes; None when unread) to ``new``."""
    added = sum(1 for rel in new if rel not in old)
    unchanged = sum(1 for rel, blob in new.items() if old.get(rel, None) == blob)
    return Changes(
        changed=len(new) - unchanged,
        added=added,
        unchanged=unchanged,
        removed=sum(1 for rel in old if rel not in new),
        written=written,
    )
