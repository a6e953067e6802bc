"""Probe a freshly built (in-memory) runtime and its docs, for mutation tests."""

from __future__ import annotations

import importlib
from types import ModuleType

from rulesc.emit.markdown.files import (
    overview_page,
    rule_page,
)
from rulesc.examples import runtime_from
from rulesc.pipeline import Outputs


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


def doc(outputs: Outputs, system: str = "d20_scifi", rule: str | None = None) -> str:
    """A rule's generated docs page; without ``rule``, the system's pages
    together (its overview, then each rule's page, in the rules' order)."""
    if rule is not None:
        return outputs.files[rule_page(system, rule)].decode("utf-8")
    (built,) = (s for s in outputs.systems if s.id == system)
    pages = [overview_page(system), *(rule_page(system, r.id) for r in built.rules)]
    return "\n".join(outputs.files[p].decode("utf-8") for p in pages)
