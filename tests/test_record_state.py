"""A state that is a record of named fields (tests/dice_formulas/states.yaml):
its answers, its checked arguments, its JSON, JavaScript answering as Python
(the same ``dumps`` text), its page and its part of rules.json."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.pipeline import load_systems

from .conftest import ROOT
from .js_node import js_message, node_json

Action = tuple[str, int]


def _python(df: ModuleType, actions: list[Action]) -> Any:
    state = df.Stress()
    for name, n in actions:
        getattr(state, name)(n)
    return state


def _blades(actions: list[Action]) -> dict[str, Any]:
    """The mechanic as its rules say it, worked out by hand."""
    stress, traumas, retired = 0, 0, False
    for name, n in actions:
        if retired:
            continue
        if name == "relieve":
            stress = max(stress - n, 0)
        elif stress + n > 9:
            stress, traumas = 0, traumas + 1
            retired = traumas >= 4
        else:
            stress += n
    return {"stress": stress, "traumas": traumas, "retired": retired}


def _runs() -> list[list[Action]]:
    rng = random.Random(7)
    return [
        [(rng.choice(("take", "relieve")), rng.randint(0, 20)) for _ in range(k)]
        for k in (0, 1, 3, 8, 20, 40)
        for _ in range(5)
    ]


def test_the_state_answers_as_the_mechanic(df: ModuleType) -> None:
    for actions in _runs():
        state = _python(df, actions)
        expected = _blades(actions)
        assert state.to_dict() == expected, actions
        assert state.marks == expected["stress"] + expected["traumas"] * 10
        assert state.near_trauma == (
            expected["stress"] >= 7 and not expected["retired"]
        )


def test_a_new_state_and_its_record_ways(df: ModuleType) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    state = df.Stress()
    assert repr(state) == "Stress(stress=0, traumas=0, retired=False)"
    assert dumps(state) == '{"stress": 0, "traumas": 0, "retired": false}'
    other = df.Stress()
    assert state == other
    other.take(3)
    assert state != other and other.stress == 3
    with pytest.raises(TypeError):
        hash(state)
    with pytest.raises(AttributeError):
        state.stress = 4  # a field is read only


@pytest.mark.parametrize("bad", [-1, 21, "3", True, 2.0, None])
def test_a_transition_refuses_arguments_outside_its_range(
    df: ModuleType, bad: object
) -> None:
    error = importlib.import_module("rulebook.errors").RuleInputError
    state = df.Stress()
    for name in ("take", "relieve"):
        with pytest.raises(error, match="n must be"):
            getattr(state, name)(bad)
    assert state == df.Stress()


def test_javascript_answers_as_python(df: ModuleType, df_out: Path) -> None:
    dumps = importlib.import_module("rulebook.json").dumps
    runs = _runs()
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const runs = {json.dumps(runs)};\n"
        "const out = [];\n"
        "for (const run of runs) {\n"
        "  const s = new m.Stress();\n"
        "  for (const [name, n] of run) s[name](n);\n"
        "  out.push([dumps(s), s.marks, s.nearTrauma, String(s), s.equals(new m.Stress())]);\n"
        "}\n"
        "const refused = [];\n"
        "for (const bad of [-1, 21, '3', true, 2.5, null]) {\n"
        "  try { new m.Stress().take(bad); refused.push(null); }\n"
        "  catch (e) { refused.push([e.name, e.message]); }\n"
        "}\n"
        "console.log(JSON.stringify({ out, refused }));\n"
    )
    answer = node_json(script)
    for actions, (text, marks, near, shown, fresh) in zip(
        runs, answer["out"], strict=True
    ):
        state = _python(df, actions)
        assert text == dumps(state)
        assert (marks, near) == (state.marks, state.near_trauma)
        assert shown == repr(state).replace("False", "false").replace("True", "true")
        assert fresh == (state == df.Stress())
    (system,) = load_systems(ROOT / "tests" / "dice_formulas")
    error = importlib.import_module("rulebook.errors").RuleInputError
    for bad, got in zip([-1, 21, "3", True, 2.5, None], answer["refused"], strict=True):
        with pytest.raises(error) as raised:
            df.Stress().take(bad)
        assert got == ["RuleInputError", js_message(system, str(raised.value))]


def test_the_types_declare_the_class(df_out: Path) -> None:
    types = (df_out / "js" / "dice_formulas.d.ts").read_text(encoding="utf-8")
    assert "export declare class Stress extends $state.RecordState {" in types
    for line in (
        "readonly stress: number;",
        "readonly retired: boolean;",
        "readonly nearTrauma: boolean;",
        "take(n: number): void;",
        "relieve(n: number): void;",
    ):
        assert line in types


def test_the_page_says_the_fields_and_each_transition(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "stress.md").read_text("utf-8")
    assert "| *traumas* | a whole number from 0 to 4 | 0 | Traumas taken. |" in page
    assert (
        r"- *marks* is $\textit{stress} + \textit{traumas} \times 10$: "
        "Every mark on the sheet." in page
    )
    assert "When *retired* is yes, nothing changes." in page
    assert (
        r"Let *after* be $\textit{stress} + \textit{n}$ (Stress before any trauma)."
        in page
    )
    assert (
        "*stress* becomes 0 if *broken* is yes; otherwise *after*, held within "
        "its bounds" in page
    )
    assert (
        r"Then *stress* becomes $\textit{stress} - \textit{n}$, held within its "
        "bounds." in page
    )


def test_rules_json_holds_the_fields_and_the_logic(df_out: Path) -> None:
    import jsonschema

    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    schema = json.loads((df_out / "rules.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    (rule,) = [r for s in data["systems"] for r in s["rules"] if r["id"] == "stress"]
    assert [f["name"] for f in rule["fields"]] == ["stress", "traumas", "retired"]
    take = rule["transitions"][0]
    assert take["unless"]["source"] == "retired"
    assert [s["name"] for s in take["set"]] == ["stress", "traumas", "retired"]
    assert [s["clamped"] for s in take["set"]] == [True, True, False]
