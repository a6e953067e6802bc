"""``rulesc diff [--base REV]``: what a rules change does, rule by rule.

The rules folder of a git revision (read with ``git archive``: the work tree,
its index and HEAD are never touched) and the rules folder as it is now are
both built with this rulesc, in memory. Then, for every rule:

- the figures and text that changed in its data, each with its line;
- the worked examples whose answers changed (each example run on both
  runtimes, with the example's own scripted dice);
- the sample inputs whose answers changed: every label of a choice, both
  values of a flag, numbers at and around the limits, fixed seeds for dice.

A rule whose own data did not change can still answer differently (a decision
that reads a changed table); it is named too. Compare with ``--base``; exit 1
on any change of behaviour with ``--exit-code``.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import RulesError
from ..examples import example_value
from ..front.model import (
    Example,
    Rule,
)
from ..kinds.registry import kind_of
from ..lang.py_names import pyname
from .common import Input, inputs_of
from .samples import Sample, thawed
from .usage import UsageError
from .workspace import Runtime, Workspace, cache_dir, open_workspace

SHOWN = 5  # changed samples shown per rule


# -- git -------------------------------------------------------------------------


def _git(*args: str, cwd: FsPath) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed, or not on PATH") from None


def _locate(rules_dir: FsPath) -> tuple[FsPath, str]:
    """The repository's root, and the rules folder's path inside it."""
    folder = rules_dir.resolve()
    if not folder.is_dir():
        raise UsageError(f"no rules folder {rules_dir.as_posix()}/", "pass --rules")
    done = _git("rev-parse", "--show-toplevel", cwd=folder)
    if done.returncode:
        raise UsageError(
            f"{rules_dir.as_posix()}/ is not in a git repository",
            "rulesc diff compares the rules with a git revision",
        )
    top = FsPath(done.stdout.decode().strip()).resolve()
    return top, folder.relative_to(top).as_posix()


def _commit(top: FsPath, rev: str) -> str:
    done = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", cwd=top)
    if done.returncode:
        raise UsageError(
            f"{rev!r} is not a revision of this repository",
            "give a commit, branch or tag with --base (default HEAD)",
        )
    return done.stdout.decode().strip()


def _links_kept(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's "data" filter, except that a symbolic link leading out of the
    folder is made as it was committed: the build reports it (at the link, as it
    does in the work tree) and never reads what it leads to."""
    try:
        return tarfile.data_filter(member, dest)
    except (tarfile.AbsoluteLinkError, tarfile.LinkOutsideDestinationError):
        if not member.issym():
            raise
        return member


def extract(top: FsPath, commit: str, prefix: str, into: FsPath) -> FsPath:
    """The rules folder as it was at ``commit``, written under ``into``."""
    target = into / prefix
    listed = _git("ls-tree", "--name-only", commit, "--", prefix, cwd=top)
    if listed.returncode == 0 and listed.stdout.strip():
        done = _git("archive", "--format=tar", commit, "--", prefix, cwd=top)
        if done.returncode:
            message = done.stderr.decode(errors="replace").strip()
            raise UsageError(f"git archive failed: {message}")
        with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
            tar.extractall(into, filter=_links_kept)
    target.mkdir(parents=True, exist_ok=True)
    return target


# -- answers ----------------------------------------------------------------------


def call(runtime: Runtime, module: Any, rule: Rule, sample: Sample) -> Any:
    """A rule's answer for a sample, as plain JSON (or what it raised)."""
    kwargs = {k: thawed(v) for k, v in sample.inputs}
    try:
        return kind_of(rule).sample_answer(runtime, module, rule, kwargs, sample.seed)
    except runtime.input_error as exc:
        return {"raises": f"RuleInputError: {exc}"}
    except Exception as exc:  # a renamed parameter, a removed function...
        return {"raises": f"{type(exc).__name__}: {exc}"}


