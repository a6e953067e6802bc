"""Fuzz harness: fuzzed rules files through validation, semantics and the build.

``run(count, seed)`` makes ``count`` rules files (``cases``), each with the
system file of its own system, loads and validates each, builds the model of
each that validates, and builds every system that gets that far together, many
systems to one ``generate`` (the build's cost is mostly per call). Every
outcome must be a build or located errors: each error names one of the case's
files, a line and a column inside it, on one line. Anything else raised is a
crash, reported with the files that made it.

One case in ``ROLLING`` is rules that roll, every shape of parameter named as
the targets name their own (``rolling``); once built, each is called in Python
(its module must import) and, given a folder (``run(..., where=)``), the calls
are kept with Python's answers for Node to make (``Report.javascript``: the
specs of tests/js/conformance.test.mjs, each system's package in the folder).
"""

from __future__ import annotations

import importlib
import json
import random
import re
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.core.calls import function_call
from rulesc.emit.javascript.plan import js_plan
from rulesc.examples import runtime_from
from rulesc.front.loader import (
    SourceFile,
    load_text,
)
from rulesc.front.model import System
from rulesc.front.semantics import build_system
from rulesc.front.validate import validate
from rulesc.kinds import registry
from rulesc.lang.py_names import pyname
from rulesc.pipeline import Outputs, generate

from ..js_node import answer
from .generate import Generator, Vocabulary, seed_documents
from .mutate import Mutator
from .rolling import Call, Rolling
from .schemas import RULES_FILE, SYSTEM_FILE, Json, Schemas, clone

MODELINE = "# yaml-language-server: $schema=../../schema/{}\n"
BATCH = 24  # systems built by one generate call
ROLLING = 40  # one case in so many is rules that roll (``rolling``)


@dataclass
class Case:
    """One fuzzed rules file and the system file beside it."""

    index: int
    how: str
    files: dict[str, bytes]  # by the path errors name, system.yaml first
    calls: list[Call] = field(default_factory=list)  # to make once it builds

    @property
    def system(self) -> str:
        return f"fz{self.index}"


@dataclass
class Report:
    outcomes: Counter[str] = field(default_factory=Counter)
    built_kinds: Counter[str] = field(default_factory=Counter)  # rules built, by kind
    crashes: list[str] = field(default_factory=list)
    rolling: Counter[str] = field(default_factory=Counter)  # rules that roll: outcomes
    javascript: list[dict[str, Any]] = field(default_factory=list)  # specs for Node

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
        self.rules = [
            r for name, d in documents if name != "system.yaml" for r in d["rules"]
        ]
        # each real rule with the rules it names, by kind, so that a rule of
        # every kind is drawn as often, with what it needs to build
        self.own = {str(d["system"]): d for d in self.systems}
        rules_of: dict[str, list[Json]] = {}
        for name, d in documents:
            if name != "system.yaml":
                rules_of.setdefault(str(d["system"]), []).extend(d["rules"])
        self.by_kind: dict[str, list[tuple[str, list[Json]]]] = {}
        for system, rules in rules_of.items():
            for rule in rules:
                kind = str(rule.get("kind"))
                self.by_kind.setdefault(kind, []).append(
                    (system, _with_needs(rule, rules))
                )
        self.kinds = sorted(self.by_kind)
        self.rolls = Rolling(random.Random(seed))
        self.d20 = clone(self.own["d20_scifi"])

    def case(self, index: int) -> Case:
        """The case ``index``: one in ``ROLLING`` rules that roll, the others
        drawn from the seed rules and the schemas, then mutated."""
        system = f"fz{index}"
        if index % ROLLING == ROLLING - 1:
            doc, calls = self.rolls.document(system)
            meta = clone(self.d20) | {"system": system}
            return Case(
                index,
                "rules that roll, named as the targets name their own",
                {
                    f"rules/{system}/system.yaml": _text(meta, SYSTEM_FILE, self.rng),
                    f"rules/{system}/rules.yaml": _text(doc, RULES_FILE, self.rng),
                },
                calls,
            )
        rng = self.rng
        roll = rng.random()
        meta = clone(rng.choice(self.systems))
        mutations = rng.choice((0, 1, 1, 1, 2, 2, 3))
        if roll < 0.25:
            how = "a seed rule of any kind, with the rules it names"
            own, rules = rng.choice(self.by_kind[rng.choice(self.kinds)])
            meta = clone(self.own[own])
            doc = {"system": system, "rules": clone(rules)}
            mutations = rng.choice((0, 0, 1))
        elif roll < 0.6:
            how = "seed rules"
            doc = {
                "system": system,
                "rules": clone(rng.sample(self.rules, rng.randint(1, 3))),
            }
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
        for _ in range(mutations):
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


def _words(node: Json) -> set[str]:
    """Every word of the text in ``node`` (keys and values)."""
    if isinstance(node, dict):
        return {w for k, v in node.items() for w in _words(k) | _words(v)}
    if isinstance(node, list):
        return {w for item in node for w in _words(item)}
    return set(re.findall(r"\w+", node)) if isinstance(node, str) else set()


