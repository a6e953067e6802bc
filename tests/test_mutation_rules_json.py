"""Mutation tests for rules.json: a figure changed in a copy of rules/ changes
rules.json there and nowhere else, and what reads the figure follows.

Each test builds the copy without its worked examples (they pin the real
figures), as tests/test_mutation*.py do, and compares rules.json before and
after key by key: exactly the figure, and the answers made from it, change.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from rulesc.examples import runtime_from
from rulesc.pipeline import Outputs, build

from .conftest import PACKS, RULES, Editor
from .test_rules_json import _differences, _index
from .test_rules_json_trees import check_system

COVER, RADIATION, ZERO_G = (
    "d20_scifi/cover.yaml",
    "d20_scifi/radiation.yaml",
    "d20_scifi/zero_g.yaml",
)


@pytest.fixture(scope="module")
def built(built: Outputs) -> Outputs:
    """rules/ alone, as the copies here are built: the session's build, unless
    rules/ lists house packs (one extending d20_scifi follows every figure)."""
    return build(RULES) if PACKS else built


def _doc(outputs: Outputs) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(outputs.files["rules.json"])
    return data


def _changed(built: Outputs, rules: Path) -> tuple[dict[str, Any], list[str]]:
    mutated = build(rules, run_examples=False)
    after = _doc(mutated)
    return after, _differences(_doc(built), after)


def _at(doc: dict[str, Any], rule: str, rest: str) -> str:
    return f"systems/0/rules/{_index(doc, 'd20_scifi', rule)}/{rest}"


def test_a_table_cell(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    edit(
        COVER,
        "cover_ac: 4\n        miss_chance: 20",
        "cover_ac: 5\n        miss_chance: 20",
    )
    after, changed = _changed(built, rules_copy)
    half = next(
        i for i, r in enumerate(_rule(after, "cover")["rows"]) if r["key"] == "1/2"
    )
    assert changed == [_at(after, "cover", f"rows/{half}/values/cover_ac: 4 -> 5")]


def test_a_row_read_by_shifts(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    """Low's DC moves the table and every level that a shift reads Low for."""
    edit(
        RADIATION,
        "{key: Low, incubation: 5d6, fort_dc: 12,",
        "{key: Low, incubation: 5d6, fort_dc: 13,",
    )
    after, changed = _changed(built, rules_copy)
    levels = ["Minor", "Low", "Moderate", "High", "Severe", "Critical"]
    assert changed == [
        _at(after, "radiation_exposure", "rows/1/values/fort_dc: 12 -> 13"),
        _at(
            after,
            "instant_exposure",
            f"levels/{levels.index('High')}/values/fort_dc: 12 -> 13",
        ),
        _at(
            after,
            "half_exposure",
            f"levels/{levels.index('Moderate')}/values/fort_dc: 12 -> 13",
        ),
    ]


def test_a_dice_value(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    edit(RADIATION, "    dice: 3d4\n", "    dice: 3d6\n")
    after, changed = _changed(built, rules_copy)
    assert changed == [
        _at(after, "full_exposure_time", "dice/notation: '3d4' -> '3d6'"),
        _at(after, "full_exposure_time", "dice/sides: 4 -> 6"),
    ]


def test_a_formula_figure(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    """The tree holds the new figure, and evaluating it gives the new runtime's answers."""
    edit(
        ZERO_G,
        "clamp(max(10 + 5 * climb_bonus, 5)",
        "clamp(max(12 + 5 * climb_bonus, 5)",
    )
    mutated = build(rules_copy, run_examples=False)
    after = _doc(mutated)
    changed = _differences(_doc(built), after)
    source = "clamp(max({} + 5 * climb_bonus, 5) - 10 * occupied_limbs, 0, 40)"
    assert changed == [
        _at(
            after,
            "crawl_speed",
            f"expression/source: {source.format(10)!r} -> {source.format(12)!r}",
        ),
        _at(
            after,
            "crawl_speed",
            "expression/tree/args/0/left/args/0/left/value: 10 -> 12",
        ),
    ]
    texts = {
        p: b.decode() for p, b in mutated.files.items() if p.startswith("rulebook/")
    }
    with runtime_from(texts) as package:
        module = importlib.import_module(f"{package}.d20_scifi")
        assert module.crawl_speed(0, 0) == 12
        assert check_system(after["systems"][0], module) > 0


def _rule(doc: dict[str, Any], rule: str) -> dict[str, Any]:
    found: dict[str, Any] = doc["systems"][0]["rules"][_index(doc, "d20_scifi", rule)]
    return found
