"""Processes and states of no game (tests/test_process_and_state.py) in JavaScript:
built from YAML alone, every worked example, sampled input and seeded run
answers as in Python, and so does every transition of a state at and past its
bounds, from its floor and its ceiling."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from rulesc.core.calls import (
    fields_step,
    instance_call,
    member_step,
)
from rulesc.emit.conformance.files import kit_file
from rulesc.emit.conformance.kit import KitCases
from rulesc.examples import runtime_from
from rulesc.kinds.registry import kind_of
from rulesc.kinds.state.model import StateRule
from rulesc.pipeline import build, load_systems

from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .test_process_and_state import CURSE, HAUNTING, STATE, _write

LABS = {
    "state": STATE,
    "haunting": HAUNTING,
    "curse": CURSE,
    # a keyword-only parameter: Python's rng is keyword-only after it, and so
    # the rng goes in JavaScript's options object
    "haunting_options": HAUNTING.replace(
        "max: 3, description: Nerve.", "max: 3, keyword_only: true, description: Nerve."
    ),
}


def _state_plans(module: Any, rule: StateRule) -> list[dict[str, Any]]:
    """Each transition once, from the floor and from the ceiling, with its
    parameter (if any) at, inside and past its bounds; and the state made at
    levels at and past its own."""
    cls = getattr(module, rule.class_name)
    ceiling = len(rule.effects)
    shown = ["level", "effects", *(f.name for f in rule.flags)]
    plans = [
        instance_call(cls, rule.class_name, {"level": level}, [fields_step(shown)])
        for level in (rule.floor - 1, rule.floor, ceiling, ceiling + 1)
    ]
    for t in rule.transitions:
        if t.param is None:
            values: list[dict[str, Any]] = [{}]
        else:
            lo, hi = (1, t.max or ceiling) if t.step else (rule.floor, ceiling)
            values = [{t.param: v} for v in (lo - 1, lo, hi, hi + 1)]
            if t.default is not None:
                values.append({})
        for start in (rule.floor, ceiling):
            for kwargs in values:
                steps = [member_step(cls, t.name, kwargs), fields_step(shown)]
                plans.append(
                    instance_call(cls, rule.class_name, {"level": start}, steps)
                )
    return plans


@pytest.mark.parametrize("lab", sorted(LABS))
def test_a_lab_answers_in_javascript_as_in_python(lab: str, tmp_path: Path) -> None:
    """The lab's kit, with the bounds of each state added as cases of its own,
    holds in both runtimes."""
    rules = _write(tmp_path, LABS[lab])
    (system,) = load_systems(rules)
    outputs = build(rules)
    package = tmp_path / "out"
    for path, blob in outputs.files.items():
        target = package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    python = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    kit_path = package / kit_file(system.id)
    kit = read_kit(kit_path)
    with runtime_from(python) as name:
        module = importlib.import_module(f"{name}.lab")
        assert missing_from(system, kit, module) == []
        cases = KitCases(system, module, kind_of)
        for rule in system.rules:
            if isinstance(rule, StateRule):
                bounds = [
                    cases.case(rule, f"bounds {index}", plan)
                    for index, plan in enumerate(_state_plans(module, rule))
                ]
                assert any("refusal" in c for c in bounds)
                kit["cases"] += bounds
    kit["names"] = sorted({*kit["names"], *cases.names})
    kit_path.write_text(json.dumps(kit), "utf-8")
    assert_conforms(package, tmp_path)
