"""generated/rules.json: valid against its schema, a precise schema, and figures that
are the runtime's.

The file and its schema are checked with check-jsonschema, as any consumer would;
the schema refuses what the format does not allow (a key left out or added, a
node or kind it does not know). Every figure of rules.json is compared with the
generated runtime: each table row with the row the runtime looks up, each range,
shift level, dice value, facts and pool with what the runtime holds, and each
worked example with the one the build ran, run again from the JSON alone.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.emit.json.rules_json import COMMON_KEYS
from rulesc.examples import run_example, runtime_from
from rulesc.front.model import (
    Example,
    Rule,
    System,
)
from rulesc.kinds import registry
from rulesc.kinds.registry import kind_of
from rulesc.pipeline import build

from .conftest import GENERATED, ROOT, copy_rules, project_systems, run_rulesc

RULES_JSON = GENERATED / "rules.json"
SCHEMA = GENERATED / "rules.schema.json"
DOC: dict[str, Any] = json.loads(RULES_JSON.read_text(encoding="utf-8"))
SYSTEMS = {s.id: s for s in project_systems()}
THROWAWAY = ROOT / "tests" / "kinds" / "sequence"
CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"


def check_jsonschema(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHECK_JSONSCHEMA), *args], capture_output=True, text=True, check=False
    )


def rules_of(system: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r for r in system["rules"] if r["kind"] == kind]


def module_of(system: dict[str, Any]) -> ModuleType:
    return importlib.import_module(f"rulebook.{system['id']}")


# -- the schema ------------------------------------------------------------------


def test_rules_json_validates_against_its_schema() -> None:
    done = check_jsonschema("--schemafile", str(SCHEMA), str(RULES_JSON))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout
    assert DOC["$schema"] == SCHEMA.name


def test_the_schema_is_a_draft_2020_12_schema() -> None:
    done = check_jsonschema("--check-metaschema", str(SCHEMA))
    assert done.returncode == 0, done.stdout + done.stderr
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "DO NOT EDIT" in schema["$comment"]


def _objects(schema: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        if "properties" in schema:
            yield where, schema
        for key, value in schema.items():
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _objects(value, f"{where}/{index}")


def test_every_object_of_the_schema_is_closed_and_has_every_key() -> None:
    """null is never left out: every key of every object is required; and no
    object takes a key the schema does not name."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    kinds = {f"#/$defs/kind_{name}" for name in registry.names()}
    found = 0
    for where, obj in _objects(schema):
        if where.endswith("/if") or ("/allOf/" in where and "/then" in where):
            continue  # a condition, or what it narrows a value to
        found += 1
        assert set(obj.get("required", ())) == set(obj["properties"]), where
        shapes = {f"{k}/oneOf/{i}" for k in kinds for i in range(2)}
        if where in kinds | shapes:  # a kind's part (or one shape of it): the
            # rule closes it (unevaluated)
            assert "additionalProperties" not in obj, where
        elif where == "#/$defs/rule":
            assert obj["unevaluatedProperties"] is False
        elif where == "#/$defs/node":  # each node type closes its own object
            names = obj["properties"]["node"]["enum"]
            assert [c["then"]["$ref"] for c in obj["allOf"]] == [
                f"#/$defs/node_{n}" for n in names
            ]
        else:
            assert obj.get("additionalProperties") is False, where
    assert found > 60
    rule = schema["$defs"]["rule"]
    assert rule["properties"]["kind"]["enum"] == list(registry.names())
    assert list(rule["required"]) == list(COMMON_KEYS)