def example_answer(runtime: Runtime, module: Any, rule: Rule, ex: Example) -> Any:
    """A worked example's answer (the call it makes, with its scripted dice)."""
    try:
        return kind_of(rule).plain(rule, example_value(module, rule, ex))
    except runtime.input_error as exc:
        return {"raises": f"RuleInputError: {exc}"}
    except Exception as exc:
        return {"raises": f"{type(exc).__name__}: {exc}"}


# -- data -----------------------------------------------------------------------------

_IDS = ("key", "id", "name", "param")
SEP = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "


@dataclass(frozen=True)
class Change:
    where: str  # a readable path: rows > zero_g > max_increments (with SEP)
    old: Any
    new: Any
    new_path: tuple[str | int, ...] | None  # where in the new rule's data
    old_path: tuple[str | int, ...] | None


def data_changes(
    old: Any,
    new: Any,
    shown: tuple[str, ...] = (),
    old_path: tuple[str | int, ...] = (),
    new_path: tuple[str | int, ...] = (),
) -> Iterator[Change]:
    """Every difference between two rules' data, as readable paths."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(dict.fromkeys([*old, *new])):
            here = (*shown, str(key))
            if key not in new:
                yield Change(SEP.join(here), old[key], _MISSING, None, (*old_path, key))
            elif key not in old:
                yield Change(SEP.join(here), _MISSING, new[key], (*new_path, key), None)
            else:
                yield from data_changes(
                    old[key], new[key], here, (*old_path, key), (*new_path, key)
                )
        return
    if isinstance(old, list) and isinstance(new, list) and old != new:
        ident = _identity(old, new)
        if ident is not None:
            old_items = {str(item[ident]): i for i, item in enumerate(old)}
            new_items = {str(item[ident]): i for i, item in enumerate(new)}
            for label in list(dict.fromkeys([*old_items, *new_items])):
                here = (*shown, label)
                o, n = old_items.get(label), new_items.get(label)
                if n is None and o is not None:
                    yield Change(SEP.join(here), old[o], _MISSING, None, (*old_path, o))
                elif o is None and n is not None:
                    yield Change(SEP.join(here), _MISSING, new[n], (*new_path, n), None)
                elif o is not None and n is not None:
                    yield from data_changes(
                        old[o], new[n], here, (*old_path, o), (*new_path, n)
                    )
            return
        if len(old) == len(new) and all(isinstance(v, dict | list) for v in old + new):
            for index, (o, n) in enumerate(zip(old, new, strict=True)):
                yield from data_changes(
                    o,
                    n,
                    (*shown, f"#{index + 1}"),
                    (*old_path, index),
                    (*new_path, index),
                )
            return
    if old != new or type(old) is not type(new):
        yield Change(SEP.join(shown), old, new, new_path, old_path)


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING: Any = _Missing()


def _identity(old: list[Any], new: list[Any]) -> str | None:
    items = old + new
    if not items or not all(isinstance(v, dict) for v in items):
        return None
    for key in _IDS:
        if (
            all(key in v for v in items)
            and len({str(v[key]) for v in old}) == len(old)
            and len({str(v[key]) for v in new}) == len(new)
        ):
            return key
    return None


def value_text(value: Any, limit: int = 60) -> str:
    if value is _MISSING:
        return "(none)"
    if isinstance(value, str):
        text = " ".join(value.split())
        text = json.dumps(text, ensure_ascii=False)
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def answer_difference(old: Any, new: Any) -> str:
    """How two answers differ, field by field where they are records."""
    if (
        isinstance(old, dict)
        and isinstance(new, dict)
        and "raises" not in old
        and "raises" not in new
    ):
        parts = []
        for key in dict.fromkeys([*old, *new]):
            o, n = old.get(key, _MISSING), new.get(key, _MISSING)
            if o == n:
                continue
            if isinstance(o, list) and isinstance(n, list):
                parts.append(
                    f"{key}: changed ({len(o)} -> {len(n)} items)"
                    if len(o) != len(n)
                    else f"{key}: changed"
                )
            else:
                parts.append(f"{key} {value_text(o, 40)} -> {value_text(n, 40)}")
        return "; ".join(parts)
    if isinstance(old, list) and isinstance(new, list) and len(old) != len(new):
        return f"{len(old)} -> {len(new)} items"
    return f"{_answer_text(old)} -> {_answer_text(new)}"


def _answer_text(value: Any) -> str:
    if isinstance(value, dict) and set(value) == {"raises"}:
        return f"raises {value['raises']}"[:80]
    return value_text(value, 50)


# -- the report -------------------------------------------------------------------------


@dataclass
class RuleReport:
    qualified_id: str
    title: str
    where: str
    status: str  # added, removed, changed
    data: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    samples_changed: int = 0
    samples_total: int = 0
    broken: list[str] = field(default_factory=list)  # examples that no longer hold

    @property
    def behaviour(self) -> bool:
        return self.status != "changed" or bool(self.examples or self.samples_changed)


def _rules(ws: Workspace) -> dict[str, Rule]:
    return {ws.key(r): r for s in ws.systems for r in s.rules}


def _specs(ws: Workspace, runtime: Runtime) -> dict[str, list[Input]]:
    found: dict[str, list[Input]] = {}
    for system in ws.systems:
        module = runtime.module(system.id)
        for rule in system.rules:
            name = kind_of(rule).entry(rule)
            found[ws.key(rule)] = (
                []
                if name is None
                else inputs_of(
                    getattr(module, pyname(name)), kind_of(rule).params(rule)
                )
            )
    return found


def _merge(old: Sequence[Input], new: Sequence[Input]) -> list[Input]:
    """The new parameters, knowing the old ones' labels too (a removed label is a sample)."""
    before = {s.name: s for s in old}
    merged = []
    for spec in new:
        was = before.get(spec.name)
        if was is not None and spec.kind == was.kind == "choice":
            labels = tuple(dict.fromkeys([*spec.labels, *was.labels]))
            spec = Input(**{**spec.__dict__, "labels": labels})
        merged.append(spec)
    return merged


