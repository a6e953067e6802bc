"""rulesc diff: a rules change reviewed rule by rule against a git revision."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rulesc.workbench.diff import answer_difference, data_changes

from .conftest import ROOT, copy_rules
from .workbench_helpers import line_of, project, rulesc

__all__ = ["project"]


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A clone of this repository whose last commit holds the current rules/."""
    target = tmp_path / "clone"
    _git(
        "clone", "--quiet", "--depth", "1", f"file://{ROOT}", str(target), cwd=tmp_path
    )
    _git("config", "user.name", "rulesc test", cwd=target)
    _git("config", "user.email", "rulesc-test@example.invalid", cwd=target)
    shutil.rmtree(target / "rules")
    copy_rules(target / "rules")
    _git("add", "--all", "rules", cwd=target)
    _git(
        "commit", "--quiet", "--allow-empty", "-m", "the rules as they are", cwd=target
    )
    return target


def test_a_changed_figure_is_named_with_its_answers(clone: Path, project: Path) -> None:
    zero_g = clone / "rules" / "d20_scifi" / "zero_g.yaml"
    text = zero_g.read_text("utf-8")
    assert text.count("max_increments: 20,") == 1
    zero_g.write_text(
        text.replace("max_increments: 20,", "max_increments: 25,"), "utf-8"
    )
    # Run from outside the clone (its compiler/ is HEAD's, not this one), sharing
    # the other workbench tests' build cache.
    done = rulesc("diff", "--rules", str(clone / "rules"), "--exit-code", cwd=project)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert out.startswith("rulesc diff: HEAD (")
    assert "~ d20_scifi.zero_g_weapon_range: Weapon range in zero gravity" in out
    line = line_of(zero_g, "max_increments: 25,")
    assert (
        f"rows › zero_g › max_increments: 20 -> 25   (rules/d20_scifi/zero_g.yaml:{line})"
        in out
    )
    assert 'zero_g_weapon_range(environment="zero_g"): max_increments 20 -> 25' in out
    assert "d20_scifi.crawl_speed" not in out  # unchanged rules are not named
    assert out.rstrip().endswith("unchanged")
    assert "1 rule(s) changed in behaviour" in out


def test_a_revision_that_does_not_exist(clone: Path, tmp_path: Path) -> None:
    done = rulesc(
        "diff", "--rules", str(clone / "rules"), "--base", "nope", cwd=tmp_path
    )
    assert done.returncode == 2
    assert "'nope' is not a revision of this repository" in done.stderr


def test_data_changes_match_list_items_by_key() -> None:
    old = {"rows": [{"key": "a", "x": 1}, {"key": "b", "x": 2}], "title": "T"}
    new = {"rows": [{"key": "b", "x": 3}, {"key": "c", "x": 4}], "title": "T"}
    found = [(c.where, c.old, c.new) for c in data_changes(old, new)]
    assert found[0][:2] == ("rows › a", {"key": "a", "x": 1})
    assert ("rows › b › x", 2, 3) in found
    assert found[-1][0] == "rows › c"
    assert answer_difference({"a": 1, "b": 2}, {"a": 1, "b": 5}) == "b 2 -> 5"
    assert answer_difference(4, {"raises": "RuleInputError: no"}) == (
        "4 -> raises RuleInputError: no"
    )


def test_a_base_whose_rules_link_outside_reports_the_links(
    clone: Path, tmp_path: Path
) -> None:
    """Links leading out of the rules folder at the base revision (absolute or
    relative) are located errors of the base, as they are in the work tree:
    never an internal error, and what they lead to is never read."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("system: d20_scifi\nrules: []\n", "utf-8")
    rules = clone / "rules"
    (rules / "d20_scifi" / "absolute.yaml").symlink_to(outside)
    (rules / "gurps" / "relative.yaml").symlink_to(Path("../../..") / outside.name)
    _git("add", "--all", "rules", cwd=clone)
    _git("commit", "--quiet", "-m", "links leading out", cwd=clone)
    for link in ("d20_scifi/absolute.yaml", "gurps/relative.yaml"):
        (rules / link).unlink()
    done = rulesc("diff", "--rules", str(rules), "--base", "HEAD", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "do not build with this rulesc" in done.stderr
    assert (
        "rules/d20_scifi/absolute.yaml:1:1: error: symbolic link leading outside "
        "the rules folder" in done.stderr
    ), done.stderr
    # Extracted elsewhere, the relative link leads out to nothing (said so).
    assert "rules/gurps/relative.yaml:1:1: error: symbolic link" in done.stderr