BROKEN: dict[str, Callable[[Any], object]] = {
    "an unknown key in a rule": lambda d: d["systems"][0]["rules"][0].update(
        {"extra": 1}
    ),
    "a null key left out": lambda d: d["systems"][0]["rules"][0]["columns"][0].pop(
        "unit"
    ),
    "a kind the schema does not know": lambda d: d["systems"][0]["rules"][0].update(
        {"kind": "riddle"}
    ),
    "a key of another kind": lambda d: d["systems"][0]["rules"][0].update(
        {"expression": {}}
    ),
    "an unknown node type": lambda d: _first_tree(d).update({"node": "macro"}),
    "an int literal holding text": lambda d: _first_literal(d, "int").update(
        {"value": "3"}
    ),
    "a dice value without its unit": lambda d: _first_dice(d).pop("unit"),
    "a label without its enum": lambda d: _first_literal(d, "label").update(
        {"enum": None}
    ),
    "an example without its dice": lambda d: d["systems"][0]["rules"][0]["examples"][
        0
    ].pop("dice"),
}


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _first_tree(doc: Any) -> dict[str, Any]:
    return next(d["tree"] for d in _walk(doc) if "tree" in d)


def _first_literal(doc: Any, type_: str) -> dict[str, Any]:
    return next(
        d for d in _walk(doc) if d.get("node") == "literal" and d["type"] == type_
    )


def _first_dice(doc: Any) -> dict[str, Any]:
    return next(d for d in _walk(doc) if "notation" in d)


def test_the_schema_refuses_what_the_format_does_not_allow(tmp_path: Path) -> None:
    assert DOC["systems"][0]["rules"][0]["kind"] == "table"  # what BROKEN edits
    paths = []
    for index, (what, change) in enumerate(BROKEN.items()):
        broken = copy.deepcopy(DOC)
        change(broken)
        path = tmp_path / f"broken{index}.json"
        path.write_text(json.dumps(broken), encoding="utf-8")
        paths.append((what, path))
    for what, path in paths:
        done = check_jsonschema("--schemafile", str(SCHEMA), str(path))
        assert done.returncode == 1, f"the schema let {what} through"


