"""Package settings: a rules folder's package.yaml names the generated packages."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from rulesc import pipeline
from rulesc.diagnostics import RulesError

from .conftest import RULES, run_rulesc

HEAD = "# yaml-language-server: $schema=../schema/package.schema.json\n"


def _rules(tmp_path: Path, settings: str | None) -> Path:
    """A rules folder of one small system, with ``settings`` as its package.yaml."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES / "gurps", rules / "gurps")
    if settings is not None:
        (rules / "package.yaml").write_text(HEAD + settings, encoding="utf-8")
    return rules


def _outputs(rules: Path) -> dict[str, str]:
    return {p: b.decode() for p, b in pipeline.build(rules).files.items()}


SETTINGS = """\
distribution: house-pack
npm: "@table/house-pack"
version: 3.4.5
licence: Apache-2.0 OR MIT
description: A "quoted" \\\\ back-slashed <b>bold</b> *starred* description
"""


def test_every_output_follows_the_settings(tmp_path: Path) -> None:
    files = _outputs(_rules(tmp_path, SETTINGS))
    said = 'A "quoted" \\\\ back-slashed <b>bold</b> *starred* description'
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert project["name"] == "house-pack"
    assert project["version"] == "3.4.5"
    assert project["license"] == "Apache-2.0 OR MIT"
    assert project["description"] == said  # data, round-tripped, not TOML
    package = json.loads(files["js/package.json"])
    assert (package["name"], package["version"]) == ("@table/house-pack", "3.4.5")
    assert package["license"] == "Apache-2.0 OR MIT"
    assert package["description"] == said
    assert '__version__ = "3.4.5"' in files["rulebook/__init__.py"]
    for readme in (files["README.md"], files["js/README.md"]):
        assert "<b>" not in readme  # the description is text, not markup
        assert "\\*starred\\*" in readme
    assert "pip install house-pack" in files["README.md"]
    assert 'from "@table/house-pack/gurps"' in files["js/README.md"]


def test_without_settings_the_packages_are_rulebook(tmp_path: Path) -> None:
    files = _outputs(_rules(tmp_path, None))
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert (project["name"], project["version"]) == ("rulebook", "0.1.0")
    assert "license" not in project
    assert "license" not in json.loads(files["js/package.json"])


def test_a_change_of_version_changes_both_packages(tmp_path: Path) -> None:
    rules = _rules(tmp_path, SETTINGS)
    before = _outputs(rules)
    text = (rules / "package.yaml").read_text(encoding="utf-8")
    (rules / "package.yaml").write_text(text.replace("3.4.5", "3.5.0"), "utf-8")
    after = _outputs(rules)
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {
        "pyproject.toml",
        "README.md",
        "js/README.md",
        "js/package.json",
        "rulebook/__init__.py",
        "manifest.json",
    }


@pytest.mark.parametrize(
    ("settings", "where", "said"),
    [
        (SETTINGS.replace("3.4.5", "3.4"), "rules/package.yaml:4:10", "3.4"),
        (
            SETTINGS.replace("house-pack\n", "house pack\n"),
            "rules/package.yaml:2:15",
            "house pack",
        ),
        (SETTINGS.replace("npm:", "npm_name:"), "rules/package.yaml:3:1", "npm"),
        (SETTINGS.replace("licence:", "license:"), "rules/package.yaml:5:1", "licen"),
    ],
)
def test_a_wrong_setting_is_a_located_error(
    tmp_path: Path, settings: str, where: str, said: str
) -> None:
    with pytest.raises(RulesError) as caught:
        pipeline.build(_rules(tmp_path, settings))
    shown = [
        f"{d.file}:{d.line}:{d.col}: {d.message} {d.hint}"
        for d in caught.value.diagnostics
    ]
    assert any(line.startswith(where) and said in line for line in shown), shown


def test_validate_reports_the_settings_with_the_rules(tmp_path: Path) -> None:
    rules = _rules(tmp_path, SETTINGS.replace("3.4.5", "three"))
    cover = rules / "gurps" / "cover.yaml"
    cover.write_text(cover.read_text("utf-8") + "\nstray_key: 1\n", "utf-8")
    done = run_rulesc("validate", cwd=tmp_path)
    assert done.returncode == 1
    assert "rules/package.yaml:4:10: error:" in done.stderr
    assert "rules/gurps/cover.yaml:" in done.stderr


def test_check_names_a_change_of_the_settings(tmp_path: Path) -> None:
    rules = _rules(tmp_path, SETTINGS)
    assert run_rulesc("build", cwd=tmp_path).returncode == 0
    text = (rules / "package.yaml").read_text(encoding="utf-8")
    (rules / "package.yaml").write_text(text.replace("3.4.5", "3.4.6"), "utf-8")
    done = run_rulesc("check", cwd=tmp_path)
    assert done.returncode == 1
    assert (
        "rules/package.yaml:1:1: error: the package settings changed since "
        "generated/ was built"
    ) in done.stderr
    assert "edited by hand" not in done.stderr
