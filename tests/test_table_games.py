"""The `table_games` cookbook: dice mechanics of other games in YAML alone
(tests/cookbook/table_games/), built as a rules editor builds it.

Each mechanic is asked what its rules state, die by die, against the rules
restated here in plain Python (the repeating ones' dice rolled, in order, in
Python and JavaScript alike); its odds function (derived by the compiler,
never written) against every roll enumerated (and icepool or a binomial where
the enumeration would be long); its answers in JavaScript as in Python (the
same `dumps` text), odds included.
"""

from __future__ import annotations

import importlib
import itertools
import json
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest

from rulesc.emit.javascript.names import camel
from rulesc.front.model import System
from rulesc.pipeline import load_systems

from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .conftest import ROOT, enumerated_odds, import_fresh
from .js_node import node_json
from .test_record_state import _blades  # pyright: ignore[reportPrivateUsage]

COOKBOOK = ROOT / "tests" / "cookbook"


@pytest.fixture(scope="module")
def out(cookbook_out: Path) -> Path:
    """The build of tests/cookbook (conftest's, one a session)."""
    return cookbook_out


@pytest.fixture(scope="module")
def tg(out: Path) -> Iterator[ModuleType]:
    with import_fresh(out):
        yield importlib.import_module("rulebook.table_games")


@pytest.fixture(scope="module")
def system() -> System:
    (found,) = [s for s in load_systems(COOKBOOK) if s.id == "table_games"]
    return found


def _dice(dice: list[int]) -> Any:
    return importlib.import_module("rulebook.dice").Scripted(dice)


def _errors() -> Any:
    return importlib.import_module("rulebook.errors")


def test_the_build_writes_python_javascript_and_docs(out: Path) -> None:
    for path in ("rulebook/table_games.py", "js/table_games.js", "docs/table_games.md"):
        assert (out / path).is_file(), path


# -- the answers the rules state, die by die ----------------------------------------


def test_roll_ability_drops_the_lowest(tg: ModuleType) -> None:
    for dice in itertools.product(range(1, 7), repeat=4):
        assert tg.roll_ability(_dice(list(dice))) == sum(sorted(dice)[1:])


def _wfrp(target: int, roll: int) -> tuple[bool, int, bool, bool]:
    success = (roll <= target or roll <= 5) and roll < 96
    sl = target // 10 - roll // 10
    sl = max(sl, 0) if success else min(sl, 0)
    double = roll == 100 or roll // 10 == roll % 10
    return success, sl, success and double, not success and double


@pytest.mark.parametrize("target", [1, 5, 9, 10, 45, 50, 90, 95, 99])
def test_wfrp_test_every_roll(tg: ModuleType, target: int) -> None:
    for roll in range(1, 101):
        got = tg.wfrp_test(target, _dice([roll]))
        expected = _wfrp(target, roll)
        assert (got.roll, got.success, got.sl, got.critical, got.fumble) == (
            roll,
            *expected,
        ), (target, roll)


def _ironsworn(stat: int, adds: int, action: int, a: int, b: int) -> tuple[str, bool]:
    score = min(action + stat + adds, 10)
    beaten = (score > a) + (score > b)
    return ["miss", "weak hit", "strong hit"][beaten], a == b


@pytest.mark.parametrize(("stat", "adds"), [(0, 0), (2, 1), (3, 4), (5, 10)])
def test_ironsworn_action_every_roll(tg: ModuleType, stat: int, adds: int) -> None:
    for dice in itertools.product(range(1, 7), range(1, 11), range(1, 11)):
        got = tg.ironsworn_action(stat, adds, _dice(list(dice)))
        assert (got.outcome, got.challenge_match) == _ironsworn(stat, adds, *dice)


def _age(
    ability: int, target: int, a: int, b: int, stunt: int
) -> tuple[int, bool, int]:
    total = a + b + stunt + ability
    success = total >= target
    doubles = len({a, b, stunt}) < 3
    return total, success, stunt if success and doubles else 0


