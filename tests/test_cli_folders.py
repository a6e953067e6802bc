"""A folder named on the command line that rulesc cannot use is a usage error
(exit 2) before any work, never a build of nothing ("ok: 0 rules")."""

from __future__ import annotations

from pathlib import Path

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
