"""The process and state kinds on mechanics of no particular game, built from YAML alone.

Each test writes a small system into a temporary rules folder, builds it in memory
and imports the generated module; the errors are checked to the line and text.
"""

from __future__ import annotations

import importlib
import json
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.examples import runtime_from
from rulesc.pipeline import build

from .js_node import node_json

SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: Mechanics written to test the rule kinds.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
time_units: {rounds: 1, turns: 10, watches: 60}
"""


def _rules(body: str) -> str:
    return (
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: lab\nrules:\n" + textwrap.indent(textwrap.dedent(body), "  ")
    )


def _write(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (folder / "lab.yaml").write_text(_rules(body), encoding="utf-8")
    return folder.parent


@pytest.fixture
def module(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ModuleType]:
    outputs = build(_write(tmp_path, request.param))
    files = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        yield importlib.import_module(f"{name}.lab")


def _errors(tmp_path: Path, body: str) -> list[str]:
    with pytest.raises(RulesError) as caught:
        build(_write(tmp_path, body))
    return [f"{d.line}:{d.col}: {d.message}" for d in caught.value.diagnostics]


CURSE = """\
- id: drain
  kind: pool
  title: Drain
  summary: Points drained two at a time, one turn apart.
  source: {section: Curses}
  function: drain
  deal: 2
  every: {amount: 1, unit: turns}
  on_save: {divide_by: 2, minimum: 0}
- id: mend
  kind: recovery
  title: Mending
  summary: A point a watch.
  source: {section: Curses}
  function: mend
  amount: 1
  every: {amount: 1, unit: watches}
- id: curse
  kind: process
  title: A creeping curse
  summary: It takes hold after a while, drains a pool, and is shaken off by luck.
  source: {section: Curses}
  function: run_curse
  result: CurseRun
  clock: rounds
  event: {class: CurseEvent, time: at, amount: points, target: against}
  parameters:
    - {name: will, type: int, min: -5, max: 5, description: Willpower.}
  contact: {enter: cursed}
  courses:
    - labels: {part: body}
      onset: {dice: 1d2, unit: turns}
      target: 10
      pool: 1d6
    - labels: {part: mind}
      start: {amount: 3, unit: rounds}
      target: 8
      every: {amount: 1, unit: turns}
      until: 2
      on_failure: [{score: wits, dice: 1d2}]
  check: {dice: 1d12, bonus: will, always_succeeds: 12}
  events: {onset: takes_hold, check: resist, end: shaken_off}
  scores: [{name: vigor, event: drained}, {name: wits}]
  pool: {rule: drain, score: vigor}
  recovery: {rule: mend, score: vigor, event: mended}
  totals:
    - {name: vigor_lost, of: dealt, score: vigor, description: Vigor drained.}
    - {name: wits_lost, of: dealt, score: wits, description: Wits lost.}
    - {name: resisted, of: count, event: resist, description: Checks rolled.}
    - {name: shaken_at, of: time, event: shaken_off, description: When the mind was free.}
"""


@pytest.mark.parametrize("module", [CURSE], indirect=True)
def test_a_process_of_no_game(module: Any) -> None:
    dice = module.__name__.rsplit(".", 1)[0] + ".dice"
    scripted = importlib.import_module(dice).Scripted
    # onset 2 turns (body); then: mind check at 3 (4: fail, wits 1), body at 20
    # (pool 5, check 3 fails), mind at 13 (12: success), 23 (11 + ... success) ...
    run = module.run_curse(0, scripted([2, 4, 1, 12, 5, 3, 11]))
    kinds = [(e.at, e.kind, e.part) for e in run.events]
    assert kinds == [
        (0, "cursed", None),
        (3, "resist", "mind"),
        (3, "wits", "mind"),
        (13, "resist", "mind"),
        (20, "takes_hold", "body"),
        (20, "resist", "body"),
        (20, "drained", "body"),
        (23, "resist", "mind"),
        (23, "shaken_off", "mind"),
        (30, "drained", "body"),
        (40, "drained", "body"),
        (100, "mended", None),
        (160, "mended", None),
        (220, "mended", None),
        (280, "mended", None),
        (340, "mended", None),
    ]
    body_check = run.events[5]
    assert (
        body_check.roll,
        body_check.against,
        body_check.success,
        body_check.pool,
    ) == (3, 10, False, 5)
    assert [e.points for e in run.events if e.kind == "drained"] == [2, 2, 1]
    assert (run.vigor_lost, run.wits_lost, run.resisted, run.shaken_at) == (5, 1, 4, 23)
    assert module.CurseEvent._fields[:3] == ("at", "kind", "part")
    with pytest.raises(ValueError, match="will"):
        module.run_curse(6, scripted([]))


def test_process_mistakes_are_located(tmp_path: Path) -> None:
    body = (
        CURSE.replace("score: wits, dice: 1d2", "score: wit, dice: 1d2")
        .replace("unit: turns}\n      target: 10", "unit: moons}\n      target: 10")
        .replace("always_succeeds: 12", "always_fails: 1")
        .replace("of: count, event: resist", "of: count, event: resisted")
    )
    found = _errors(tmp_path, body)
    assert found == [
        "35:34: unknown time unit 'moons'",
        "42:16: the course could be checked forever",
        "43:30: unknown score 'wit'",
        "52:44: a 'count' total names one of the process's events",
    ], found


STATE = """\
- id: fear
  kind: state
  title: Fear
  summary: Fear grows, and each step replaces the one before.
  source: {section: Fear}
  class: Fear
  floor: 1
  cumulative: false
  levels:
    - effect: Uneasy
    - effect: Shaken
    - effect: Frightened
    - effect: Fleeing
  transitions:
    - {name: scare, step: up, by: {param: steps, default: 1, max: 2}, description: Something scares.}
    - {name: calm, step: down, by: 2, description: A moment of calm.}
    - {name: panic, to: ceiling, description: Sheer terror.}
    - {name: settle, to: floor, description: Safety at last.}
    - {name: set_fear, to: {param: level}, description: The referee decides.}
  flags:
    - {name: fleeing, from_level: 4, description: The subject runs.}
  examples:
    - name: scared_twice
      summary: Two scares from the floor leave the subject Frightened, and only that.
      args: {actions: [scare, {scare: {steps: 1}}]}
      expect: {level: 3, effects: [Frightened], fleeing: false}
