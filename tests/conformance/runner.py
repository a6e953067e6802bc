"""Conformance runner for Python: every case of a conformance kit made on a generated Python runtime.

A port of the runtime to another language runs the kit the same way
(docsite/guides/rules-json.md): spell each name of a call as its own code does,
make the call with the case's scripted dice or seeded rng, and compare the
answer's JSON, or the refusal, with the case's. Here the spellings are Python's
(``rulesc.py_names``); ``run_kit`` answers what failed, nothing when all held.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesc.emit.conformance.kit import neutral_message, python_spellings
from rulesc.lang.py_names import (
    RNG,
    pyattr,
    pyname,
)


def _arguments(items: Iterable[dict[str, Any]], rng: Any) -> dict[str, Any]:
    """A call's arguments by their Python names (every one by name in Python)."""
    found: dict[str, Any] = {}
    for item in items:
        if item.get("rng"):
            found[RNG] = rng
        elif not item.get("skip"):
            found[pyname(item["name"])] = item["value"]
    return found


def make(module: ModuleType, call: dict[str, Any], rng: Any) -> Any:
    """The answer of a kit's ``call`` on ``module``, rolling with ``rng``."""
    if "constant" in call:
        value = getattr(module, pyname(call["constant"]))
    else:
        target = getattr(module, pyname(call.get("function") or call["class"]))
        value = target(**_arguments(call["args"], rng))
    for step in call.get("then", ()):
        if "field" in step:
            value = getattr(value, pyattr(step["field"]))
        elif "call" in step:
            value = getattr(value, pyattr(step["call"]))(
                **_arguments(step["args"], rng)
            )
        elif "fields" in step:
            value = {n: getattr(value, pyattr(n, "mutable")) for n in step["fields"]}
        elif "member" in step:
            getattr(value, pyattr(step["member"], "mutable"))(
                **_arguments(step["args"], rng)
            )
        elif "each" in step:
            method = getattr(value, step["method"])
            value = [method(**_arguments(items, rng)) for items in step["each"]]
        else:
            value = getattr(value, step["method"])(**_arguments(step["args"], rng))
    return value


class Runtime:
    """A generated Python package (``rulebook``, or a build's own name for it)."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.errors = importlib.import_module(f"{package}.errors")
        self.json = importlib.import_module(f"{package}.json")
        self.dice = importlib.import_module(f"{package}.dice")

    def rng(self, case: dict[str, Any]) -> Any:
        if "dice" in case:
            return self.dice.Scripted(list(case["dice"]))
        if "seed" in case:
            return random.Random(case["seed"])
        return None


def check(
    runtime: Runtime, module: ModuleType, case: dict[str, Any], words: dict[str, str]
) -> str | None:
    """None when ``case`` holds on ``module``, else what went wrong."""
    rng = runtime.rng(case)
    try:
        value = make(module, case["call"], rng)
    except runtime.errors.RulebookError as exc:
        refusal: dict[str, str] = case.get("refusal") or {}
        said = {"error": type(exc).__name__, "message": str(exc)}
        words_said = (str(exc), neutral_message(str(exc), words))
        if refusal.get("error") == said["error"] and refusal["message"] in words_said:
            return None
        return f"refused: {said}; the kit: {refusal or case.get('answer')!r}"
    if "refusal" in case:
        return f"answered, but the kit refuses: {case['refusal']}"
    data = runtime.json.to_data(value)
    if data != case["answer"] or runtime.json.dumps(value) != runtime.json.dumps(
        case["answer"]
    ):
        return f"answered {runtime.json.dumps(value)}, the kit {json.dumps(case['answer'])}"
    if rng is not None and "dice" in case and rng.remaining:
        return f"{rng.remaining} scripted dice were not used"
    return None


def run_kit(kit: dict[str, Any], package: str = "rulebook") -> list[str]:
    """Every failing case of ``kit`` on the package's module of its system, with
    what went wrong (none: the runtime conforms)."""
    runtime = Runtime(package)
    module = importlib.import_module(f"{package}.{kit['system']}")
    words = python_spellings(kit["names"])
    failed = []
    for case in kit["cases"]:
        problem = check(runtime, module, case, words)
        if problem is not None:
            failed.append(f"{case['rule']} {case['case']}: {problem}")
    return failed


def read_kit(path: Path) -> dict[str, Any]:
    kit: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return kit
