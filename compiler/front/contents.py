"""Contents: the divisions of a source that the reference groups a system's rules under.

system.yaml's ``source.contents`` lists them in the source's order, each with the
sections of the source it holds (as rules cite them in ``source.section``); the
division's own title counts as one of its sections. Every rule must fall in one.
Without ``contents``, each section the rules cite is a division of its own, in
the order the rules first cite it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..common.diagnostics import Path
from .loader import SourceFile
from .model import (
    Rule,
    SourceGroup,
    SourcePart,
)


class _Reporter(Protocol):
    def err(
        self, src: SourceFile, path: Path, message: str, hint: str | None = None
    ) -> None: ...


def source_part(source: dict[str, Any]) -> SourcePart | None:
    """The chapter or page of the work the source is, if system.yaml names one."""
    part = source.get("part")
    return None if part is None else SourcePart(part["kind"], part["title"])


def group_rules(
    b: _Reporter, system_src: SourceFile, rules: Sequence[Rule]
) -> tuple[SourceGroup, ...]:
    """The rules by division of the source."""
    listed = system_src.data.get("source", {}).get("contents")
    if listed is None:
        order: dict[str, list[str]] = {}
        for rule in rules:
            order.setdefault(rule.section, []).append(rule.id)
        return tuple(SourceGroup(t, (t,), tuple(ids)) for t, ids in order.items())
    owner: dict[str, int] = {}
    for index, entry in enumerate(listed):
        for position, section in enumerate(
            [entry["title"], *entry.get("sections", [])]
        ):
            if section in owner and owner[section] != index:
                path: Path = ("source", "contents", index)
                path += ("title",) if position == 0 else ("sections", position - 1)
                b.err(
                    system_src,
                    path,
                    f"section {section!r} is already under "
                    f"{listed[owner[section]]['title']!r}",
                    "list each section of the source under one division",
                )
            owner.setdefault(section, index)
    members: list[list[str]] = [[] for _ in listed]
    others: dict[str, list[str]] = {}
    for rule in rules:
        found = owner.get(rule.section)
        if found is None:
            others.setdefault(rule.section, []).append(rule.id)
        else:
            members[found].append(rule.id)
    groups = [
        SourceGroup(e["title"], (e["title"], *e.get("sections", [])), tuple(members[i]))
        for i, e in enumerate(listed)
    ]
    groups += [SourceGroup(t, (t,), tuple(ids)) for t, ids in others.items()]
    return tuple(groups)
