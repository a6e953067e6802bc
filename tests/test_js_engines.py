"""The JavaScript runtime's engines against the Python runtime's, under ``node --test``:
a staged track (the generated class), a success pool (a decision: its roll and
its derived odds) and a process, on the rules' own figures."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

from .js_node import PACKAGE, node_test

SEEDS = range(1, 41)


def _data(value: Any) -> Any:
    from rulebook.json import to_data

    return to_data(value)


# what a track's apply() is given besides its die's results: numbers past the
# die, other types (refused, as in Python; a bool shown in each language's own
# spelling)
PROBES: list[Any] = [0, 6, -1, 2.5, "3", True, None]


def _tracks() -> list[dict[str, Any]]:
    from rulebook import d20_scifi
    from rulebook.errors import RuleInputError

    sides = d20_scifi.SECONDARY_EFFECTS_ROLL.max
    found = []
    for seed in SEEDS:
        rng = random.Random(seed)
        rolls = [rng.randint(1, sides) for _ in range(12)]
        track = d20_scifi.SecondaryEffects()
        steps = [_data(track.apply(r)) for r in rolls]
        asked: list[dict[str, Any]] = []
        for probe in PROBES:
            try:
                track.apply(probe)
            except RuleInputError as refused:
                said = str(refused)
                if probe is True or probe is None:  # JavaScript's own spelling
                    said = said.replace(repr(probe), "true" if probe else "null")
                asked.append({"roll": probe, "refused": said})
        found.append(
            {
                "rolls": rolls,
                "steps": steps,
                "data": _data(track),
                "asked": asked,
            }
        )
    return found


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _pools() -> list[dict[str, Any]]:
    from rulebook import edge_of_darkness

    counts = range(-1, 9)
    return [
        {
            "module": "edge_of_darkness.js",
            "distributions": [
                [n, _data(edge_of_darkness.pool_distribution(n))] for n in counts
            ],
            "rolls": [
                [n, seed, _data(edge_of_darkness.roll_pool(n, random.Random(seed)))]
                for n in counts
                for seed in SEEDS
            ],
            "at_least": [
                [n, k, _fraction(edge_of_darkness.pool_distribution(n).at_least(k))]
                for n in counts
                for k in (0, 1, 3)
            ],
        }
    ]


def _processes() -> list[dict[str, Any]]:
    """A process lowered to a timeline of the core: the generated function in
    both languages, over every level, stay and seed, bonuses either way."""
    from rulebook import d20_scifi

    found = []
    for level in d20_scifi.RadiationLevel:
        for minutes in (1, 12, 60):
            for seed in range(1, 11):
                bonus = seed % 5 * 4 - 6
                run = d20_scifi.simulate_radiation(
                    level, minutes, bonus, random.Random(seed)
                )
                found.append(
                    {
                        "level": str(level),
                        "minutes": minutes,
                        "bonus": bonus,
                        "seed": seed,
                        "run": _data(run),
                    }
                )
    return found


def _states() -> list[dict[str, Any]]:
    from rulebook._state import LevelState

    found = []
    for cumulative in (True, False):
        for start in (None, 1, 3):

            class Subject(LevelState):
                __slots__ = ()
                _floor, _ceiling = 0, 4
                _effects = ("first", "second", "third", "fourth")
                _cumulative = cumulative

            state = Subject(start)
            rng = random.Random(start or 0)
            moves = [rng.randint(-3, 3) for _ in range(10)]
            seen = [[state._move(m), _data(state)] for m in moves]
            found.append(
                {
                    "floor": 0,
                    "ceiling": 4,
                    "effects": list(Subject._effects),
                    "cumulative": cumulative,
                    "start": start,
                    "moves": moves,
                    "seen": seen,
                }
            )
    return found


def test_engines_answer_as_in_python(tmp_path: Path) -> None:
    spec = {
        "package": str(PACKAGE),
        "tracks": _tracks(),
        "pools": _pools(),
        "processes": _processes(),
        "states": _states(),
    }
    node_test("engines.test.mjs", spec, tmp_path)
