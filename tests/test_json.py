"""JSON everywhere: ``to_dict()`` on every record and ``rulebook.json`` for any answer.

Every worked example's answer of every rule of every system is written with
``rulebook.json`` and read back; every class of the generated modules has
``to_dict()``; a handful of values have their exact JSON; and ``rulesc simulate
--json`` prints what ``rulebook.json.dumps`` prints for the same run.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import rulebook.json as rj
from rulebook import d20_scifi
from rulebook._state import LevelState, RecordState
from rulebook.dice import Dice, parse_dice

from rulesc.emit.python.files import support_modules
from rulesc.examples import example_value
from rulesc.front.model import (
    Example,
    Rule,
)
from rulesc.kinds.registry import kind_of

from .conftest import project_systems
from .workbench_helpers import project, rulesc

__all__ = ["project"]  # the fixture, used by name

SYSTEMS = project_systems()
MODULES = {s.id: importlib.import_module(f"rulebook.{s.id}") for s in SYSTEMS}
SUPPORT = [
    importlib.import_module(f"rulebook.{name.removesuffix('.py')}")
    for name in support_modules()
]
EXAMPLES = [
    pytest.param(system.id, rule, ex, id=f"{rule.qualified_id}:{ex.name}")
    for system in SYSTEMS
    for rule in system.rules
    for ex in rule.examples
    if not ex.raises
]
# The support classes that hold data (the others are engines, errors and dice sources).
SUPPORT_RECORDS = (
    Dice,
    LevelState,
    RecordState,
)


def plain(data: object) -> None:
    """Fail unless ``data`` is made of exactly JSON's own types, keys all ``str``."""
    if data is None or type(data) in (bool, int, float, str):
        return
    if type(data) is list:
        for item in data:
            plain(item)
        return
    assert type(data) is dict, f"{type(data).__name__} in JSON data: {data!r}"
    for key, value in data.items():
        assert type(key) is str, f"a {type(key).__name__} key {key!r}"
        plain(value)


def values_in(obj: object) -> Iterator[object]:
    """``obj`` and every value inside it (fields, items, keys)."""
    yield obj
    if isinstance(obj, str | int | float | Fraction | Enum) or obj is None:
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from values_in(k)
            yield from values_in(v)
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):
        for name in obj._fields:
            yield from values_in(getattr(obj, name))
    elif isinstance(obj, list | tuple):
        for item in obj:
            yield from values_in(item)
    elif hasattr(type(obj), "FIELDS"):  # a record of the runtime
        for name in getattr(type(obj), "FIELDS"):  # noqa: B009
            yield from values_in(getattr(obj, name))


def public_fields(obj: object) -> list[str]:
    kind = type(obj)  # a record of the runtime names its fields in FIELDS
    names: tuple[str, ...] = getattr(kind, "FIELDS", None) or kind._fields  # type: ignore[attr-defined]
    return [n for n in names if not n.startswith("_")]


def agrees(data: Any, expect: Any) -> bool:
    """Whether the JSON of an answer says what the worked example expects of it."""
    if isinstance(expect, dict):
        return isinstance(data, dict) and all(
            k in data and agrees(data[k], v) for k, v in expect.items()
        )
    if isinstance(expect, list):
        return (
            isinstance(data, list)
            and len(data) == len(expect)
            and all(agrees(d, e) for d, e in zip(data, expect, strict=True))
        )
    if isinstance(data, dict) and "notation" in data:  # dice, written as text
        unit = f" {data['unit']}" if data["unit"] else ""
        return str(expect) in (data["notation"], data["notation"] + unit)
    if isinstance(data, str) and isinstance(expect, int | float | str):
        try:
            return Fraction(data) == Fraction(str(expect))
        except ValueError:
            return data == expect
    return type(data) is type(expect) and bool(data == expect)


