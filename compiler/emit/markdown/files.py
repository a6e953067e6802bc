"""The Markdown target's files: where each reference page goes, and the charts' folder."""

from __future__ import annotations

from collections.abc import Iterable

TARGET_NAME = "markdown"
DOCS = "docs"
INDEX_PAGE, CONTRACT_PAGE, NAV_PAGE = (
    "docs/index.md",
    "docs/contract.md",
    "docs/SUMMARY.md",
)
CHARTS = "charts"  # the charts' folder, under the docs folder beside the pages


def overview_page(system_id: str) -> str:
    """The path of a system's overview page in the output folder."""
    return f"{DOCS}/{system_id}.md"


def rule_page(system_id: str, rule_id: str) -> str:
    """The path of a rule's own page in the output folder."""
    return f"{DOCS}/{system_id}/{rule_id}.md"


def own(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """The pages made from one system alone: its overview and each rule's page
    (the charts they draw are added with its part)."""
    return (overview_page(system_id), *(rule_page(system_id, r) for r in rule_ids))


def shared() -> tuple[str, ...]:
    return (INDEX_PAGE, CONTRACT_PAGE, NAV_PAGE)