def _with_needs(rule: Json, rules: list[Json]) -> list[Json]:
    """``rule`` with the rules of its system it names (by id, function or
    class), and theirs, in the order of the system's files."""
    wanted, todo = {id(rule)}, [rule]
    while todo:
        words = _words(todo.pop())
        for other in rules:
            names = {other.get(k) for k in ("id", "function", "class")}
            if id(other) not in wanted and names & words:
                wanted.add(id(other))
                todo.append(other)
    return [r for r in rules if id(r) in wanted]


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


def checked(case: Case, sources: list[SourceFile]) -> list[SourceFile]:
    """The case's files loaded and schema-checked, each added to ``sources`` as
    it passes; raise at the first that does not."""
    for path, data in case.files.items():
        source = load_text(data, path)
        problems = validate(source)
        if problems:
            raise RulesError(problems)
        sources.append(source)
    return sources


def _model(case: Case, report: Report) -> System | None:
    """The case's system, or None with its outcome counted."""
    sources: list[SourceFile] = []
    try:
        sources = checked(case, sources)
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


def _build(
    batch: list[tuple[Case, System]], report: Report, where: Path | None = None
) -> None:
    """Build the systems together; those that fail are left out and the rest
    built again, so each system's outcome is its own."""
    while batch:
        try:
            outputs = generate([system for _, system in batch])
        except RulesError as exc:
            failed = {d.file.split("/")[1] for d in exc.diagnostics}
            files = {p: t for case, _ in batch for p, t in case.files.items()}
            for case, _ in batch:
                if case.system in failed:
                    report.outcomes["build errors"] += 1
                    if case.calls:
                        report.rolling["build errors"] += 1
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
                    _build([one], report, where)
            return
        report.outcomes["built"] += len(batch)
        for case, system in batch:
            written = _written_kinds(case)
            report.built_kinds.update(written.get(r.id, r.kind) for r in system.rules)
        _call(batch, outputs, report, where)
        return


def _call(
    batch: list[tuple[Case, System]],
    outputs: Outputs,
    report: Report,
    where: Path | None,
) -> None:
    """Make the calls of the batch's rules that roll in Python (their modules
    imported anew); keep them, with Python's answers, for Node."""
    rolling = [(case, system) for case, system in batch if case.calls]
    if not rolling:
        return
    python = {
        p: t.decode() for p, t in outputs.files.items() if p.startswith("rulebook/")
    }
    folder = where / f"batch{rolling[0][0].index}" if where is not None else None
    if folder is not None:
        for path, blob in outputs.files.items():
            if path.startswith("js/"):
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_bytes(blob)
    with runtime_from(python) as package:
        for case, system in rolling:
            try:
                module = importlib.import_module(f"{package}.{system.id}")
                cases = [
                    _made(system, module, call, seed)
                    for call in case.calls
                    for seed in (1, 2)
                ]
            except Exception:
                report.crashes.append(f"{_shown(case)}\n{traceback.format_exc()}")
                continue
            report.rolling["called"] += 1
            if folder is not None:
                group = {"name": f"case {case.index}", "cases": cases}
                report.javascript.append(
                    {
                        "package": str(folder / "js"),
                        "system": system.id,
                        "groups": [group],
                    }
                )


def _made(system: System, module: Any, call: Call, seed: int) -> dict[str, Any]:
    """One call of a rule that rolls, with Python's answer (or refusal)."""
    function, args = call
    made = function_call(getattr(module, pyname(function)), function, args, True, None)
    return {
        "name": f"{function}({args}) seed {seed}",
        "plan": js_plan(made),
        "seed": seed,
        "python": answer(system, module, made, random.Random(seed)),
    }


def _written_kinds(case: Case) -> dict[str, str]:
    """Each rule's kind as its file writes it (a kind that is a front end of
    another, such as a success pool written as figures, builds a rule of that
    other kind)."""
    found: dict[str, str] = {}
    for data in case.files.values():
        loaded = yaml.safe_load(data)
        rules = loaded.get("rules") if isinstance(loaded, dict) else None
        for rule in rules if isinstance(rules, list) else []:
            if isinstance(rule, dict) and isinstance(rule.get("id"), str):
                found[rule["id"]] = str(rule.get("kind"))
    return found


def run(count: int, seed: int, where: Path | None = None) -> Report:
    """Fuzz ``count`` rules files from ``seed`` (the packages of the rules that
    roll written under ``where``, when given, for Node)."""
    report = Report()
    cases = Cases(seed)
    pending: list[tuple[Case, System]] = []
    for index in range(count):
        case = cases.case(index)
        system = _model(case, report)
        if system is not None:
            pending.append((case, system))
        elif case.calls:
            report.rolling["refused"] += 1
        if len(pending) >= BATCH or (index == count - 1 and pending):
            _build(pending, report, where)
            pending = []
    return report
