"""The Markdown target's declaration: the reference pages (with charts and forms), their files and hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from ...common.diagnostics import Diagnostic
from ..target import TEMPLATE_LIBRARIES, Share, Target, Work, warm_templates
from .files import (
    CHARTS,
    DOCS,
    TARGET_NAME,
    own,
    shared,
)

if TYPE_CHECKING:
    from ...common.parts import Shares
    from ...front.model import System


def _observe(system: System, module: ModuleType, work: Work) -> list[Diagnostic]:
    from . import reference

    return reference.observe(system, module, work)


def _pages(work: Work) -> dict[str, str]:
    from . import reference

    return reference.pages(work)


def _share(system: System, own: Mapping[str, str], work: Work) -> Share:
    from . import reference

    return reference.share(system, own, work)


def _together(shares: Sequence[Shares], work: Work) -> dict[str, str]:
    from . import reference

    return reference.together(shares, work)


TARGET = Target(
    name=TARGET_NAME,
    own=own,
    shared=shared,
    reserved={
        CHARTS: f"would put its rule pages in {DOCS}/{CHARTS}/, "
        "where the build writes the charts"
    },
    libraries=TEMPLATE_LIBRARIES,
    warm=warm_templates,
    observe=_observe,
    pages=_pages,
    share=_share,
    together=_together,
)
