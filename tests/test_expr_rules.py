"""One expression language: formulas and decisions call the system's other rules.

Each test builds a small system in a temporary folder, imports the generated
module and checks its answers, or checks the located error a mistake gives.
"""

from __future__ import annotations

import importlib
import json
import os
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
summary: Rules written to test the expression language.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
"""

WEAPONS = """\
- id: weapon
  kind: table
  title: Weapons
  summary: Damage by size.
  source: {section: Weapons}
  function: weapon
  key:
    param: size
    title: Size
    enum: Size
    members: [{name: SMALL, label: Small}, {name: LARGE, label: Large}]
  row: WeaponRow
  columns:
    - {name: damage, type: dice, title: Damage, description: The damage dice.}
    - {name: reach, type: int, title: Reach, description: Reach in feet.}
  rows:
    - {key: Small, damage: 1d4, reach: 5}
    - {key: Large, damage: 2d6+1, reach: 10}
"""


def _formula(rule_id: str, expression: str, params: str) -> str:
    return f"""\
- id: {rule_id}
  kind: formula
  title: {rule_id}
  summary: A formula.
  source: {{section: Formulas}}
  function: {rule_id}
  parameters: {params}
  expression: "{expression}"
"""


STRENGTH = "[{name: strength, type: int, min: 1, max: 30, description: Strength.}]"
SIZE_AND_STRENGTH = (
    "[{name: size, type: choice, enum: Size, description: Size.},"
    " {name: strength, type: int, min: 1, max: 30, description: Strength.}]"
)


def _write(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    text = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
    text += "system: lab\nrules:\n" + textwrap.indent(body, "  ")
    (folder / "lab.yaml").write_text(text, encoding="utf-8")
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


# The least damage reads a table's dice column and calls a formula defined after it.
LEAST = (
    WEAPONS
    + _formula(
        "least",
        "max(weapon(size).damage.min + bonus(strength), 1) + weapon(size).reach // 5",
        SIZE_AND_STRENGTH,
    )
    + _formula("bonus", "(strength - 10) // 2", STRENGTH)
)


@pytest.mark.parametrize("module", [LEAST], indirect=True)
def test_a_formula_reads_a_table_and_calls_a_formula(module: Any) -> None:
    assert module.bonus(15) == 2 and module.bonus(7) == -2
    assert module.least("Large", 14) == 3 + 2 + 2  # 2d6+1 is at least 3, reach 10
    assert module.least("small", 3) == 1 + 1  # 1 - 4 is below 1; reach 5
    with pytest.raises(ValueError, match="strength"):
        module.least("Small", 31)


DICE_PARTS = WEAPONS + _formula(
    "spread",
    "weapon(size).damage.max - weapon(size).damage.min"
    " + weapon(size).damage.count * 100 + weapon(size).damage.sides * 1000"
    " + weapon(size).damage.modifier * 10000",
    "[{name: size, type: choice, enum: Size, description: Size.}]",
)


@pytest.mark.parametrize("module", [DICE_PARTS], indirect=True)
def test_every_part_of_a_dice_column(module: Any) -> None:
    assert module.spread("Small") == 3 + 100 + 4000
    assert module.spread("Large") == 10 + 200 + 6000 + 10000


DECISION = (
    WEAPONS
    + _formula("bonus", "(strength - 10) // 2", STRENGTH)
    + """\
- id: verdict
  kind: decision
  title: Verdict
  summary: A decision calling a formula and a table.
  source: {section: Decisions}
  function: verdict
  parameters:
    - {name: size, type: choice, enum: Size, description: Size.}
    - {name: strength, type: int, min: 1, max: 30, description: Strength.}
  value: {type: int, title: Verdict}
  cases:
    - when: bonus(strength) > 2
      then: weapon(size).damage.max + bonus(strength)
    - when: "true"
      then: weapon(size).reach
