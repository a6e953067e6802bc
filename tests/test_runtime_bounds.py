"""The runtime's limit: no call makes more than MAX_ENTRIES entries, nor runs long.

Every public function of the committed modules (found by introspection) gets
arguments from the whole int range, near the limit, and rngs that keep giving
the lowest or highest face (the ones that make re-rolls and checks go on): it
answers, with no list of more than ``MAX_ENTRIES`` entries, or raises
``RuleInputError``, well under a second and within 100 MB. Pools and recoveries
(found in the rules model) answer exactly at their bound and refuse one past it,
with a message giving the range; a process checked until successes that never
come, built from YAML alone, stops at the limit too.
"""

from __future__ import annotations

import importlib
import inspect
import random
import time
import tracemalloc
import typing
from collections.abc import Callable, Iterator
from enum import Enum
from functools import partial
from pathlib import Path
from types import ModuleType, NoneType, UnionType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rulebook import d20_scifi, edge_of_darkness, gurps
from rulebook._support import MAX_ENTRIES, MAX_EXACT, LabelMapping
from rulebook.dice import RNG, Dice
from rulebook.errors import RuleInputError

from rulesc.examples import runtime_from
from rulesc.kinds.pool.model import PoolRule
from rulesc.kinds.recovery.model import RecoveryRule
from rulesc.pipeline import build

from .conftest import project_systems
from .test_process_and_state import CURSE, _write

MODULES: tuple[ModuleType, ...] = (d20_scifi, gurps, edge_of_darkness)
SECONDS = 1.0
MEGABYTES = 100
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _bounded(
    call: Callable[[], Any], refusal: type[Exception] = RuleInputError
) -> tuple[str, Any]:
    """Run ``call``: it answers or raises RuleInputError quickly, in little memory.

    Timed untraced, then run again under tracemalloc for its peak memory (tracing
    slows big-int arithmetic down many times over).
    """

    def run() -> tuple[str, Any]:
        try:
            return "answer", call()
        except refusal as error:
            return "refused", error

    # CPU time, not wall time: other work on the machine must not fail the test.
    # Two cores shared with the rest of the suite (a browser among it) can still
    # make one run's CPU time several times its own: past the limit, the call is
    # timed again, and the quickest of up to three runs counts.
    started = time.process_time()
    outcome = run()
    took = time.process_time() - started
    for _ in range(2):
        if took < SECONDS:
            break
        started = time.process_time()
        run()
        took = min(took, time.process_time() - started)
    assert took < SECONDS, f"took {took:.2f} s"
    tracemalloc.start()
    try:
        run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEGABYTES * 10**6, f"peak {peak / 10**6:.0f} MB"
    if outcome[0] == "answer":
        for size in _sizes(outcome[1]):
            assert size <= MAX_ENTRIES
    return outcome


def _sizes(value: object) -> Iterator[int]:
    """The length of every list, tuple and dict in an answer, one level down."""
    if isinstance(value, list | tuple | dict):
        yield len(value)
    for name in getattr(type(value), "FIELDS", ()):  # a record of the runtime
        inner = getattr(value, name)
        if isinstance(inner, list | tuple | dict):
            yield len(inner)


# -- rngs that keep a call going ---------------------------------------------------


class _Faces:
    """An rng that answers the lowest or the highest face, by the die's size:
    bit ``b % 8`` of ``mask`` set means the highest."""

    def __init__(self, mask: int) -> None:
        self.mask = mask

    def randint(self, a: int, b: int) -> int:
        return b if self.mask >> (b % 8) & 1 else a

    def __repr__(self) -> str:
        return f"_Faces({self.mask:#010b})"


RNGS = st.one_of(
    st.builds(_Faces, st.integers(0, 255)),
    st.builds(random.Random, st.integers(0, 2**32)),
)
BIG = st.one_of(
    st.integers(-3, 40),
    st.sampled_from(
        [MAX_ENTRIES - 1, MAX_ENTRIES, MAX_ENTRIES + 1, 10 * MAX_ENTRIES, 2**63]
    ),
    st.integers(-(10**18), 10**18),
)


