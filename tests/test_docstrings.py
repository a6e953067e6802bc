"""Generated docstrings and docs say what each parameter is and what it takes."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from rulesc.core.viewkit import (
    bounds,
)
from rulesc.emit.viewkit import (
    allowed,
)

from .conftest import project_systems

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = project_systems()


def _functions() -> list[tuple[str, str, object]]:
    found = []
    for system in SYSTEMS:
        for rule in system.rules:
            params = getattr(rule, "params", None)
            if params:
                found.append((system.id, rule.function, params))  # type: ignore[attr-defined]
    return found


@pytest.mark.parametrize(
    ("system", "function", "params"), _functions(), ids=lambda v: str(v)
)
def test_every_parameter_is_in_the_docstring(
    system: str, function: str, params: object
) -> None:
    module = importlib.import_module(f"rulebook.{system}")
    doc = inspect.getdoc(getattr(module, function)) or ""
    flat = " ".join(doc.split())
    assert "Args:" in doc
    for p in params:  # type: ignore[attr-defined]
        entry = re.search(rf"\b{p.name}: (.*?)(?= \w+: |  | Rule ``|$)", flat)
        assert entry, (function, p.name, doc)
        assert " ".join(allowed(p).split()) in flat, (function, p.name)
        assert " ".join(p.description.rstrip(".").split()) in flat, (function, p.name)


def test_a_limit_with_no_maximum_reads_or_more() -> None:
    assert bounds(1, None) == "1 or more"
    assert bounds(None, 5) == "5 or less"
    assert bounds(0, 4) == "0 to 4"
    assert bounds(None, None) == "any whole number"
    for page in (ROOT / "generated" / "docs").rglob("*.md"):
        assert not re.search(r"[0-9] to any\b", page.read_text()), page.name
