"""Calls ``rulesc diff`` does not sample, answered in JavaScript as in Python.

The conformance kit (test_conformance.py) calls each rule's entry function on
its examples and sampled inputs. Here, for the kinds that make more than one
function or that bound their inputs by the runtime's limit, every function a
rule makes is called on the edges: labels in other cases and values that are no
label, wrong types, the ends of each range and one past them, the ``MAX_ENTRIES``
limit, and numbers past ``Number.MAX_SAFE_INTEGER`` (which only JavaScript
refuses: its numbers stop being exact integers there).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.core.calls import RNG_VALUE, function_call
from rulesc.emit.javascript.names import camel
from rulesc.emit.javascript.plan import js_plan
from rulesc.front.model import (
    RuleBase,
    System,
)
from rulesc.kinds.registry import kind_of
from rulesc.runtime._support import MAX_ENTRIES

from .conftest import project_systems
from .js_node import PACKAGE, answer, node_test, ported

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = {s.id: s for s in project_systems()}
MAX_SAFE = 2**53 - 1
SAFE_NOTE = "JavaScript numbers are exact integers only up to Number.MAX_SAFE_INTEGER"
NOT_INTS = ("3", True, False, None, 1.5, [1])  # what no int parameter takes

# A call: the Python function's name (None: the call the rule's kind plans), its
# arguments by Python name, the seed of its rng (None: it rolls no dice), and the
# refusal JavaScript alone makes (None: the answer must be Python's, unless it
# holds an integer past Number.MAX_SAFE_INTEGER, which JavaScript refuses).
Call = tuple[str | None, dict[str, Any], int | None, str | None]


def _past_safe(name: str, value: int, lo: int | None, hi: int | None) -> str:
    least = -MAX_SAFE if lo is None else lo
    most = MAX_SAFE if hi is None else hi
    return f"{camel(name)} must be in {least}..{most}, not {value}: {SAFE_NOTE}"


def _labels(enum: Any) -> list[Any]:
    """Each label as written, in other cases, and values that are none."""
    found: list[Any] = []
    for m in enum.members:
        found += list(dict.fromkeys([m.label, m.label.upper(), m.label.lower()]))
    return [*found, "", "nope", None, 3, True]


def shift_calls(rule: Any) -> Iterator[Call]:
    for function in (rule.function, f"{rule.function}_level"):
        for label in _labels(rule.table.enum):
            yield function, {rule.table.key_param: label}, None, None


def exposure_schedule_calls(rule: Any) -> Iterator[Call]:
    key, stayed, full = rule.table.key_param, rule.stayed_param, rule.full_param
    low, high = rule.full_time.dice.min, rule.full_time.dice.max
    first = rule.table.enum.members[0].label
    for label in _labels(rule.table.enum):
        yield rule.function, {key: label, stayed: 1, full: low}, None, None
    for level in rule.table.enum.members:
        for rolled in range(low, high + 1):
            for stay in [*range(1, rolled + 2), MAX_SAFE]:
                args = {key: level.label, stayed: stay, full: rolled}
                yield rule.function, args, None, None
    for bad in (0, -1, -MAX_SAFE, *NOT_INTS):
        yield rule.function, {key: first, stayed: bad, full: low}, None, None
    for bad in (low - 1, high + 1, 0, MAX_SAFE, *NOT_INTS):
        yield rule.function, {key: first, stayed: 1, full: bad}, None, None
    past = 2**53
    yield (
        rule.function,
        {key: first, stayed: past, full: low},
        None,
        _past_safe(stayed, past, 1, None),
    )
    yield (
        rule.function,
        {key: first, stayed: 1, full: past},
        None,
        _past_safe(full, past, low, high),
    )


def recovery_calls(rule: Any) -> Iterator[Call]:
    most = rule.amount * MAX_ENTRIES
    step = rule.interval_minutes
    for points in (0, 1, 2, rule.amount + 1, most, most + 1, MAX_SAFE):
        yield rule.function, {"points": points, "ready_at_minutes": 0}, None, None
    for bad in (-1, -MAX_SAFE, *NOT_INTS):
        yield rule.function, {"points": bad, "ready_at_minutes": 0}, None, None
        yield rule.function, {"points": 1, "ready_at_minutes": bad}, None, None
    yield rule.function, {"points": most + 1, "ready_at_minutes": -1}, None, None
    # the latest start keeps the most heals exact: both runtimes take it, and
    # refuse the minute after it alike (the build proved the heals exact)
    latest = MAX_SAFE - step * MAX_ENTRIES
    for ready in (latest, latest + 1, MAX_SAFE):
        for points in (3, most):
            yield (
                rule.function,
                {"points": points, "ready_at_minutes": ready},
                None,
                None,
            )
    refusal = _past_safe("ready_at_minutes", 2**53, 0, latest)
    yield rule.function, {"points": 0, "ready_at_minutes": 2**53}, None, refusal


def track_calls(rule: Any) -> Iterator[Call]:
    """Rolls past either end, values that are no roll, and each effect rolled
    until it rolls again (past its last stage)."""
    sides = rule.roll.max
    for bad in (0, sides + 1, -1, MAX_SAFE, *NOT_INTS):
        yield None, {"rolls": [1, bad]}, None, None
    yield None, {"rolls": [1, 2**53]}, None, _past_safe("roll", 2**53, 1, sides)
    again = [r for r in range(1, sides + 1) for _ in range(rule.reroll_stage + 1)]
    yield None, {"rolls": again}, None, None
    yield None, {"rolls": list(reversed(again))}, None, None


def _first(values: list[Any], index: int) -> bool:
    """Whether ``values[index]`` is the first of its type and value (1 and True differ)."""
    item = values[index]
    return not any(type(v) is type(item) and v == item for v in values[:index])


def process_calls(rule: Any) -> Iterator[Call]:
    """From the first example's arguments, each parameter in turn at its ends,
    one past them and past the safe integers, labels in other cases and values
    that are none; seeded, and with rngs that are none."""
    base = dict(rule.examples[0].args) if rule.examples else {}
    for param in rule.params:
        if param.type == "choice":
            values: list[Any] = _labels(param.enum)
        elif param.type == "int":
            lo, hi = param.min, param.max
            values = [0, 1, -1, MAX_SAFE, -MAX_SAFE, *NOT_INTS]
            values += [v for v in (lo, hi) if v is not None]
            values += [v + d for v in (lo, hi) if v is not None for d in (-1, 1)]
            for past in (2**53, -(2**53)):
                refusal = _past_safe(param.name, past, lo, hi)
                if (lo is None or past >= lo) and (hi is None or past <= hi):
                    yield rule.function, {**base, param.name: past}, 1, refusal
        else:
            values = [True, False, None, 0]
        for value in [v for i, v in enumerate(values) if _first(values, i)]:
            for seed in (1, 2):
                yield rule.function, {**base, param.name: value}, seed, None
    for bad in (None, 3, "rng"):
        yield rule.function, {**base, "rng": bad}, None, None


def pool_calls(rule: Any) -> Iterator[Call]:
    after = f"{rule.function}_after_save"
    for pool in (*range(0, 3 * rule.save_divisor + 2), MAX_SAFE, -1, *NOT_INTS):
        yield after, {"pool": pool}, None, None
    yield after, {"pool": 2**53}, None, _past_safe("pool", 2**53, 0, None)
    most = rule.deal.min * MAX_ENTRIES
    for pool in (0, 1, 2, 7, most, most + 1, MAX_SAFE, -1, -MAX_SAFE, *NOT_INTS):
        for saved in (False, True):
            for seed in (1, 2):
                yield rule.function, {"pool": pool, "saved": saved}, seed, None
    yield rule.function, {"pool": 2**53}, 1, _past_safe("pool", 2**53, 0, None)
    for seed in range(3, 40):
        yield rule.function, {"pool": seed}, seed, None
    not_bools: tuple[Any, ...] = (1, 0, "yes", None, [True])
    for flag in not_bools:
        yield rule.function, {"pool": 5, "saved": flag}, 1, None
        yield rule.function, {"pool": -1, "saved": flag}, 1, None
    not_rngs: tuple[Any, ...] = (None, 5, "rng", {}, [1])
    for rng in not_rngs:
        for args in ({"pool": 0}, {"pool": 5, "saved": True}, {"pool": 5, "saved": 1}):
            yield rule.function, {**args, "rng": rng}, None, None


EDGES: dict[str, Callable[[Any], Iterator[Call]]] = {
    "pool": pool_calls,
    "track": track_calls,
    "process": process_calls,
    "recovery": recovery_calls,
    "shift": shift_calls,
    "exposure_schedule": exposure_schedule_calls,
}


def _past_safe_answer(data: Any) -> bool:
    """Whether an answer (as JSON) holds an integer JavaScript cannot hold exactly."""
    if isinstance(data, dict):
        return any(_past_safe_answer(v) for v in data.values())
    if isinstance(data, list):
        return any(_past_safe_answer(v) for v in data)
    return isinstance(data, int) and not isinstance(data, bool) and abs(data) > MAX_SAFE


def _cases(system: System, module: Any, rule: RuleBase) -> list[dict[str, Any]]:
    kind = kind_of(rule)
    found = []
    for function, kwargs, seed, js_refusal in EDGES[rule.kind](rule):
        rolls = seed is not None
        args = {RNG_VALUE if k == "rng" else k: v for k, v in kwargs.items()}
        call = (
            kind.call(module, rule, args, rolls, None)
            if function is None
            else function_call(getattr(module, function), function, args, rolls, None)
        )
        rng = random.Random(seed) if seed is not None else None
        python = (
            answer(system, module, call, rng)
            if js_refusal is None
            else {"raises": js_refusal}
        )
        if "answer" in python and _past_safe_answer(python["answer"]):
            # JavaScript refuses an answer it cannot hold exactly
            python = {
                "raises": f"the answer would pass Number.MAX_SAFE_INTEGER: {SAFE_NOTE}"
            }
        found.append(
            {
                "name": f"{rule.qualified_id}: {function or kind.call_name(rule)}({kwargs}) seed {seed}",
                "plan": js_plan(call),
                "seed": seed,
                "python": python,
            }
        )
    return found


def test_every_kind_here_has_rules_in_javascript() -> None:
    """Each kind these edges cover has a rule in some system's JavaScript module."""
    here = {
        rule.kind
        for system in SYSTEMS.values()
        for rule in system.rules
        if rule.qualified_id in ported(system)
    }
    assert set(EDGES) <= here


WITH_EDGES = sorted(
    s.id for s in SYSTEMS.values() if any(r.kind in EDGES for r in s.rules)
)


@pytest.mark.parametrize("system_id", WITH_EDGES)
def test_edges_answer_as_in_python(system_id: str, tmp_path: Path) -> None:
    system = SYSTEMS[system_id]
    module = importlib.import_module(f"rulebook.{system_id}")
    here = ported(system)
    groups = [
        {"name": f"{rule.qualified_id}: edges", "cases": _cases(system, module, rule)}
        for rule in system.rules
        if rule.kind in EDGES and rule.qualified_id in here
    ]
    assert groups, f"no rule of {system_id} with edges is in JavaScript"
    spec = {"package": str(PACKAGE), "system": system_id, "groups": groups}
    node_test("conformance.test.mjs", spec, tmp_path)
