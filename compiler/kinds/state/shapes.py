"""The two shapes of a state, each hook choosing by the rule: a ladder of levels
(``levels:``; rule.py and its modules) or a record of fields (``fields:``;
record.py and its modules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.ir import Unit
from ...front.model import System
from . import (
    data,
    record,
    record_data,
    record_workbench,
    rule,
    workbench,
)
from .call import call as ladder_call
from .record_call import call as record_call
from .record_model import RecordStateRule

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> Any:
    if "fields" in raw:
        return record.build(b, src, path, raw, common)
    if not record.other_shape(b, src, path, raw, record.RECORD_KEYS, "levels"):
        rule.build(b, src, path, raw, common)
        return None
    return rule.build(b, src, path, raw, common)


def _by_shape(
    ladder: Callable[..., Any], fields: Callable[..., Any], at: int
) -> Callable[..., Any]:
    """A hook calling ``fields`` for a record state (the rule its argument
    ``at``), else ``ladder``."""

    def hook(*args: Any) -> Any:
        chosen = fields if isinstance(args[at], RecordStateRule) else ladder
        return chosen(*args)

    return hook


call = _by_shape(ladder_call, record_call, 1)
data_view = _by_shape(data.data_view, record_data.data_view, 1)
plain = _by_shape(workbench.state_plain, record_workbench.state_plain, 0)
samples = _by_shape(workbench.samples, record_workbench.samples, 0)
sample_answer = _by_shape(workbench.sample_answer, record_workbench.sample_answer, 2)


def lower(system: System, state: Any) -> Unit:
    """Either shape of a state lowered to the core."""
    if isinstance(state, RecordStateRule):
        return record.lower(system, state)
    return rule.lower(system, state)


def explain(ctx: Any) -> None:
    if isinstance(ctx.rule, RecordStateRule):
        record_workbench.explain(ctx)
    else:
        workbench.explain(ctx)
