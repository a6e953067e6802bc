"""The model of a record rule: a record type, its fields typed as the rules declare them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.declared import Declared
from ...front.model import (
    EnumType,
    RuleBase,
)


@dataclass(frozen=True, slots=True)
class RecordRule(RuleBase):
    """A record type of the system: its class and its fields, in order."""

    class_name: str
    fields: tuple[Declared, ...]
    owned_enums: tuple[EnumType, ...]
    kind: Literal["record"] = "record"