"""
    + _formula("twice", "verdict(size, strength) * 2", SIZE_AND_STRENGTH)
)


@pytest.mark.parametrize("module", [DECISION], indirect=True)
def test_decisions_and_formulas_call_each_other(module: Any) -> None:
    assert module.verdict("Large", 20) == 13 + 5
    assert module.verdict("Small", 10) == 5
    assert module.twice("Small", 10) == 10  # a formula calling a later decision


def test_a_cycle_of_calls_is_located(tmp_path: Path) -> None:
    body = _formula("ping", "pong(strength) + 1", STRENGTH) + _formula(
        "pong", "ping(strength) - 1", STRENGTH
    )
    assert _errors(tmp_path, body) == [
        "19:17: a cycle of rules calling each other: ping -> pong -> ping"
    ]


def test_call_mistakes_are_located(tmp_path: Path) -> None:
    body = (
        WEAPONS
        + _formula("bonus", "(strength - 10) // 2", STRENGTH)
        + _formula("a", "bonus(strength + 5)", STRENGTH)
        + _formula("b", "bonus(strength, 2)", STRENGTH)
        + _formula(
            "c",
            "weapon(size).damage.mean",
            SIZE_AND_STRENGTH.replace(
                ", {name: strength, type: int, min: 1, max: 30, description: Strength.}",
                "",
            ),
        )
        + _formula("d", "bonus(size)", SIZE_AND_STRENGTH)
    )
    found = _errors(tmp_path, body)
    assert found == [
        "37:24: formula: argument 'strength' of bonus() may be 6..35, but bonus allows only 1..30",
        "45:18: formula: bonus() takes 1 argument (strength), got 2",
        "53:38: formula: a dice value has no part 'mean'",
        "61:24: formula: argument 'strength' of bonus() is int, got choice",
    ], found


LADDER = """\
- id: grade
  kind: table
  title: Grades
  summary: Grades on a ladder.
  source: {section: Grades}
  function: grade
  key:
    param: level
    title: Level
    enum: Grade
    ordered: true
    past_end: PAST
    members: [{name: LOW, label: Low}, {name: MID, label: Mid}, {name: HIGH, label: High}]
  row: GradeRow
  columns:
    - {name: dc, type: int, title: DC, description: The DC.}
    - {name: harm, type: dice, title: Harm, description: The harm.}
  rows:
    - {key: Low, dc: 10, harm: 1d4}
    - {key: Mid, dc: 15, harm: 2d4}
    - {key: High, dc: 20, harm: 3d4}
- id: effects
  kind: decision
  title: Effects
  summary: Every effect that applies, cumulative.
  source: {section: Grades}
  function: effects
  hit_policy: collect
  parameters:
    - {name: level, type: choice, enum: Grade, description: The grade.}
    - {name: turns, type: int, min: 0, max: 10, description: Turns.}
  result: Effect
  fields:
    - {name: name, type: text, title: Name}
    - {name: grade, type: choice, enum: Grade, title: Grade}
    - {name: dc, type: int, title: DC}
    - {name: harm, type: dice, title: Harm}
  cases:
    - when: (level - 1) != null
      then: {name: lesser, grade: "(level - 1) ?? level", dc: "grade(level - 1).dc ?? 0", harm: {dice: 1d2, unit: rounds}}
    - when: turns >= 2
      then: {name: full, grade: level, dc: grade(level).dc, harm: grade(level).harm}
    - when: turns >= 5
      then: {name: lasting, grade: "(level + 1) ?? level", dc: 99, harm: 1d6+1}
"""


@pytest.mark.parametrize("module", [LADDER.replace("PAST", "none")], indirect=True)
def test_ordered_steps_and_collect(module: Any) -> None:
    assert module.effects("Low", 1) == []
    found = module.effects("high", 6)
    assert [(e.name, e.grade, e.dc) for e in found] == [
        ("lesser", "Mid", 15),
        ("full", "High", 20),
        ("lasting", "High", 99),
    ]
    assert str(found[0].harm) == "1d2" and found[0].harm.unit == "rounds"
    assert str(found[1].harm) == "3d4" and str(found[2].harm) == "1d6+1"


CLAMPED = (
    LADDER.replace("PAST", "clamp")
    .replace("(level - 1) != null", "turns >= 0")
    .replace('"(level - 1) ?? level"', "level - 1")
    .replace('"grade(level - 1).dc ?? 0"', "grade(level - 1).dc")
    .replace('"(level + 1) ?? level"', "level + 1")
)


@pytest.mark.parametrize("module", [CLAMPED], indirect=True)
def test_a_step_past_the_end_can_clamp(module: Any) -> None:
    assert [e.grade for e in module.effects("High", 9)][-1] == "High"
    assert [e.grade for e in module.effects("Low", 9)] == ["Low", "Low", "Mid"]


def test_a_step_past_the_end_may_be_null(tmp_path: Path) -> None:
    body = LADDER.replace("PAST", "none").replace('"(level + 1) ?? level"', "level + 1")
    assert _errors(tmp_path, body) == [
        "47:38: 'grade': the expression gives choice or null, but the field is choice"
    ]


UNIQUE = (
    WEAPONS
    + """\
