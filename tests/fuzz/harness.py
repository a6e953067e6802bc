"""Fuzz harness: fuzzed rules files through validation, semantics and the build.

``run(count, seed)`` makes ``count`` rules files (``cases``), each with the
system file of its own system, loads and validates each, builds the model of
each that validates, and builds every system that gets that far together, many
systems to one ``generate`` (the build's cost is mostly per call). Every
outcome must be a build or located errors: each error names one of the case's
files, a line and a column inside it, on one line. Anything else raised is a
crash, reported with the files that made it.
"""

from __future__ import annotations

import json
import random
import traceback
from collections import Counter
from dataclasses import dataclass, field

import yaml

from compiler import registry
from compiler.diagnostics import Diagnostic, RulesError
from compiler.loader import SourceFile, load_text
from compiler.model import System
from compiler.pipeline import generate
from compiler.semantics import build_system
from compiler.validate import validate

from .generate import Generator, Vocabulary, seed_documents
from .mutate import Mutator
from .schemas import RULES_FILE, SYSTEM_FILE, Json, Schemas, clone

MODELINE = "# yaml-language-server: $schema=../../schema/{}\n"
BATCH = 24  # systems built by one generate call


@dataclass
class Case:
    """One fuzzed rules file and the system file beside it."""

    index: int
    how: str
    files: dict[str, bytes]  # by the path errors name, system.yaml first

    @property
    def system(self) -> str:
        return f"fz{self.index}"


@dataclass
class Report:
    outcomes: Counter[str] = field(default_factory=Counter)
    built_kinds: Counter[str] = field(default_factory=Counter)  # rules built, by kind
    crashes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return "\n\n".join(self.crashes[:5]) + f"\n\noutcomes: {dict(self.outcomes)}"


def _text(data: Json, schema: str, rng: random.Random) -> bytes:
    if rng.random() < 0.15:
        body = json.dumps(data, ensure_ascii=rng.random() < 0.5) + "\n"
    else:
        body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)
    return (MODELINE.format(schema) + body).encode("utf-8", "surrogatepass")


class Cases:
    """Fuzzed cases drawn from one seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.schemas = Schemas()
        documents = seed_documents()
        self.gen = Generator(self.schemas, Vocabulary(documents), self.rng)
        self.mutator = Mutator(self.schemas, self.gen, self.rng)
        self.systems = [d for name, d in documents if name == "system.yaml"]
        self.files = [d for name, d in documents if name != "system.yaml"]
        self.rules = [r for d in self.files for r in d["rules"]]

    def case(self, index: int) -> Case:
        rng = self.rng
        system = f"fz{index}"
        roll = rng.random()
        meta = clone(rng.choice(self.systems))
        if roll < 0.6:
            how = "seed rules"
            if rng.random() < 0.25:
                # A whole real file with its system's file: a rule that needs
                # others (a roll against cover needs its table and its
                # decision) comes with them, so every kind is built in every
                # run, not by luck.
                how = "seed file"
                whole = rng.choice(self.files)
                rules = whole["rules"]
                meta = clone(
                    next(
                        (s for s in self.systems if s["system"] == whole["system"]),
                        meta,
                    )
                )
            else:
                rules = rng.sample(self.rules, rng.randint(1, 3))
            doc = {"system": system, "rules": clone(rules)}
        else:
            how = "schema rules"
            doc = self.gen.make(self.schemas.root(RULES_FILE))
            if isinstance(doc, dict):
                doc["system"] = system
        if roll > 0.9:
            how += ", schema system"
            meta = self.gen.make(self.schemas.root(SYSTEM_FILE))
        if isinstance(meta, dict):
            meta["system"] = system
        for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3))):
            if rng.random() < 0.85:
                doc = self.mutator.mutate(self.schemas.root(RULES_FILE), doc)
            else:
                meta = self.mutator.mutate(self.schemas.root(SYSTEM_FILE), meta)
        return Case(
            index,
            how,
            {
                f"rules/{system}/system.yaml": _text(meta, SYSTEM_FILE, rng),
                f"rules/{system}/rules.yaml": _text(doc, RULES_FILE, rng),
            },
        )


def located_problems(
    diagnostics: list[Diagnostic], files: dict[str, bytes]
) -> list[str]:
    """What is wrong with errors meant for ``files``: none, nameless, unlocated."""
    if not diagnostics:
        return ["a RulesError with no diagnostics"]
    wrong = []
    for d in diagnostics:
        text = files.get(d.file)
        if text is None:
            wrong.append(f"names no file of the case: {d}")
            continue
        lines = text.decode("utf-8", "replace").split("\n")
        if not d.message or "\n" in d.message:
            wrong.append(f"not a one-line message: {d!r}")
        if not (1 <= d.line <= len(lines) and 1 <= d.col <= len(lines[d.line - 1]) + 1):
            wrong.append(f"outside its file: {d!r}")
    return wrong


def _shown(case: Case) -> str:
    return f"case {case.index} ({case.how}):\n" + "\n".join(
        f"--- {path}\n{data.decode('utf-8', 'replace')}"
        for path, data in case.files.items()
    )


def _model(case: Case, report: Report) -> System | None:
    """The case's system, or None with its outcome counted."""
    sources: list[SourceFile] = []
    try:
        for path, data in case.files.items():
            source = load_text(data, path)
            problems = validate(source)
            if problems:
                raise RulesError(problems)
            sources.append(source)
        system = build_system(sources[0], sources[1:], registry.kinds())
    except RulesError as exc:
        stage = "schema" if len(sources) < len(case.files) else "semantics"
        report.outcomes[stage] += 1
        report.crashes += [
            f"{_shown(case)}\n{w}"
            for w in located_problems(exc.diagnostics, case.files)
        ]
        return None
    except Exception:  # a crash: what the fuzzer is for
        report.crashes.append(f"{_shown(case)}\n{traceback.format_exc()}")
        return None
    return system


def _build(batch: list[tuple[Case, System]], report: Report) -> None:
    """Build the systems together; those that fail are left out and the rest
    built again, so each system's outcome is its own."""
    while batch:
        try:
            generate([system for _, system in batch])
        except RulesError as exc:
            failed = {d.file.split("/")[1] for d in exc.diagnostics}
            files = {p: t for case, _ in batch for p, t in case.files.items()}
            for case, _ in batch:
                if case.system in failed:
                    report.outcomes["build errors"] += 1
            wrong = located_problems(exc.diagnostics, files)
            report.crashes += [
                f"batch of {[c.index for c, _ in batch]}:\n{w}" for w in wrong
            ]
            rest = [(c, s) for c, s in batch if c.system not in failed]
            if len(rest) == len(batch):
                return
            batch = rest
            continue
        except Exception:
            if len(batch) == 1:
                report.crashes.append(
                    f"{_shown(batch[0][0])}\n{traceback.format_exc()}"
                )
            else:  # find the system that crashes
                for one in batch:
                    _build([one], report)
            return
        report.outcomes["built"] += len(batch)
        report.built_kinds.update(r.kind for _, system in batch for r in system.rules)
        return


def run(count: int, seed: int) -> Report:
    """Fuzz ``count`` rules files from ``seed``."""
    report = Report()
    cases = Cases(seed)
    pending: list[tuple[Case, System]] = []
    for index in range(count):
        case = cases.case(index)
        system = _model(case, report)
        if system is not None:
            pending.append((case, system))
        if len(pending) >= BATCH or (index == count - 1 and pending):
            _build(pending, report)
            pending = []
    return report