def _assert_valid(folder: Path, data: bytes, schema: bytes) -> None:
    """check-jsonschema passes rules.json against its schema, both in ``folder``."""
    (folder / "rules.json").write_bytes(data)
    (folder / "rules.schema.json").write_bytes(schema)
    done = check_jsonschema(
        "--schemafile", str(folder / "rules.schema.json"), str(folder / "rules.json")
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _built_rules_json(rules: Path) -> tuple[bytes, bytes]:
    outputs = build(rules)
    return outputs.files["rules.json"], outputs.files["rules.schema.json"]


@pytest.mark.parametrize(
    "rules",
    [ROOT / "tests" / "cookbook", ROOT / "tests" / "json_trees"],
    ids=["cookbook", "lab"],
)
def test_other_rules_folders_give_valid_rules_json(rules: Path, tmp_path: Path) -> None:
    data, schema = _built_rules_json(rules)
    _assert_valid(tmp_path, data, schema)


def test_a_kind_registered_at_run_time_adds_its_part(tmp_path: Path) -> None:
    """The throwaway kind of tests/kinds/ brings its data.schema.json: the built
    schema names it, and its rule validates against it."""
    from .test_kind_plugins import RULES as LAB_RULES
    from .test_kind_plugins import _rules_folder

    rules_dir = _rules_folder(tmp_path, LAB_RULES)
    with registry.loaded(THROWAWAY):
        data, schema = _built_rules_json(rules_dir)
    doc, composed = json.loads(data), json.loads(schema)
    assert "sequence" in composed["$defs"]["rule"]["properties"]["kind"]["enum"]
    steps = next(r for r in doc["systems"][0]["rules"] if r["kind"] == "sequence")
    assert steps["values"] == [3, 5, 8, 13] and steps["function"] == "step_value"
    _assert_valid(tmp_path, data, schema)
    assert (
        "sequence"
        not in json.loads(SCHEMA.read_text("utf-8"))["$defs"]["rule"]["properties"][
            "kind"
        ]["enum"]
    )


# -- the figures are the runtime's ---------------------------------------------------


def test_systems_and_rules_are_the_models() -> None:
    assert [s["id"] for s in DOC["systems"]] == sorted(SYSTEMS)
    for data in DOC["systems"]:
        system = SYSTEMS[data["id"]]
        assert [r["id"] for r in data["rules"]] == [r.id for r in system.rules]
        assert [r["kind"] for r in data["rules"]] == [r.kind for r in system.rules]
        part = system.source_part
        assert data["source"] == {
            "file": system.source_file,
            "work": system.source_work,
            "part": None if part is None else {"kind": part.kind, "title": part.title},
            "contents": [
                {"title": g.title, "sections": list(g.sections), "rules": list(g.rules)}
                for g in system.contents
            ],
        }
        assert data["rounding"] == system.rounding
        assert [n["id"] for n in data["not_modelled"]] == [
            n.id for n in system.not_modelled
        ]
        module = module_of(data)
        for enum in data["enums"]:
            runtime = getattr(module, enum["name"])
            assert [m["label"] for m in enum["members"]] == [m.value for m in runtime]
            assert [m["name"] for m in enum["members"]] == [m.name for m in runtime]
        names = {e["name"] for e in data["enums"]}
        for rule in data["rules"]:
            for param in rule.get("params", []):
                assert param["enum"] is None or param["enum"] in names
            model = next(r for r in system.rules if r.id == rule["id"])
            assert rule["source"]["section"] == model.section
            assert [r["id"] for r in rule["rulings"]] == [r.id for r in model.rulings]
            assert [e["id"] for e in rule["errata"]] == [e.id for e in model.errata]


def _table(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    """Every row is what the lookup answers; a rolled table's dice are the
    module's, and a roll of each end of a row's range picks that row."""
    lookup = getattr(module, rule["function"])
    for row in rule["rows"]:
        assert lookup(row["key"]).to_dict() == row["values"], rule["id"]
    rolls = rule["rolls"]
    if rolls is not None:
        dice = getattr(module, f"{rolls['function'].upper()}_DICE")
        assert to_data(dice) == rolls["dice"]
        for row in rule["rows"]:
            if row["values"][rolls["column"]] is None:
                continue  # a row no roll picks
            for result in row["values"][rolls["column"]]:
                rolled = getattr(module, rolls["function"])(
                    _rolling(module, dice, result)
                )
                assert to_data(rolled) == row["key"]
    return len(rule["rows"])


def _rolling(module: ModuleType, dice: Any, total: int) -> Any:
    """A scripted RNG whose dice sum to ``total``."""
    faces = [1] * dice.count
    left = (total - dice.modifier) // dice.multiplier - dice.count
    for index in range(dice.count):
        add = min(left, dice.sides - 1)
        faces[index] += add
        left -= add
    scripted = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".dice")
    return scripted.Scripted(faces)


def _range_table(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    function = getattr(module, rule["function"])
    for row in rule["rows"]:
        for number in (row["from"], row["to"] if row["to"] is not None else 10**6):
            assert to_data(function(number)) == row["values"]
    first, least = rule["rows"][0]["from"], rule["param"]["min"]
    if rule["below"] == "none" and (least is None or first > least):
        assert function(first - 1) is None
    return len(rule["rows"])


def _shift(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    function = getattr(module, rule["function"])
    for level in rule["levels"]:
        assert to_data(function(level["level"])) == level["values"]
    return len(rule["levels"])


def _exposure_schedule(
    rule: dict[str, Any], module: ModuleType, to_data: Any, system: dict[str, Any]
) -> int:
    """The exposures of one contact, from rules.json's table, shifts and fraction."""
    rules = {r["id"]: r for r in system["rules"]}
    table, kinds = rules[rule["table"]], rule["kinds"]
    instant = {lv["level"]: lv for lv in rules[rule["instant"]]["levels"]}
    half = {lv["level"]: lv for lv in rules[rule["half"]]["levels"]}
    num, den = (int(n) for n in rule["half_fraction"].split("/"))
    names, start = rule["param_names"], rule["start_field"]
    dice = rules[rule["full_time"]]["dice"]  # the full time is one of its rolls
    least = dice["count"] * dice["multiplier"] + dice["modifier"]
    most = dice["count"] * dice["sides"] * dice["multiplier"] + dice["modifier"]
    fulls = sorted({least, (least + most) // 2, most})
    count = 0
    for row in table["rows"]:
        for full in fulls:
            for stayed in range(1, 2 * full + 2):
                want = []
                level = row["key"]
                if instant[level]["values"] is not None:
                    want.append((kinds["instant"], instant[level], 0))
                if stayed >= full:
                    whole = {"uses": level, "values": row["values"]}
                    want.append((kinds["full"], whole, full))
                elif stayed * den >= full * num and half[level]["values"] is not None:
                    want.append((kinds["half"], half[level], stayed))
                got = to_data(
                    getattr(module, rule["function"])(
                        **{
                            names["key"]: level,
                            names["stayed"]: stayed,
                            names["full"]: full,
                        }
                    )
                )
                assert got == [
                    {
                        "kind": k,
                        "effective_level": lv["uses"],
                        **lv["values"],
                        start: at,
                    }
                    for k, lv, at in want
                ], (level, stayed, full)
                count += 1
    return count


def _state(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    cls = getattr(module, rule["class_name"])
    if "levels" not in rule:  # a record of fields: a fresh one holds their starts
        # (made with its parameters' least values; a start reading one checked too)
        given = {p["name"]: p["min"] for p in rule.get("parameters", [])}
        fresh = cls(*given.values())
        for field in rule["fields"]:
            start = field["start"]["tree"]
            if start["node"] == "name" and start.get("name") in given:
                assert getattr(fresh, field["name"]) == given[start["name"]]
            start = field["start"]["tree"]
            if start["node"] == "literal":
                assert getattr(fresh, field["name"]) == start["value"]
        return len(rule["fields"])
    effects = [lv["effect"] for lv in rule["levels"]]
    for level in range(rule["floor"], len(effects) + 1):
        state = cls(level)
        want = effects[:level] if rule["cumulative"] else effects[level - 1 : level]
        assert state.to_dict() == {"level": level, "effects": want}
        for flag in rule["flags"]:
            assert getattr(state, flag["name"]) is (level >= flag["from_level"])
    return len(effects)


def _track(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    """Each effect, rolled again and again on a fresh track, goes through its
    stages in order, then asks for a reroll; one that marks marks every time."""
    prefix = rule["id"].upper()
    assert to_data(getattr(module, f"{prefix}_ROLL")) == rule["roll"]
    assert getattr(module, f"{prefix}_EVERY") == rule["every"]
    for roll, effect in enumerate(rule["effects"], start=1):
        track = getattr(module, rule["class_name"])()
        for stage, condition in enumerate(effect["stages"], start=1):
            out = to_data(track.apply(roll))
            assert (out["effect"], out["stage"], out["condition"]) == (
                effect["effect"],
                stage,
                condition,
            )
            assert out["reroll"] is False and out[rule["mark_field"]] is False
        out = to_data(track.apply(roll))
        assert out["effect"] == effect["effect"]
        if effect["marks"]:
            assert out[rule["mark_field"]] is True and out["condition"] is None
        else:
            assert out["reroll"] is True
    return len(rule["effects"])


def _constant(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    """A dice rule, facts, a success pool: the value the module holds."""
    value = to_data(getattr(module, rule["constant"]))
    want = {"dice": "dice", "facts": "values", "success_pool": "pool"}[rule["kind"]]
    assert value == rule[want]
    return 1


def _pool(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    prefix = rule["function"].upper()
    assert to_data(getattr(module, f"{prefix}_DEAL")) == rule["deal"]
    assert getattr(module, f"{prefix}_INTERVAL_MINUTES") == rule["every_minutes"]
    after = getattr(module, f"{rule['function']}_after_save")
    save = rule["on_save"]
    for points in (1, 2, 5, 9, 30):
        assert after(points) == max(points // save["divide_by"], save["minimum"])
    return 1


def _recovery(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    healed = getattr(module, rule["function"])(3 * rule["amount"], 10)
    step = rule["every_minutes"]
    assert to_data(healed) == [[10 + step * n, rule["amount"]] for n in (1, 2, 3)]
    return 1


def _covered_roll(rule: dict[str, Any], module: ModuleType, to_data: Any) -> int:
    check = getattr(module, f"{rule['function'].upper()}_CHECK")
    assert to_data(check) == rule["half_check"]["dice"]
    low, high = rule["half_check"]["strikes_cover"]
    assert check.min <= low <= high <= check.max
    return 1


CHECKS: dict[str, Any] = {
    "table": _table,
    "range_table": _range_table,
    "shift": _shift,
    "state": _state,
    "track": _track,
    "dice": _constant,
    "facts": _constant,
    "success_pool": _constant,
    "pool": _pool,
    "recovery": _recovery,
    "covered_roll": _covered_roll,
}


def check_figures(system: dict[str, Any], module: ModuleType) -> dict[str, int]:
    """Every rule's figures against the runtime, by kind: what was compared.
    (Formulas and decisions are evaluated from their trees in
    tests/test_rules_json_trees.py; processes are played by their examples.)"""
    to_data = importlib.import_module(
        module.__name__.rsplit(".", 1)[0] + ".json"
    ).to_data
    done: dict[str, int] = {}
    for rule in system["rules"]:
        kind = rule["kind"]
        if kind == "exposure_schedule":
            count = _exposure_schedule(rule, module, to_data, system)
        elif kind in CHECKS:
            count = CHECKS[kind](rule, module, to_data)
        else:
            continue
        done[kind] = done.get(kind, 0) + count
    return done


def test_every_figure_is_the_runtimes() -> None:
    done: dict[str, int] = {}
    for system in DOC["systems"]:
        for kind, count in check_figures(system, module_of(system)).items():
            done[kind] = done.get(kind, 0) + count
    assert done["table"] >= 30 and done["exposure_schedule"] >= 100
    kinds = {r["kind"] for s in DOC["systems"] for r in s["rules"]}
    assert set(done) == kinds & (set(CHECKS) | {"exposure_schedule"})


def test_the_cookbooks_figures_are_its_runtimes() -> None:
    outputs = build(ROOT / "tests" / "cookbook")
    doc = json.loads(outputs.files["rules.json"])
    texts = {
        p: b.decode("utf-8")
        for p, b in outputs.files.items()
        if p.startswith("rulebook/")
    }
    with runtime_from(texts) as package:
        found = {}
        for system in doc["systems"]:
            module = importlib.import_module(f"{package}.{system['id']}")
            found[system["id"]] = check_figures(system, module)
    assert found["cookbook"].get("state", 0) > 0
    assert (
        "table_games" in found
    )  # its rules have no figures of a table (trees: test_rules_json_trees)


# -- worked examples -------------------------------------------------------------------


def _example_from_json(model: Example, data: dict[str, Any]) -> Example:
    """The model's example with everything the build runs taken from rules.json."""
    select = data["select"]
    return dataclasses.replace(
        model,
        args=tuple(data["args"].items()),
        dice=None if data["dice"] is None else tuple(data["dice"]),
        roll=data["roll"],
        select=None
        if select is None
        else (select["field"], tuple(select["where"].items())),
        expect=data["expect"],
        raises=data["raises"],
    )


EXAMPLES = [
    pytest.param(system, rule, index, id=f"{system['id']}.{rule['id']}:{ex['name']}")
    for system in DOC["systems"]
    for rule in system["rules"]
    for index, ex in enumerate(rule["examples"])
]


@pytest.mark.parametrize(("system", "rule", "index"), EXAMPLES)
def test_every_worked_example_is_the_one_the_build_ran(
    system: dict[str, Any], rule: dict[str, Any], index: int
) -> None:
    model: Rule = next(r for r in SYSTEMS[system["id"]].rules if r.id == rule["id"])
    ex = model.examples[index]
    data = rule["examples"][index]
    assert data["name"] == ex.name
    assert data["args"] == dict(ex.args)
    assert data["dice"] == (None if ex.dice is None else list(ex.dice))
    assert data["expect"] == ex.expect
    assert data["erratum"] == (ex.erratum.id if ex.erratum else None)
    assert data["defined_at"]["line"] == ex.loc.line
    again = _example_from_json(ex, data)
    assert again == ex
    assert run_example(module_of(system), model, again) is None
    assert kind_of(model).name == rule["kind"]


def test_every_rule_has_its_examples() -> None:
    count = sum(len(r.examples) for s in SYSTEMS.values() for r in s.rules)
    assert len(EXAMPLES) == count > 50


# -- the build, check and manifest -------------------------------------------------


def test_the_manifest_covers_rules_json() -> None:
    manifest = json.loads((GENERATED / "manifest.json").read_text(encoding="utf-8"))
    assert {"rules.json", "rules.schema.json"} <= set(manifest["files"])


ZERO_G = "d20_scifi/zero_g.yaml"
BASE = ("--rules", "rules")  # rules/ alone, whatever house packs it lists
ROW = "{key: zero_g, max_increments: 20,"


def test_check_names_the_rule_when_rules_json_is_stale(tmp_path: Path) -> None:
    """A figure changed after the build: rulesc check fails, naming the rule
    and rules.json; the rebuild writes the new figure into rules.json. Of
    rules/ alone (--rules): a house pack listed would change with it."""
    project = tmp_path / "project"
    copy_rules(project / "rules")
    out = project / "out"
    done = run_rulesc("build", *BASE, "--out", str(out), "--no-cache", cwd=project)
    assert done.returncode == 0, done.stderr
    before = json.loads((out / "rules.json").read_text(encoding="utf-8"))
    path = project / "rules" / ZERO_G
    path.write_text(
        path.read_text("utf-8").replace(ROW, ROW.replace("20", "25")), "utf-8"
    )
    done = run_rulesc("check", *BASE, "--out", str(out), "--no-cache", cwd=project)
    assert done.returncode == 1
    assert "rule d20_scifi.zero_g_weapon_range changed" in done.stdout + done.stderr
    assert "out/rules.json" in done.stdout + done.stderr
    done = run_rulesc("build", *BASE, "--out", str(out), "--no-cache", cwd=project)
    assert done.returncode == 0, done.stderr
    after = json.loads((out / "rules.json").read_text(encoding="utf-8"))
    assert _differences(before, after) == [
        "systems/0/rules/"
        + str(_index(after, "d20_scifi", "zero_g_weapon_range"))
        + "/rows/0/values/max_increments: 20 -> 25"
    ]
    assert run_rulesc("check", *BASE, "--out", str(out), cwd=project).returncode == 0


def test_a_hand_edited_rules_json_is_stale(tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(GENERATED, out)
    text = (out / "rules.json").read_text("utf-8")
    (out / "rules.json").write_text(
        text.replace('"rounding": "down"', '"rounding": "up"', 1)
    )
    done = run_rulesc("check", "--out", str(out), "--no-cache", cwd=ROOT)
    assert done.returncode == 1
    assert f"{out.name}/rules.json is out of date" in done.stdout + done.stderr


def _index(doc: dict[str, Any], system: str, rule: str) -> int:
    rules = next(s for s in doc["systems"] if s["id"] == system)["rules"]
    return next(i for i, r in enumerate(rules) if r["id"] == rule)


def _differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Every path at which two JSON values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [d for k in a for d in _differences(a[k], b[k], f"{where}{k}/")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _differences(x, y, f"{where}{i}/")
        ]
    return [] if a == b else [f"{where.rstrip('/')}: {a!r} -> {b!r}"]


def test_a_model_system_builds_the_same_rules_json() -> None:
    """rules.json is a function of the checked model alone."""
    from rulesc.emit.json.rules_json import document

    systems: list[System] = list(SYSTEMS.values())
    assert json.loads(json.dumps(document(list(reversed(systems))))) == DOC
