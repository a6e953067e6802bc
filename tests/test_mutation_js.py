"""Mutation tests of the JavaScript runtime: a figure changed in a copy of rules/
changes what the generated JavaScript answers, kind by kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesc.pipeline import Outputs, build

from .conftest import Editor
from .js_node import node_json


def ask_js(
    outputs: Outputs, question: str, where: Path, system: str = "d20_scifi"
) -> object:
    """Evaluate ``question`` (JavaScript, with ``m`` the built system module) on
    the JavaScript package of ``outputs``, written under ``where``.

    Test-only: the expression is written in the test, never taken from rules.
    """
    package = where / "js"
    for path, blob in outputs.files.items():
        if path.startswith("js/"):
            target = where / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob)
    script = (
        f"const m = await import({json.dumps((package / f'{system}.js').as_uri())});\n"
        f"console.log(JSON.stringify({question}));"
    )
    return node_json(script)


CASES = [
    # (question, answer before, file, text, replacement, answer after)
    (
        "m.cover('3/4').coverAc",
        6,
        "d20_scifi/cover.yaml",
        "cover_ac: 6",
        "cover_ac: 7",
        7,
    ),
    (
        "m.crawlSpeed(10, 0)",
        40,
        "d20_scifi/zero_g.yaml",
        "occupied_limbs, 0, 40)",
        "occupied_limbs, 0, 45)",
        45,
    ),
    (
        "String(m.radiationExposure('Severe').primaryEffect)",
        "3d4",
        "d20_scifi/radiation.yaml",
        "{key: Severe, incubation: 2d6, fort_dc: 24, primary_effect: 3d4}",
        "{key: Severe, incubation: 2d6, fort_dc: 24, primary_effect: 3d4+1}",
        "3d4+1",
    ),
    (
        "String(m.FULL_EXPOSURE_TIME)",
        "3d4",
        "d20_scifi/radiation.yaml",
        "dice: 3d4\n",
        "dice: 3d6\n",
        "3d6",
    ),
    (
        "m.attackThroughCover('1/2', 'soft', 'heavy', 'at_cover').targetAc",
        5,
        "d20_scifi/cover.yaml",
        '      - when: mode == "at_cover"\n        then:\n          allowed: true\n          target_ac: 5\n',
        '      - when: mode == "at_cover"\n        then:\n          allowed: true\n          target_ac: 6\n',
        6,
    ),
    (
        "m.spinSave(12).dc",
        14,
        "d20_scifi/zero_g.yaml",
        "{range: [10, null], dc: 14,",
        "{range: [10, null], dc: 15,",
        15,
    ),
    (
        "m.SPIN.perAction",
        1,
        "d20_scifi/zero_g.yaml",
        "      - name: per_action\n        type: int\n        value: 1\n",
        "      - name: per_action\n        type: int\n        value: 2\n",
        2,
    ),
    (
        "m.exposures('Low', 4, 8).map((e) => e.kind)",
        ["half"],
        "d20_scifi/radiation.yaml",
        "half_fraction: [1, 2]",
        "half_fraction: [2, 3]",
        [],
    ),
    (
        "m.instantExposureLevel('Critical')",
        "High",
        "d20_scifi/radiation.yaml",
        "offset: -2",
        "offset: -3",
        "Moderate",
    ),
    (
        "m.healing(2, 0)",
        [[1440, 1], [2880, 1]],
        "d20_scifi/radiation.yaml",
        "every: {amount: 1, unit: days}",
        "every: {amount: 2, unit: days}",
        [[2880, 1], [5760, 1]],
    ),
    (
        "[m.accumulationAfterSave(9), m.accumulationAfterSave(1)]",
        [4, 1],
        "d20_scifi/radiation.yaml",
        "on_save: {divide_by: 2, minimum: 1}",
        "on_save: {divide_by: 4, minimum: 2}",
        [2, 2],
    ),
    (
        "m.accumulationAfterSave(5)",
        2,
        "d20_scifi/system.yaml",
        "rounding: down",
        "rounding: up",
        3,
    ),
    (
        "String(m.ACCUMULATION_DEAL)",
        "1d4",
        "d20_scifi/radiation.yaml",
        "deal: 1d4",
        "deal: 1d6",
        "1d6",
    ),
]


@pytest.mark.parametrize(("question", "before", "file", "text", "new", "after"), CASES)
def test_a_changed_figure_changes_the_javascript(
    built: Outputs,
    rules_copy: Path,
    edit: Editor,
    tmp_path: Path,
    question: str,
    before: object,
    file: str,
    text: str,
    new: str,
    after: object,
) -> None:
    assert ask_js(built, question, tmp_path / "before") == before
    edit(file, text, new)
    mutated = build(rules_copy, run_examples=False)
    assert ask_js(mutated, question, tmp_path / "after") == after
