"""Exact distributions, checked against icepool (an independent dice library).

Every dice expression of the rules - each ``Dice`` value the generated modules
hold (constants, table cells, range-table cells, the dice behind rolls and
checks) - must have ``Dice.distribution()`` equal to icepool's exact distribution.
The Storytelling dice pool's ``pool_distribution(n)`` must equal icepool's
distribution of the pool: d10s, 8 and up a success, 10 again, a chance die for 0.

Truncation: a 10-again pool has no largest outcome, so icepool's ``explode`` is
cut off at a depth. With ``depth=D`` a die rolls at most D extra dice; a chain
cut off there has had D + 1 tens, each a success, so icepool puts all of its
weight on D + 1 or more successes. Choosing D equal to the largest count the
runtime lists (L) leaves every count 0..L exact, so those counts, and the tail
P(more than L) = 1 - P(0..L), are compared exactly - no tolerance anywhere.
"""

from __future__ import annotations

import dataclasses
import itertools
import types
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool  # type: ignore[import-untyped]
import pytest
import rulebook.d20_scifi as d20
import rulebook.edge_of_darkness as eod
import rulebook.gurps as gurps
from rulebook.dice import Dice, Scripted

from rulesc.pipeline import Outputs
from rulesc.runtime.dice import Dice as ModelDice

from .conftest import project_systems
from .probe import doc

ROOT = Path(__file__).resolve().parent.parent
MODULES: tuple[types.ModuleType, ...] = (d20, gurps, eod)


# -- finding every Dice value -------------------------------------------------------


def _walk(
    value: object, path: str, kind: type[Any], seen: set[int]
) -> Iterator[tuple[str, Any]]:
    """Every instance of ``kind`` reachable through records, dicts and sequences."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, kind):
        yield path, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(
                getattr(value, field.name), f"{path}.{field.name}", kind, seen
            )
    elif not isinstance(value, type) and hasattr(type(value), "FIELDS"):
        for name in getattr(type(value), "FIELDS"):  # noqa: B009 (a runtime record)
            yield from _walk(getattr(value, name), f"{path}.{name}", kind, seen)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}[{key!s}]", kind, seen)
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{path}[{i}]", kind, seen)


def _public_calls() -> Iterator[tuple[str, object]]:
    """What the public tables and functions answer (rows holding dice)."""
    for level in d20.RadiationLevel:
        yield f"radiation_exposure({level.value})", d20.radiation_exposure(level)
        yield f"instant_exposure({level.value})", d20.instant_exposure(level)
        yield f"half_exposure({level.value})", d20.half_exposure(level)
        yield f"exposures({level.value})", d20.exposures(level, 30, 7)
    for spin in range(0, 13):
        yield f"spin_save({spin})", d20.spin_save(spin)


def _generated_dice() -> list[tuple[str, Dice]]:
    found: list[tuple[str, Dice]] = []
    seen: set[int] = set()
    for module in MODULES:
        for name, value in vars(module).items():
            if isinstance(value, types.ModuleType | type) or callable(value):
                continue
            found.extend(_walk(value, f"{module.__name__}.{name}", Dice, seen))
    for path, value in _public_calls():
        found.extend(_walk(value, path, Dice, seen))
    return found


GENERATED_DICE = _generated_dice()
DISTINCT_DICE: dict[tuple[int, int, int, int], list[str]] = {}
for _path, _dice in GENERATED_DICE:
    _key = (_dice.count, _dice.sides, _dice.multiplier, _dice.modifier)
    DISTINCT_DICE.setdefault(_key, []).append(_path)


def _key_of(dice: Dice | ModelDice) -> tuple[int, int, int, int]:
    return (dice.count, dice.sides, dice.multiplier, dice.modifier)


def test_the_walk_finds_the_rules_dice() -> None:
    shown = {(str(d), d.unit) for _, d in GENERATED_DICE}
    for expected in (
        ("6d6", "hours"),
        ("2d6x10", "minutes"),
        ("1", "CON damage"),
        ("3d6", "CON damage"),
        ("3d4", "minutes"),
        ("2d10+10", "minutes"),
        ("1d4", None),
        ("1d5", None),
        ("1d6", "minutes"),
        ("3d6", None),
        ("1d6", None),
    ):
        assert expected in shown, expected


def test_every_dice_expression_of_the_rules_is_in_the_runtime() -> None:
    """The rules' model (loaded from rules/) holds no dice the runtime lacks."""
    model: list[tuple[str, Any]] = []
    seen: set[int] = set()
    for system in project_systems():
        model.extend(_walk(system, system.id, ModelDice, seen))
    assert model
    runtime = {(_key_of(d), d.unit) for _, d in GENERATED_DICE}
    for path, dice in model:
        assert (_key_of(dice), dice.unit) in runtime, (path, str(dice), dice.unit)


