"""Broken rules: each case in tests/invalid/ is built through ``rulesc build`` and must
fail with exactly the located errors it names, leaving generated/ as it was.

How a case states what it expects is in ``tests/invalid_cases.py``. Each case is
dropped into a copy of its system's system.yaml and cover.yaml (which the cases that
clash with an existing rule name): the system's other files and the other systems
cannot change what a broken file gives, and parsing them would only slow the
corpus down.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rulesc.cli import EXIT_INTERNAL, EXIT_RULES, main
from rulesc.output.writer import (
    read_tree,
    write_tree,
)

from .conftest import RULES
from .invalid_cases import SYSTEM, Case, load_cases

CASES = load_cases()
PREVIOUS_BUILD = {
    "manifest.json": b'{"@generated": "by rulesc - DO NOT EDIT"}\n',
    "rulebook/__init__.py": b"# built before\n",
}


def test_the_corpus_covers_enough_cases() -> None:
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.fixture
def system_copy(tmp_path: Path) -> Path:
    """A rules folder holding the cases' system, with its system.yaml and cover.yaml."""
    folder = tmp_path / "rules" / SYSTEM
    folder.mkdir(parents=True)
    for name in ("system.yaml", "cover.yaml"):
        shutil.copy(RULES / SYSTEM / name, folder / name)
    return folder.parent


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_invalid_case(
    case: Case, system_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert case.expects, f"{case.name} names no expected error"
    root = system_copy.parent
    out = root / "generated"
    write_tree(out, PREVIOUS_BUILD)
    case.install(system_copy)
    args = ["build", "--no-cache", "--rules", str(system_copy), "--out", str(out)]
    code = main(args)
    err = capsys.readouterr().err
    assert code == EXIT_RULES, err
    assert "Traceback" not in err and "internal error" not in err
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert sorted(errors) == sorted(f"{case.shown}:{e}" for e in case.expects)
    count = len(case.expects)
    assert err.splitlines()[-1] == f"{count} error{'s' if count != 1 else ''}"
    hints = [line for line in err.splitlines() if line.startswith("  hint: ")]
    for hint in case.hints:
        assert any(hint in line for line in hints), (hint, hints)
    notes = [line for line in err.splitlines() if line.startswith("  note: ")]
    assert sorted(n.removeprefix("  note: ") for n in notes) == list(case.notes)
    assert read_tree(out) == PREVIOUS_BUILD
    assert not [p for p in root.iterdir() if ".new-" in p.name]


# A case of each stage through the installed ``rulesc`` command, in a process of
# its own: the bytes, the YAML, the schema, the worked examples.
SAMPLE = (
    "utf16_file",
    "syntax_unclosed_flow",
    "yes_for_bool",
    "example_no_longer_holds",
)


def _run_rulesc(case: Case, root: Path) -> subprocess.CompletedProcess[str]:
    rulesc = Path(sys.executable).with_name("rulesc")
    return subprocess.run(
        [str(rulesc), "build"], cwd=root, capture_output=True, text=True, check=False
    )


def test_sample_cases_through_the_rulesc_command(tmp_path: Path) -> None:
    cases = [case for case in CASES if case.name in SAMPLE]
    assert len(cases) == len(SAMPLE)
    roots = []
    for case in cases:
        root = tmp_path / case.name
        shutil.copytree(RULES / SYSTEM, root / "rules" / SYSTEM)
        case.install(root / "rules")
        write_tree(root / "generated", PREVIOUS_BUILD)
        roots.append(root)
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(_run_rulesc, cases, roots))
    for case, root, result in zip(cases, roots, done, strict=True):
        assert result.returncode == EXIT_RULES, (case.name, result.stderr)
        assert "Traceback" not in result.stderr
        errors = [ln for ln in result.stderr.splitlines() if ": error: " in ln]
        assert errors == [f"{case.shown}:{e}" for e in case.expects], case.name
        assert read_tree(root / "generated") == PREVIOUS_BUILD


def test_an_internal_error_asks_to_be_filed(
    system_copy: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("a bug in rulesc")

    monkeypatch.delenv("RULESC_DEBUG", raising=False)
    monkeypatch.setattr("rulesc.pipeline.load_systems", broken)
    out = system_copy.parent / "generated"
    write_tree(out, PREVIOUS_BUILD)
    code = main(["build", "--no-cache", "--rules", str(system_copy), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == EXIT_INTERNAL
    assert "rulesc: internal error: ZeroDivisionError: a bug in rulesc" in err
    assert "please file an issue" in err and "Traceback" not in err
    assert read_tree(out) == PREVIOUS_BUILD
