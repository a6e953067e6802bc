"""The model of a formula rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...expr import Checked
from ...model import Param, RuleBase


@dataclass(frozen=True, slots=True)
class FormulaRule(RuleBase):
    function: str
    unit: str | None
    params: tuple[Param, ...]
    expression: str
    checked: Checked
    unbounded_because: str | None = None
    kind: Literal["formula"] = "formula"
