"""Probe a freshly built (in-memory) runtime and its docs, for mutation tests."""

from __future__ import annotations

import importlib
from types import ModuleType

from compiler.examples import runtime_from
from compiler.pipeline import Outputs


def ask(outputs: Outputs, question: str, system: str = "d20_scifi") -> object:
    """Evaluate ``question`` with ``m`` bound to the built system module.

    Test-only: the expression is written in the test, never taken from rules.
    """
    texts = {
        path: blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("rulebook/")
    }
    with runtime_from(texts) as package:
        module: ModuleType = importlib.import_module(f"{package}.{system}")
        namespace = {"m": module, "rulebook": importlib.import_module(package)}
        importlib.import_module(f"{package}.dice")
        return eval(question, namespace)


def doc(outputs: Outputs, system: str = "d20_scifi") -> str:
    """The system's generated docs page."""
    return outputs.files[f"docs/{system}.md"].decode("utf-8")