@pytest.mark.parametrize(("system", "rule", "example"), EXAMPLES)
def test_every_worked_example_answer_writes_as_json(
    system: str, rule: Rule, example: Example
) -> None:
    answer = example_value(MODULES[system], rule, example)
    data = rj.to_data(answer)
    plain(data)
    text = json.dumps(data)
    assert json.loads(text) == data
    assert rj.dumps(answer) == text
    assert agrees(data, example.expect), (data, example.expect)
    for value in values_in(answer):
        to_dict = getattr(value, "to_dict", None)
        if isinstance(value, Enum):
            assert to_dict is None
            assert rj.to_data(value) == value.value
        elif hasattr(type(value), "FIELDS") or hasattr(value, "_fields"):
            assert callable(to_dict), f"{type(value).__name__} has no to_dict()"
            found = to_dict()
            assert found == rj.to_data(value)
            if type(value) is not Dice:
                assert list(found) == public_fields(value)  # None kept, in order


def classes(module: ModuleType) -> list[type]:
    return [
        v
        for v in vars(module).values()
        if isinstance(v, type) and v.__module__ == module.__name__
    ]


def instances() -> dict[type, list[object]]:
    """Every value the generated modules hold or their worked examples answer."""
    found: dict[type, list[object]] = {}
    for system in SYSTEMS:
        module = MODULES[system.id]
        roots: list[object] = [
            v for k, v in vars(module).items() if k.isupper() and not callable(v)
        ]
        for rule in system.rules:
            for ex in rule.examples:
                if not ex.raises:
                    roots.append(example_value(module, rule, ex))
        for cls in classes(module):
            if issubclass(cls, LevelState | RecordState):
                made: Any = cls
                roots.append(made())  # a generated state needs no argument
        for root in roots:
            for value in values_in(root):
                found.setdefault(type(value), []).append(value)
    return found


INSTANCES = instances()


@pytest.mark.parametrize(
    "cls",
    [
        pytest.param(c, id=f"{m.__name__}.{c.__name__}")
        for m in MODULES.values()
        for c in classes(m)
        if not issubclass(c, Enum)
    ],
)
def test_every_class_of_the_systems_has_to_dict(cls: type) -> None:
    assert callable(getattr(cls, "to_dict", None))
    values = INSTANCES.get(cls, [])
    assert values, f"no worked example or constant holds a {cls.__name__}"
    for value in values:
        data = value.to_dict()  # type: ignore[attr-defined]
        plain(data)
        assert json.loads(json.dumps(data)) == data
        assert data == rj.to_data(value)
        if not isinstance(value, LevelState | RecordState):
            assert list(data) == public_fields(value)


def test_every_data_class_of_the_support_modules_has_to_dict() -> None:
    defined = {c for m in SUPPORT for c in classes(m)}
    assert set(SUPPORT_RECORDS) <= defined
    for cls in SUPPORT_RECORDS:
        assert callable(getattr(cls, "to_dict", None)), cls.__name__
    for cls in (Dice,):
        for value in INSTANCES.get(cls, []):
            data = value.to_dict()  # type: ignore[attr-defined]
            plain(data)
            assert data == rj.to_data(value)


# -- exact JSON ---------------------------------------------------------------------


def test_a_row_is_an_object_of_its_fields() -> None:
    assert json.loads(rj.dumps(d20_scifi.cover("1/2"))) == {
        "coverage": "Between a third and a half of the vital areas are hidden.",
        "hide_spot_modifier": 2,
        "reflex_bonus": 2,
        "cover_ac": 4,
        "miss_chance": 20,
        "targetable": True,
        "must_guess_location": False,
    }
    assert d20_scifi.cover("Total").to_dict()["hide_spot_modifier"] is None


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (
            Dice(2, 6, 0, 10),
            '{"notation": "2d6x10", "count": 2, "sides": 6, "modifier": 0, '
            '"multiplier": 10, "unit": null}',
        ),
        (
            parse_dice("1d6+2", "hours"),
            '{"notation": "1d6+2", "count": 1, "sides": 6, "modifier": 2, '
            '"multiplier": 1, "unit": "hours"}',
        ),
        (
            Dice(0, 0, -3),
            '{"notation": "-3", "count": 0, "sides": 0, "modifier": -3, '
            '"multiplier": 1, "unit": null}',
        ),
    ],
)
def test_dice(dice: Dice, expected: str) -> None:
    assert rj.dumps(dice) == expected
    assert dice.to_dict() == json.loads(expected)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(3, 4), "3/4"),
        (Fraction(6, 2), "3"),
        (Fraction(-1, 3), "-1/3"),
        (Fraction(0), "0"),
    ],
)
def test_fractions_are_exact_strings(value: Fraction, expected: str) -> None:
    assert rj.to_data(value) == expected
    assert Fraction(expected) == value


