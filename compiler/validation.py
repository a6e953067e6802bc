"""Validation: what ``rulesc validate`` checks (every check of a build, the worked examples too) and says."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path as FsPath

from .common.diagnostics import RulesError
from .front.model import System


def validate(
    rules_dir: FsPath,
    only: set[str] | None,
    *,
    more: Sequence[FsPath] = (),
    sources: FsPath | None = None,
    examples: bool = True,
) -> str:
    """Check the rules as a build would, in memory (nothing is written), and
    the line that says they are sound: how many rules, systems and worked
    examples. ``examples=False`` (``--no-examples``) still runs every other
    check of a build, but takes worked examples that do not hold."""
    from . import pipeline

    systems, settings = pipeline.load_all(rules_dir, only, more=more)
    if sources is not None:
        missing = pipeline.unknown_sources(rules_dir, systems, sources)
        if missing:
            raise RulesError(missing)
    if systems:  # every check of a build, its worked examples too
        pipeline.generate(systems, settings=settings, run_examples=examples)
    return ok_line(systems, examples=examples)


def ok_line(systems: Sequence[System], *, examples: bool = True) -> str:
    """``ok: N rules in M system(s), K worked examples hold`` (or not checked)."""
    rules = sum(len(s.rules) for s in systems)
    line = f"ok: {rules} rules in {len(systems)} system(s)"
    count = sum(len(r.examples) for s in systems for r in s.rules)
    if not examples:
        return f"{line}; worked examples not checked (--no-examples)"
    return f"{line}, {count} worked example{'' if count == 1 else 's'} hold{'s' if count == 1 else ''}"
