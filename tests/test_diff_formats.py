"""rulesc diff --format json prints the report as JSON, against a revision and
against the book alike; --base with --house is a usage error (issue 38, item 10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import ROOT, run_rulesc
from .test_workbench_diff import clone
from .workbench_helpers import project, rulesc

__all__ = ["clone", "project"]

HOUSE = ("--rules", "rules", "--rules", "tests/house", "--house", "my_table")


def _as_text(doc: dict[str, Any]) -> list[str]:
    """The lines of the text report the JSON document says (each rule's
    heading and lines, and the counts)."""
    lines = []
    for rule in doc["rules"]:
        mark = {"added": "+", "removed": "-"}.get(rule["status"], "~")
        lines.append(f"{mark} {rule['rule']}: {rule['title']}   ({rule['where']})")
        for key in ("data", "examples", "broken_examples", "samples"):
            lines += [f"      {line}" for line in rule[key]]
    counts = doc["counts"]
    lines.append(
        f"{counts['behaviour']} rule(s) changed in behaviour, {counts['text_only']} "
        f"in text only, {counts['added']} added, {counts['removed']} removed; "
        f"{counts['unchanged']} unchanged"
    )
    return lines


def _same_report(as_json: str, as_text: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(as_json)
    text = as_text.splitlines()
    assert [line for line in _as_text(doc) if line not in text] == []
    return doc


def test_the_house_report_as_json() -> None:
    text = run_rulesc("diff", *HOUSE, "--exit-code", cwd=ROOT)
    done = run_rulesc("diff", *HOUSE, "--exit-code", "--format", "json", cwd=ROOT)
    assert (done.returncode, text.returncode) == (1, 1), done.stderr
    doc = _same_report(done.stdout, text.stdout)
    assert (doc["base"], doc["compared"]) == ("d20_scifi", "my_table")
    statuses = {r["rule"]: (r["status"], r["behaviour_changed"]) for r in doc["rules"]}
    assert statuses["my_table.cover"] == ("changed", True)
    assert statuses["my_table.duck_for_cover"] == ("added", True)


def test_the_revision_report_as_json(clone: Path, project: Path) -> None:
    zero_g = clone / "rules" / "d20_scifi" / "zero_g.yaml"
    text = zero_g.read_text("utf-8")
    zero_g.write_text(text.replace("max_increments: 20,", "max_increments: 25,"))
    rules = ("--rules", str(clone / "rules"))
    as_text = rulesc("diff", *rules, cwd=project)
    done = rulesc("diff", *rules, "--format", "json", cwd=project)
    assert done.returncode == 0, done.stderr
    doc = _same_report(done.stdout, as_text.stdout)
    assert doc["base"].startswith("HEAD (") and doc["compared"] == "the work tree"
    (rule,) = doc["rules"]
    assert rule["rule"] == "d20_scifi.zero_g_weapon_range"
    assert rule["samples_changed"] == 1 and doc["counts"]["behaviour"] == 1


def test_base_with_house_is_a_usage_error() -> None:
    done = run_rulesc("diff", *HOUSE, "--base", "HEAD~1", cwd=ROOT)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(
        "rulesc diff: error: --base and --house do not go together"
    )
