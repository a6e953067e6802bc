"""The conformance target's declaration: a kit per system, answered by the runtime that runs the examples."""

from __future__ import annotations

import hashlib
from types import ModuleType
from typing import TYPE_CHECKING

from ..target import Target, Work
from .files import TARGET_NAME, kit_file, own, shared

if TYPE_CHECKING:
    from ...common.diagnostics import Diagnostic
    from ...front.model import System

_MADE: dict[str, str] = {}
"""Kits made in this process, by what they are made from (a test's builds make
the same kit many times); a few, the latest."""
_KEEP = 8


def observe(system: System, module: ModuleType, work: Work) -> list[Diagnostic]:
    """The kit of a system, answered by its loaded module: made when the build
    checked its worked examples and they hold (else the build writes nothing,
    or, told not to check them, no kit)."""
    if system.id in work.sound:
        work.keep(TARGET_NAME)[system.id] = _kit(system, module, work)
    return []


def _kit(system: System, module: ModuleType, work: Work) -> str:
    """The kit of ``system``, made anew unless this process made it already
    from the very same generated code (the Python package that answers it:
    its shared files and the system's own), rules (each one's fingerprint)
    and kinds."""
    from ...kinds import registry
    from ..javascript.files import TARGET_NAME as JAVASCRIPT
    from ..python import files as python
    from .kit import kit_text

    ported = work.keep(JAVASCRIPT).get("ported", {}).get(system.id, set())
    made_of = {*python.shared(), *python.own(system.id, (r.id for r in system.rules))}
    parts = [
        str(registry.generation()),
        *sorted(ported),
        *(f"{r.qualified_id} {r.fingerprint}" for r in system.rules),
        *(f"{p}\0{t}" for p, t in sorted(work.files.items()) if p in made_of),
    ]
    key = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
    if key not in _MADE:
        while len(_MADE) >= _KEEP:
            del _MADE[next(iter(_MADE))]
        _MADE[key] = kit_text(system, module, ported, registry.kind_of)
    return _MADE[key]


def pages(work: Work) -> dict[str, str]:
    return {kit_file(i): text for i, text in work.keep(TARGET_NAME).items()}


TARGET = Target(
    name=TARGET_NAME,
    own=own,
    shared=shared,
    observe=observe,
    pages=pages,
)
