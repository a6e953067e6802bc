"""Die: its part of rules.json (its constant, faces and symbols)."""

from __future__ import annotations

from ...core.jsonkit import (
    Refs,
    View,
)
from ...front.model import System
from ...kinds.die.model import DieRule


def data_view(system: System, rule: DieRule, refs: Refs) -> View:
    return {
        "constant": rule.constant,
        "faces": [face if isinstance(face, int) else list(face) for face in rule.faces],
        "symbols": list(rule.symbols),
    }
