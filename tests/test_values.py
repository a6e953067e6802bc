"""Records, lists and states as values (tests/values/): record types declared
once (``kind: record``), made and read by expressions, answered by decisions,
given as arguments and checked; built into Python and JavaScript, whose every
worked example, sampled input and seeded run answers alike, and whose types
pass ``tsc --strict``."""

from __future__ import annotations

import importlib
import itertools
import json
import shutil
from collections.abc import Iterator
from fractions import Fraction
from math import prod
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rulesc.emit.markdown.forms import rule_form
from rulesc.pipeline import load_systems

from .bounds_cases import build_or_errors
from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .conftest import ROOT, import_fresh, run_rulesc
from .js_node import drawn, node_json, tsc_strict

RULES = ROOT / "tests" / "values"


def built_values(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/values/ built by rulesc, as a rules editor builds it."""
    target = tmp_path_factory.mktemp("values") / "out"
    done = run_rulesc("build", "--rules", str(RULES), "--out", str(target), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return target


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/values/ built (read only)."""
    return built_values(tmp_path_factory)


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
    assert (
        missing_from(system, read_kit(out / "conformance" / f"{system.id}.json"), vm)
        == []
    )
    assert_conforms(out, tmp_path, [system.id])


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


def _enumerated(sides: list[int], answer: Any) -> dict[Any, Fraction]:
    """The chances of ``answer`` over every roll of dice of ``sides``."""
    found: dict[Any, Fraction] = {}
    weight = Fraction(1, prod(sides))
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        value = answer(faces)
        found[value] = found.get(value, Fraction(0)) + weight
    return found


def test_odds_of_lists_are_exact_in_both_runtimes(vm: ModuleType, out: Path) -> None:
    second = _enumerated([6] * 4, lambda f: sorted(f)[-2])
    assert dict(vm.second_highest_odds()) == second
    for bonus in (4, 7, 10):  # three attacks, each its own d20, item by item
        hits = _enumerated(
            [20] * 3,
            lambda f, b=bonus: sum(d + b - 2 * i >= 15 for i, d in enumerate(f)),
        )
        assert dict(vm.volley_odds(bonus)) == hits
    pool = [8, 6, 10]
    assert dict(vm.pool_total_odds(pool)) == _enumerated(pool, sum)
    dumps = importlib.import_module("rulebook.json").dumps
    calls = [("secondHighestOdds", []), ("volleyOdds", [7]), ("poolTotalOdds", [pool])]
    script = (
        f'import * as m from "{(out / "js" / "values.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(out / "js" / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => dumps(m[f](...args)))));\n"
    )
    python = [
        dumps(vm.second_highest_odds()),
        dumps(vm.volley_odds(7)),
        dumps(vm.pool_total_odds(pool)),
    ]
    assert node_json(script) == python


def test_a_list_parameter_has_a_form_and_a_command_line(vm: ModuleType) -> None:
    (system,) = load_systems(RULES)
    rule = next(r for r in system.rules if r.id == "pool_total")
    form = rule_form(system, rule, vm)
    assert form is not None
    (field,) = form["fields"]
    assert (field["kind"], field["min"], field["max"], field["start"]) == (
        "list",
        2,
        12,
        [8, 6, 10],
    )
    done = run_rulesc(
        "explain",
        "--rules",
        str(RULES),
        "values.pool_total",
        "8,6",
        "--dice",
        "3,5",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "pool   8, 6" in done.stdout and "8" in done.stdout.split("Answer")[1]


def test_a_state_is_made_with_arguments_and_held_as_a_value(vm: ModuleType) -> None:
    pools = vm.Pools(3, 4, 5)
    pools.take("might", 5)
    assert (pools.might, pools.speed, pools.intellect, pools.status) == (
        0,
        2,
        5,
        "impaired",
    )
    assert [e.to_dict() for e in pools.log] == [
        {"pool": "might", "points": 3, "left": 0, "status": "impaired"},
        {"pool": "speed", "points": 2, "left": 2, "status": "impaired"},
    ]
    pools.take("speed", 100)  # speed, intellect, then might: the rest is lost
    assert (pools.might, pools.speed, pools.intellect, pools.status) == (
        0,
        0,
        0,
        "dead",
    )
    assert [e.pool for e in pools.log[2:]] == ["speed", "intellect"]
    pools.take("intellect", 1)  # dead: nothing changes
    assert len(pools.log) == 4
    party = vm.Party()
    party.hurt("might", 4)
    leader = party.leader  # a copy: a change to it changes nothing the party holds
    leader.take("speed", 30)
    assert party.leader.speed == 4 and leader.speed == 0
    assert party.leader == party.leader and party.leader != leader
    worn = vm.wear_down(
        1, 2, 3, importlib.import_module("rulebook.dice").Scripted([5, 1])
    )
    assert (worn.status, worn.left, worn.turns) == ("dead", 0, 2)
    refused = importlib.import_module("rulebook.errors").RuleInputError
    with pytest.raises(refused, match=r"might must be in 1\.\.30, not 0"):
        vm.Pools(0, 4, 5)
    rested = vm.Pools(3, 4, 5)
    rested.take("might", 5)
    rested.rest(("might", "speed"), 2)  # a list argument: any sequence
    assert (rested.might, rested.speed, rested.status) == (2, 4, "hale")
    with pytest.raises(refused, match=r"rested\[1\] must be one of .* not 'luck'"):
        rested.rest(["might", "luck"], 2)


_TAKES = st.lists(
    st.tuples(
        st.sampled_from(["might", "speed", "intellect", "Might"]), st.integers(1, 12)
    ),
    max_size=6,
)


def test_drawn_transitions_answer_alike_in_both_runtimes(
    vm: ModuleType, out: Path
) -> None:
    runs = drawn(st.tuples(st.integers(1, 9), st.integers(1, 9), _TAKES), 40)
    dumps = importlib.import_module("rulebook.json").dumps
    python = []
    for first, second, takes in runs:
        party = vm.Party()
        pools = vm.Pools(first, second, 3)
        for pool, n in takes:
            pools.take(pool, n)
            party.hurt(pool, n)
        python.append(dumps([pools, party]))
    script = (
        f'import * as m from "{(out / "js" / "values.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(out / "js" / "json.js").as_uri()}";\n'
        f"const runs = {json.dumps(runs)};\n"
        "console.log(JSON.stringify(runs.map(([first, second, takes]) => {\n"
        "  const party = new m.Party();\n"
        "  const pools = new m.Pools(first, second, 3);\n"
        "  for (const [pool, n] of takes) { pools.take(pool, n); party.hurt(pool, n); }\n"
        "  return dumps([pools, party]);\n"
        "})));\n"
    )
    assert node_json(script) == python
    assert any('"speed": 0, "intellect": 0' in text for text in python)  # spilt


def test_a_wrong_label_or_constructor_is_a_located_error(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    states = rules / "values" / "states.yaml"
    text = states.read_text(encoding="utf-8")
    text = text.replace('"might" if k == 0 else', '"luck" if k == 0 else', 1)
    text = text.replace("start: might, min: 0", "start: 3, min: 0", 1)
    states.write_text(text, encoding="utf-8")
    errors = build_or_errors(rules)
    assert any(
        "states.yaml:" in e and "field 'pool' of PoolLoss: the value gives text" in e
        for e in errors
    ), errors
    assert any(
        "parameter 'might' is not read by any field's start" in e for e in errors
    )
    assert all(e.split(":")[1].isdigit() for e in errors)  # each located
