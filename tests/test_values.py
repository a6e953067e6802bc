"""Records, lists and states as values (tests/values/): record types declared
once (``kind: record``), made and read by expressions, answered by decisions,
given as arguments and checked; built into Python and JavaScript, whose every
worked example, sampled input and seeded run answers alike, and whose types
pass ``tsc --strict``."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from jsonschema import Draft202012Validator

from rulesc.pipeline import load_systems

from .conftest import ROOT, import_fresh, run_rulesc
from .js_node import assert_every_rule_in, conformance_spec, node_test, tsc_strict

RULES = ROOT / "tests" / "values"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/values/ built by rulesc, as a rules editor builds it (read only)."""
    target = tmp_path_factory.mktemp("values") / "out"
    done = run_rulesc("build", "--rules", str(RULES), "--out", str(target), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return target


@pytest.fixture(scope="module")
def vm(out: Path) -> Iterator[ModuleType]:
    """The built ``rulebook.values``."""
    with import_fresh(out):
        yield importlib.import_module("rulebook.values")


def _errors(out: Path) -> type[Exception]:
    error: type[Exception] = importlib.import_module("rulebook.errors").RuleInputError
    return error


def test_a_record_type_is_a_class_made_by_expressions(vm: ModuleType) -> None:
    strike = vm.blow(3, 7, critical=True)
    assert type(strike) is vm.Strike
    assert (strike.round_, strike.damage, strike.critical, strike.note) == (
        3,
        14,
        True,
        "doubled",
    )
    assert strike.to_dict() == {
        "round": 3,
        "damage": 14,
        "critical": True,
        "note": "doubled",
    }
    assert vm.harder(10, 6) == 12 and vm.harder(13, 6) == 13
    assert vm.same_blow(4) == 1


def test_a_record_argument_is_checked_field_by_field(vm: ModuleType, out: Path) -> None:
    refused = _errors(out)
    assert vm.strike_damage(vm.Strike(1, 5, True, None)) == 6
    assert (
        vm.strike_damage({"round": 1, "damage": 5, "critical": False, "note": None})
        == 5
    )
    cases = {
        "strike.round must be in 1..20, not 0": {
            "round": 0,
            "damage": 5,
            "critical": True,
            "note": None,
        },
        "strike has no field 'note'": {"round": 1, "damage": 5, "critical": True},
        "strike.critical must be True or False, not 1": {
            "round": 1,
            "damage": 5,
            "critical": 1,
            "note": None,
        },
        "strike must be a record of its fields, not 5": 5,
    }
    for message, given in cases.items():
        with pytest.raises(refused) as info:
            vm.strike_damage(given)
        assert str(info.value) == message


def test_the_values_answer_in_javascript_as_in_python(
    vm: ModuleType, out: Path, tmp_path: Path
) -> None:
    (system,) = load_systems(RULES)
    spec = conformance_spec(system, vm, out / "js")
    assert_every_rule_in(spec, system)
    node_test("conformance.test.mjs", spec, tmp_path)


def test_the_values_types_pass_tsc_strict(out: Path, tmp_path: Path) -> None:
    done = tsc_strict([str(out / "js" / "*.d.ts")], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_rules_json_describes_a_record_type(out: Path) -> None:
    data = json.loads((out / "rules.json").read_text(encoding="utf-8"))
    schema = json.loads((out / "rules.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(data)
    (system,) = data["systems"]
    rule = next(r for r in system["rules"] if r["id"] == "strike")
    assert rule["kind"] == "record" and rule["class_name"] == "Strike"
    note = rule["fields"][3]
    assert note["value"] == {
        "type": "text",
        "nullable": True,
        "items": None,
        "enum": None,
        "record": None,
        "min": None,
        "max": None,
        "min_items": None,
        "max_items": None,
    }
    page = (out / "docs" / "values" / "strike.md").read_text(encoding="utf-8")
    assert "| Round | a whole number, 1 to 20 | The round of the blow. |" in page