def _arms(hint: Any) -> tuple[Any, ...]:
    """The types of a union (a union with a Literal is a typing.Union)."""
    union = isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union
    return typing.get_args(hint) if union else (hint,)


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    arms = _arms(hint)
    options: list[st.SearchStrategy[Any]] = []
    if NoneType in arms:
        options.append(st.none())
    for arm in arms:
        if isinstance(arm, type) and issubclass(arm, Enum):
            options.append(st.sampled_from(list(arm)))
        elif typing.get_origin(arm) is LabelMapping:  # a mapping: keys to one value
            key, value = typing.get_args(arm)
            key = next(a for a in _arms(key) if isinstance(a, type))
            if issubclass(key, Enum):
                values = [a for a in _arms(value) if isinstance(a, type)]
                enum = next(v for v in values if issubclass(v, Enum))
                options.append(
                    st.sampled_from(list(enum)).map(partial(dict.fromkeys, key))
                )
    if hint is RNG:
        options.append(RNGS)
    elif hint is bool:
        options.append(st.booleans())
    elif hint is int:
        options.append(BIG)
    assert options, hint
    return st.one_of(options)


def _functions() -> list[tuple[str, Callable[..., Any]]]:
    return [
        (f"{m.__name__}.{name}", getattr(m, name))
        for m in MODULES
        for name in m.__all__
        if inspect.isfunction(getattr(m, name))
    ]


FUNCTIONS = _functions()


