"""Core docs: the texts a lowering writes into its declarations' docs."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..front.model import RuleBase
from .viewkit import where_doc


def rule_doc(rule: RuleBase) -> str:
    """A rule's own declaration's doc: its title, its summary and where it is."""
    return f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)}"


_REF = re.compile(r"\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]")


def ref(function: str) -> str:
    """A reference to a function of the module, in a doc: each emitter writes
    it in its own markup (``refs``)."""
    return f"[[{function}]]"


def refs(text: str, write: Callable[[str], str]) -> str:
    """``text`` with each reference (``ref``) written by ``write``."""
    return _REF.sub(lambda m: write(m.group(1)), text)
