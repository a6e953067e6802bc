"""Names belong to the rules (issue 38 items 3-4, issue 39 item 6).

A system of every kind of name (functions, parameters of every shape, lets,
fields, enums and their members, records, states, transitions, flags, a
follow-up method, a repeat's state and names) is written with each name drawn from the names the emitters
and runtimes of both targets introduce and both targets' keywords, built-ins
and globals (``tests/target_names.py``, derived from the emitters' tables and
the generated code). It builds (its worked examples run in Python at the
build), and both runtimes run its conformance kit (every worked example and
sample), with the method and seeded runs of the rules that roll added.
"""

from __future__ import annotations

import builtins
import importlib
import json
import keyword
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.core.calls import function_call
from rulesc.emit.conformance.files import kit_file
from rulesc.emit.conformance.kit import KitCases
from rulesc.emit.javascript.names import (
    camel,
    jsname,
)
from rulesc.examples import runtime_from
from rulesc.kinds.decision.model import TURNS
from rulesc.kinds.registry import kind_of
from rulesc.lang import py_names
from rulesc.lang.dice import DICE_FUNCTIONS
from rulesc.lang.expr import FUNCTIONS
from rulesc.lang.py_names import (
    pyattr,
    pyname,
)
from rulesc.pipeline import Outputs, build

from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .js_node import tsc_strict
from .target_names import CLASS, LOWER, MEMBER, pool
from .test_process_and_state import _write

