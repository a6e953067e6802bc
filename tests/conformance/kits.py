"""Running conformance kits: a build's kits on its Python package and, in one Node process, its JavaScript one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulesc.emit.javascript.names import (
    jsattr,
    jsname,
)
from rulesc.emit.markdown.odds_pages import odds_name_of
from rulesc.front.model import System

from ..js_node import node, ported
from .runner import read_kit, run_kit

HERE = Path(__file__).resolve().parent


def _calls(kit: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for case in kit["cases"]:
        yield case["call"]


def _items(call: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield from call.get("args", ())
    for step in call.get("then", ()):
        yield from step.get("args", ())
        for items in step.get("each", ()):
            yield from items


def js_spellings(kit: dict[str, Any]) -> dict[str, dict[str, str]]:
    """How the JavaScript package spells each name the kit's calls give (only
    those it spells otherwise): ``name``, ``field`` and ``member`` as
    tests/conformance/runner.mjs reads them; and ``words``, the JavaScript
    spellings of the kit's ``names`` back to them (what a refusal may say)."""
    spell: dict[str, dict[str, str]] = {"name": {}, "field": {}, "member": {}}

    def add(space: str, name: str, js: str) -> None:
        if js != name:
            spell[space][name] = js

    for call in _calls(kit):
        for key in ("function", "class", "constant"):
            if key in call:
                add("name", call[key], jsname(call[key]))
        for item in _items(call):
            if "name" in item:
                add("name", item["name"], jsname(item["name"]))
        for step in call.get("then", ()):
            for name in (step.get("field"), step.get("call")):
                if name is not None:
                    add("field", name, jsattr(name))
            for name in [*step.get("fields", ()), *[step.get("member")]]:
                if name is not None:
                    add("member", name, jsattr(name, "mutable"))
    words: dict[str, str] = {}
    for name in sorted(kit["names"]):
        for js in (jsname(name), jsattr(name), jsattr(name, "mutable")):
            if js != name:
                words.setdefault(js, name)
    return {**spell, "words": words}


def run_javascript(package: Path, kits: Iterable[Path], tmp: Path) -> dict[str, Any]:
    """Every case of ``kits`` made on the JavaScript ``package`` (a folder) in
    one Node process: ``{"cases": how many, "failed": [what went wrong]}``."""
    entries = []
    for path in kits:
        spelt = js_spellings(read_kit(path))
        words = spelt.pop("words")
        entries.append({"file": str(path), "spell": spelt, "words": words})
    given = tmp / "kits.json"
    given.write_text(json.dumps({"package": str(package), "kits": entries}), "utf-8")
    done = subprocess.run(
        [node(), str(HERE / "runner.mjs")],
        env=dict(os.environ, RULEBOOK_KITS=str(given)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    found: dict[str, Any] = json.loads(done.stdout)
    return found


@contextmanager
def python_package(out: Path) -> Iterator[str]:
    """The Python package a build wrote to ``out`` (``out/rulebook``), imported
    as ``rulebook`` for the while (any other ``rulebook`` set aside)."""
    saved = {k: v for k, v in sys.modules.items() if k.split(".")[0] == "rulebook"}
    for key in saved:
        del sys.modules[key]
    sys.path.insert(0, str(out))
    try:
        yield "rulebook"
    finally:
        sys.path.remove(str(out))
        for key in [k for k in sys.modules if k.split(".")[0] == "rulebook"]:
            del sys.modules[key]
        sys.modules.update(saved)


def kit_files(out: Path, only: Iterable[str] | None = None) -> list[Path]:
    """The kits a build wrote to ``out`` (those of the systems ``only`` names)."""
    found = sorted((out / "conformance").glob("*.json"))
    return found if only is None else [p for p in found if p.stem in set(only)]


def assert_conforms(out: Path, tmp: Path, only: Iterable[str] | None = None) -> None:
    """Both runtimes a build wrote to ``out`` run its every kit (of the systems
    ``only`` names): every case holds."""
    kits = kit_files(out, only)
    assert kits, f"no conformance kit in {out}"
    with python_package(out) as package:
        failed = [f for path in kits for f in run_kit(read_kit(path), package)]
    assert not failed, "Python:\n" + "\n".join(failed[:40])
    ran = run_javascript(out / "js", kits, tmp)
    assert ran["cases"] == sum(len(read_kit(p)["cases"]) for p in kits)
    assert not ran["failed"], "JavaScript:\n" + "\n".join(ran["failed"][:40])


def missing_from(system: System, kit: dict[str, Any], module: Any) -> list[str]:
    """What the kit of ``system`` lacks: a worked example of a rule both
    runtimes have, or the odds at an example's arguments of one that rolls."""
    here = ported(system)
    cases = {(c["rule"], c["case"]): c for c in kit["cases"]}
    lacking = []
    for rule in system.rules:
        if rule.qualified_id not in here:
            continue
        odds = odds_name_of(rule, module)
        given: list[Any] = []
        for ex in rule.examples:
            if (rule.qualified_id, f"example {ex.name}") not in cases:
                lacking.append(f"{rule.qualified_id} example {ex.name}")
            case = cases.get((rule.qualified_id, f"odds of example {ex.name}"))
            if case is not None:
                given.append(case["call"]["args"])
        for ex in rule.examples if odds is not None else ():
            example = cases.get((rule.qualified_id, f"example {ex.name}"))
            args = [
                a
                for a in (example or {}).get("call", {}).get("args", ())
                if "rng" not in a
            ]
            if ex.roll is None and not any(_same(args, g) for g in given):
                lacking.append(f"{rule.qualified_id} odds of example {ex.name}")
    return lacking


def _same(args: list[dict[str, Any]], odds: list[dict[str, Any]]) -> bool:
    def named(items: list[dict[str, Any]]) -> dict[str, Any]:
        return {a["name"]: a["value"] for a in items if "name" in a}

    return named(args) == named(odds)
