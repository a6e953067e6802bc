"""Parts: what the outputs made from every system take from each one.

The package's index, the docs' index and navigation, the contract page,
``rules.json``, the charts and the manifest are each made from all the systems.
A ``Part`` holds, for one system, its own outputs and its share of each of
those (each target's, by the target's name: ``compiler/emit/target.py``), made
once when the system is built (``pipeline.part_of``). A build puts
the shared outputs together from the parts alone, so a rebuild after one file
changed builds that file's system and reads the other systems' parts from the
cache: it never loads their models (``compiler/output/cache.py``). A part holds plain
data only, so reading one imports nothing of the compiler but this module.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

View = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Shares:
    """A system's share of the outputs made from every system, as view data."""

    id: str
    files: tuple[str, ...]  # the rules files it is built from
    rules: Mapping[str, View]  # its rules' entries in manifest.json
    views: Mapping[str, View]  # each target's share, by the target's name


@dataclass(frozen=True, slots=True)
class Part:
    """One system's outputs and its share of the outputs made from every system.

    Its shares are kept pickled (``shares``): a build the cache answers whole
    reads the parts' own outputs only, and never spends time on their views.
    """

    id: str
    loc: tuple[str, int, int]  # where the system is declared: file, line, column
    files: tuple[str, ...]  # the rules files it is built from
    # its own outputs (module, pages, JavaScript) and the charts its pages draw
    own: Mapping[str, bytes]
    data: Mapping[str, str]  # each target's text made from it alone, by target
    packed: bytes  # its Shares, pickled

    @classmethod
    def of(
        cls,
        loc: tuple[str, int, int],
        own: Mapping[str, bytes],
        data: Mapping[str, str],
        shares: Shares,
    ) -> Part:
        packed = pickle.dumps(shares, protocol=pickle.HIGHEST_PROTOCOL)
        return cls(shares.id, loc, shares.files, own, data, packed)

    def shares(self) -> Shares:
        """Its share of the outputs made from every system."""
        found = pickle.loads(self.packed)
        if not isinstance(found, Shares):
            raise TypeError(f"the part of {self.id} holds no shares")
        return found
