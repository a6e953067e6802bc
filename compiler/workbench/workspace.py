"""Workspace: the rules of a folder built in memory, and their generated runtime imported."""

from __future__ import annotations

import argparse
import difflib
import importlib
import types
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import RulesError
from ..front.model import (
    Rule,
    System,
)
from .usage import UsageError


@dataclass
class Workspace:
    """The rules of one folder, checked and built (examples run) as ``rulesc build``
    would, with the generated runtime kept in memory (nothing is written)."""

    rules_dir: FsPath
    systems: tuple[System, ...]
    files: Mapping[str, str]
    _sources: dict[str, Any] = field(default_factory=dict)
    # compare as this system: the base of house rules, its rules named as theirs
    alias: str | None = None

    def key(self, rule: Rule) -> str:
        """The rule's qualified id, as ``rulesc diff`` pairs rules by it."""
        return f"{self.alias}.{rule.id}" if self.alias else rule.qualified_id

    def find(self, name: str) -> tuple[System, Rule]:
        """The rule ``SYSTEM.RULE`` (its function's name also does for RULE)."""
        system_id, dot, rule_id = name.partition(".")
        known = [r.qualified_id for s in self.systems for r in s.rules]
        if dot:
            for system in self.systems:
                if system.id != system_id:
                    continue
                for rule in system.rules:
                    if rule_id in (rule.id, getattr(rule, "function", None)):
                        return system, rule
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        hint = (
            f"did you mean {' or '.join(close)}?"
            if close
            else "rules: " + ", ".join(known)
        )
        if not dot:
            raise UsageError(f"name a rule as SYSTEM.RULE, not {name!r}", hint)
        raise UsageError(f"no rule {name!r} in {self.rules_dir.as_posix()}/", hint)

    def source(self, shown: str) -> Any:
        """The loaded rules file shown as ``shown`` (a ``SourceFile``)."""
        if shown not in self._sources:
            from ..front.loader import load_file

            self._sources[shown] = load_file(self.rules_dir.parent / shown, shown)
        return self._sources[shown]

    def raw(self, rule: Rule) -> tuple[Any, tuple[str | int, ...]]:
        """The rule's data as written, and its path in its file."""
        src = self.source(rule.loc.file)
        for index, raw in enumerate(src.data["rules"]):
            if raw.get("id") == rule.id:
                return raw, ("rules", index)
        raise LookupError(rule.qualified_id)

    def where(self, rule: Rule, *path: str | int) -> str:
        """``rules/<file>.yaml:LINE`` of a node of the rule's data."""
        file = rule.loc.file
        try:
            _, base = self.raw(rule)
            source = self.source(file)
            lent = source.lender((*base, *path))  # written by house rules
            if lent is not None:
                source, file = lent[0], lent[0].path
                line, _ = source.where(lent[1])
            else:
                line, _ = source.where((*base, *path))
        except (LookupError, OSError, RulesError):  # the file changed since
            line = rule.loc.line
        return f"{file}:{line}"

    @contextmanager
    def runtime(self) -> Iterator[Runtime]:
        """The generated ``rulebook`` package, imported from memory."""
        from ..examples import runtime_from

        with runtime_from(self.files) as package:
            yield Runtime(package)


class Runtime:
    """The in-memory ``rulebook`` package: its system modules, dice, errors and JSON."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.dice = importlib.import_module(f"{package}.dice")
        self.errors = importlib.import_module(f"{package}.errors")
        self.json = importlib.import_module(f"{package}.json")

    def module(self, system_id: str) -> types.ModuleType:
        return importlib.import_module(f"{self.package}.{system_id}")

    @property
    def input_error(self) -> type[Exception]:
        error: type[Exception] = self.errors.RuleInputError
        return error


def note_own_examples(runtime: Runtime, system: System, rule: Rule) -> None:
    """Say on stderr which worked examples of ``rule`` do not hold (an editor
    explains a rule they just changed before ``rulesc accept``); the examples
    of other rules are not run: they do not stop a command about this one."""
    import sys

    from ..examples import run_example

    module = runtime.module(system.id)
    for ex in rule.examples:
        failure = run_example(module, rule, ex)
        if failure is not None:
            print(
                f"note: worked example {ex.name!r} of {rule.qualified_id} does "
                f"not hold: {failure} (rulesc accept takes the new answer)",
                file=sys.stderr,
            )


def open_workspace(
    rules_dir: FsPath,
    cache_dir: FsPath | None,
    *,
    examples_must_hold: bool = True,
    more: Sequence[FsPath] = (),
) -> Workspace:
    """Build the rules (raising ``RulesError`` with every problem), from the cache
    when it holds this very build. With ``examples_must_hold=False`` worked
    examples that do not hold are no error (``rulesc diff`` reports them).
    ``more``: folders of house rules (``pipeline.load_systems``)."""
    from ..output.cache import build

    try:
        built = build(rules_dir, cache_dir, more=more)
        files, systems = built.files, tuple(built.systems)
    except RulesError:
        if examples_must_hold:
            raise
        from ..front.settings import load as load_settings
        from ..output.cache import (
            SourceMemo,
            Store,
            compiler_fingerprint,
        )
        from ..pipeline import generate, load_systems

        memo = (
            SourceMemo(Store(cache_dir, compiler_fingerprint()))
            if cache_dir is not None
            else None
        )
        outputs = generate(
            load_systems(rules_dir, memo=memo, more=more),
            run_examples=False,
            settings=load_settings(rules_dir),
        )
        files, systems = outputs.files, outputs.systems
    text = {
        path: blob.decode("utf-8")
        for path, blob in files.items()
        if path.startswith("rulebook/")
    }
    return Workspace(rules_dir, systems, text)


def cache_dir(args: argparse.Namespace) -> FsPath | None:
    """The build cache a workbench command uses (the one ``rulesc build`` fills)."""
    if getattr(args, "no_cache", False):
        return None
    from ..output.cache import cache_dir_for

    return cache_dir_for(getattr(args, "out", None) or FsPath("generated"))