# -- Dice.distribution() against icepool ------------------------------------------


def _icepool_die(count: int, sides: int, multiplier: int, modifier: int) -> Any:
    if count == 0:
        return icepool.Die([modifier])
    return (count @ icepool.d(sides)) * multiplier + modifier


def _as_fractions(die: Any) -> dict[int, Fraction]:
    return {
        int(outcome): Fraction(p)
        for outcome, p in zip(die.outcomes(), die.probabilities(), strict=True)
    }


@pytest.mark.parametrize(
    "key",
    list(DISTINCT_DICE),
    ids=[f"{k[0]}d{k[1]}x{k[2]}{k[3]:+d}" for k in DISTINCT_DICE],
)
def test_dice_distribution_equals_icepool(key: tuple[int, int, int, int]) -> None:
    die = _icepool_die(*key)
    expected = _as_fractions(die)
    for path, dice in GENERATED_DICE:
        if _key_of(dice) != key:
            continue
        got = dice.distribution()
        assert got == expected, path
        assert all(type(p) is Fraction for p in got.values()), path
        assert list(got) == sorted(got), path
        assert (dice.min, dice.max) == (die.min_outcome(), die.max_outcome()), path
        assert dice.mean == Fraction(die.mean()), path


def test_dice_distributions_of_odd_shapes_equal_icepool() -> None:
    """The value type itself, beyond the shapes the rules happen to use."""
    for count, sides, multiplier, modifier in itertools.product(
        (1, 2, 3, 5), (1, 2, 3, 6, 10, 20), (1, 3, 10), (-7, 0, 4)
    ):
        dice = Dice(count, sides, modifier, multiplier)
        expected = _as_fractions(_icepool_die(count, sides, multiplier, modifier))
        assert dice.distribution() == expected, str(dice)
    for constant in (-3, 0, 1, 12):
        assert Dice(0, 0, constant).distribution() == {constant: Fraction(1)}


def test_hit_location_chances_equal_icepool() -> None:
    """Each location's chance on a random hit is icepool's 3d6 over its range."""
    three_d6 = 3 @ icepool.d6
    chance: dict[str, Fraction] = {}
    for triple in itertools.product(range(1, 7), repeat=3):
        location = gurps.roll_hit_location(Scripted(triple))
        chance[location.value] = chance.get(location.value, Fraction(0)) + Fraction(
            1, 216
        )
    for member in gurps.HitLocation:
        roll = gurps.hit_location(member).roll
        if roll is None:
            assert member.value not in chance
            continue
        low, high = roll
        expected = Fraction(three_d6.probability(">=", low)) - Fraction(
            three_d6.probability(">", high)
        )
        assert chance[member.value] == expected, member


# -- the Storytelling dice pool against icepool ------------------------------------


def _successes(total: int) -> int:
    """Successes of one exploded chain: every 10 succeeds, the last face on 8+."""
    return total // 10 + (1 if total % 10 >= 8 else 0)