- id: band
  kind: decision
  title: Bands
  summary: One band per number.
  source: {section: Bands}
  function: band
  hit_policy: unique
  parameters:
    - {name: n, type: int, min: 0, max: 20, description: A number.}
    - {name: size, type: choice, enum: Size, description: Size.}
  value: {type: int, title: Band}
  cases:
    - when: n < 10
      then: 1
    - when: n >= 10 and weapon(size).reach >= 10
      then: 2
    - when: n >= 10 and size == "Small"
      then: 3
"""
)


@pytest.mark.parametrize("module", [UNIQUE], indirect=True)
def test_unique_cases_that_do_not_overlap(module: Any) -> None:
    assert [
        module.band(n, s) for n, s in ((3, "Small"), (12, "Large"), (12, "Small"))
    ] == [1, 2, 3]


def test_overlapping_unique_cases_are_located(tmp_path: Path) -> None:
    body = UNIQUE.replace("n >= 10 and size", "n >= 9 and size")
    assert _errors(tmp_path, body) == [
        "38:15: cases 1 and 3 both match n=9, size='Small'"
    ]


def test_explain_shows_every_case_a_collect_decision_answers(tmp_path: Path) -> None:
    from .workbench_helpers import rulesc

    rules = _write(tmp_path, LADDER.replace("PAST", "none"))
    done = rulesc(
        "explain",
        "--rules",
        str(rules),
        "lab.effects",
        "High",
        "6",
        "--no-cache",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    steps = out.split("Steps, in order\n")[1].split("\n\n")[0]
    # every case tried, each that holds adding its item to the list
    assert steps.count(": yes\n") == 3 and steps.count(" to found\n") == 3
    assert '    add name "lesser", grade "Mid", dc 15, harm 1d2 to found' in steps
    assert "WARNING" not in out  # the steps agree with the runtime's list
    assert '[1] level - 1    → "High" - 1      → "Mid"' in steps  # along the key
    assert "(past the end of Grade: no value)" in steps
    assert "(row Mid at rules/lab/lab.yaml:" in steps  # the row it read
    done = rulesc(
        "explain",
        "--rules",
        str(rules),
        "lab.effects",
        "Low",
        "1",
        "--no-cache",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "if turns >= 5: no\n\nAnswer\n  (none)\n" in done.stdout  # an empty list


MAYBE_SIZE = (
    "[{name: strength, type: int, min: 1, max: 30, description: Strength.},"
    " {name: size, type: choice, enum: Size, nullable: true, default: null,"
    " description: Size.}]"
)


@pytest.mark.parametrize(
    "module",
    [
        WEAPONS
        + _formula("reach_of", "(weapon(size).reach ?? 0) + strength", MAYBE_SIZE)
    ],
    indirect=True,
)
def test_a_nullable_choice_parameter_of_a_formula_may_be_null(module: Any) -> None:
    assert module.reach_of(3, "Large") == 13
    assert module.reach_of(3) == 3  # no size: no row, so the default


def test_a_formula_must_say_what_a_null_choice_gives(tmp_path: Path) -> None:
    body = WEAPONS + _formula("reach_of", "weapon(size).reach + strength", MAYBE_SIZE)
    assert _errors(tmp_path, body) == ["29:18: formula: cannot add int? and int"]


POOL_FOLLOW_UP = """\
- id: pool
  kind: success_pool
  title: Pool
  summary: Ten-sided dice, 8 or more a success.
  source: {section: Pools}
  functions: {roll: roll_pool, distribution: pool_distribution}
  sides: 10
  success_at: 8
  again_at: 10
  chance: {success_at: 10, dramatic_failure_at: 1}
  listed_beyond: 10
  max_dice: 30
