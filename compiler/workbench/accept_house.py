"""``rulesc accept`` for house rules: an inherited example's new answer is restated in the house rules' folder, never in the base's files."""

from __future__ import annotations

import json
from pathlib import Path as FsPath
from typing import Any

from ..model import Example, System

ACCEPTED = "accepted.yaml"  # the file of a house rules' folder accept restates in


def inherited(system: System, ex: Example) -> bool:
    """Whether ``ex`` is a worked example a system of house rules inherits (its
    place is in the base's files, which accept never rewrites)."""
    house = system.house
    return (
        house is not None
        and house.base is not None
        and ex.loc.file not in house.own_files
    )


def restatement(rule_id: str, name: str, expect: Any) -> str:
    """An override restating one worked example with its new answer."""
    answer = json.dumps(expect, ensure_ascii=False, sort_keys=False)
    return (
        f"  - rule: {rule_id}\n    examples:\n      - name: {name}\n"
        f"        expect: {answer}\n"
    )


def target(rules_dir: FsPath, system: System) -> tuple[FsPath, str]:
    """The file accept restates a system's examples in, and its shown path."""
    assert system.house is not None
    shown = f"{system.house.at.file.rsplit('/', 1)[0]}/{ACCEPTED}"
    return rules_dir.parent / shown, shown


def new_text(
    system: System, meta_first_line: str, before: str | None, entries: list[str]
) -> str:
    """The restating file with ``entries`` added (a new file when ``before`` is None)."""
    if before is None:
        modeline = meta_first_line.replace("system.schema.json", "rules.schema.json")
        before = f"{modeline}\nsystem: {system.id}\noverrides:\n"
    if not before.endswith("\n"):
        before += "\n"
    return before + "".join(entries)
