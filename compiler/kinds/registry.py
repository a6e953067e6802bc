"""Registry: the one list of rule kinds, each a plugin folder (see compiler/kinds/base.py).

The built-in kinds are the folders named in ``BUILT_IN``, in the order rules are
built (a rule may refer to rules of earlier kinds; calls in expressions are
built on demand whatever the order). ``load`` registers a kind from any folder
at run time, so a kind can be added without a change to the compiler.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path as FsPath
from typing import Any

from .base import Kind

BUILT_IN = (
    "record",
    "table",
    "dice",
    "die",
    "formula",
    "facts",
    "range_table",
    "pool",
    "track",
    "recovery",
    "shift",
    "exposure_schedule",
    "state",
    "process",
    "decision",
    "success_pool",
    "covered_roll",
)

_KINDS: dict[str, Kind] = {}
_generation = [0]  # bumped on every change, for the caches built on the registry


def _built_in() -> dict[str, Kind]:
    if not _KINDS:
        for name in BUILT_IN:
            kind: Kind = importlib.import_module(f"{__package__}.{name}.kind").KIND
            _KINDS[kind.name] = kind
    return _KINDS


def kinds() -> dict[str, Kind]:
    """Every registered kind by name, in build order."""
    return dict(_built_in())


def folders() -> dict[str, FsPath]:
    """Every registered kind's folder by name, in build order, without importing
    the built-in kinds' code (a cached build needs only their schemas)."""
    here = FsPath(__file__).resolve().parents[1] / "kinds"
    found = {name: here / name for name in BUILT_IN}
    found.update({name: kind.folder for name, kind in _KINDS.items()})
    return found


def names() -> tuple[str, ...]:
    return tuple(_built_in())


def get(name: str) -> Kind:
    return _built_in()[name]


def kind_of(rule: Any) -> Kind:
    """The kind a rule of the model was built by."""
    return _built_in()[rule.kind]


def generation() -> int:
    """Changes whenever a kind is registered or removed."""
    return _generation[0]


def register(kind: Kind) -> Kind:
    """Add a kind (last in build order); its name must be new."""
    registry = _built_in()
    if kind.name in registry:
        raise ValueError(f"a kind named {kind.name!r} is already registered")
    registry[kind.name] = kind
    _generation[0] += 1
    return kind


def unregister(name: str) -> None:
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in kind")
    del _built_in()[name]
    _generation[0] += 1


def load(folder: FsPath) -> Kind:
    """Import the kind plugin in ``folder`` (its ``kind.py``, or else its
    ``__init__.py``, defines ``KIND``) and register it."""
    folder = folder.resolve()
    module_name = f"rulesc_kind_{folder.name}"
    spec = importlib.util.spec_from_file_location(
        module_name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"no kind plugin in {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    if (folder / "kind.py").is_file():
        module = importlib.import_module(f"{module_name}.kind")
    kind = module.KIND
    if not isinstance(kind, Kind):
        raise TypeError(f"{folder}: KIND is not a Kind")
    return register(kind)


@contextmanager
def loaded(folder: FsPath) -> Iterator[Kind]:
    """A kind registered from ``folder`` for the duration of a block."""
    kind = load(folder)
    try:
        yield kind
    finally:
        unregister(kind.name)
        name = f"rulesc_kind_{folder.resolve().name}"
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]