# A rules file with a slot ``{x}`` for each name: lower case slots read by an
# expression (EXPRESSION), others (FREE), classes and enum members.
RULES = """\
  - id: r_table
    kind: table
    title: A table
    summary: A table.
    source: {section: S}
    function: "{t}"
    key:
      param: "{k}"
      title: Size
      enum: "{E}"
      members: [{name: "{M1}", label: small}, {name: "{M2}", label: big}]
    row: "{R}"
    columns:
      - {name: "{c1}", type: int, title: One}
      - {name: "{c2}", type: bool, title: Two}
    rows:
      - {key: small, "{c1}": 1, "{c2}": true}
      - {key: big, "{c1}": 2, "{c2}": false}
    examples:
      - {name: e1, summary: E., args: {"{k}": small}, expect: {"{c1}": 1, "{c2}": true}}
  - id: r_roll
    kind: formula
    title: A roll
    summary: A roll with a default and a keyword-only parameter.
    source: {section: S}
    function: "{f}"
    parameters:
      - {name: "{p1}", type: int, min: 0, max: 5, description: P1.}
      - {name: "{p2}", type: int, min: 0, max: 5, default: 2, description: P2.}
      - {name: "{p3}", type: int, min: 0, max: 5, default: 1, keyword_only: true, description: P3.}
    let:
      - {name: "{l1}", value: "1d6 + max({p1}, {p3})", description: L1.}
    expression: "{l1} + {p2}"
    examples:
      - {name: e1, summary: E., args: {"{p1}": 3, "{p2}": 1, "{p3}": 4}, dice: [2], expect: 7}
      - {name: e2, summary: E., args: {"{p1}": 3}, dice: [2], expect: 7}
  - id: r_hit
    kind: decision
    title: A hit
    summary: A roll the decision's method makes.
    source: {section: S}
    function: "{h}"
    parameters:
      - {name: "{hp}", type: int, min: 0, max: 5, description: HP.}
      - name: "{hq}"
        type: choice
        enum: "{E2}"
        default: low
        members: [{name: "{M3}", label: low}, {name: "{M4}", label: high}]
        description: HQ.
    let:
      - {name: "{hl}", value: "1d6", description: HL.}
    result: "{H}"
    fields:
      - {name: "{hf}", type: int, title: HF}
    cases:
      - when: "true"
        then: {"{hf}": "{hl} + {hp} + (10 if {hq} == \\"high\\" else 0)"}
    examples:
      - {name: e1, summary: E., args: {"{hp}": 2}, dice: [3], expect: {"{hf}": 5}}
      - {name: e2, summary: E., args: {"{hp}": 2, "{hq}": high}, dice: [3], expect: {"{hf}": 15}}
  - id: r_decide
    kind: decision
    title: A decision
    summary: A decision of labels, a mapping, an optional label and a default.
    source: {section: S}
    function: "{d}"
    parameters:
      - {name: "{q1}", type: choice, enum: "{E}", description: Q1.}
      - {name: "{q4}", type: mapping, key: "{E}", values: "{E2}", description: Q4.}
      - {name: "{q2}", type: int, min: 0, max: 5, default: 0, description: Q2.}
      - {name: "{q5}", type: choice, enum: "{E2}", default: high, description: Q5.}
      - {name: "{q3}", type: choice, enum: "{E2}", nullable: true, default: null, description: Q3.}
    let:
      - {name: "{dl}", value: "{t}({q1}).{c1} + {q2}", description: DL.}
    result: "{D}"
    fields:
      - {name: "{g1}", type: int, title: G1}
      - {name: "{g2}", type: bool, title: G2}
    cases:
      - when: "{q3} == \\"high\\" or {q4}[{q1}] == \\"high\\""
        then: {"{g1}": "{dl} + 10", "{g2}": "{t}({q1}).{c2}"}
      - when: "true"
        then: {"{g1}": "{dl}", "{g2}": "false"}
    methods:
      - name: "{m}"
        rule: r_hit
        args: {"{hp}": "{q2}", "{hq}": "{q5}"}
        description: Roll.
    examples:
      - name: e1
        summary: E.
        args: {"{q1}": big, "{q4}": {small: high, big: low}, "{q2}": 3}
        expect: {"{g1}": 5, "{g2}": false}
      - name: e2
        summary: E.
        args: {"{q1}": small, "{q4}": {small: low, big: low}, "{q3}": high}
        expect: {"{g1}": 11, "{g2}": true}
  - id: r_repeat
    kind: decision
    title: A repeat
    summary: A die a turn, added up until six or more, at most ten turns.
    source: {section: S}
    function: "{rf}"
    parameters: []
    repeat:
      state:
        - {name: "{ra}", type: int, value: 0, min: 0, max: 10, description: RA.}
      let:
        - {name: "{rd}", value: d6, description: RD.}
      set:
        - {name: "{ra}", value: "{ra} + {rd}"}
      until: "{ra} >= 6"
      max_turns: 10
    result: "{RR}"
    fields:
      - {name: "{rg}", type: int, title: RG}
      - {name: "{rh}", type: int, title: RH}
    cases:
      - when: "true"
        then: {"{rg}": "{ra}", "{rh}": turns}
    examples:
      - {name: e1, summary: E., args: {}, dice: [2, 6], expect: {"{rg}": 8, "{rh}": 2}}
  - id: r_state
    kind: state
    title: A state
    summary: A ladder.
    source: {section: S}
    class: "{S}"
    levels:
      - effect: Calm
      - effect: Shaken
      - effect: Fled
    transitions:
      - {name: "{tr1}", step: up, by: {param: "{tp}", default: 1, max: 2}, description: Up.}
      - {name: "{tr2}", to: floor, description: Down.}
    flags:
      - {name: "{fl}", from_level: 2, description: Fl.}
    examples:
      - name: e1
        summary: E.
        args: {actions: ["{tr1}", {"{tr1}": {"{tp}": 1}}]}
        expect: {level: 2, "{fl}": true}
  - id: r_record
    kind: state
    title: A record state
    summary: A record of fields.
    source: {section: S}
    class: "{RS}"
    fields:
      - {name: "{rf1}", type: int, start: 0, min: 0, max: 9, description: RF1.}
      - {name: "{rf2}", type: bool, start: false, description: RF2.}
    transitions:
      - name: "{rt}"
        description: RT.
        parameters:
          - {name: "{rp}", type: int, min: 0, max: 20, description: RP.}
        unless: "{rf2}"
        let:
          - {name: "{rl}", value: "{rf1} + {rp}", description: RL.}
        set:
          - {name: "{rf1}", value: "min({rl}, 9)"}
          - {name: "{rf2}", value: "{rl} > 9"}
    examples:
      - name: e1
        summary: E.
        args: {actions: [{"{rt}": {"{rp}": 4}}, {"{rt}": {"{rp}": 8}}]}
        expect: {"{rf1}": 9, "{rf2}": true}
"""
EXPRESSION = [
    "hq",
    "p1",
    "p2",
    "p3",
    "l1",
    "q1",
    "q2",
    "q3",
    "q4",
    "q5",
    "dl",
    "hl",
    "hp",
    "rf1",
    "rf2",
    "rp",
    "rl",
    "c1",
    "c2",
    "t",
    "ra",
    "rd",
]  # read by an expression (``t`` is called: ``t(q1)``)
FREE = [
    *("k", "f", "d", "h", "g1", "g2", "hf", "m", "tr1", "tr2", "tp", "fl", "rt"),
    *("rf", "rg", "rh"),
]
CLASSES = ["E", "E2", "R", "D", "H", "S", "RS", "RR"]
MEMBERS = ["M1", "M2", "M3", "M4"]
PLAIN = {
    **{slot: f"n_{slot.lower()}" for slot in EXPRESSION + FREE},
    **{slot: f"N{slot.title()}" for slot in CLASSES},
    **{slot: f"N_{slot}" for slot in MEMBERS},
}
# Names a slot may not have in the rules themselves (whatever the targets):
# a ladder's own level and effects, a table row's key, and for the function an
# expression calls, a function of the expression language (which a call
# would mean) or ``d`` (``d(6)`` is dice).
_NOT: dict[str, frozenset[str]] = {
    "tr1": frozenset({"level", "effects"}),
    "tr2": frozenset({"level", "effects"}),
    "fl": frozenset({"level", "effects"}),
    "c1": frozenset({"key"}),
    "c2": frozenset({"key"}),
    "t": frozenset({*FUNCTIONS, *DICE_FUNCTIONS, "d"}),
    # a repeat's state and names: not the count of turns its cases read
    "ra": frozenset({TURNS}),
    "rd": frozenset({TURNS}),
}


