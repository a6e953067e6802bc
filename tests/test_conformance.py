"""The conformance kit (generated/conformance/): both runtimes run all of it, it is complete, and it follows the rules' figures.

Every case of every system's kit holds on the generated Python package
(tests/conformance/runner.py) and, in one Node process, on the JavaScript one
(tests/conformance/runner.mjs); the kit holds every worked example of every
rule both runtimes have, and the odds at the examples' arguments; a figure
changed in a copy of a rules folder changes the kit's expected answers.
"""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.conformance.files import kit_file
from rulesc.emit.conformance.kit import kit_json
from rulesc.emit.markdown.odds_pages import odds_name_of
from rulesc.pipeline import build

from .conformance.kits import kit_files, missing_from, run_javascript
from .conformance.runner import read_kit, run_kit
from .conftest import project_systems
from .js_node import PACKAGE, ported

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
SYSTEMS = {s.id: s for s in project_systems()}


def _kit(system_id: str) -> dict[str, Any]:
    return read_kit(GENERATED / kit_file(system_id))


def test_every_system_has_its_kit() -> None:
    assert [p.stem for p in kit_files(GENERATED)] == sorted(SYSTEMS)


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_the_python_runtime_runs_the_kit(system_id: str) -> None:
    failed = run_kit(_kit(system_id))
    assert not failed, "\n".join(failed[:40])


def test_the_javascript_runtime_runs_every_kit(tmp_path: Path) -> None:
    kits = kit_files(GENERATED)
    ran = run_javascript(PACKAGE, kits, tmp_path)
    assert ran["cases"] == sum(len(read_kit(p)["cases"]) for p in kits) > 0
    assert not ran["failed"], "\n".join(ran["failed"][:40])


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_the_kit_holds_every_example_and_its_odds(system_id: str) -> None:
    system = SYSTEMS[system_id]
    kit = _kit(system_id)
    module = importlib.import_module(f"rulebook.{system_id}")
    assert missing_from(system, kit, module) == []
    assert kit["system"] == system_id
    rolls = [r for r in system.rules if odds_name_of(r, module) and r.examples]
    assert rolls == [] or any(c["case"].startswith("odds") for c in kit["cases"])
    assert {c["rule"] for c in kit["cases"]} <= ported(system)


def test_a_figure_changed_changes_the_kits_answers(tmp_path: Path) -> None:
    rules = tmp_path / "first"
    shutil.copytree(ROOT / "docsite" / "first", rules)
    path = "conformance/starter.json"
    before = json.loads(build(rules).files[path])
    source = rules / "starter" / "abilities.yaml"
    text = source.read_text("utf-8")
    assert "(score - 10) // 2" in text
    text = text.replace("(score - 10) // 2", "(score - 12) // 2")
    source.write_text(text.replace("expect: 2", "expect: 1"), "utf-8")
    after = json.loads(build(rules).files[path])
    assert [c["call"] for c in before["cases"]] == [c["call"] for c in after["cases"]]
    changed = [
        b["case"]
        for b, a in zip(before["cases"], after["cases"], strict=True)
        if b.get("answer") != a.get("answer")
    ]
    assert "example score_15" in changed
    example = next(c for c in after["cases"] if c["case"] == "example score_15")
    assert example["answer"] == 1  # (15 - 12) // 2


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_the_kit_is_json_a_case_a_line_in_the_rules_order(system_id: str) -> None:
    text = (GENERATED / kit_file(system_id)).read_text("utf-8")
    kit = json.loads(text)
    assert text == kit_json({**kit, "cases": []}, kit["cases"])
    lines = text.splitlines()
    start = lines.index('  "cases": [') + 1
    assert lines[-2:] == ["  ]", "}"]
    assert [json.loads(line.removesuffix(",")) for line in lines[start:-2]] == kit[
        "cases"
    ]
    order = {rule.qualified_id: i for i, rule in enumerate(SYSTEMS[system_id].rules)}
    places = [order[case["rule"]] for case in json.loads(text)["cases"]]
    assert places == sorted(places)
    assert json.loads(text)["names"] == sorted(set(json.loads(text)["names"]))
