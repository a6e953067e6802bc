"""Package settings: a rules folder's package.yaml names the generated packages."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from rulesc import pipeline
from rulesc.common.diagnostics import RulesError
from rulesc.front import settings as settings_file

from .conftest import ROOT, RULES, run_rulesc

HEAD = "# yaml-language-server: $schema=../schema/package.schema.json\n"


def _rules(tmp_path: Path, settings: str | None) -> Path:
    """A rules folder of one small system, with ``settings`` as its package.yaml."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES / "gurps", rules / "gurps")
    if settings is not None:
        _write_settings(rules, settings)
    return rules


def _write_settings(folder: Path, settings: str) -> None:
    """``settings`` as ``folder``'s package.yaml, beside the licence file it names."""
    (folder / "package.yaml").write_text(HEAD + settings, encoding="utf-8")
    (folder / "LICENSE.txt").write_bytes(b"Ours, CRLF read as LF.\r\n")


def _outputs(rules: Path) -> dict[str, str]:
    return {p: b.decode() for p, b in pipeline.build(rules).files.items()}


SETTINGS = """\
distribution: house-pack
npm: "@table/house-pack"
version: 3.4.5
licence: Apache-2.0 OR MIT
licence_file: LICENSE.txt
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
    assert "dist/house_pack-3.4.5-py3-none-any.whl" in files["README.md"]
    assert "npm install ./table-house-pack-3.4.5.tgz" in files["js/README.md"]
    assert 'from "@table/house-pack/gurps"' in files["js/README.md"]
    assert 'require("@table/house-pack/gurps")' in files["js/README.md"]
    # a licence rulesc knows no text of takes licence_file's, into both packages
    assert files["LICENSE"] == files["js/LICENSE"] == "Ours, CRLF read as LF.\n"
    assert 'license-files = ["LICENSE"]' in files["pyproject.toml"]


def test_without_settings_the_packages_are_rulebook(tmp_path: Path) -> None:
    files = _outputs(_rules(tmp_path, None))
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert (project["name"], project["version"]) == ("rulebook", "0.1.0")
    assert "license" not in project
    assert "license" not in json.loads(files["js/package.json"])
    assert "LICENSE" not in files and "js/LICENSE" not in files


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
        (
            SETTINGS.replace("licence_file: LICENSE.txt\n", ""),
            "rules/package.yaml:5:10",
            "does not know the text of the licence 'Apache-2.0 OR MIT'",
        ),
        (
            SETTINGS.replace("LICENSE.txt", "../gurps/system.yaml"),
            "rules/package.yaml:6:15",
            "not inside the rules folder",
        ),
        (
            SETTINGS.replace("LICENSE.txt", "/etc/hostname"),
            "rules/package.yaml:6:15",
            "not inside the rules folder",
        ),
        (
            SETTINGS.replace("LICENSE.txt", "NOTICE"),
            "rules/package.yaml:6:15",
            "is not a file of the rules folder",
        ),
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


def test_the_licence_s_text_is_a_recorded_setting(tmp_path: Path) -> None:
    """What check compares (the manifest's record of the settings) changes with
    the licence's text: its file's words, or the holder MIT's names."""
    rules = _rules(tmp_path, SETTINGS)
    before = settings_file.load(rules).recorded()
    (rules / "LICENSE.txt").write_text("Ours, reworded.\n", "utf-8")
    assert settings_file.load(rules).recorded() != before
    mit = SETTINGS.replace("Apache-2.0 OR MIT", "MIT").replace(
        "licence_file: LICENSE.txt\n", ""
    )
    _write_settings(rules, mit)
    text = settings_file.load(rules).licence_text
    assert text is not None and "Copyright (c) the house-pack authors\n" in text
    _write_settings(rules, mit + "copyright: Ann Other\n")
    mine = settings_file.load(rules)
    assert mine.licence_text == text.replace("the house-pack authors", "Ann Other")
    assert mine.recorded() != settings_file.load(rules.parent / "none").recorded()


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("npm", '"-x"', "npm refuses the package name '-x'"),
        ("npm", "node_modules", "node_modules is not a valid package name"),
        ("npm", "http", "http is a core module name"),
        ("version", "1.0.0-1", "npm and pip read the version '1.0.0-1' differently"),
        ("version", "1.0.0+build", "npm drops build metadata"),
        ("licence", "MIT WITH Classpath-exception-2.0", "flit_core cannot read"),
        ("licence", "Apache-2.0 OR mit", "write 'Apache-2.0 OR MIT'"),
    ],
)
def test_what_a_tool_refuses_is_an_error_at_its_value(
    tmp_path: Path, key: str, value: str, said: str
) -> None:
    lines = SETTINGS.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    lines[row] = f"{key}: {value}"
    with pytest.raises(RulesError) as caught:
        pipeline.build(_rules(tmp_path, "\n".join(lines) + "\n"), run_examples=False)
    (found,) = caught.value.diagnostics  # one mistake, one error
    assert (found.file, found.line, found.col) == (
        "rules/package.yaml",
        row + 2,
        len(key) + 3,
    )
    assert said in f"{found.message} {found.hint}", found