def _usable(name: str) -> bool:
    """Not a name derived from another (``x_odds``, ``XLabel``) of one that
    may be drawn too: two such names would be one in the module."""
    return not name.endswith(("_odds", "_level", "_after_save", "Label"))


@st.composite
def namings(draw: st.DrawFn) -> dict[str, str]:
    """A name for each slot, every one distinct (and distinct camelCased)."""
    used: set[str] = set()
    found: dict[str, str] = {}
    expression = [n for n in pool(LOWER, in_expressions=True) if _usable(n)]
    free = [n for n in pool(LOWER) if _usable(n)]
    for slots, names in (
        (EXPRESSION, expression),
        (FREE, free),
        (CLASSES, [n for n in pool(CLASS) if _usable(n)]),
        (MEMBERS, pool(MEMBER)),
    ):
        for slot in slots:
            refused = _NOT.get(slot, frozenset())
            choice = draw(
                st.sampled_from(
                    [n for n in names if camel(n) not in used and n not in refused]
                )
            )
            used.add(camel(choice))
            found[slot] = choice
    return found


def written(names: dict[str, str]) -> str:
    """The rules of the system, each slot given its name."""
    rules = textwrap.dedent(RULES)
    return re.sub(r"\{([A-Za-z0-9]+)\}", lambda m: names[m.group(1)], rules)


def _built(tmp: Path, text: str) -> Outputs:
    """The build (its worked examples run in Python); a refusal fails the test,
    with the errors."""
    try:
        return build(_write(tmp, text))
    except RulesError as exc:
        pytest.fail("\n".join(d.format_text() for d in exc.diagnostics))


def _written(outputs: Outputs, where: Path) -> Path:
    """The build's files written to ``where`` (its packages and kits)."""
    for path, blob in outputs.files.items():
        (where / path).parent.mkdir(parents=True, exist_ok=True)
        (where / path).write_bytes(blob)
    return where


