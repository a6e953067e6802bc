"""pre-commit: this repository's hook, and the hooks it exports to other rules repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from .conftest import ROOT
from .workbench_helpers import rulesc


def _yaml(name: str) -> Any:
    return YAML(typ="safe", pure=True).load((ROOT / name).read_text("utf-8"))


def test_commits_run_rulesc_check() -> None:
    config = _yaml(".pre-commit-config.yaml")
    hooks = [h for repo in config["repos"] for h in repo["hooks"]]
    [check] = [h for h in hooks if h["id"] == "rulesc-check"]
    assert check["entry"].split()[-2:] == ["rulesc", "check"] or check[
        "entry"
    ].endswith("/rulesc check")
    assert check["pass_filenames"] is False
    assert check["language"] == "system"


def test_exported_hooks(tmp_path: Path) -> None:
    hooks = {h["id"]: h for h in _yaml(".pre-commit-hooks.yaml")}
    assert set(hooks) == {"rulesc-validate", "rulesc-check"}
    for hook in hooks.values():
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["language"] == "python"  # pre-commit installs this package
    assert hooks["rulesc-validate"]["entry"] == "rulesc validate"
    assert hooks["rulesc-check"]["entry"] == "rulesc check"
    assert hooks["rulesc-check"]["pass_filenames"] is False
    # rulesc-validate is given the changed files; rulesc validate takes them.
    (tmp_path / "rules").mkdir()
    done = rulesc("validate", "rules/none.yaml", cwd=tmp_path)
    assert done.returncode != 3, done.stderr


def test_the_package_ships_what_an_installed_rulesc_needs() -> None:
    """pre-commit pip-installs this repository: every subpackage and the schemas go in."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    tool = project["tool"]["setuptools"]
    packages = set(tool["packages"])
    found = {  # the folder compiler/ is the package rulesc
        ".".join(("rulesc", *p.parent.relative_to(ROOT / "compiler").parts))
        for p in (ROOT / "compiler").rglob("__init__.py")
        if "__pycache__" not in p.parts and "templates" not in p.parts
    }
    assert found <= packages, found - packages
    assert tool["package-dir"] == {"rulesc": "compiler", "rulesc.schema": "schema"}
    assert tool["package-data"]["rulesc.schema"] == ["*.schema.json"]
