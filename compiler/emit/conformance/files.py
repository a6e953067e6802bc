"""Conformance files: where each system's kit is written (cheap to import)."""

from __future__ import annotations

from collections.abc import Iterable

TARGET_NAME = "conformance"
KIT_DIR = "conformance"


def kit_file(system_id: str) -> str:
    """The kit of one system, by its path in the output."""
    return f"{KIT_DIR}/{system_id}.json"


def own(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """The outputs made from one system alone: its kit."""
    return (kit_file(system_id),)


def shared() -> tuple[str, ...]:
    return ()