def _rolling_calls(
    module: Any, names: dict[str, str]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The rules that roll called with seeded dice (the rng where each
    signature takes it, their defaults left out or given), and the decision's
    answer with its method called: (rule's function, what, plan)."""
    calls: list[tuple[str, dict[str, Any]]] = [
        (names["f"], {names["p1"]: 2}),
        (names["f"], {names["p1"]: 4, names["p2"]: 5, names["p3"]: 0}),
        (names["h"], {names["hp"]: 1}),
        (names["rf"], {}),
        (
            names["d"],
            {names["q1"]: "small", names["q4"]: {"small": "low"} | {"big": "high"}},
        ),
    ]
    for rule_name, args in calls:
        function = getattr(module, pyname(rule_name))
        call = function_call(function, rule_name, args, rule_name != names["d"], None)
        if rule_name == names["d"]:
            call["then"] = [{"call": names["m"], "args": [{"rng": True}]}]
        yield rule_name, f"{rule_name}({args})", call


def check_both_languages(tmp: Path, names: dict[str, str]) -> Outputs:
    """Build the system of ``names``, then run its conformance kit (every
    worked example and sample), with seeded calls of the rules that roll
    added, in Python and in Node: the same answers, the same refusals (the
    build, answered)."""
    outputs = _built(tmp, written(names))
    (system,) = outputs.systems
    out = _written(outputs, tmp / "out")
    kit = read_kit(out / kit_file(system.id))
    python = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(python) as package:
        module = importlib.import_module(f"{package}.lab")
        assert missing_from(system, kit, module) == []
        made = KitCases(system, module, kind_of)
        by_function = {getattr(r, "function", None): r for r in system.rules}
        for function, what, plan in _rolling_calls(module, names):
            for seed in range(1, 4):
                rule = by_function[function]
                kit["cases"].append(
                    made.case(rule, f"{what}, seed {seed}", plan, seed=seed)
                )
    kit["names"] = sorted({*kit["names"], *made.names})
    (out / kit_file(system.id)).write_text(json.dumps(kit), "utf-8")
    assert_conforms(out, tmp)
    return outputs


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    # a build and a Node run each: a failure is shown as drawn, not shrunk
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(namings())
def test_names_of_the_targets_build_and_answer_alike(
    tmp_path_factory: pytest.TempPathFactory, names: dict[str, str]
) -> None:
    check_both_languages(tmp_path_factory.mktemp("names"), names)


def test_plain_names_answer_alike(tmp_path: Path) -> None:
    """The same system with names of no target's (the control)."""
    check_both_languages(tmp_path, PLAIN)


# The names the issue names, in slots of each kind.
ISSUE = {
    "f": "round",
    "l1": "rng",  # a let
    "p1": "all",
    "hp": "rng",  # a parameter of a rule that rolls
    "rd": "rng",  # a repeat's name
    "t": "class",
    "d": "then",
    "q1": "constructor",
    "D": "None",
    "p3": "max",
    "g1": "self",
    "k": "default",
    "E": "Object",
    "R": "Math",
}


def test_round_all_rng_class_constructor_then_none(tmp_path: Path) -> None:
    """The names the issue names: each builds, is called in both languages, and
    is spelt as each language needs; the code is typed, strictly, in both."""
    outputs = check_both_languages(tmp_path, PLAIN | ISSUE)
    package = tmp_path / "python"
    for path, blob in outputs.files.items():
        if path.startswith("rulebook/"):
            (package / path).parent.mkdir(parents=True, exist_ok=True)
            (package / path).write_bytes(blob)
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "rulebook"],
        cwd=package,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert mypy.returncode == 0, mypy.stdout
    tsc = tsc_strict([str(tmp_path / "out" / "js" / "*.d.ts")], tmp_path)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr
    assert [pyname(n) for n in ("round", "all", "rng", "class", "None")] == [
        "round_",
        "all_",
        "rng_",
        "class_",
        "None_",
    ]
    assert [jsname(n) for n in ("constructor", "then", "class", "Object")] == [
        "constructor_",
        "then_",
        "class_",
        "Object_",
    ]
    assert pyname("constructor") == "constructor" and jsname("round") == "round"


def test_the_table_holds_this_pythons_keywords_and_builtins() -> None:
    """The table is fixed (the code must not change with the Python that builds
    it), and holds every keyword and built-in of the Python running."""
    assert set(keyword.kwlist) | set(keyword.softkwlist) <= py_names.KEYWORDS
    public = {n for n in dir(builtins) if not n.startswith("_")}
    assert public <= py_names.BUILTINS, public - py_names.BUILTINS


@given(st.lists(st.sampled_from(pool(LOWER) + pool(CLASS)), unique=True, min_size=2))
def test_no_two_names_are_one_in_either_language(names: list[str]) -> None:
    """Each language's spelling is one to one (a name with ``_`` at its end
    included), and Python's can be read back as the rules' name."""
    spelt = list(dict.fromkeys([n + "_" for n in names] + names))  # class, class_
    assert len({pyname(n) for n in spelt}) == len(spelt)
    assert len({pyattr(n, "mutable") for n in spelt}) == len(spelt)
    assert all(py_names.rules_name(pyname(n)) == n for n in spelt)
    assert len({jsname(n) for n in spelt}) == len({camel(n) for n in spelt})