def _answers(
    ws: Workspace,
    runtime: Runtime,
    rules: Mapping[str, Rule],
    samples: Mapping[str, list[Sample]],
    examples: Mapping[str, list[Example]],
) -> tuple[dict[str, list[Any]], dict[tuple[str, str], Any]]:
    by_sample: dict[str, list[Any]] = {}
    by_example: dict[tuple[str, str], Any] = {}
    systems = {s.id: s for s in ws.systems}
    for qualified, rule in rules.items():
        module = runtime.module(systems[rule.system].id)
        by_sample[qualified] = [
            call(runtime, module, rule, s) for s in samples[qualified]
        ]
        for ex in examples.get(qualified, []):
            by_example[(qualified, ex.name)] = example_answer(runtime, module, rule, ex)
    return by_sample, by_example


def compare(old: Workspace, new: Workspace) -> list[RuleReport]:
    """Every rule that was added, removed, or changed in data or behaviour."""
    old_rules, new_rules = _rules(old), _rules(new)
    both = [q for q in new_rules if q in old_rules]
    with old.runtime() as runtime:
        old_specs = _specs(old, runtime)
    with new.runtime() as runtime:
        new_specs = _specs(new, runtime)
    samples = {
        q: kind_of(new_rules[q]).samples(
            new_rules[q], _merge(old_specs.get(q, []), new_specs[q])
        )
        for q in both
    }
    examples: dict[str, list[Example]] = {}
    for q in both:
        mine = list(new_rules[q].examples)
        names = {ex.name for ex in mine}
        mine += [ex for ex in old_rules[q].examples if ex.name not in names]
        examples[q] = mine
    shared_old = {q: old_rules[q] for q in both}
    shared_new = {q: new_rules[q] for q in both}
    # Examples removed from the new rules run on the old model's definition.
    with new.runtime() as runtime:
        new_samples, new_examples = _answers(
            new, runtime, shared_new, samples, examples
        )
        broken = _broken(new, runtime)
    with old.runtime() as runtime:
        old_samples, old_examples = _answers(
            old, runtime, shared_old, samples, examples
        )
    reports = []
    for q, rule in new_rules.items():
        where = f"{rule.loc.file}:{rule.loc.line}"
        if q not in old_rules:
            reports.append(RuleReport(q, rule.title, where, "added"))
            continue
        report = RuleReport(q, rule.title, where, "changed")
        before = old_rules[q]
        if before.fingerprint != rule.fingerprint:
            report.data = _data_lines(old, new, before, rule)
        for ex in examples[q]:
            a, b = old_examples[(q, ex.name)], new_examples[(q, ex.name)]
            if a != b:
                report.examples.append(
                    f"{ex.name} ({ex.loc.file}:{ex.loc.line}): {answer_difference(a, b)}"
                )
        function = _call_name(rule)
        pairs = list(zip(samples[q], old_samples[q], new_samples[q], strict=True))
        report.samples_total = len(pairs)
        changed = [(s, a, b) for s, a, b in pairs if a != b]
        report.samples_changed = len(changed)
        report.samples = [
            f"{s.text(function)}: {answer_difference(a, b)}"
            for s, a, b in changed[:SHOWN]
        ]
        report.broken = broken.get(q, [])
        if report.data or report.examples or report.samples_changed or report.broken:
            reports.append(report)
    for q, rule in old_rules.items():
        if q not in new_rules:
            where = f"{rule.loc.file}:{rule.loc.line}"
            reports.append(RuleReport(q, rule.title, f"was at {where}", "removed"))
    return reports


