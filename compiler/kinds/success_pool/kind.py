"""Success pool: a pool of dice counting successes, said as a decision.

The kind's plugin: its schema and its front end. ``rule.build`` writes the
decision a pool's figures say and builds it, so its rules are decisions: every
other hook is the decision kind's (registry.py finds a rule's hooks by the kind
of the rule built).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path as FsPath

from ..decision.kind import KIND as DECISION
from . import rule

KIND = replace(
    DECISION,
    name="success_pool",
    folder=FsPath(__file__).resolve().parent,
    text="a dice pool",
    build=rule.build,
)