- id: attack
  kind: decision
  title: Attack
  summary: Whether an attack may be made, and its roll as a follow-up.
  source: {section: Pools}
  function: attack
  parameters:
    - {name: dice, type: int, min: 0, max: 30, description: The attack pool.}
    - {name: aware, type: bool, description: Whether the attacker sees the foe.}
  result: Attack
  fields:
    - {name: allowed, type: bool, title: Allowed}
  cases:
    - when: aware
      then: {allowed: true}
    - when: "true"
      then: {allowed: false}
  methods:
    - name: roll
      rule: pool
      args: {dice: dice}
      only_if: aware
      refuse: An unseen foe is not attacked.
      description: Roll the attack pool.
"""


@pytest.mark.parametrize("module", [POOL_FOLLOW_UP], indirect=True)
def test_a_decision_follow_up_rolls_a_success_pool(module: Any) -> None:
    """A follow-up may call any rule that rolls dice, here a success pool."""
    dice = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".dice")
    result = module.attack(3, True).roll(dice.Scripted([9, 3, 10, 2]))
    assert (result.successes, result.dramatic_failure) == (2, False)
    assert result == module.roll_pool(3, dice.Scripted([9, 3, 10, 2]))
    errors = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".errors")
    with pytest.raises(errors.RuleInputError, match="unseen foe"):
        module.attack(3, False).roll(dice.Scripted([9]))


def test_a_follow_up_names_what_the_rolled_rule_takes(tmp_path: Path) -> None:
    body = POOL_FOLLOW_UP.replace("args: {dice: dice}", "args: {pool: dice}")
    assert _errors(tmp_path, body) == [
        "34:9: method 'roll': 'pool' takes exactly: dice"
    ]


def test_a_follow_up_calls_a_rule_that_rolls(tmp_path: Path) -> None:
    body = POOL_FOLLOW_UP.replace("rule: pool", "rule: attack")
    assert _errors(tmp_path, body) == [
        "34:9: method 'roll': 'attack' is not a rule of this system with a function "
        "that rolls dice"
    ]


CASES = """\
- id: bonus
  kind: formula
  title: Bonus by cases
  summary: A formula written as cases, like a decision answering a number.
  source: {section: Cases}
  function: bonus
  parameters:
    - {name: strength, type: int, min: 1, max: 30, description: Strength.}
    - {name: size, type: choice, enum: Size, nullable: true, default: null, description: Size.}
  cases:
    - when: strength >= 18
      then: 3 + (1 if size == "Large" else 0)
    - when: size is not null and strength >= 13
      then: (strength - 10) // 2
    - when: "true"
      then: 0
  examples:
    - {name: strong, summary: Strength 18 gives 3., args: {strength: 18}, expect: 3}
- id: twice_bonus
  kind: formula
  title: Twice the bonus
  summary: Calls the formula written as cases.
  source: {section: Cases}
  function: twice_bonus
  parameters:
    - {name: strength, type: int, min: 1, max: 30, description: Strength.}
  expression: bonus(strength, "Small") * 2 + bonus(strength, null)
"""


@pytest.mark.parametrize("module", [WEAPONS + CASES], indirect=True)
def test_a_formula_may_be_written_as_cases(module: Any) -> None:
    assert module.bonus(18) == 3 and module.bonus(18, "large") == 4
    assert module.bonus(15, "Small") == 2 and module.bonus(15) == 0
    assert module.bonus(3, "Small") == 0
    assert module.twice_bonus(20) == 6 + 3  # null: the callee's no-size answer


def test_a_formula_case_error_is_located_at_the_case(tmp_path: Path) -> None:
    body = WEAPONS + CASES.replace("then: (strength - 10) // 2", "then: '\"big\"'")
    errors = _errors(tmp_path, body)
    assert (
        len(errors) == 1
        and "the case's then gives text, but it must give int" in errors[0]
    )
    line = (WEAPONS + CASES).splitlines().index("      then: (strength - 10) // 2") + 4
    assert errors[0].startswith(f"{line}:")


def test_a_formula_s_last_case_must_always_hold(tmp_path: Path) -> None:
    body = WEAPONS + CASES.replace('    - when: "true"\n      then: 0\n', "")
    assert any(
        'the last case must be when: "true"' in e for e in _errors(tmp_path, body)
    )


NARROWED = """\
- id: mood
  kind: decision
  title: Mood
  summary: A case's condition narrows its answer.
  source: {section: Narrowing}
  function: mood_text
  parameters:
    - {name: bonus, type: int, min: 0, max: 5, description: A bonus.}
    - name: mood
      type: choice
      enum: Mood
      members: [{name: CALM, label: Calm}, {name: ANGRY, label: Angry}]
      nullable: true
      default: null
      description: The mood, if known.
  value: {type: text, title: Mood}
  cases:
    - when: mood is not null and bonus > 2
      then: {expr: 'text(mood) + " and bold"'}
    - when: mood is not null
      then: {expr: text(mood)}
    - when: "true"
      then: unknown