@pytest.mark.parametrize(("ability", "target"), [(-5, 3), (0, 11), (2, 15), (10, 30)])
def test_age_test_every_roll(tg: ModuleType, ability: int, target: int) -> None:
    for dice in itertools.product(range(1, 7), repeat=3):
        got = tg.age_test(ability, target, _dice(list(dice)))
        assert (got.total, got.success, got.stunt_points) == _age(
            ability, target, *dice
        )


@pytest.mark.parametrize(("base", "skill"), [(0, 0), (0, 2), (2, 0), (2, 2), (3, 1)])
def test_yze_roll_every_roll(tg: ModuleType, base: int, skill: int) -> None:
    for dice in itertools.product(range(1, 7), repeat=base + skill):
        got = tg.yze_roll(base, skill, _dice(list(dice)))
        assert got.successes == dice.count(6)
        assert got.banes == dice[:base].count(1)  # the base dice come first


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_action_roll_every_roll(tg: ModuleType, dice: int) -> None:
    for rolled in itertools.product(range(1, 7), repeat=dice or 2):
        got = tg.action_roll(dice, _dice(list(rolled)))
        read = min(rolled) if dice == 0 else max(rolled)
        expected = "failure" if read <= 3 else "partial" if read <= 5 else "success"
        if dice and rolled.count(6) >= 2:
            expected = "critical"
        assert (got.outcome, got.rolls) == (expected, rolled), rolled


@pytest.mark.parametrize(
    ("stat", "skill", "dv"), [(0, 0, 1), (4, 3, 13), (10, 10, 25), (5, 5, 40)]
)
def test_skill_check_every_roll(tg: ModuleType, stat: int, skill: int, dv: int) -> None:
    for first, second in itertools.product(range(1, 11), repeat=2):
        opens = first in (1, 10)
        got = tg.skill_check(stat, skill, dv, _dice([first, second]))
        result = first + (second if first == 10 else -second if first == 1 else 0)
        total = result + stat + skill
        rolls = (first, second) if opens else (first,)
        assert (got.total, got.success, got.rolls) == (total, total > dv, rolls)


CALLS: dict[str, list[tuple[int, ...]]] = {
    "roll_ability": [()],
    "wfrp_test": [(1,), (45,), (99,)],
    "ironsworn_action": [(0, 0), (2, 1), (5, 10)],
    "age_test": [(-5, 3), (2, 11), (10, 30)],
    "yze_roll": [(0, 0), (2, 1), (3, 2)],
    "action_roll": [(0,), (1,), (3,)],
    "skill_check": [(0, 0, 1), (4, 3, 13), (10, 10, 25), (10, 10, 40)],
    "narrative_check": [(0, 0), (1, 0), (2, 1), (3, 2)],  # dice of symbols
    "average_shot": [(1,), (3,)],  # a die numbered 2 to 5
}
FIELDS = {
    "action_roll": "outcome",
    "skill_check": "success",
    "wfrp_test": "sl",
    "ironsworn_action": "outcome",
    "age_test": "stunt_points",
    "yze_roll": "successes",
    "narrative_check": "success",
}


def _rules(system: System) -> list[Any]:
    """The system's rules with a function (formulas and decisions; not states)."""
    return [r for r in system.rules if getattr(r, "function", None)]


def test_inputs_outside_the_ranges_are_refused(tg: ModuleType, system: System) -> None:
    errors = _errors()
    for rule in _rules(system):
        for p in rule.params:
            assert p.min is not None and p.max is not None
            for bad in (p.min - 1, p.max + 1):
                args = [bad if q is p else q.min for q in rule.params]
                with pytest.raises(errors.RuleInputError):
                    getattr(tg, rule.function)(*args, _dice([1] * 30))
                with pytest.raises(errors.RuleInputError):
                    getattr(tg, f"{rule.function}_odds")(*args)


# -- a state of several fields -----------------------------------------------------


