"""The `more_games` cookbook: mechanics of more published games in YAML alone
(tests/cookbook/more_games/), built as a rules editor builds it.

Each mechanic is asked for the figures its rules state, then checked against
its rules restated here in plain Python, die by die; each field its odds name
against every roll enumerated (or icepool, or a closed form, where that would
be long); its answers and its odds in JavaScript as in Python (the same
`dumps` text), and both runtimes accepting the same odds calls.
"""

from __future__ import annotations

import importlib
import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
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

COOKBOOK = ROOT / "tests" / "cookbook"


@pytest.fixture(scope="module")
def out(cookbook_out: Path) -> Path:
    """The build of tests/cookbook (conftest's, one a session)."""
    return cookbook_out


@pytest.fixture(scope="module")
def mg(out: Path) -> Iterator[ModuleType]:
    with import_fresh(out):
        yield importlib.import_module("rulebook.more_games")


@pytest.fixture(scope="module")
def system() -> System:
    (found,) = [s for s in load_systems(COOKBOOK) if s.id == "more_games"]
    return found


def _dice(dice: list[int]) -> Any:
    return importlib.import_module("rulebook.dice").Scripted(dice)


def _errors() -> Any:
    return importlib.import_module("rulebook.errors")


def _field(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A rule's answer's field ``name``, the rng passed last."""
    return lambda *args: getattr(function(*args), name)


def _odds(odds: Any, name: str) -> dict[Any, Fraction]:
    """One field's chances, as a plain dict."""
    return dict(odds[name])


def test_the_build_writes_python_javascript_and_docs(out: Path) -> None:
    for path in ("rulebook/more_games.py", "js/more_games.js", "docs/more_games.md"):
        assert (out / path).is_file(), path


# -- pools of ten-sided dice read several ways -------------------------------------


def _v5(pool: int, hunger: int, difficulty: int, rng: Any) -> tuple[int, str]:
    dice = [rng.randint(1, 10) for _ in range(pool)]
    hungry = dice[: min(hunger, pool)]
    tens = dice.count(10)
    successes = sum(1 for d in dice if d >= 6) + 2 * (tens // 2)
    if tens >= 2 and successes >= difficulty and 10 in hungry:
        return successes, "messy critical"
    if tens >= 2 and successes >= difficulty:
        return successes, "critical win"
    if successes >= difficulty:
        return successes, "win"
    if 1 in hungry:
        return successes, "bestial failure"
    return successes, "failure"


def test_v5_roll_states_its_figures(mg: ModuleType) -> None:
    found = mg.v5_roll(3, 0, 1, _dice([10, 10, 10]))
    assert found.successes == 5
    assert found.outcome == mg.V5Outcome.CRITICAL_WIN


def test_v5_roll_die_by_die(mg: ModuleType) -> None:
    draw = random.Random(5)
    for _ in range(400):
        pool, hunger, difficulty = (
            draw.randint(1, 20),
            draw.randint(0, 5),
            draw.randint(1, 10),
        )
        dice = [draw.randint(1, 10) for _ in range(pool)]
        got = mg.v5_roll(pool, hunger, difficulty, _dice(dice))
        assert (got.successes, got.outcome.value) == _v5(
            pool, hunger, difficulty, _dice(dice)
        )


@pytest.mark.parametrize(
    "args", [(1, 0, 1), (2, 1, 2), (3, 2, 3), (3, 5, 1), (4, 1, 4), (4, 4, 2)]
)
def test_v5_roll_odds_are_every_roll_enumerated(
    mg: ModuleType, args: tuple[int, int, int]
) -> None:
    odds = mg.v5_roll_odds(*args)
    need = _errors().RuleInputError
    assert _odds(odds, "successes") == enumerated_odds(
        lambda *a: _v5(*a)[0], args, need
    )
    outcome = {k.value: v for k, v in odds["outcome"].items()}
    assert outcome == enumerated_odds(lambda *a: _v5(*a)[1], args, need)


def test_exalted_roll_die_by_die(mg: ModuleType) -> None:
    draw = random.Random(7)
    for _ in range(300):
        pool = draw.randint(1, 40)
        dice = [draw.randint(1, 10) for _ in range(pool)]
        got = mg.exalted_roll(pool, _dice(dice))
        successes = sum(1 for d in dice if 7 <= d <= 9) + 2 * dice.count(10)
        assert got.successes == successes
        assert got.botch == (successes == 0 and 1 in dice)


@pytest.mark.parametrize("pool", [1, 7, 20, 40])
def test_exalted_roll_odds_agree_with_icepool(mg: ModuleType, pool: int) -> None:
    odds = mg.exalted_roll_odds(pool)
    die: Any = icepool.Die({0: 6, 1: 3, 2: 1})
    total = die.pool(pool).sum()
    denom = total.denominator()
    assert _odds(odds, "successes") == {
        int(v): Fraction(n, denom) for v, n in total.items()
    }
    botch = Fraction(6, 10) ** pool - Fraction(5, 10) ** pool
    assert _odds(odds, "botch") == {True: botch, False: 1 - botch}


# -- logs of records: ongoing damage, a fireball on a party --------------------------


def _save_chance(bonus: int) -> Fraction:
    saves = [f for f in range(1, 21) if f == 20 or (f != 1 and f + bonus >= 10)]
    return Fraction(len(saves), 20)


def test_ongoing_logs_each_round(mg: ModuleType) -> None:
    found = mg.ongoing(4, 12, _dice([1, 3]))
    assert [(e.round_, e.damage, e.saved) for e in found.events] == [
        (1, 4, False),
        (2, 4, True),
    ]
    assert (found.rounds, found.total) == (2, 8)


def test_ongoing_is_not_capped(mg: ModuleType) -> None:
    found = mg.ongoing(3, -12, _dice([2] * 40 + [20]))
    assert found.rounds == 41 and found.total == 123 and len(found.events) == 41
    assert [e.round_ for e in found.events] == list(range(1, 42))


@pytest.mark.parametrize("bonus", [-12, -3, 0, 5, 12])
def test_ongoing_odds_are_rounds_then_a_tail(mg: ModuleType, bonus: int) -> None:
    chances = mg.ongoing_odds(7, bonus)
    p = _save_chance(bonus)
    assert dict(chances) == {k: (1 - p) ** (k - 1) * p for k in range(1, 21)}
    assert chances.tail == (1 - p) ** 20


def _fireball(saves: list[int], dc: int, rng: Any) -> tuple[int, list[Any], int]:
    damage = sum(rng.randint(1, 6) for _ in range(8))
    creatures = []
    for bonus in saves:
        roll = rng.randint(1, 20)
        saved = roll + bonus >= dc
        creatures.append((roll, saved, damage // 2 if saved else damage))
    return damage, creatures, sum(c[2] for c in creatures)


def test_fireball_saves_in_order(mg: ModuleType) -> None:
    draw = random.Random(11)
    for _ in range(200):
        saves = [draw.randint(-5, 15) for _ in range(draw.randint(1, 12))]
        dc = draw.randint(8, 25)
        dice = [draw.randint(1, 6) for _ in range(8)]
        dice += [draw.randint(1, 20) for _ in saves]
        got = mg.fireball(saves, dc, _dice(dice))
        damage, creatures, total = _fireball(saves, dc, _dice(dice))
        assert got.damage_roll == damage and got.total == total
        assert [(c.roll, c.saved, c.damage) for c in got.creatures] == creatures


def test_fireball_refuses_a_party_outside_its_range(mg: ModuleType) -> None:
    errors = _errors()
    for saves in ([], [0] * 13, [16], [-6, 0]):
        with pytest.raises(errors.RuleInputError):
            mg.fireball(saves, 10, _dice([1] * 30))


# -- compounding trait dice: a size from a list, the highest kept ------------------


def _trait(dice: int, sides: int, tn: int, rng: Any) -> tuple[int, bool, int, bool]:
    rolled, ones = [], 0
    for _ in range(dice):
        first = rng.randint(1, sides)
        ones += first == 1
        total, face = first, first
        while face == sides:
            face = rng.randint(1, sides)
            total += face
        rolled.append(total)
    kept = max(rolled)
    if kept >= tn:
        return kept, True, (kept - tn) // 5, False
    return kept, False, 0, 2 * ones >= dice


def test_deadlands_trait_die_by_die(mg: ModuleType) -> None:
    draw = random.Random(13)
    for _ in range(300):
        dice, sides = draw.randint(1, 6), draw.choice([4, 6, 8, 10, 12])
        tn = draw.randint(3, 15)
        script = [draw.choice([1, sides, draw.randint(1, sides)]) for _ in range(40)]
        script += [1] * dice  # every chain ends
        got = mg.deadlands_trait(dice, sides, tn, _dice(script))
        expected = _trait(dice, sides, tn, _dice(script))
        assert (got.kept, got.success, got.raises, got.bust) == expected


def test_deadlands_trait_states_its_figures(mg: ModuleType) -> None:
    odds = mg.deadlands_trait_odds(1, 4, 3)
    assert _odds(odds, "bust") == {
        True: Fraction(1, 4),
        False: Fraction(3, 4) - odds["bust"].tail,
    }
    raises = odds["raises"]
    assert sum(p for k, p in raises.items() if k >= 1) + raises.tail == Fraction(1, 16)
    assert raises.tail == Fraction(1, 4) ** 11  # ten dice followed after the first
    success = [mg.deadlands_trait(1, 4, 3, _dice([f, 1])).success for f in (1, 2, 3, 4)]
    assert Fraction(sum(success), 4) == Fraction(1, 2)


def test_deadlands_trait_refuses_a_size_before_any_roll(mg: ModuleType) -> None:
    for sides in (2, 7, 20):
        with pytest.raises(_errors().RuleInputError):
            mg.deadlands_trait(1, sides, 5, _dice([]))
        with pytest.raises(_errors().RuleInputError):
            mg.deadlands_trait_odds(1, sides, 5)


def _one_trait_die(sides: int) -> tuple[list[tuple[int, bool, Fraction]], Fraction]:
    """One compounding die followed ten dice deep: (total, first was a one,
    chance) for each chain, and the chance of a chain longer than that."""
    found = []
    for maxed in range(11):
        for last in range(1, sides):
            chance = Fraction(1, sides) ** (maxed + 1)
            found.append((sides * maxed + last, maxed == 0 and last == 1, chance))
    return found, Fraction(1, sides) ** 11


@pytest.mark.parametrize(
    ("dice", "sides", "tn"), [(1, 4, 3), (1, 12, 15), (2, 6, 8), (2, 4, 9), (3, 4, 5)]
)
def test_deadlands_trait_odds_are_every_chain_enumerated(
    mg: ModuleType, dice: int, sides: int, tn: int
) -> None:
    one, cut = _one_trait_die(sides)
    raises: dict[int, Fraction] = {}
    bust: dict[bool, Fraction] = {}
    for combo in itertools.product(one, repeat=dice):
        kept = max(c[0] for c in combo)
        chance = Fraction(1)
        for c in combo:
            chance *= c[2]
        ones = sum(c[1] for c in combo)
        r = (kept - tn) // 5 if kept >= tn else 0
        b = kept < tn and 2 * ones >= dice
        raises[r] = raises.get(r, Fraction(0)) + chance
        bust[b] = bust.get(b, Fraction(0)) + chance
    odds = mg.deadlands_trait_odds(dice, sides, tn)
    assert _odds(odds, "raises") == raises and _odds(odds, "bust") == bust
    assert odds["raises"].tail == 1 - (1 - cut) ** dice


# -- dice with faces of their own -----------------------------------------------------

GOOD = [(), (), ("hit",), ("hit",), ("hit", "edge"), ("edge", "edge")]
BAD = [(), (), ("miss",), ("miss",), ("flaw",), ("flaw",)]


def _symbols(good: int, bad: int, faces: Sequence[int]) -> tuple[bool, int]:
    shown = [GOOD[f - 1] for f in faces[:good]] + [BAD[f - 1] for f in faces[good:]]
    every = [s for face in shown for s in face]
    net = every.count("hit") - every.count("miss")
    return net >= 1, every.count("edge") - every.count("flaw")


def test_symbol_pool_states_its_figures(mg: ModuleType) -> None:
    odds = mg.symbol_pool_odds(1, 0)
    assert _odds(odds, "success") == {True: Fraction(1, 2), False: Fraction(1, 2)}
    assert _odds(odds, "edge") == {
        0: Fraction(2, 3),
        1: Fraction(1, 6),
        2: Fraction(1, 6),
    }


@pytest.mark.parametrize(
    ("good", "bad"), [(0, 0), (1, 1), (2, 1), (0, 3), (2, 2), (3, 1)]
)
def test_symbol_pool_odds_are_every_roll_enumerated(
    mg: ModuleType, good: int, bad: int
) -> None:
    success: dict[bool, Fraction] = {}
    edge: dict[int, Fraction] = {}
    share = Fraction(1, 6 ** (good + bad))
    for faces in itertools.product(range(1, 7), repeat=good + bad):
        s, e = _symbols(good, bad, faces)
        got = mg.symbol_pool(good, bad, _dice(list(faces)))
        assert (got.success, got.edge) == (s, e)
        success[s] = success.get(s, Fraction(0)) + share
        edge[e] = edge.get(e, Fraction(0)) + share
    odds = mg.symbol_pool_odds(good, bad)
    assert _odds(odds, "success") == success and _odds(odds, "edge") == edge


def test_symbol_pool_odds_of_six_and_six_are_exact(mg: ModuleType) -> None:
    odds = mg.symbol_pool_odds(6, 6)
    good: Any = icepool.Die(
        {(h, e): 1 for h, e in ((0, 0), (0, 0), (1, 0), (1, 0), (1, 1), (0, 2))}
    )
    assert sum(odds["edge"].values()) == 1 and sum(odds["success"].values()) == 1
    hits = (
        icepool.Die([0, 0, 1, 1, 1, 0]).pool(6).sum()
        - icepool.Die([0, 0, 1, 1, 0, 0]).pool(6).sum()
    )
    wins = Fraction(sum(n for v, n in hits.items() if v >= 1), hits.denominator())
    assert odds["success"][True] == wins
    edges = (
        icepool.Die([0, 0, 0, 0, 1, 2]).pool(6).sum()
        - icepool.Die([0, 0, 0, 0, 1, 1]).pool(6).sum()
    )
    assert _odds(odds, "edge") == {
        int(v): Fraction(n, edges.denominator()) for v, n in edges.items()
    }
    assert good is not None


# -- a damage track over three pools, with a log --------------------------------------

ORDER = ["might", "speed", "intellect"]


def _track(start: tuple[int, int, int], takes: list[tuple[str, int]]) -> dict[str, Any]:
    pools = dict(zip(ORDER, start, strict=True))
    log: list[tuple[str, int, int, str]] = []

    def status() -> str:
        return ["hale", "impaired", "debilitated", "dead"][
            list(pools.values()).count(0)
        ]

    for pool, n in takes:
        if status() == "dead":
            continue
        at = ORDER.index(pool)
        for step in range(3):
            name = ORDER[(at + step) % 3]
            lost = min(n, pools[name])
            if lost:
                pools[name] -= lost
                n -= lost
                log.append((name, lost, pools[name], status()))
    return {**pools, "status": status(), "log": log}


def test_stat_pools_follow_every_take(mg: ModuleType) -> None:
    draw = random.Random(17)
    for _ in range(300):
        start = (draw.randint(1, 30), draw.randint(1, 30), draw.randint(1, 30))
        takes = [
            (draw.choice(ORDER), draw.randint(1, 100))
            for _ in range(draw.randint(0, 5))
        ]
        takes = [
            (p, n if draw.random() < 0.3 else draw.randint(1, 12)) for p, n in takes
        ]
        pools = mg.StatPools(*start)
        for pool, n in takes:
            pools.take(pool, n)
        expected = _track(start, takes)
        assert (pools.might, pools.speed, pools.intellect) == tuple(
            expected[p] for p in ORDER
        )
        assert pools.status.value == expected["status"]
        assert [
            (e.pool.value, e.points, e.left, e.status.value) for e in pools.log
        ] == expected["log"]


def test_stat_pools_refuse_what_is_outside_the_rule(mg: ModuleType) -> None:
    errors = _errors()
    for start in ((0, 1, 1), (31, 1, 1), (1, 1, -1)):
        with pytest.raises(errors.RuleInputError):
            mg.StatPools(*start)
    pools = mg.StatPools(5, 5, 5)
    for pool, n in (("luck", 1), ("might", 0), ("might", 101)):
        with pytest.raises(errors.RuleInputError):
            pools.take(pool, n)
    assert (pools.might, pools.speed, pools.intellect, pools.log) == (5, 5, 5, ())


def test_stat_pools_in_javascript_as_in_python(mg: ModuleType, out: Path) -> None:
    py_json = importlib.import_module("rulebook.json")
    draw = random.Random(19)
    runs: list[tuple[list[int], list[tuple[str, int]]]] = []
    for _ in range(40):
        start = [draw.randint(1, 30) for _ in range(3)]
        takes = [
            (draw.choice(ORDER), draw.randint(1, 40)) for _ in range(draw.randint(0, 6))
        ]
        runs.append((start, takes))
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "more_games.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const runs = {json.dumps(runs)};\n"
        "console.log(JSON.stringify(runs.map(([start, takes]) => {\n"
        "  const pools = new m.StatPools(...start);\n"
        "  for (const [pool, n] of takes) pools.take(pool, n);\n"
        "  return dumps(pools);\n"
        "})));\n"
    )
    for (start, takes), text in zip(runs, found, strict=True):
        pools = mg.StatPools(*start)
        for pool, n in takes:
            pools.take(pool, n)
        assert text == py_json.dumps(pools), (start, takes)


# -- JavaScript alike ----------------------------------------------------------------


def test_more_games_answer_in_javascript_as_in_python(
    mg: ModuleType, out: Path, system: System, tmp_path: Path
) -> None:
    assert (
        missing_from(system, read_kit(out / "conformance" / f"{system.id}.json"), mg)
        == []
    )
    assert_conforms(out, tmp_path, [system.id])


# odds calls at the corners of each rule's ranges: both runtimes answer each
# (none refused), with the same `dumps` text
ODDS_CALLS: list[tuple[str, list[Any]]] = [
    ("v5_roll", [1, 0, 1]),
    ("v5_roll", [20, 5, 10]),
    ("v5_roll", [20, 0, 1]),
    ("v5_roll", [7, 3, 4]),
    ("exalted_roll", [1]),
    ("exalted_roll", [40]),
    ("ongoing", [1, -12]),
    ("ongoing", [20, 12]),
    ("deadlands_trait", [1, 4, 3]),
    ("deadlands_trait", [6, 12, 15]),
    ("deadlands_trait", [6, 4, 3]),
    ("symbol_pool", [0, 0]),
    ("symbol_pool", [6, 6]),
    ("symbol_pool", [1, 0]),
]


def test_odds_in_javascript_as_in_python(mg: ModuleType, out: Path) -> None:
    py_json = importlib.import_module("rulebook.json")
    calls = [(camel(f"{n}_odds"), a) for n, a in ODDS_CALLS]
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "more_games.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => dumps(m[f](...args)))));\n"
    )
    for (name, args), text in zip(ODDS_CALLS, found, strict=True):
        expected = py_json.dumps(getattr(mg, f"{name}_odds")(*args))
        assert text == expected, (name, args)


def test_answers_for_a_seed_in_javascript_as_in_python(
    mg: ModuleType, out: Path
) -> None:
    """The same seed gives the same dice, so the same answers, in both."""
    py_json = importlib.import_module("rulebook.json")
    calls: list[tuple[str, list[Any]]] = [
        ("v5_roll", [12, 3, 5]),
        ("exalted_roll", [25]),
        ("ongoing", [6, -4]),
        ("fireball", [[3, -2, 15, 0], 14]),
        ("deadlands_trait", [4, 6, 9]),
        ("symbol_pool", [3, 2]),
    ]
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "more_games.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ Random }} from "{(js / "random.js").as_uri()}";\n'
        f"const calls = {json.dumps([(camel(n), a) for n, a in calls])};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => "
        "dumps(m[f](...args, new Random(2026))))));\n"
    )
    for (name, args), text in zip(calls, found, strict=True):
        expected = py_json.dumps(getattr(mg, name)(*args, random.Random(2026)))
        assert text == expected, (name, args)


def test_odds_calls_are_refused_alike(mg: ModuleType, out: Path) -> None:
    """A call outside a rule's ranges (or its listed values) is refused by
    both runtimes' odds functions, in the same words."""
    calls: list[tuple[str, list[Any]]] = [
        ("deadlands_trait", [1, 7, 5]),
        ("deadlands_trait", [0, 6, 5]),
        ("v5_roll", [21, 0, 1]),
        ("exalted_roll", [41]),
        ("symbol_pool", [7, 0]),
        ("ongoing", [5, 13]),
    ]
    js = out / "js"
    found = node_json(
        f'import * as m from "{(js / "more_games.js").as_uri()}";\n'
        f"const calls = {json.dumps([(camel(f'{n}_odds'), a) for n, a in calls])};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => {\n"
        "  try { m[f](...args); return null; }\n"
        "  catch (e) { return [e.name, e.message]; }\n"
        "})));\n"
    )
    for (name, args), refused in zip(calls, found, strict=True):
        with pytest.raises(_errors().RuleInputError) as raised:
            getattr(mg, f"{name}_odds")(*args)
        # (the parameter named as each language names it: save_bonus, saveBonus)
        words = str(raised.value).split(" ", 1)
        assert refused == ["RuleInputError", f"{camel(words[0])} {words[1]}"], (
            name,
            args,
        )
