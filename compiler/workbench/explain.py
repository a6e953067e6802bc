"""``rulesc explain SYSTEM.RULE [INPUT...]``: a rule's answer, and how it was reached.

The rules are built in memory from the rules folder as it is now (unsaved to
git or not), so an editor sees their own edits. The answer always comes from
the generated runtime; the explanation comes from the checked model of the
rules: the table row, the formula's steps (values from the reference
evaluator, which must agree with the runtime, or this says so), the decision's
cases, each with the rules file and line it was written at, a procedure's
steps (the core's tracing interpreter, ``trace``), then the rule's rulings and
errata.
"""

from __future__ import annotations

import argparse

from ..front.model import (
    Rule,
    System,
)
from ..kinds.registry import kind_of
from .bounds import Overrun, bounded, too_slow
from .common import wrap
from .context import Context, Explanation, at
from .usage import UsageError
from .workspace import (
    Runtime,
    Workspace,
    cache_dir,
    note_own_examples,
    open_workspace,
)


def run(args: argparse.Namespace) -> int:
    ws = open_workspace(
        args.rules, cache_dir(args), examples_must_hold=False, more=args.more_rules
    )
    system, rule = ws.find(args.rule)
    with ws.runtime() as runtime:
        note_own_examples(runtime, system, rule)
        text = explain(ws, system, rule, runtime, args)
    print(text)
    return 0


def explain(
    ws: Workspace,
    system: System,
    rule: Rule,
    runtime: Runtime,
    args: argparse.Namespace,
) -> str:
    module = runtime.module(system.id)
    out = Explanation()
    out.lines.append(f"{rule.qualified_id}: {rule.title}")
    out.lines.append(f"  {kind_of(rule).text}, defined at {at(rule.loc)}")
    out.lines += wrap(rule.summary)
    kind = kind_of(rule)
    ctx = Context(ws, system, rule, kind, runtime, module, args, out)
    try:
        with bounded() as clock:
            clock.run(kind.explain, ctx)
    except runtime.input_error as exc:  # refused where the kind did not say so itself
        raise UsageError(f"{rule.qualified_id} refuses these inputs: {exc}") from None
    except Overrun:
        raise too_slow(rule.qualified_id, ctx.given) from None
    _rulings(ws, rule, out)
    return out.text()


def _rulings(ws: Workspace, rule: Rule, out: Explanation) -> None:
    lines = []
    for index, ruling in enumerate(rule.rulings):
        lines.append(f"  {ruling.id}   ({ws.where(rule, 'rulings', index)})")
        if ruling.question:
            lines += wrap(f"Q: {ruling.question}", "    ")
        lines += wrap(f"Ruling: {ruling.ruling}", "    ")
        lines += wrap(f"Why: {ruling.reason}", "    ")
    out.section("Rulings of this rule (where the source is silent or unclear)", lines)
    lines = []
    for index, erratum in enumerate(rule.errata):
        lines.append(f"  {erratum.id}   ({ws.where(rule, 'errata', index)})")
        lines += wrap(f"The source says: {erratum.source_says}", "    ")
        lines += wrap(f"The rules give: {erratum.rules_give}", "    ")
        lines += wrap(f"Why: {erratum.reason}", "    ")
    out.section("Errata of this rule (where the source contradicts itself)", lines)
