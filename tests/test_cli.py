"""The rulesc command: exit codes, error format, check naming the changed rule."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

from rulesc.cli import DISTRIBUTION

from .conftest import GENERATED, Editor, run_rulesc

ROOT = Path(__file__).resolve().parent.parent


def test_validate_real_rules_ok(tmp_path: Path, rules_copy: Path) -> None:
    done = run_rulesc("validate", cwd=rules_copy.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: ")


def test_version_is_the_installed_distribution_s(tmp_path: Path) -> None:
    """``rulesc --version``: the version pyproject.toml gives the compiler."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    done = run_rulesc("--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"rulesc {project['project']['version']}\n"
    assert project["project"]["name"] == DISTRIBUTION


def test_the_compiler_and_the_packages_it_builds_here_are_one_version() -> None:
    """The project has one version: the compiler's (pyproject.toml, what
    ``rulesc --version`` prints) is that of the packages rules/package.yaml names."""
    from ruamel.yaml import YAML

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    settings = YAML(typ="safe").load(ROOT / "rules" / "package.yaml")
    assert project["project"]["version"] == settings["version"]
    assert project["project"]["license"] == settings["licence"]


def test_usage_error_exits_2(tmp_path: Path) -> None:
    done = run_rulesc("frobnicate", cwd=tmp_path)
    assert done.returncode == 2
    assert "usage:" in done.stderr


def test_errors_are_located_sorted_and_all_reported(
    rules_copy: Path, edit: Editor
) -> None:
    edit("d20_scifi/cover.yaml", "cover_ac: 10", "cover_ac: ten")
    # a column replaced by an unrelated one: unknown, and the column missing (a
    # misspelt column is one error: unknown, did you mean)
    edit("d20_scifi/zero_g.yaml", "max_increments: 20,", "far_reach: 20,")
    done = run_rulesc("build", cwd=rules_copy.parent)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ": error: " in ln]
    assert len(lines) == 3, done.stderr  # a wrong type, an unknown and a missing column
    assert lines == sorted(
        lines, key=lambda ln: (ln.split(":")[0], int(ln.split(":")[1]))
    )
    assert lines[0].startswith("rules/d20_scifi/cover.yaml:")
    assert "holds int values, not 'ten'" in lines[0]
    assert "hint:" in done.stderr
    assert not (rules_copy.parent / "generated").exists()


def test_json_format(rules_copy: Path, edit: Editor) -> None:
    edit("d20_scifi/cover.yaml", "    title: Cover and concealment\n", "")
    done = run_rulesc("validate", "--format", "json", cwd=rules_copy.parent)
    assert done.returncode == 1
    [problem] = json.loads(done.stdout)
    assert problem["file"] == "rules/d20_scifi/cover.yaml"
    assert problem["line"] == 4 and problem["col"] == 5
    assert problem["pointer"] == "/rules/0"
    assert problem["message"] == "missing required key 'title'"


def test_build_then_check(rules_copy: Path) -> None:
    root = rules_copy.parent
    assert run_rulesc("build", cwd=root).returncode == 0
    done = run_rulesc("check", cwd=root)
    assert done.returncode == 0, done.stderr
    again = run_rulesc("build", cwd=root)
    assert "already up to date" in again.stdout


def test_check_names_the_changed_rule(rules_copy: Path, edit: Editor) -> None:
    """Of rules/ alone (--rules): a house pack listed that extends d20_scifi
    would make more files stale than the error lists by name."""
    root = rules_copy.parent
    assert run_rulesc("build", "--rules", "rules", cwd=root).returncode == 0
    assert run_rulesc("check", "--rules", "rules", cwd=root).returncode == 0
    edit("d20_scifi/zero_g.yaml", "max_increments: 20,", "max_increments: 25,")
    done = run_rulesc("check", "--rules", "rules", cwd=root)
    assert done.returncode == 1
    assert "rule d20_scifi.zero_g_weapon_range changed" in done.stderr
    assert "rules/d20_scifi/zero_g.yaml:" in done.stderr
    assert "generated/rulebook/d20_scifi.py" in done.stderr
    assert "d20_scifi.crawl_speed" not in done.stderr


def test_check_notices_hand_edits(rules_copy: Path) -> None:
    root = rules_copy.parent
    shutil.copytree(GENERATED, root / "generated")
    target = root / "generated" / "rulebook" / "d20_scifi.py"
    target.write_text(target.read_text() + "\n# tweak\n")
    done = run_rulesc("check", cwd=root)
    assert done.returncode == 1
    assert "generated/rulebook/d20_scifi.py is out of date" in done.stderr


def test_failed_build_leaves_output_untouched(rules_copy: Path, edit: Editor) -> None:
    root = rules_copy.parent
    assert run_rulesc("build", cwd=root).returncode == 0
    before = {p: p.read_bytes() for p in (root / "generated").rglob("*") if p.is_file()}
    edit("d20_scifi/zero_g.yaml", "expect: 30", "expect: 31")
    done = run_rulesc("build", cwd=root)
    assert done.returncode == 1
    assert "worked example 'standard_launch'" in done.stderr
    assert "expected 31, got 30" in done.stderr
    after = {p: p.read_bytes() for p in (root / "generated").rglob("*") if p.is_file()}
    assert after == before


def test_validate_one_system_by_path(rules_copy: Path) -> None:
    root = rules_copy.parent
    done = run_rulesc("validate", "rules/d20_scifi/cover.yaml", cwd=root)
    assert done.returncode == 0, done.stderr
    outside = run_rulesc("validate", "elsewhere.yaml", cwd=root)
    assert outside.returncode == 2  # a usage error, as a missing path is
    assert "not inside the rules folder" in outside.stderr


def test_stale_output_gets_one_remedy_from_every_place(
    rules_copy: Path, edit: Editor
) -> None:
    """rulesc check on stale generated/ or stale schema/, and the golden test:
    the same words each time."""
    from rulesc.common.diagnostics import REMEDY

    assert REMEDY == "run `rulesc build` (or `make build`) and commit what it writes"
    root = rules_copy.parent
    shutil.copytree(GENERATED, root / "generated")
    edit("d20_scifi/zero_g.yaml", "max_increments: 20,", "max_increments: 25,")
    done = run_rulesc("check", cwd=root)
    hints = [line for line in done.stderr.splitlines() if line.startswith("  hint: ")]
    assert hints and set(hints) == {f"  hint: {REMEDY}"}, done.stderr
    goldens = (Path(__file__).parent / "test_goldens.py").read_text()
    assert goldens.count("{REMEDY}") == 2 and "update-goldens\\n" not in goldens
    from rulesc.front import schemas

    schema_dir = root / "schema"
    schema_dir.mkdir()
    (schema_dir / "table.schema.json").write_text("{}")
    problems = schemas.stale(schema_dir)
    assert problems and {d.hint for d in problems} == {REMEDY}
