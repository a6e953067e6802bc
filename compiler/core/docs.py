"""Core docs: the texts a lowering writes into its declarations' docs."""

from __future__ import annotations

from ..model import RuleBase
from ..viewkit import where_doc


def rule_doc(rule: RuleBase) -> str:
    """A rule's own declaration's doc: its title, its summary and where it is."""
    return f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)}"