def test_odds_are_exact_strings_by_answer() -> None:
    from rulebook import edge_of_darkness

    chances = json.loads(rj.dumps(edge_of_darkness.pool_distribution(1)))
    assert list(chances)[:3] == ["0", "1", "2"]
    assert chances["0"] == "7/10" and chances["1"] == "27/100"
    assert len(chances) == 12  # 0 to 11 successes: one die and 10 listed beyond
    assert rj.to_data(Dice(1, 4, 1).distribution()) == {
        "2": "1/4",
        "3": "1/4",
        "4": "1/4",
        "5": "1/4",
    }


def test_a_timeline_event_names_every_field() -> None:
    event = d20_scifi.TimelineEvent(0, "contaminated")
    assert rj.dumps(event) == (
        '{"minute": 0, "kind": "contaminated", "exposure": null, "level": null, '
        '"amount": null, "roll": null, "total": null, "dc": null, "success": null, '
        '"pool": null, "effect": null, "stage": null, "condition": null, '
        '"reroll": null, "permanent_point": null}'
    )
    timeline = d20_scifi.simulate_radiation("Low", 30, 2, random.Random(3))
    events = timeline.to_dict()["events"]
    assert isinstance(events, list)
    assert [e["kind"] for e in events if isinstance(e, dict)] == [
        e.kind for e in timeline.events
    ]
    assert len(events) == len(timeline.events)


def test_labels_lists_and_pairs_at_the_top() -> None:
    level = d20_scifi.RadiationLevel.LOW
    assert rj.to_data(level) == "Low"
    assert type(rj.to_data(level)) is str
    assert rj.to_data({level: Fraction(1, 2)}) == {"Low": "1/2"}
    assert rj.to_data([3, 1]) == [3, 1]
    assert rj.to_data(((30, 1), (60, 1))) == [[30, 1], [60, 1]]
    assert rj.to_data(d20_scifi.healing(2, 0)) == [
        list(pair) for pair in d20_scifi.healing(2, 0)
    ]
    with pytest.raises(TypeError):
        rj.to_data(object())


# -- rulesc simulate --json ---------------------------------------------------------

SIMULATIONS = [
    (
        "d20_scifi.simulate_radiation",
        ["--level", "Low", "--exposed-minutes", "30", "--fort-bonus", "2"],
    ),
    ("d20_scifi.accumulation", ["--pool", "12"]),
    ("d20_scifi.full_exposure_time", []),
    ("edge_of_darkness.dice_pool", ["--dice", "4"]),
    (
        "gurps.random_hit",
        [
            "--exposure",
            ",".join(
                f"{h.value}:{('exposed', 'half', 'covered')[i % 3]}"
                for i, h in enumerate(
                    importlib.import_module("rulebook.gurps").HitLocation
                )
            ),
        ],
    ),
]


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize(("name", "options"), SIMULATIONS)
def test_simulate_json_is_the_runtimes_json(
    project: Path, name: str, options: list[str], seed: int
) -> None:
    done = rulesc(
        "simulate", name, "--seed", str(seed), "--json", *options, cwd=project
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    system_id, rule_id = name.split(".")
    system = next(s for s in SYSTEMS if s.id == system_id)
    rule = next(r for r in system.rules if r.id == rule_id)
    function = kind_of(rule).simulate(rule, MODULES[system_id])
    answer = function(**doc["inputs"], rng=random.Random(seed))
    same = {"rule": name, "inputs": doc["inputs"], "seed": seed, "answer": answer}
    assert done.stdout == rj.dumps(same, indent=2, ensure_ascii=False) + "\n"
