"""The JSON target's declaration: ``rules.json`` and its schema, their files and hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..target import Share, Target, Work
from .files import (
    DATA_INDENT,
    RULES_JSON,
    RULES_SCHEMA,
    TARGET_NAME,
    own,
    rules_json_text,
    shared,
)

if TYPE_CHECKING:
    from ...common.parts import Part, Shares
    from ...front.model import System


def _share(system: System, own: Mapping[str, str], work: Work) -> Share:
    """A system's entry in rules.json, as text at its depth there."""
    from ...common import json_text
    from .rules_json import system_data

    text = json_text.dumps(system_data(system))
    return Share(data=text.replace("\n", "\n" + DATA_INDENT))


def _together(shares: Sequence[Shares], work: Work) -> dict[str, str]:
    from .rules_json import schema_text

    return {RULES_SCHEMA: schema_text()}


def _assemble(parts: Sequence[Part]) -> dict[str, bytes]:
    return {RULES_JSON: rules_json_text(parts).encode("utf-8")}


TARGET = Target(
    name=TARGET_NAME,
    own=own,
    shared=shared,
    share=_share,
    together=_together,
    assemble=_assemble,
)