"""


@pytest.mark.parametrize("module", [STATE], indirect=True)
def test_a_state_of_no_game(module: Any) -> None:
    fear = module.Fear()
    assert (fear.level, fear.effects) == (1, ("Uneasy",))
    assert fear.scare(steps=2) == 3 and fear.scare(2) == 4 and fear.fleeing
    assert fear.scare() == 4  # the ceiling holds
    assert fear.calm() == 2 and fear.calm() == 1  # the floor holds
    assert fear.panic() == 4 and fear.settle() == 1
    assert fear.set_fear(3) == 3 and fear.effects == ("Frightened",)
    assert repr(fear) == "Fear(level=3)" and fear == module.Fear(3)
    with pytest.raises(ValueError, match=r"steps must be in 1\.\.2, not 3"):
        fear.scare(3)
    with pytest.raises(ValueError, match=r"level must be in 1\.\.4, not 0"):
        fear.set_fear(0)
    with pytest.raises(ValueError, match=r"level must be in 1\.\.4, not 5"):
        module.Fear(5)
    assert fear.to_dict() == {"level": 3, "effects": ["Frightened"]}


def test_state_mistakes_are_located(tmp_path: Path) -> None:
    body = (
        STATE.replace("name: settle", "name: level")
        .replace("from_level: 4", "from_level: 5")
        .replace("{scare: {steps: 1}}", "{scared: {steps: 1}}")
    )
    found = _errors(tmp_path, body)
    assert found == [
        "21:16: 'level' is already a member of the state class",
        "24:37: level 5 is above the top level, 4",
        "28:34: 'scared' is not a transition of this state",
    ], found


HAUNTING = (
    STATE
    + """\
