"""The two shapes of a state, each hook choosing by the rule: a ladder of levels
(``levels:``; rule.py and its modules) or a record of fields (``fields:``;
record.py and its modules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import (
    data,
    js,
    record,
    record_docs,
    record_js,
    record_py,
    record_workbench,
    rule,
    workbench,
)
from .record_model import RecordStateRule

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


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


python_view = _by_shape(rule.python_view, record_py.python_view, 1)
docs_view = _by_shape(rule.docs_view, record_docs.docs_view, 1)
js_view = _by_shape(js.js_view, record_js.js_view, 1)
js_plan = _by_shape(js.js_plan, record_js.js_plan, 1)
data_view = _by_shape(data.data_view, record_docs.data_view, 1)
plain = _by_shape(workbench.state_plain, record_workbench.state_plain, 0)
samples = _by_shape(workbench.samples, record_workbench.samples, 0)
sample_answer = _by_shape(workbench.sample_answer, record_workbench.sample_answer, 2)


def explain(ctx: Any) -> None:
    if isinstance(ctx.rule, RecordStateRule):
        record_workbench.explain(ctx)
    else:
        workbench.explain(ctx)