def _broken(ws: Workspace, runtime: Runtime) -> dict[str, list[str]]:
    """The worked examples of the work tree that do not hold (a build would fail)."""
    from ..examples import run_example

    found: dict[str, list[str]] = {}
    for system in ws.systems:
        module = runtime.module(system.id)
        for rule in system.rules:
            for ex in rule.examples:
                failure = run_example(module, rule, ex)
                if failure is not None:
                    found.setdefault(ws.key(rule), []).append(
                        f"{ex.name} ({ex.loc.file}:{ex.loc.line}): {failure}"
                    )
    return found


def _call_name(rule: Rule) -> str:
    return kind_of(rule).call_name(rule)


def _data_lines(old: Workspace, new: Workspace, before: Rule, after: Rule) -> list[str]:
    try:
        old_raw, _ = old.raw(before)
        new_raw, _ = new.raw(after)
    except (LookupError, OSError, RulesError):
        return ["(its data changed)"]
    lines = []
    for change in data_changes(old_raw, new_raw):
        if change.new_path is not None:
            at = new.where(after, *change.new_path)
        elif change.old_path is not None:
            at = "was at " + old.where(before, *change.old_path)
        else:
            at = f"{after.loc.file}:{after.loc.line}"
        what = change.where or "(the whole rule)"
        lines.append(
            f"{what}: {value_text(change.old)} -> {value_text(change.new)}   ({at})"
        )
    return lines


