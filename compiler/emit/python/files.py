"""The Python target's files: the package ``rulebook/``, its support modules and where each output goes."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path as FsPath

from ...kinds import registry

PACKAGE = "rulebook"
RUNTIME = FsPath(__file__).resolve().parents[2] / "runtime"
# The support modules every generated package has; each kind adds its own.
SUPPORT_MODULES = (
    "_dice_spec.py",
    "errors.py",
    "_messages.py",
    "dice.py",
    "_support.py",
    "json.py",
    "dice_terms.py",
    "dice_tree.py",
    "_notation_reader.py",
    "_notation_pool.py",
    "dice_notation.py",
    "dice_rolls.py",
    "_dice_weights.py",
    "_dice_tree_odds.py",
    "_dice_keep.py",
    "dice_odds.py",
    "odds.py",
    "_dist.py",
    "_multiset.py",
    "_plan.py",
    "_odds.py",
    "_chain.py",
    "_state.py",
    "_timeline.py",
    "_values.py",
)
PACKAGE_INIT, PACKAGE_TYPED = f"{PACKAGE}/__init__.py", f"{PACKAGE}/py.typed"
DICE_SPEC = f"{PACKAGE}/_dice_spec.py"  # printed from the dice notation's definition
PYPROJECT = "pyproject.toml"
PACKAGE_README = "README.md"  # the Python package's (the npm package's is js/'s)
LICENCE = "LICENSE"  # with a licence only (compiler/front/licence.py)


def support_modules() -> tuple[str, ...]:
    """Every support module of the generated package, the kinds' in registry order."""
    found = dict.fromkeys(SUPPORT_MODULES)
    for kind in registry.kinds().values():
        found.update(dict.fromkeys(kind.runtime))
    return tuple(found)


def module_path(system_id: str) -> str:
    """The path of a system's module in the output folder."""
    return f"{PACKAGE}/{system_id}.py"


def own(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """The Python outputs made from one system alone: its module."""
    return (module_path(system_id),)


def shared() -> tuple[str, ...]:
    """The Python outputs made from every system together, or from none."""
    support = tuple(f"{PACKAGE}/{name}" for name in support_modules())
    return (*support, PACKAGE_INIT, PACKAGE_TYPED, PYPROJECT, PACKAGE_README, LICENCE)


def modules(files: dict[str, str]) -> dict[str, str]:
    """The package's modules among ``files``, by path."""
    return {
        path: text for path, text in files.items() if path.startswith(PACKAGE + "/")
    }