- id: haunting
  kind: process
  title: A haunting
  summary: Each night the sleeper resists, or grows more afraid; two calm nights end it.
  source: {section: Fear}
  function: haunt
  result: Haunting
  clock: rounds
  parameters:
    - {name: nerve, type: int, min: 0, max: 3, description: Nerve.}
  courses:
    - target: 6
      every: {amount: 1, unit: watches}
      until: 2
      on_failure: [{score: sleep, dice: 1}, {step: scare}]
  check: {dice: 1d6, bonus: nerve, always_succeeds: 6}
  events: {check: night, end: dawn}
  scores: [{name: sleep}]
  state: {rule: fear, event: scared, field: fear_level}
  totals:
    - {name: sleep_lost, of: dealt, score: sleep, description: Sleep lost.}
    - {name: fear, of: state, description: The sleeper's fear at the end.}
"""
)


@pytest.mark.parametrize("module", [HAUNTING], indirect=True)
def test_a_process_steps_a_state(module: Any) -> None:
    scripted = importlib.import_module(
        module.__name__.rsplit(".", 1)[0] + ".dice"
    ).Scripted
    run = module.haunt(1, scripted([2, 3, 5, 1, 6, 6]))
    assert [(e.time, e.kind, e.fear_level) for e in run.events] == [
        (0, "night", None),
        (0, "sleep", None),
        (0, "scared", 2),
        (60, "night", None),
        (60, "sleep", None),
        (60, "scared", 3),
        (120, "night", None),
        (180, "night", None),
        (180, "sleep", None),
        (180, "scared", 4),
        (240, "night", None),
        (300, "night", None),
        (300, "dawn", None),
    ]
    assert run.sleep_lost == 3 and run.fear == module.Fear(4) and run.fear.fleeing


def test_a_step_must_be_a_transition(tmp_path: Path) -> None:
    body = HAUNTING.replace("{step: scare}", "{step: set_fear}")
    found = _errors(tmp_path, body)
    assert found == [
        "44:54: 'set_fear' is not a transition of 'fear' that takes no argument"
    ], found


HOSTILE_LADDER = (
    STATE.replace("effect: Uneasy", "effect: 'Un\"easy'")
    .replace("effect: Shaken", "effect: 'Sha\\ken {0} ''x'''")
    .replace("effect: Frightened", 'effect: "Fright\\"ened\'); import os #"')
    .replace("effects: [Frightened]", 'effects: ["Fright\\"ened\'); import os #"]')
)


@pytest.mark.parametrize("module", [HOSTILE_LADDER], indirect=True)
def test_a_ladder_s_effects_are_data_whatever_they_hold(module: Any) -> None:
    """Effects are put into the state's expressions as text literals after
    they are read: quotes, backslashes, braces and code round-trip as text."""
    fear = module.Fear()
    assert fear.effects == ('Un"easy',)
    assert fear.scare() == 2 and fear.effects == ("Sha\\ken {0} 'x'",)
    assert fear.scare() == 3 and fear.effects == ("Fright\"ened'); import os #",)
    assert fear.to_dict() == {"level": 3, "effects": ["Fright\"ened'); import os #"]}


HOSTILE_TRACK = """\
- id: woes
  kind: track
  title: Woes
  summary: Woes that worsen.
  source: {section: Woes}
  class: Woes
  outcome: WoeOutcome
  roll: 1d3
  every: 2
  reroll_label: "Re\\"roll */ </script>"
  effect_enum: Woe
  condition_enum: WoeCondition
  effects:
    - {name: ACHE, label: "Ache \\"{0}\\"", stages: ["So\\"re", "Sti\\\\ff {1}"]}
    - {name: CHILL, label: "Chill'); import os #", stages: ["Sti\\\\ff {1}", "*/ x"]}
    - name: SCAR
      label: Scar
      marks: true
      description: "A mark */ \\"); rbPwn(1) //"
"""


@pytest.mark.parametrize("module", [HOSTILE_TRACK], indirect=True)
def test_a_track_s_labels_are_data_whatever_they_hold(module: Any) -> None:
    """A track's labels go into its state's expressions as text literals after
    they are read: quotes, backslashes, braces and code round-trip as text."""
    woes = module.Woes()
    first = woes.apply(1)
    assert (first.effect, first.stage, first.condition) == ('Ache "{0}"', 1, 'So"re')
    # Chill's first stage is Ache's second: not suffered yet, so it is taken
    assert woes.apply(2).condition == "Sti\\ff {1}"
    assert woes.conditions == ('So"re', "Sti\\ff {1}")
    # Ache's next stage is suffered already (Chill's): past it, a reroll
    again = woes.apply(1)
    assert (again.stage, again.condition, again.reroll) == (3, None, True)
    assert woes.conditions == ("Sti\\ff {1}",)  # both hold it: listed once
    marked = woes.apply(3)
    assert (marked.effect, marked.condition, marked.marked) == ("Scar", None, True)
    assert woes.to_dict() == {
        "ache": 2,
        "chill": 1,
        "scar": 1,
        "conditions": ["Sti\\ff {1}"],
    }


def test_a_track_s_labels_are_data_in_javascript_too(tmp_path: Path) -> None:
    """The same hostile track in JavaScript: the same outcomes and data as in
    Python, as ``dumps`` writes them."""
    outputs = build(_write(tmp_path, HOSTILE_TRACK))
    for name, data in outputs.files.items():
        if name.startswith("js/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(data)
    rolls = [1, 2, 1, 3, 2, 2]
    said = node_json(
        f'import {{ Woes }} from "{(tmp_path / "js" / "lab.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(tmp_path / "js" / "json.js").as_uri()}";\n'
        "const woes = new Woes();\n"
        f"const outcomes = {json.dumps(rolls)}.map((roll) => dumps(woes.apply(roll)));\n"
        "console.log(JSON.stringify([...outcomes, dumps(woes)]));\n"
    )
    files = {k: v.decode("utf-8") for k, v in outputs.files.items()}
    with runtime_from(
        {k: v for k, v in files.items() if k.startswith("rulebook/")}
    ) as name:
        lab = importlib.import_module(f"{name}.lab")
        dumps = importlib.import_module(f"{name}.json").dumps
        woes = lab.Woes()
        want = [dumps(woes.apply(roll)) for roll in rolls] + [dumps(woes)]
    assert said == want
