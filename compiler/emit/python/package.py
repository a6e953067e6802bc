"""The Python package's files: the support modules, each system's module, formatted, and the package's own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...common.diagnostics import Diagnostic, RulesError
from ...core.viewkit import header
from ...front.model import System
from ...lang import dice_spec
from .. import dice_spec as dice_spec_printers
from ..emitted import clashes
from ..render import render
from .files import (
    DICE_SPEC,
    LICENCE,
    PACKAGE,
    PACKAGE_INIT,
    PACKAGE_README,
    PACKAGE_TYPED,
    PYPROJECT,
    RUNTIME,
    module_path,
    support_modules,
)
from .format import format_many
from .views import module_view, package_view, readme_view

if TYPE_CHECKING:
    from ...common.parts import Shares
    from ..target import Work

DICE_SOURCE = "compiler/lang/dice_spec/notation.json"


def check(systems: Sequence[System]) -> list[Diagnostic]:
    """The names each system's module would declare twice."""
    errors: list[Diagnostic] = []
    for system in systems:
        errors += clashes(system, render("system.py.j2", module_view(system)))
    return errors


def sources(work: Work) -> dict[str, str]:
    """The package's modules: the support modules, and each system's (a
    part's module is in its own outputs), formatted."""
    files: dict[str, str] = {}
    errors: list[Diagnostic] = []
    for name in support_modules():
        if f"{PACKAGE}/{name}" == DICE_SPEC:  # printed from its definition, below
            continue
        text = (RUNTIME / name).read_text(encoding="utf-8")
        files[f"{PACKAGE}/{name}"] = f"# {header([f'compiler/runtime/{name}'])}\n{text}"
    files[PACKAGE_TYPED] = ""
    pending = {
        PACKAGE_INIT: render(
            "__init__.py.j2", package_view(work.systems, work.settings)
        ),
        DICE_SPEC: f"# {header([DICE_SOURCE])}\n{dice_spec_printers.python(dice_spec.load())}",
    }
    built = [s for s in work.systems if isinstance(s, System)]
    for system in built:
        pending[module_path(system.id)] = text = render(
            "system.py.j2", module_view(system)
        )
        errors.extend(clashes(system, text))
    if errors:
        raise RulesError(errors)
    # One ruff run for every module (by file name, as errors name them); the
    # systems' modules were parsed for their names (``clashes``) already.
    prefix = f"{PACKAGE}/"
    formatted = format_many(
        {path.removeprefix(prefix): s for path, s in pending.items()},
        parsed={module_path(s.id).removeprefix(prefix) for s in built},
    )
    files.update({prefix + name: text for name, text in formatted.items()})
    return files


def together(shares: Sequence[Shares], work: Work) -> dict[str, str]:
    """The package's pyproject.toml, readme and licence."""
    licence = work.settings.licence_text
    return {
        PYPROJECT: render("pyproject.toml.j2", package_view(shares, work.settings)),
        PACKAGE_README: render(
            "README.md.j2", readme_view(shares, work.settings, "python")
        ),
        **({LICENCE: licence} if licence is not None else {}),
    }