def test_stress_follows_every_sequence(tg: ModuleType) -> None:
    rng = random.Random(26)
    for _ in range(400):
        actions = [
            (rng.choice(("take", "take", "relieve")), rng.randint(0, 20))
            for _ in range(rng.randint(0, 12))
        ]
        state = tg.Stress()
        for name, n in actions:
            getattr(state, name)(n)
        got = {
            "stress": state.stress,
            "traumas": state.traumas,
            "retired": state.retired,
        }
        assert got == _blades(actions)  # the rule restated (test_record_state)


def test_stress_refuses_what_is_outside_the_rule(tg: ModuleType) -> None:
    state = tg.Stress()
    for bad in (-1, 21, "2", 2.0, True):
        with pytest.raises(_errors().RuleInputError):
            state.take(bad)
        with pytest.raises(_errors().RuleInputError):
            state.relieve(bad)
    assert (state.stress, state.traumas, state.retired) == (0, 0, False)


# -- odds: derived, and exact ------------------------------------------------------


def _read(tg: ModuleType, name: str) -> Callable[..., Any]:
    function: Callable[..., Any] = getattr(tg, name)
    field = FIELDS.get(name)
    if field is None:
        return function
    return lambda *args: getattr(function(*args), field)


@pytest.mark.parametrize(
    ("name", "args"), [(n, a) for n, calls in CALLS.items() for a in calls]
)
def test_odds_are_every_roll_enumerated(
    tg: ModuleType, name: str, args: tuple[int, ...]
) -> None:
    chances = getattr(tg, f"{name}_odds")(*args)
    assert dict(chances) == enumerated_odds(
        _read(tg, name), args, _errors().RuleInputError
    )
    assert sum(chances.values()) == 1 and chances.tail == 0
    keys = list(chances)
    if name in ("ironsworn_action", "action_roll"):  # labels in their enum's order
        kind = tg.ActionResult if name == "ironsworn_action" else tg.ActionOutcome
        assert keys == [k for k in kind if k in chances]
    else:
        assert keys == sorted(keys)


CHAINS: dict[str, list[tuple[int, ...]]] = {
    "death_saves": [()],
    "recovery": [(1,), (3,)],
}


def test_every_rule_that_rolls_has_odds(tg: ModuleType, system: System) -> None:
    functions = {r.function for r in _rules(system)}
    assert functions == set(CALLS) | set(CHAINS) | {"open_ended"}
    odds = {n for n in dir(tg) if n.endswith("_odds") and not n.startswith("_")}
    assert odds == {f"{n}_odds" for n in (*CALLS, *CHAINS)}


def test_odds_agree_with_icepool(tg: ModuleType) -> None:
    d6: Any = icepool.d6
    ability = d6.pool(4).highest(3).sum()
    assert dict(tg.roll_ability_odds()) == {
        int(v): Fraction(n, ability.denominator()) for v, n in ability.items()
    }


@pytest.mark.parametrize(("base", "skill"), [(10, 10), (10, 0), (0, 10), (6, 4)])
def test_yze_roll_odds_at_the_top_are_binomial(
    tg: ModuleType, base: int, skill: int
) -> None:
    n = base + skill
    expected = {k: Fraction(comb(n, k) * 5 ** (n - k), 6**n) for k in range(n + 1)}
    assert dict(tg.yze_roll_odds(base, skill)) == expected


# -- JavaScript --------------------------------------------------------------------


def test_table_games_answer_in_javascript_as_in_python(
    tg: ModuleType, out: Path, system: System, tmp_path: Path
) -> None:
    assert (
        missing_from(system, read_kit(out / "conformance" / f"{system.id}.json"), tg)
        == []
    )
    assert_conforms(out, tmp_path, [system.id])