"""


def test_a_case_condition_narrows_its_answer(tmp_path: Path) -> None:
    """``when: mood is not null`` lets ``then`` use mood as not null; the
    generated module passes mypy --strict."""
    from mypy import api

    outputs = build(_write(tmp_path, NARROWED))
    out = tmp_path / "out"
    for name, blob in outputs.files.items():
        if name.startswith("rulebook/"):
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(blob)
    report, errors, status = api.run(
        [
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            str(out / "rulebook"),
        ]
    )
    assert status == 0, report + errors
    files = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        assert lab.mood_text(3, "calm") == "Calm and bold"
        assert lab.mood_text(0, "Angry") == "Angry"
        assert lab.mood_text(4) == "unknown"


def test_without_the_condition_the_answer_must_narrow(tmp_path: Path) -> None:
    body = NARROWED.replace("    - when: mood is not null\n", "    - when: bonus < 9\n")
    errors = _errors(tmp_path, body)
    assert errors == ["24:15: expression: text() needs a value, but 'mood' may be null"]


ORDERED = (
    LADDER.replace("PAST", "none")
    + WEAPONS
    + _formula(
        "ranked",
        '(10 if level >= \\"Mid\\" else 0) + (1 if \\"Low\\" < level else 0)'
        " + (100 if level > other else 0) + (1000 if grade(level).dc <= 15 else 0)",
        "[{name: level, type: choice, enum: Grade, description: A grade.},"
        " {name: other, type: choice, enum: Grade, description: Another.}]",
    )
)
ORDERED_CASES = [
    (("Low", "Low"), 1000),
    (("Mid", "Low"), 1111),
    (("High", "High"), 11),
    (("Low", "High"), 1000),
    (("high", "mid"), 111),
]


@pytest.mark.parametrize("module", [ORDERED], indirect=True)
def test_labels_of_an_ordered_enum_compare_by_rank(module: Any) -> None:
    for args, expected in ORDERED_CASES:
        assert module.ranked(*args) == expected, args


def test_labels_of_an_ordered_enum_compare_by_rank_in_javascript(
    tmp_path: Path,
) -> None:
    outputs = build(_write(tmp_path, ORDERED))
    out = tmp_path / "out"
    for name, data in outputs.files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    calls = [list(args) for args, _ in ORDERED_CASES]
    script = (
        f'import {{ ranked }} from "{(out / "js" / "lab.js").as_uri()}";\n'
        f"console.log(JSON.stringify({json.dumps(calls)}.map((a) => ranked(...a))));\n"
    )
    assert node_json(script) == [expected for _, expected in ORDERED_CASES]


def test_only_an_ordered_enum_orders_and_never_a_null(tmp_path: Path) -> None:
    unordered = WEAPONS + _formula(
        "sized",
        '1 if size > \\"Small\\" else 0',
        "[{name: size, type: choice, enum: Size, description: Size.}]",
    )
    assert _errors(tmp_path / "a", unordered) == [
        "29:17: formula: a choice needs == or != to compare, not '>'"
    ]
    nullable = LADDER.replace("PAST", "none") + _formula(
        "lower",
        '1 if (level - 1) >= \\"Low\\" else 0',
        "[{name: level, type: choice, enum: Grade, description: A grade.}]",
    )
    found = _errors(tmp_path / "b", nullable)
    assert len(found) == 1 and "cannot order 'level - 1': it may be null" in found[0]
