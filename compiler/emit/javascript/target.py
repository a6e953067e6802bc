"""The JavaScript target's declaration: the package ``js/`` (modules and TypeScript types), its files and hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...common.diagnostics import Diagnostic
from ..target import TEMPLATE_LIBRARIES, Target, Work, warm_templates
from .files import (
    TARGET_NAME,
    js_own_files,
    js_shared_files,
)

if TYPE_CHECKING:
    from ...front.model import System


def _check(systems: Sequence[System], clean: bool) -> list[Diagnostic]:
    from . import views

    return views.check(systems, clean)


def _code(work: Work, clean: bool) -> dict[str, str]:
    from . import views

    return views.sources(work, clean)


TARGET = Target(
    name=TARGET_NAME,
    own=js_own_files,
    shared=js_shared_files,
    libraries=TEMPLATE_LIBRARIES,
    warm=warm_templates,
    check=_check,
    code=_code,
)
