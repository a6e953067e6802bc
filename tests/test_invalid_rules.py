"""Broken rules: each file in tests/invalid/ is dropped into a copy of rules/ and
must fail with exactly the located errors its ``# expect:`` lines name.

A case file's leading comments say what it expects:
``# expect: LINE:COL: error: MESSAGE-PREFIX`` (one per error, all required) and
optionally ``# hint: TEXT`` (a hint that must appear).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import RulesError
from compiler.pipeline import build

CASES = sorted((Path(__file__).parent / "invalid").glob("*.yaml"))


def _expectations(case: Path) -> tuple[list[str], list[str]]:
    expects, hints = [], []
    for line in case.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# expect: "):
            expects.append(line.removeprefix("# expect: "))
        elif line.startswith("# hint: "):
            hints.append(line.removeprefix("# hint: "))
    return expects, hints


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_invalid_case(case: Path, rules_copy: Path) -> None:
    expects, hints = _expectations(case)
    assert expects, f"{case.name} names no expected error"
    (rules_copy / "d20_scifi" / case.name).write_bytes(case.read_bytes())
    with pytest.raises(RulesError) as caught:
        build(rules_copy)
    shown = f"rules/d20_scifi/{case.name}"
    found = [d for d in caught.value.diagnostics]
    texts = [f"{d.line}:{d.col}: error: {d.message}" for d in found if d.file == shown]
    for expected in expects:
        assert any(t.startswith(expected) for t in texts), (expected, texts)
    assert len(found) == len(expects), [d.format_text() for d in found]
    for hint in hints:
        assert any(d.hint and hint in d.hint for d in found), (hint, found)
