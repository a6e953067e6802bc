"""The Python target's declaration: the package ``rulebook/``, its files and hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...common.diagnostics import Diagnostic
from ..target import TEMPLATE_LIBRARIES, Target, Work, warm_templates
from .files import (
    own,
    shared,
)

if TYPE_CHECKING:
    from ...common.parts import Shares
    from ...front.model import System


def _check(systems: Sequence[System], clean: bool) -> list[Diagnostic]:
    from . import package

    return package.check(systems)


def _code(work: Work, clean: bool) -> dict[str, str]:
    from . import package

    return package.sources(work)


def _together(shares: Sequence[Shares], work: Work) -> dict[str, str]:
    from . import package

    return package.together(shares, work)


TARGET = Target(
    name="python",
    own=own,
    shared=shared,
    libraries=(*TEMPLATE_LIBRARIES, "ruff"),
    warm=warm_templates,
    check=_check,
    code=_code,
    runs=True,
    together=_together,
)
