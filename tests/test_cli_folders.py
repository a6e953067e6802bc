"""A folder named on the command line that rulesc cannot use is a usage error
(exit 2) before any work, never a build of nothing ("ok: 0 rules")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesc.cli import main

from .conftest import RULES

COMMANDS = [
    ["validate"],
    ["build", "--out", "{tmp}/out"],
    ["check", "--out", "{tmp}/out"],
    ["explain", "d20_scifi.cover"],
    ["roll", "d20_scifi.cover"],
]


def _folders(tmp: Path) -> dict[str, tuple[Path, str]]:
    empty = tmp / "empty"
    empty.mkdir()
    (empty / ".hidden").mkdir()
    (empty / "stray.yaml").write_text("a: 1\n")
    file = tmp / "file.yaml"
    file.write_text("a: 1\n")
    return {
        "missing": (tmp / "nope", "no such folder"),
        "a file": (file, "not a folder"),
        "empty": (empty, "holds no system folder"),
    }


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("case", ["missing", "a file", "empty"])
def test_an_unusable_rules_folder_is_a_usage_error(
    command: list[str], case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, says = _folders(tmp_path)[case]
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command]
    assert main([*argv, "--rules", str(rules)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"rulesc {command[0]}: error: --rules {rules}")
    assert says in err
    assert "hint: " in err
    assert not (tmp_path / "out").exists()


def test_validate_of_a_path_that_is_not_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for path in (RULES / "nope", RULES / "d20_scifi" / "nope.yaml"):
        assert main(["validate", "--rules", str(RULES), str(path)]) == 2
        err = capsys.readouterr().err
        assert "no such file or folder" in err


def test_validate_sources_that_are_not_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert main(["validate", "--rules", str(RULES), "--sources", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"rulesc validate: error: --sources {missing}: no such folder\n"
        "  hint: name the folder that holds the source documents\n"
    )


def _not_rules(root: Path) -> list[Path]:
    """Paths given to validate that name no rules: each exists."""
    (root / "README.md").write_text("a readme\n", "utf-8")
    rules = root / "rules"
    (rules / "notes.txt").write_text("notes\n", "utf-8")
    (rules / "d20_scifi" / "notes.txt").write_text("notes\n", "utf-8")
    (rules / "d20_scifi" / "drafts").mkdir()
    (rules / "d20_scifi" / "drafts" / "cover.yaml").write_text("system: x\n", "utf-8")
    (rules / ".hidden").mkdir()
    return [
        root / "README.md",
        root,
        rules / "notes.txt",
        rules / "d20_scifi" / "notes.txt",
        rules / "d20_scifi" / "drafts",
        rules / "d20_scifi" / "drafts" / "cover.yaml",
        rules / ".hidden",
    ]


def test_validate_of_a_path_that_is_no_rules_is_a_usage_error(
    rules_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path validate reads no rules from exits 2, as a missing one does
    (errors.md: a usage error), on one line naming it."""
    for path in [*_not_rules(rules_copy.parent), rules_copy / "nope.yaml"]:
        assert main(["validate", "--rules", str(rules_copy), str(path)]) == 2, path
        lines = capsys.readouterr().err.splitlines()
        assert lines[0].startswith("rulesc validate: error: "), lines
        assert len(lines) == 2 and lines[1].startswith("  hint: "), lines
    named = rules_copy / "package.yaml"
    named.write_text("distribution: x\n", "utf-8")  # no schema line, keys missing
    assert main(["validate", "--rules", str(rules_copy), str(named)]) == 1
    assert f"{rules_copy.name}/package.yaml:1:1: error:" in capsys.readouterr().err


def _system_named_json(rules: Path) -> str:
    shutil.copytree(rules / "gurps", rules / "json")
    for file in (rules / "json").glob("*.yaml"):
        text = file.read_text("utf-8").replace("system: gurps", "system: json")
        file.write_text(text, "utf-8")
    return "system id 'json' would make"


def _example_that_fails(rules: Path) -> str:
    file = rules / "d20_scifi" / "zero_g.yaml"
    file.write_text(file.read_text("utf-8").replace("expect: 30", "expect: 31"))
    return "expected 31, got 30"


@pytest.mark.parametrize("mistake", [_system_named_json, _example_that_fails])
def test_validate_refuses_what_build_refuses(
    rules_copy: Path, capsys: pytest.CaptureFixture[str], mistake: Any
) -> None:
    """A system id the package's own modules have, a worked example that does
    not hold: validate refuses them as build does, with the same errors."""
    said = mistake(rules_copy)
    answers = {}
    for command in ("validate", "build"):
        out = ["--out", str(rules_copy.parent / "out")] if command == "build" else []
        code = main([command, "--rules", str(rules_copy), *out, "--format", "json"])
        answers[command] = (code, capsys.readouterr().out)
    assert answers["validate"] == answers["build"]
    code, printed = answers["validate"]
    (error,) = json.loads(printed)
    assert code == 1 and said in error["message"], error
