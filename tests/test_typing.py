"""The generated package as type checkers see it (pyright and mypy, both strict).

- tests/typecheck/consumer.py runs (every ``assert_type`` there is also checked
  clean by ``make typecheck``);
- tests/typecheck/negative.py: the lines each checker reports are exactly the
  lines marked ``# expect-error`` (a misspelled label, a label in another case,
  a plain ``str``, an unordered comparison, an event kind the process lacks...);
- ``pyright --verifytypes rulebook``: every public symbol's type is known (100%).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import ROOT

NEGATIVE = ROOT / "tests" / "typecheck" / "negative.py"
BIN = Path(sys.executable).parent
_MARKER = re.compile(r"#\s*expect-error\s*$")


def _env() -> dict[str, str]:
    # The venv's python first (pyright finds the environment through it); no
    # look-up of newer pyright releases.
    return os.environ | {
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1",
    }


def _pyright(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [str(BIN / "pyright"), "--outputjson", *args],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.stdout, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def expected_lines(path: Path) -> set[int]:
    return {
        number
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if _MARKER.search(line)
    }


def test_the_consumer_runs() -> None:
    from .typecheck import consumer

    consumer.main()


def test_the_negative_file_marks_cases() -> None:
    lines = expected_lines(NEGATIVE)
    text = NEGATIVE.read_text().splitlines()
    assert len(lines) >= 15
    assert any('hit_location("Torsoo")' in text[n - 1] for n in lines)


def test_pyright_reports_exactly_the_marked_lines() -> None:
    report = _pyright(str(NEGATIVE))
    errors = [
        d
        for d in report["generalDiagnostics"]
        if d["severity"] == "error" and Path(d["file"]) == NEGATIVE
    ]
    got = {d["range"]["start"]["line"] + 1 for d in errors}
    want = expected_lines(NEGATIVE)
    details = "\n".join(
        f"{d['range']['start']['line'] + 1}: {d['message']}" for d in errors
    )
    assert got == want, (
        f"missing {sorted(want - got)}, unexpected {sorted(got - want)}\n{details}"
    )
    assert report["summary"]["filesAnalyzed"] >= 1


def test_mypy_reports_exactly_the_marked_lines() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--show-error-codes",
            str(NEGATIVE.relative_to(ROOT)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    pattern = re.compile(r"^tests/typecheck/negative\.py:(\d+): error: (.*)$")
    found = [m for line in done.stdout.splitlines() if (m := pattern.match(line))]
    got = {int(m.group(1)) for m in found}
    want = expected_lines(NEGATIVE)
    details = "\n".join(f"{m.group(1)}: {m.group(2)}" for m in found)
    assert done.returncode == 1, done.stdout + done.stderr
    assert got == want, (
        f"missing {sorted(want - got)}, unexpected {sorted(got - want)}\n{details}"
    )
    others = [
        line
        for line in done.stdout.splitlines()
        if ": error:" in line and not pattern.match(line)
    ]
    assert not others, others  # the package itself is clean


def test_every_public_symbol_has_a_known_type() -> None:
    report = _pyright("--verifytypes", "rulebook", "--ignoreexternal")
    completeness = report["typeCompleteness"]
    counts = completeness["exportedSymbolCounts"]
    problems = [
        (s["name"], [d["message"] for d in s["diagnostics"]])
        for s in completeness["symbols"]
        if s["diagnostics"]
    ]
    assert counts["withKnownType"] > 100, completeness  # the package was found
    assert counts["withAmbiguousType"] == counts["withUnknownType"] == 0, problems
    assert completeness["completenessScore"] == 1, problems
    assert not problems, problems  # no missing docstring either
    modules = {m["name"] for m in completeness["modules"]}
    assert {"rulebook", "rulebook.dice", "rulebook.errors", "rulebook.json"} <= modules
