"""House rules' guard: a system that extends another is built only from its merged copy (compiler/front/house.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ..common.diagnostics import Diagnostic
from .loader import SourceFile


def unmerged(meta: SourceFile, files: Sequence[SourceFile]) -> list[Diagnostic]:
    """What keeps a system from being built as it is: it extends a system it
    was not merged with (``extend`` fills in what it leaves out, and applies
    its overrides), or a file of a system that extends none lists overrides."""
    if "extends" in meta.data:  # ``extend`` takes it out of the merged copy
        return [
            meta.error(
                ("extends",),
                f"system extends {meta.data['extends']!r}, which is not built with it",
                "build the folder of that system too: --rules BASE_FOLDER --rules "
                "HOUSE_FOLDER",
            )
        ]
    return [
        src.error(
            ("overrides",),
            "overrides apply only in a system that extends another",
            "add extends: BASE to system.yaml, or write the rules under rules:",
            key=True,
        )
        for src in files
        if "overrides" in src.data
    ]
