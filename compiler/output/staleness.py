"""Staleness: compare a fresh build with the committed output and name what changed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..common.diagnostics import (
    REMEDY,
    Diagnostic,
)
from ..front.model import System
from ..pipeline import MANIFEST


def stale(
    shown_out: str,
    systems: tuple[System, ...],
    fresh: Mapping[str, bytes],
    on_disk: Mapping[str, bytes],
) -> list[Diagnostic]:
    """Diagnostics naming each changed rule (or file) when ``on_disk`` is stale."""
    changed_files = sorted(
        {p for p in fresh if on_disk.get(p) != fresh[p]}
        | (on_disk.keys() - fresh.keys())
    )
    if not changed_files:
        return []
    hint = REMEDY
    files_note = ", ".join(f"{shown_out}/{p}" for p in changed_files[:6])
    if len(changed_files) > 6:
        files_note += f" and {len(changed_files) - 6} more"
    old_manifest = _manifest(on_disk.get(MANIFEST, b"{}"))
    old_rules = old_manifest.get("rules", {})
    problems = []
    current = set()
    for system in systems:
        for rule in system.rules:
            current.add(rule.qualified_id)
            old = (
                old_rules.get(rule.qualified_id)
                if isinstance(old_rules, dict)
                else None
            )
            if old is None:
                what = "is new"
            elif (
                not isinstance(old, dict) or old.get("fingerprint") != rule.fingerprint
            ):
                what = "changed"
            else:
                continue
            problems.append(
                Diagnostic(
                    rule.loc.file,
                    rule.loc.line,
                    rule.loc.col,
                    f"rule {rule.qualified_id} {what} since {shown_out}/ was built",
                    hint,
                )
            )
    for gone in sorted(set(old_rules) - current) if isinstance(old_rules, dict) else []:
        problems.append(
            Diagnostic(
                f"{shown_out}/{MANIFEST}",
                1,
                1,
                f"rule {gone} was removed since {shown_out}/ was built",
                hint,
            )
        )
    old_package = old_manifest.get("package")
    new_package = _manifest(fresh.get(MANIFEST, b"{}")).get("package")
    if isinstance(new_package, dict) and old_package != new_package:
        where = new_package.get("file") or f"{shown_out}/{MANIFEST}"
        problems.append(
            Diagnostic(
                where,
                1,
                1,
                f"the package settings changed since {shown_out}/ was built",
                hint,
            )
        )
    if problems:  # the stale files, said once for all the changes above
        count = len(changed_files)
        problems.append(
            Diagnostic(
                f"{shown_out}/{MANIFEST}",
                1,
                1,
                f"{shown_out}/ is stale in {count} file{'s' if count > 1 else ''}: "
                f"{files_note}",
                hint,
            )
        )
    else:
        problems = [
            Diagnostic(
                f"{shown_out}/{path}",
                1,
                1,
                f"{shown_out}/{path} is out of date: no rule changed, so the compiler or its templates did, or the file was edited by hand",
                hint,
            )
            for path in changed_files
        ]
    return problems


def _manifest(blob: bytes) -> dict[str, Any]:
    """A manifest's JSON object; empty when it is not one (edited, broken)."""
    try:
        doc = json.loads(blob)
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}