def _chance_successes(total: int) -> int:
    """A chance die: nothing unless its first face is 10; then a normal chain."""
    return 0 if total < 10 else _successes(total)


def _icepool_pool(dice: int, depth: int) -> Any:
    chain = icepool.d10.explode([10], depth=depth)
    if dice <= 0:
        return chain.map(_chance_successes)
    return dice @ chain.map(_successes)


def _listed(dice: int) -> int:
    return max(eod.pool_distribution(dice))


@pytest.mark.parametrize("dice", range(0, 11))
def test_pool_distribution_equals_icepool(dice: int) -> None:
    dist = eod.pool_distribution(dice)
    listed = _listed(dice)
    assert sorted(dist) == list(range(listed + 1))
    pool = _icepool_pool(dice, depth=listed)
    expected = _as_fractions(pool)
    for k in range(listed + 1):
        assert dist[k] == expected.get(k, Fraction(0)), k
    assert dist.tail == Fraction(pool.probability(">", listed))
    assert sum(dist.values()) + dist.tail == 1


@pytest.mark.parametrize("dice", range(0, 11))
def test_deeper_explosion_changes_nothing_listed(dice: int) -> None:
    """A deeper cut-off agrees on every listed count: the truncation is exact."""
    listed = _listed(dice)
    shallow = _as_fractions(_icepool_pool(dice, depth=listed))
    deep = _as_fractions(_icepool_pool(dice, depth=listed + 5))
    for k in range(listed + 1):
        assert shallow.get(k, Fraction(0)) == deep.get(k, Fraction(0)), k


@pytest.mark.parametrize("dice", [-1, -4])
def test_fewer_than_no_dice_is_the_chance_die(dice: int) -> None:
    chance = eod.pool_distribution(0)
    assert eod.pool_distribution(dice) == chance
    assert eod.pool_distribution(dice).tail == chance.tail


def test_pool_means_approach_the_exact_mean_from_below() -> None:
    """The mean of the counts listed misses only the tail: each die averages
    3/10 successes over 9/10 (a 10 rolls again), so 1/3; a chance die a tenth
    of one success and the die after it, 2/15. icepool's truncated mean agrees."""
    for dice in range(0, 11):
        exact = Fraction(dice, 3) if dice > 0 else Fraction(2, 15)
        dist = eod.pool_distribution(dice)
        listed = sum((k * p for k, p in dist.items()), Fraction(0))
        assert 0 <= exact - listed < Fraction(1, 10**8), dice
        truncated = Fraction(_icepool_pool(dice, depth=30).mean())
        assert 0 <= exact - truncated < Fraction(1, 10**25), dice


def _chart(text: str) -> dict[int, list[str]]:
    """The punch-through chart of the docs: pool size -> its cells, as printed."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("| *dice* | Mean | beat")
    )
    rows: dict[int, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[int(cells[0])] = cells[2:]  # (the mean, second, is not a chance)
    return rows


def _percent_matches(cell: str, chance: Fraction) -> bool:
    """A chance shown to two decimals of a percent (or as "< 0.01%")."""
    percent = chance * 100
    if cell == "< 0.01%":
        return percent < Fraction(1, 100)
    assert cell.endswith("%"), cell
    return abs(Fraction(cell[:-1]) - percent) <= Fraction(1, 200)


def test_docs_punch_through_chart_equals_icepool(built: Outputs) -> None:
    chart = _chart(doc(built, "edge_of_darkness"))
    assert sorted(chart) == list(range(1, 11))
    for dice, cells in chart.items():
        pool = _icepool_pool(dice, depth=12)
        assert len(cells) == 5
        for beat, cell in enumerate(cells, start=1):
            # Beating a Durability of ``beat`` needs more successes than it.
            chance = Fraction(pool.probability(">", beat))
            assert _percent_matches(cell, chance), (dice, beat, cell, float(chance))
