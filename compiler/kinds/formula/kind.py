"""Formula: typed parameters and one checked expression.

The kind's plugin: its hooks, named for the registry (compiler/registry.py).
"""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from ... import scope
from .. import calls
from . import rule, workbench

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...model import Rule
    from ...semantics import SystemBuilder


def build(
    builder: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> Rule | None:
    return builder.formula(src, path, raw, common)


KIND = calls.make_kind(
    name="formula",
    folder=FsPath(__file__).resolve().parent,
    text="a formula",
    callable=True,
    build=build,
    scope=scope.formula_function,
    python_view=rule.python_view,
    docs_view=rule.docs_view,
    params=calls.params_of,
    explain=workbench.explain,
)
