"""The JSON target's files: ``rules.json`` (put together from the systems' entries) and its schema."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...common.parts import Part

TARGET_NAME = "json"
RULES_JSON, RULES_SCHEMA = "rules.json", "rules.schema.json"
GENERATED = "by rulesc - DO NOT EDIT"  # rules.json's "@generated"
# rules.json holds the systems in a list two levels down
DATA_INDENT = " " * 4


def own(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """rules.json holds every system: no file is a system's own."""
    return ()


def shared() -> tuple[str, ...]:
    return (RULES_JSON, RULES_SCHEMA)


def rules_json_text(parts: Sequence[Part]) -> str:
    """rules.json: the parts' entries, in order of their systems' ids, in the
    document ``rules_json.document`` describes, as ``json.dumps(indent=2)``
    writes it (without writing every system again)."""
    entries = [p.data[TARGET_NAME] for p in sorted(parts, key=lambda p: p.id)]
    head = (
        "{\n"
        f'  "$schema": "{RULES_SCHEMA}",\n'
        f'  "@generated": "{GENERATED}",\n'
        '  "systems": []\n'
        "}\n"
    )
    if entries:
        inside = f",\n{DATA_INDENT}".join(entries)
        head = head.replace(
            '"systems": []', f'"systems": [\n{DATA_INDENT}{inside}\n  ]'
        )
    return head