def test_table_games_odds_in_javascript_as_in_python(tg: ModuleType, out: Path) -> None:
    py_json = importlib.import_module("rulebook.json")
    every = CALLS | CHAINS
    calls = [(camel(f"{n}_odds"), list(a)) for n, cs in every.items() for a in cs]
    calls += [("yzeRollOdds", [10, 10]), ("actionRollOdds", [10])]
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "table_games.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => dumps(m[f](...args)))));\n"
    )
    for (function, args), text in zip(calls, found, strict=True):
        name = function[: -len("Odds")]
        python = next(n for n in every if camel(n) == name)
        expected = py_json.dumps(getattr(tg, f"{python}_odds")(*args))
        assert text == expected, (function, args)


# -- turns until an ending: exact odds of a chain that may loop ---------------------


def _death_saves(dice: list[int]) -> tuple[str, int, tuple[int, ...]]:
    """Saves at zero, as the rules state them: the outcome, the turns taken and
    the dice rolled, in order."""
    successes = failures = 0
    rolled: list[int] = []
    for turn, die in enumerate(dice, 1):
        rolled.append(die)
        if die == 20:
            return "revived", turn, tuple(rolled)
        if die >= 10:
            successes += 1
        else:
            failures += 2 if die == 1 else 1
        if successes >= 3:
            return "stable", turn, tuple(rolled)
        if failures >= 3:
            return "dead", turn, tuple(rolled)
    raise AssertionError("the dice ran out")


def _recovery(dying: int, dice: list[int]) -> tuple[str, int, tuple[int, ...]]:
    """Recovery checks, as the rules state them: the outcome, the checks made
    and the dice rolled, in order."""
    rolled: list[int] = []
    for check, die in enumerate(dice, 1):
        rolled.append(die)
        dc = 10 + dying
        degree = 3 if die >= dc + 10 else 2 if die >= dc else 0 if die <= dc - 10 else 1
        degree = min(max(degree + (die == 20) - (die == 1), 0), 3)
        dying += {3: -2, 2: -1, 1: 1, 0: 2}[degree]
        if dying <= 0:
            return "stable", check, tuple(rolled)
        if dying >= 4:
            return "dead", check, tuple(rolled)
    raise AssertionError("the dice ran out")


def _open_ended(dice: list[int]) -> int:
    """An open-ended percentile roll, as the rules state it."""
    first, rest = dice[0], iter(dice[1:])
    if 6 <= first <= 95:
        return first
    sign, total = (1 if first >= 96 else -1), first
    while True:
        roll = next(rest)
        total += sign * roll
        if roll < 96:
            return total


def test_death_saves_recovery_and_open_ended_roll_by_roll(tg: ModuleType) -> None:
    rng = random.Random(5)
    for _ in range(500):
        dice = [rng.randint(1, 20) for _ in range(8)]
        got = tg.death_saves(_dice(list(dice)))
        assert (got.outcome, got.turns, got.rolls) == _death_saves(dice), dice
        dying = rng.randint(1, 3)
        dice = [rng.choice((1, 20, rng.randint(1, 20))) for _ in range(40)]
        got = tg.recovery(dying, _dice(list(dice)))
        assert (got.outcome, got.checks, got.rolls) == _recovery(dying, dice), (
            dying,
            dice,
        )
        dice = [rng.choice((1, 5, 96, 100, rng.randint(1, 100))) for _ in range(30)]
        if sum(d >= 96 for d in dice[1:]) < 29:
            assert tg.open_ended(_dice(list(dice))) == _open_ended(dice), dice