def render(reports: Sequence[RuleReport], base: str, unchanged: int) -> str:
    lines = [f"rulesc diff: {base} -> the work tree (both built with this rulesc)"]
    if not reports:
        lines += ["", "No rule changed."]
    for report in reports:
        mark = {"added": "+", "removed": "-"}.get(report.status, "~")
        lines += [
            "",
            f"{mark} {report.qualified_id}: {report.title}   ({report.where})",
        ]
        if report.status == "added":
            lines.append("    a new rule")
            continue
        if report.status == "removed":
            lines.append("    removed")
            continue
        if not report.data:
            lines.append(
                "    its own data did not change, but answers did (it reads a changed rule)"
            )
        else:
            lines.append("    data that changed:")
            lines += [f"      {line}" for line in report.data]
        if report.examples:
            lines.append("    worked examples whose answers changed:")
            lines += [f"      {line}" for line in report.examples]
        if report.broken:
            lines.append(
                "    worked examples that no longer hold (rulesc build will refuse "
                "them until the example or the data is fixed):"
            )
            lines += [f"      {line}" for line in report.broken]
        if report.samples_changed:
            lines.append(
                f"    sample inputs whose answers changed: {report.samples_changed} of "
                f"{report.samples_total} tried"
                + (", for example:" if report.samples_changed > SHOWN else ":")
            )
            lines += [f"      {line}" for line in report.samples]
        if not report.examples and not report.samples_changed:
            lines.append(
                f"    no answer changed ({report.samples_total} sample inputs and every "
                "worked example tried): a change to the text and docs only"
            )
    behaviour = sum(r.behaviour for r in reports if r.status == "changed")
    text_only = sum(not r.behaviour for r in reports if r.status == "changed")
    added = sum(r.status == "added" for r in reports)
    removed = sum(r.status == "removed" for r in reports)
    lines += [
        "",
        f"{behaviour} rule(s) changed in behaviour, {text_only} in text only, "
        f"{added} added, {removed} removed; {unchanged} unchanged",
    ]
    return "\n".join(lines)


def as_json(
    reports: Sequence[RuleReport], base: str, target: str, unchanged: int
) -> str:
    """The report as one JSON document (``--format json``): what was compared,
    each rule's report (its lines as the text report words them) and the
    counts of the last line."""
    rules = [
        {
            "rule": r.qualified_id,
            "title": r.title,
            "where": r.where,
            "status": r.status,
            "behaviour_changed": r.behaviour,
            "data": r.data,
            "examples": r.examples,
            "broken_examples": r.broken,
            "samples": r.samples,
            "samples_changed": r.samples_changed,
            "samples_tried": r.samples_total,
        }
        for r in reports
    ]
    changed = [r for r in reports if r.status == "changed"]
    counts = {
        "behaviour": sum(r.behaviour for r in changed),
        "text_only": sum(not r.behaviour for r in changed),
        "added": sum(r.status == "added" for r in reports),
        "removed": sum(r.status == "removed" for r in reports),
        "unchanged": unchanged,
    }
    doc = {"base": base, "compared": target, "rules": rules, "counts": counts}
    return json.dumps(doc, indent=2, ensure_ascii=False)


def report(
    args: argparse.Namespace,
    reports: Sequence[RuleReport],
    compared: tuple[str, str, str],
    unchanged: int,
) -> int:
    """Print the report as ``--format`` asks (JSON for json, else text, whose
    first line is ``compared``'s third); the exit code ``--exit-code`` asks for."""
    base, target, head = compared
    if args.format == "json":
        print(as_json(reports, base, target, unchanged))
    else:
        print("\n".join([head, *render(reports, base, unchanged).split("\n")[1:]]))
    if args.exit_code and any(r.behaviour for r in reports):
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    top, prefix = _locate(args.rules)
    revision = args.base or "HEAD"
    commit = _commit(top, revision)
    base = f"{revision} ({commit[:10]})"
    cache = cache_dir(args)
    with tempfile.TemporaryDirectory(prefix="rulesc-diff-") as tmp:
        old_dir = extract(top, commit, prefix, FsPath(tmp))
        try:
            old = open_workspace(old_dir, cache, examples_must_hold=False)
        except RulesError:
            print(
                f"rulesc diff: the rules at {base} do not build with this rulesc "
                "(their errors follow, with paths as they were at that revision):",
                file=sys.stderr,
            )
            raise
        new = open_workspace(args.rules, cache, examples_must_hold=False)
        # The old workspace reads its files from the temporary folder: compare now.
        reports = compare(old, new)
        total = len(_rules(new))
    changed = sum(1 for r in reports if r.status != "removed")
    head = f"rulesc diff: {base} -> the work tree (both built with this rulesc)"
    return report(args, reports, (base, "the work tree", head), total - changed)
