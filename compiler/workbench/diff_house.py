"""``rulesc diff --house SYSTEM``: what house rules change, rule by rule, against the system they extend."""

from __future__ import annotations

import argparse
from dataclasses import replace

from ..pipeline import merged_sources
from .diff import compare, report
from .usage import UsageError
from .workspace import cache_dir, open_workspace


def run(args: argparse.Namespace) -> int:
    """Compare the house rules ``args.house`` with the system they extend: the
    base's rules are paired with the house rules' by id, and run on the base's
    module; the house rules' data is read as merged with their overrides."""
    if args.base is not None:
        raise UsageError(
            "--base and --house do not go together: --house compares the house "
            "rules with the system they extend, not with a git revision",
            "give --house SYSTEM, or --base REV, not both",
        )
    space = open_workspace(
        args.rules, cache_dir(args), examples_must_hold=False, more=args.more_rules
    )
    systems = {s.id: s for s in space.systems}
    pack = systems.get(args.house)
    if pack is None or pack.house is None or pack.house.base is None:
        raise UsageError(
            f"--house {args.house}: no system of house rules by that id",
            "name a system whose system.yaml says extends:, and give its folder "
            "with --rules",
        )
    base = systems[pack.house.base]
    old = replace(space, systems=(base,), alias=pack.id, _sources={})
    new = replace(space, systems=(pack,), _sources={})
    new._sources.update(
        {s.path: s for s in merged_sources(args.rules, args.more_rules)[pack.id]}
    )
    reports = compare(old, new)
    changed = sum(1 for r in reports if r.status != "removed")
    head = f"rulesc diff: {base.id} (the book) -> {pack.id} (its house rules)"
    compared = (base.id, pack.id, head)
    return report(args, reports, compared, len(pack.rules) - changed)