def test_death_saves_and_recovery_roll_by_roll_in_javascript(out: Path) -> None:
    """The same oracles, die by die, against the JavaScript runtime: the dice
    rolled come back as a frozen array, in the order rolled."""
    rng = random.Random(7)
    saves = [[rng.randint(1, 20) for _ in range(8)] for _ in range(200)]
    checks = [
        (
            rng.randint(1, 3),
            [rng.choice((1, 20, rng.randint(1, 20))) for _ in range(40)],
        )
        for _ in range(200)
    ]
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "table_games.js").as_uri()}";\n'
        f'import {{ Scripted }} from "{(js / "dice.js").as_uri()}";\n'
        f"const saves = {json.dumps(saves)};\n"
        f"const checks = {json.dumps(checks)};\n"
        "const shown = (a, n) => [String(a.outcome), n, a.rolls, Object.isFrozen(a.rolls)];\n"
        "console.log(JSON.stringify([\n"
        "  saves.map((d) => { const a = m.deathSaves(new Scripted(d)); return shown(a, a.turns); }),\n"
        "  checks.map(([dying, d]) => {\n"
        "    const a = m.recovery(dying, new Scripted(d)); return shown(a, a.checks); }),\n"
        "]));\n"
    )
    want_saves = [[*_listed(_death_saves(d)), True] for d in saves]
    want_checks = [[*_listed(_recovery(dying, d)), True] for dying, d in checks]
    assert found == [want_saves, want_checks]


def _listed(answer: tuple[str, int, tuple[int, ...]]) -> list[Any]:
    """An oracle's answer as JSON reads it back (the dice as a list)."""
    outcome, turns, rolls = answer
    return [outcome, turns, list(rolls)]


def _chain(dying: int) -> dict[str, Fraction]:
    """Recovery's outcome by solving its chain apart: the chance of ending
    stable from each dying value, x = B + Q x, by Gauss-Jordan over Fractions."""
    levels = [1, 2, 3]
    q = {(a, b): Fraction(0) for a in levels for b in levels}
    b: dict[int, Fraction] = dict.fromkeys(levels, Fraction(0))
    for level in levels:
        for die in range(1, 21):
            after = level
            dc = 10 + level
            degree = (
                3 if die >= dc + 10 else 2 if die >= dc else 0 if die <= dc - 10 else 1
            )
            degree = min(max(degree + (die == 20) - (die == 1), 0), 3)
            after += {3: -2, 2: -1, 1: 1, 0: 2}[degree]
            if after <= 0:
                b[level] += Fraction(1, 20)
            elif after < 4:
                q[level, after] += Fraction(1, 20)
    # (I - Q) x = b
    rows = [[Fraction(int(a == c)) - q[a, c] for c in levels] + [b[a]] for a in levels]
    for i in range(3):
        pivot = rows[i][i]
        rows[i] = [v / pivot for v in rows[i]]
        for j in range(3):
            if j != i:
                factor = rows[j][i]
                rows[j] = [
                    v - factor * w for v, w in zip(rows[j], rows[i], strict=True)
                ]
    stable = rows[levels.index(dying)][3]
    return {"dead": 1 - stable, "stable": stable}


def _saves_chain() -> dict[str, Fraction]:
    """Saves at zero solved apart: a memoised recursion over the counts."""
    memo: dict[tuple[int, int], dict[str, Fraction]] = {}

    def at(s: int, f: int) -> dict[str, Fraction]:
        if (s, f) not in memo:
            found = dict.fromkeys(("dead", "stable", "revived"), Fraction(0))
            for die in range(1, 21):
                if die == 20:
                    found["revived"] += Fraction(1, 20)
                    continue
                s2 = s + (die >= 10)
                f2 = f + (2 if die == 1 else 1 if die < 10 else 0)
                if s2 >= 3 or f2 >= 3:
                    found["stable" if s2 >= 3 else "dead"] += Fraction(1, 20)
                    continue
                for k, v in at(s2, f2).items():
                    found[k] += v / 20
            memo[s, f] = found
        return memo[s, f]

    return at(0, 0)


def test_odds_of_turns_until_an_ending_are_the_chain_solved_apart(
    tg: ModuleType,
) -> None:
    assert dict(tg.death_saves_odds()) == _saves_chain()
    assert [str(k) for k in tg.death_saves_odds()] == ["dead", "stable", "revived"]
    for dying in (1, 2, 3):
        chances = tg.recovery_odds(dying)
        assert dict(chances) == _chain(dying)
        assert sum(chances.values()) == 1 and chances.tail == 0
    assert not hasattr(tg, "open_ended_odds")  # a total without bounds: none