def _house(tmp_path: Path, settings: str | None) -> Path:
    """A folder of house rules beside the rules, with ``settings`` as its package.yaml."""
    house = tmp_path / "house"
    (house / "table").mkdir(parents=True)
    (house / "table" / "system.yaml").write_text(
        "# yaml-language-server: $schema=../../schema/system.schema.json\n"
        "system: table\nextends: gurps\ntitle: GURPS at one table\n"
        "summary: The GURPS rules as one table plays them.\n",
        "utf-8",
    )
    if settings is not None:
        _write_settings(house, settings)
    return house


def test_a_house_folders_settings_name_its_build(tmp_path: Path) -> None:
    rules = _rules(tmp_path, SETTINGS)
    house = _house(tmp_path, SETTINGS.replace("house-pack", "table-pack"))
    files = pipeline.build(rules, more=[house], run_examples=False).files
    project = tomllib.loads(files["pyproject.toml"].decode())["project"]
    assert project["name"] == "table-pack"
    assert json.loads(files["js/package.json"])["name"] == "@table/table-pack"
    manifest = json.loads(files["manifest.json"])
    assert manifest["package"]["file"] == "house/package.yaml"
    plain = pipeline.build(
        rules, more=[_house(tmp_path / "2", None)], run_examples=False
    )
    assert json.loads(plain.files["js/package.json"])["name"] == "@table/house-pack"


def test_a_house_folders_settings_are_checked_with_the_rest(tmp_path: Path) -> None:
    rules = _rules(tmp_path, SETTINGS.replace("3.4.5", "3.4"))
    _house(tmp_path, SETTINGS.replace("Apache-2.0 OR MIT", "Apache-2.0 WITH MIT"))
    done = run_rulesc("validate", "--rules", "rules", "--rules", "house", cwd=tmp_path)
    assert done.returncode == 1
    assert "rules/package.yaml:4:10: error:" in done.stderr
    assert "house/package.yaml:5:10: error: flit_core cannot read" in done.stderr
    assert rules.is_dir()


@pytest.mark.parametrize("where", ["rules", "house", "deeper/house"])
def test_the_schema_line_hint_points_at_the_schema(tmp_path: Path, where: str) -> None:
    """The hint's line, written as the file's first line, is the line it asks
    for: schema/ beside the first rules folder, one ../ a folder down."""
    rules = _rules(tmp_path, None if where != "rules" else SETTINGS)
    (tmp_path / "schema").symlink_to(ROOT / "schema")
    folder = tmp_path / where
    if where != "rules":
        shutil.move(_house(tmp_path / "h", SETTINGS), folder)
    file = folder / "package.yaml"
    file.write_text(SETTINGS, encoding="utf-8")  # no schema line
    with pytest.raises(RulesError) as caught:
        pipeline.load_all(rules, set(), more=[folder] if where != "rules" else [])
    (found,) = caught.value.diagnostics
    line = (found.hint or "").removeprefix("make the first line: ")
    steps = line.partition("$schema=")[2]
    assert (file.parent / steps).resolve() == (ROOT / "schema/package.schema.json")
    file.write_text(line + "\n" + SETTINGS, encoding="utf-8")
    pipeline.load_all(rules, set(), more=[folder] if where != "rules" else [])
