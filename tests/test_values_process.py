"""A process holding a state with fields (tests/values/values/timelines.yaml,
``bleed_out``): made from its parameters, stepped with arguments by failed
checks, stopping when the state says so, its fields and log answered; alike in
Python and JavaScript on drawn seeds, and each wrong use a located error."""

from __future__ import annotations

import importlib
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .bounds_cases import build_or_errors
from .conftest import import_fresh
from .js_node import node_json
from .test_values import RULES, built_values

POOLS = ("might", "speed", "intellect")

_ARGS = st.fixed_dictionaries(
    {
        "might": st.integers(1, 30),
        "speed": st.integers(1, 30),
        "intellect": st.integers(1, 30),
        "grit": st.integers(-5, 10),
    }
)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/values/ built by rulesc (read only)."""
    return built_values(tmp_path_factory)


@pytest.fixture(scope="module")
def vm(out: Path) -> Iterator[ModuleType]:
    with import_fresh(out):
        yield importlib.import_module("rulebook.values")


def test_the_worked_run_holds_the_state_to_its_death(vm: ModuleType) -> None:
    """3, 2, 1 pools: a fail of 4, a hold, a fail of 6 + 1 (hurt): dead, and
    no check after it, though ten were allowed."""
    scripted = importlib.import_module("rulebook.dice").Scripted
    dice = scripted([5, 4, 20, 1, 6])
    run = vm.bleed_out(3, 2, 1, 0, dice)
    assert dice.remaining == 0
    assert (run.might, run.speed, run.intellect) == (0, 0, 0)
    assert run.status.value == "dead" and run.checks == 3
    logged = [(x.pool.value, x.points, x.left, x.status.value) for x in run.losses]
    assert logged == [
        ("might", 3, 0, "impaired"),
        ("speed", 1, 1, "impaired"),
        ("speed", 1, 0, "dead"),
        ("intellect", 1, 0, "dead"),
    ]
    kinds = [(e.round_, e.kind) for e in run.events]
    assert kinds == [(0, "check"), (0, "hurt"), (1, "check"), (2, "check"), (2, "hurt")]


def test_a_run_never_changes_the_state_it_was_made_from(vm: ModuleType) -> None:
    """The state is a value: a run's steps change its own, never a state the
    rules or the caller hold, so two runs of one seed answer the same."""
    first = vm.bleed_out(4, 4, 4, -5, random.Random(3))
    again = vm.bleed_out(4, 4, 4, -5, random.Random(3))
    assert first == again
    final = first.final  # the state answered is a copy of its own
    before = (final.might, final.speed, final.intellect)
    final.take("speed", 1)
    assert (first.final.might, first.final.speed, first.final.intellect) == before
    assert first == again
    fresh = vm.Pools(4, 4, 4)
    assert (fresh.might, fresh.speed, fresh.intellect, fresh.log) == (4, 4, 4, ())


@settings(max_examples=150, deadline=None, database=None)
@given(args=_ARGS, seed=st.integers(0, 2**32))
def test_a_drawn_run_keeps_the_books_of_its_state(
    vm: ModuleType, args: dict[str, int], seed: int
) -> None:
    run = vm.bleed_out(**args, rng=random.Random(seed))
    start = sum(args[p] for p in POOLS)
    left = (run.might, run.speed, run.intellect)
    assert start - sum(left) == sum(x.points for x in run.losses)
    for loss in run.losses:  # each logged loss as the state had it then
        assert loss.points > 0 and 0 <= loss.left <= args[loss.pool.value]
    assert (run.final.might, run.final.speed, run.final.intellect) == left
    assert run.final.status == run.status and run.final.log == run.losses
    empty = sum(1 for p in left if p == 0)
    assert run.status.value == ("hale", "impaired", "debilitated", "dead")[empty]
    checks = [e for e in run.events if e.kind == "check"]
    hurts = [e for e in run.events if e.kind == "hurt"]
    assert run.checks == len(checks) <= 10
    assert [e.round_ for e in checks] == list(range(len(checks)))
    assert [e.round_ for e in hurts] == [e.round_ for e in checks if not e.success]
    # the checks stop at death, and only there before the tenth
    assert (run.status.value == "dead") == (len(checks) < 10 or empty == 3)
    if run.status.value == "dead":
        assert not checks[-1].success and run.events[-1].kind == "hurt"


def test_drawn_runs_answer_alike_in_both_runtimes(vm: ModuleType, out: Path) -> None:
    draws = random.Random(39)
    runs = [
        (
            {p: draws.randint(1, 12) for p in POOLS},
            draws.randint(-5, 10),
            draws.randint(0, 2**31),
        )
        for _ in range(60)
    ]
    dumps = importlib.import_module("rulebook.json").dumps
    python = [
        dumps(vm.bleed_out(**pools, grit=grit, rng=random.Random(seed)))
        for pools, grit, seed in runs
    ]
    js = out / "js"
    script = (
        f'import * as m from "{(js / "values.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ Random }} from "{(js / "random.js").as_uri()}";\n'
        f"const runs = {json.dumps(runs)};\n"
        "console.log(JSON.stringify(runs.map(([p, grit, seed]) =>\n"
        "  dumps(m.bleedOut(p.might, p.speed, p.intellect, grit, new Random(seed))))));\n"
    )
    assert node_json(script) == python
    answers = [json.loads(text) for text in python]
    assert any(a["status"] == "dead" for a in answers)  # both ways of ending
    assert any(a["checks"] == 10 for a in answers)


def _with(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_each_wrong_use_is_a_located_error_all_at_once(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    path = rules / "values" / "timelines.yaml"
    text = path.read_text(encoding="utf-8")
    wrong: dict[str, Any] = {
        "step: heal": "has no transition 'heal'",
        "{step: take, args: {pool: might, n: '\"lots\"'}}": "argument 'n' of Pools.take()",
        "{step: take, args: {pool: luck, n: 1}}": "luck",
        "{step: take, args: {pool: might}}": "Pools.take() needs 'n'",
        "{step: take, args: {pool: might, n: 1d6 * 30}}": "may be 30..180, but",
        "{step: take, args: {pool: might, n: 1, x: 2}}": "has no argument 'x'",
    }
    courses = "".join(
        f"      - {{target: 12, on_failure: [{step if step.startswith('{') else '{' + step + '}'}]}}\n"
        for step in wrong
    )
    text = _with(text, "    check: {dice: 1d20", courses + "    check: {dice: 1d20")
    text = _with(text, 'stops: pools.status == "dead"', "stops: pools.might")
    text = _with(text, "of: state, field: might", "of: state, field: mana")
    text = _with(text, "start: Pools(might, speed, intellect)", "start: Pools(might)")
    path.write_text(text, encoding="utf-8")
    errors = build_or_errors(rules)
    expected = [
        *wrong.values(),
        "'stops' is a condition",
        "Pools has no field 'mana'",
        "Pools() needs 'speed', 'intellect'",
    ]
    for needle in expected:
        assert any("timelines.yaml:" in e and needle in e for e in errors), (
            needle,
            errors,
        )
    assert all(e.split(":")[1].isdigit() for e in errors)  # each located
