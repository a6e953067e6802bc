"""The model of a die rule: the checked, immutable record its outputs are rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...front.model import RuleBase
from ...lang.nodes import DieFaces


@dataclass(frozen=True, slots=True)
class DieRule(RuleBase):
    """A die of its own faces: numbers, or tuples of its ``symbols`` (each
    face's in the order the symbols are declared); its k-th face is what a
    die of as many sides rolling k shows."""

    constant: str
    faces: tuple[int, ...] | tuple[tuple[str, ...], ...]
    symbols: tuple[str, ...]
    kind: Literal["die"] = "die"

    @property
    def die(self) -> DieFaces:
        """The die as an expression rolls it, ``d(id)``."""
        return DieFaces(self.id, self.faces, self.symbols)
