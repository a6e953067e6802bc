"""Timelines of the core, and rolls of dice values: a process lowered to
handlers run in time order answers the same in Python and JavaScript, seed for
seed; ``roll(d)`` rolls dice a table holds, and its odds are derived."""

from __future__ import annotations

import importlib
import json
import random
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.emit.javascript.names import camel
from rulesc.examples import runtime_from
from rulesc.pipeline import build

from .js_node import node_json
from .test_process_and_state import CURSE, HAUNTING, _write

ARMS = """\
- id: arms
  kind: table
  title: Arms
  summary: The damage each weapon deals.
  source: {section: Arms}
  function: arms
  key:
    param: weapon
    title: Weapon
    enum: Weapon
    members:
      - {name: DAGGER, label: Dagger}
      - {name: AXE, label: Axe}
      - {name: MAUL, label: Maul}
  row: ArmsRow
  columns:
    - {name: damage, type: dice, title: Damage, description: The damage dice.}
  rows:
    - {key: Dagger, damage: 1d4}
    - {key: Axe, damage: 2d6+1}
    - {key: Maul, damage: 3d4x2}
- id: hit
  kind: formula
  title: A hit
  summary: The weapon's damage rolled, and a bonus.
  source: {section: Arms}
  function: hit
  parameters:
    - {name: weapon, type: choice, enum: Weapon, description: The weapon.}
    - {name: bonus, type: int, min: 0, max: 5, description: A bonus.}
  expression: roll(arms(weapon).damage) + bonus
"""


def _built(tmp_path: Path, body: str) -> dict[str, str]:
    outputs = build(_write(tmp_path, body))
    files = {k: v.decode("utf-8") for k, v in outputs.files.items()}
    for name, text in files.items():
        if name.startswith("js/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
    return files


def _in_python(files: dict[str, str], run: Any) -> Any:
    with runtime_from(
        {k: v for k, v in files.items() if k.startswith("rulebook/")}
    ) as name:
        lab = importlib.import_module(f"{name}.lab")
        dumps = importlib.import_module(f"{name}.json").dumps
        return run(lab, dumps)


def _in_javascript(tmp_path: Path, body: str) -> Any:
    lab = (tmp_path / "js" / "lab.js").as_uri()
    support = (tmp_path / "js").as_uri()
    return node_json(
        f'import * as lab from "{lab}";\n'
        f'import {{ dumps }} from "{support}/json.js";\n'
        f'import {{ Random }} from "{support}/random.js";\n' + body
    )


@pytest.mark.parametrize(
    ("body", "function", "most"),
    [(CURSE, "run_curse", 5), (HAUNTING, "haunt", 3)],
    ids=["curse", "haunting"],
)
def test_a_process_runs_alike_in_python_and_javascript(
    tmp_path: Path, body: str, function: str, most: int
) -> None:
    """Onsets, pools dealt over time, checks again until a streak, recovery
    and a state stepped on a failure: the same events, seed for seed."""
    files = _built(tmp_path, body)
    cases = [(bonus, seed) for bonus in (0, 2, most) for seed in range(12)]

    def run(lab: Any, dumps: Any) -> list[str]:
        call = getattr(lab, function)
        return [dumps(call(bonus, random.Random(seed))) for bonus, seed in cases]

    want = _in_python(files, run)
    said = _in_javascript(
        tmp_path,
        f"const cases = {json.dumps(cases)};\n"
        "console.log(JSON.stringify(cases.map(([bonus, seed]) =>\n"
        f"  dumps(lab.{camel(function)}(bonus, new Random(seed))))));\n",
    )
    assert said == want
    assert len(set(want)) > 10  # the seeds make different runs


def test_a_process_s_events_are_records_of_a_kind_of_text(tmp_path: Path) -> None:
    """An event is a record; its kind is one of the texts its set of kinds
    holds (a type of texts, no class)."""
    files = _built(tmp_path, CURSE)

    def run(lab: Any, dumps: Any) -> tuple[Any, ...]:
        answer = lab.run_curse(2, random.Random(7))
        first = answer.events[0]
        return (
            typing.get_args(lab.CurseEventKind),
            type(first.kind),
            json.loads(dumps(first))["kind"],
            lab.CurseEvent._fields[:3],
        )

    kinds = (
        "cursed",
        "takes_hold",
        "resist",
        "shaken_off",
        "drained",
        "wits",
        "mended",
    )
    assert _in_python(files, run) == (kinds, str, "cursed", ("at", "kind", "part"))


def test_a_dice_value_rolls_with_the_caller_s_rng(tmp_path: Path) -> None:
    files = _built(tmp_path, ARMS)

    def run(lab: Any, dumps: Any) -> Any:
        rolls = [
            lab.hit(weapon, bonus, random.Random(seed))
            for weapon in ("Dagger", "Axe", "Maul")
            for bonus in (0, 3)
            for seed in range(20)
        ]
        odds = {w: lab.hit_odds(w, 2) for w in ("Dagger", "Axe", "Maul")}
        return rolls, {w: dumps(o) for w, o in odds.items()}, odds

    rolls, dumped, odds = _in_python(files, run)
    assert min(rolls) >= 1 and max(rolls) <= 3 * 4 * 2 + 3
    # the odds are the dice's own distribution, shifted by the bonus
    assert dict(odds["Dagger"].items()) == {n + 2: Fraction(1, 4) for n in range(1, 5)}
    axe = {n: Fraction(6 - abs(n - 7), 36) for n in range(2, 13)}
    assert dict(odds["Axe"].items()) == {n + 1 + 2: p for n, p in axe.items()}
    maul = dict(odds["Maul"].items())
    assert set(maul) == {2 * n + 2 for n in range(3, 13)} and sum(maul.values()) == 1
    said = _in_javascript(
        tmp_path,
        "const rolls = [];\n"
        'for (const weapon of ["Dagger", "Axe", "Maul"])\n'
        "  for (const bonus of [0, 3])\n"
        "    for (let seed = 0; seed < 20; seed++) rolls.push(lab.hit(weapon, bonus, new Random(seed)));\n"
        'const odds = Object.fromEntries(["Dagger", "Axe", "Maul"].map((w) => [w, dumps(lab.hitOdds(w, 2))]));\n'
        "console.log(JSON.stringify([rolls, odds]));\n",
    )
    assert said == [rolls, dumped]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("roll(bonus)", "roll() needs a dice value, got int"),
        ("roll(2d6)", "roll() needs a dice value, got int"),
    ],
)
def test_roll_takes_dice_values_only(
    tmp_path: Path, expression: str, message: str
) -> None:
    body = ARMS.replace("roll(arms(weapon).damage) + bonus", expression)
    with pytest.raises(RulesError) as caught:
        build(_write(tmp_path, body))
    assert [d.message for d in caught.value.diagnostics] == [f"formula: {message}"]


def test_a_dice_value_s_unit_is_text(tmp_path: Path) -> None:
    body = ARMS.replace(
        "roll(arms(weapon).damage) + bonus",
        '(1 if arms(weapon).damage.unit == "hours" else 0) + bonus',
    )
    files = _built(tmp_path, body)
    assert _in_python(files, lambda lab, dumps: lab.hit("Axe", 2)) == 2