@pytest.mark.parametrize(("name", "function"), FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
@SETTINGS
@given(data=st.data())
def test_every_function_answers_within_the_limit_or_refuses(
    name: str, function: Callable[..., Any], data: st.DataObject
) -> None:
    hints = typing.get_type_hints(function)
    args = {
        p: data.draw(_strategy(hints[p]), label=p)
        for p in inspect.signature(function).parameters
    }
    outcome = _bounded(lambda: function(**args))
    if outcome[0] == "answer":  # its methods that roll are bounded too
        for attr in dir(outcome[1]):
            method = getattr(outcome[1], attr)
            if (
                not attr.startswith("_")
                and inspect.ismethod(method)
                and list(inspect.signature(method).parameters) == ["rng"]
            ):
                rng = data.draw(RNGS)
                _bounded(partial(method, rng))


def test_a_track_rolled_again_forever_stops_at_the_limit() -> None:
    # six-sided dice show 6 (the most damage), every other die its lowest face:
    # saves fail, and the five-sided track die's first effect runs out of stages
    # and asks for a roll again, forever
    stuck = _Faces(1 << 6)
    outcome = _bounded(lambda: d20_scifi.simulate_radiation("Critical", 5, -99, stuck))
    assert outcome[0] == "refused"
    assert f"more than {MAX_ENTRIES:,} events" in str(outcome[1])


# -- pools and recoveries: exactly at the bound, and one past it ---------------------


def _rules(kind: type) -> list[tuple[ModuleType, Any]]:
    return [
        (importlib.import_module(f"rulebook.{s.id}"), r)
        for s in project_systems()
        for r in s.rules
        if isinstance(r, kind)
    ]


POOLS = _rules(PoolRule)
RECOVERIES = _rules(RecoveryRule)


def test_the_rules_have_pools_and_recoveries() -> None:
    assert POOLS and RECOVERIES


@pytest.mark.parametrize(("module", "rule"), POOLS, ids=[r.id for _, r in POOLS])
@pytest.mark.parametrize("saved", [False, True])
def test_a_pool_at_the_limit_is_dealt(
    module: ModuleType, rule: PoolRule, saved: bool
) -> None:
    deal = getattr(module, rule.function)
    most = rule.deal.min * MAX_ENTRIES
    lowest = _Faces(0)  # every roll deals the least: the most entries
    dealt = _bounded(lambda: deal(most, lowest, saved=saved))[1]
    assert sum(dealt) == (
        getattr(module, f"{rule.function}_after_save")(most) if saved else most
    )
    assert len(dealt) == (-(-sum(dealt) // rule.deal.min))


@pytest.mark.parametrize(("module", "rule"), POOLS, ids=[r.id for _, r in POOLS])
@SETTINGS
@given(over=st.integers(1, 10**20), seed=st.integers(0, 2**32), saved=st.booleans())
def test_a_pool_past_the_limit_is_refused(
    module: ModuleType, rule: PoolRule, over: int, seed: int, saved: bool
) -> None:
    deal = getattr(module, rule.function)
    most = rule.deal.min * MAX_ENTRIES
    outcome = _bounded(lambda: deal(most + over, random.Random(seed), saved=saved))
    assert outcome[0] == "refused"
    assert str(outcome[1]) == _past(
        "pool",
        most + over,
        f"pool must be in 0..{most}, not {most + over}: one call makes at most "
        f"{MAX_ENTRIES:,} entries (a limit of the runtime, not of the rules)",
    )
    assert f"{most}" in (deal.__doc__ or "") and f"{MAX_ENTRIES:,}" in (
        deal.__doc__ or ""
    )


@pytest.mark.parametrize(
    ("module", "rule"), RECOVERIES, ids=[r.id for _, r in RECOVERIES]
)
def test_a_recovery_at_the_limit_is_answered(
    module: ModuleType, rule: RecoveryRule
) -> None:
    heal = getattr(module, rule.function)
    most = rule.amount * MAX_ENTRIES
    latest = MAX_EXACT - rule.interval_minutes * MAX_ENTRIES  # the heals stay exact
    heals = _bounded(lambda: heal(most, latest))[1]
    assert len(heals) == MAX_ENTRIES and sum(n for _, n in heals) == most
    assert heals[-1][0] == MAX_EXACT
    refused = _bounded(lambda: heal(most, latest + 1))
    assert refused[0] == "refused"
    assert str(refused[1]) == (
        f"ready_at_minutes must be in 0..{latest}, not {latest + 1}"
    )


@pytest.mark.parametrize(
    ("module", "rule"), RECOVERIES, ids=[r.id for _, r in RECOVERIES]
)
@SETTINGS
@given(over=st.integers(1, 10**20), ready=st.integers(0, 10**18))
def test_a_recovery_past_the_limit_is_refused(
    module: ModuleType, rule: RecoveryRule, over: int, ready: int
) -> None:
    heal = getattr(module, rule.function)
    most = rule.amount * MAX_ENTRIES
    outcome = _bounded(lambda: heal(most + over, ready))
    assert outcome[0] == "refused"
    assert str(outcome[1]).startswith(
        _past(
            "points", most + over, f"points must be in 0..{most}, not {most + over}: "
        )
    )
    assert f"{most}" in (heal.__doc__ or "")


def _past(name: str, value: int, within: str) -> str:
    """The refusal of an argument ``value`` (``name``, 0 or more): ``within``
    while JavaScript holds it exactly, else the refusal of both runtimes past
    Number.MAX_SAFE_INTEGER."""
    if value <= MAX_EXACT:
        return within
    return (
        f"{name} must be in 0..{MAX_EXACT}, not {value}: JavaScript numbers are "
        "exact integers only up to Number.MAX_SAFE_INTEGER"
    )


# -- dice and success pools --------------------------------------------------------


@SETTINGS
@given(
    count=st.one_of(st.integers(0, 200), st.integers(0, 10**12)),
    sides=st.one_of(st.integers(1, 20_000), st.integers(1, 10**12)),
    rng=RNGS,
)
def test_dice_roll_and_distribution_within_the_limit(
    count: int, sides: int, rng: RNG
) -> None:
    dice = Dice(count, sides) if count else Dice(0, 0, sides)
    rolled = _bounded(lambda: dice.roll(rng))
    if rolled[0] == "answer":
        assert dice.min <= rolled[1] <= dice.max
    else:
        assert count > MAX_ENTRIES
    spread = _bounded(dice.distribution)
    if spread[0] == "answer":
        assert len(spread[1]) <= MAX_ENTRIES
        assert sum(spread[1].values()) == 1
    else:
        assert "possible sums" in str(spread[1])


@SETTINGS
@given(dice=st.integers(-5, 40), mask=st.integers(0, 255))
def test_a_success_pool_that_rolls_again_forever_stops(dice: int, mask: int) -> None:
    outcome = _bounded(lambda: edge_of_darkness.roll_pool(dice, _Faces(mask)))
    if outcome[0] == "answer":
        assert len(outcome[1].rolls) <= MAX_ENTRIES
    elif "rolls" in str(outcome[1]):
        assert f"more than {MAX_ENTRIES:,} die rolls" in str(outcome[1])
    else:
        assert "dice must be" in str(outcome[1])


# -- a process checked until successes that never come --------------------------------


@pytest.fixture(scope="module")
def curse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    outputs = build(_write(Path(tmp_path_factory.mktemp("curse")), CURSE))
    files = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        yield importlib.import_module(f"{name}.lab")


@settings(SETTINGS, max_examples=10)
@given(will=st.integers(-5, 5), mask=st.integers(0, 255))
def test_a_process_never_ending_stops_at_the_limit(
    curse: ModuleType, will: int, mask: int
) -> None:
    errors = importlib.import_module(curse.__name__.rsplit(".", 1)[0] + ".errors")
    outcome = _bounded(
        lambda: curse.run_curse(will, _Faces(mask)), errors.RuleInputError
    )
    if outcome[0] == "answer":
        assert len(outcome[1].events) <= MAX_ENTRIES
    else:  # the mind course needs two successes in a row: never, on a 1
        assert f"more than {MAX_ENTRIES:,} events" in str(outcome[1])
        assert not mask >> (12 % 8) & 1  # the d12 check never showed 12
