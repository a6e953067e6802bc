"""rulesc explain of a rule lowered to a procedure of the core: each step it took,
from the core's tracing interpreter, agreeing with the generated runtime."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.core.ir import Procedure
from rulesc.front.model import (
    Rule,
    System,
)
from rulesc.kinds.registry import kind_of
from rulesc.output.cache import cache_dir_for
from rulesc.workbench.explain import explain
from rulesc.workbench.trace import MAX_LINES
from rulesc.workbench.usage import UsageError
from rulesc.workbench.workspace import Workspace, open_workspace

from .conftest import ROOT, run_rulesc
from .workbench_helpers import project, rulesc

__all__ = ["project"]

EXPOSURE = (
    "exposure=Skull:exposed,Face:exposed,Right Leg:covered,Right Arm:exposed,"
    "Torso:half,Groin:covered,Left Arm:exposed,Left Leg:covered,Hand:exposed,"
    "Foot:covered,Neck:exposed,Vitals:half,Eyes:exposed"
)


def test_a_record_answered_step_by_step(project: Path) -> None:
    """The roll, the entry of the table it picks, each test with its outcome and
    the branch taken, the dice each step rolled, and the answer."""
    done = rulesc(
        "explain", "gurps.random_hit", EXPOSURE, "--dice", "3,3,4,5", cwd=project
    )
    assert done.returncode == 0, done.stderr
    steps = done.stdout.split("Steps, in order\n")[1].split("\n\n")[0]
    assert steps.splitlines() == [
        "  roll = 3d6 = 10   (rolled 3, 3, 4)",
        '  location = the entry of roll_hit_location for 10 = "Torso"',
        '  if exposure[location] == "covered": no',
        '  if exposure[location] == "half": yes',
        "    check = 1d6 = 5   (rolled 5)",
        '    answer location "Torso", strikes_cover true, roll 10, check 5',
        "      strikes_cover = check >= 4 and check <= 6 = true",
    ]
    assert "WARNING" not in done.stdout


def test_a_branch_not_taken_says_otherwise(project: Path) -> None:
    done = rulesc(
        "explain",
        "d20_scifi.exposures",
        "level=high",
        "exposed_minutes=5",
        "full_exposure_minutes=7",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "  if exposed_minutes >= full_exposure_minutes: no\n" in out
    assert (
        "  otherwise, if exposed_minutes * 2 >= full_exposure_minutes * 1: yes" in out
    )
    assert "    if half_level and half_row hold values: yes" in out
    assert (
        'half_level = the entry of half_exposure_level for "High" = "Moderate"' in out
    )


def test_a_loop_one_turn_at_a_time(project: Path) -> None:
    done = rulesc(
        "explain",
        "d20_scifi.accumulation",
        "pool=7",
        "saved=true",
        "--dice",
        "4,2",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    steps = done.stdout.split("Steps, in order\n")[1].split("\n\n")[0]
    assert steps.splitlines() == [
        "  pool = (max(pool // 2, 1) if pool > 0 else 0) if saved else pool = 3",
        "  while pool > 0: yes",
        "    amount = min(1d4, pool) = 3   (rolled 4)",
        "    add 3 to dealt",
        "    pool = pool - amount = 0",
        "  while pool > 0: no",
    ]


@pytest.fixture(scope="module")
def workspace(project: Path) -> Workspace:
    return open_workspace(project / "rules", cache_dir_for(project / "generated"))


def _procedures(workspace: Workspace) -> Iterator[tuple[System, Rule]]:
    for system in workspace.systems:
        for rule in system.rules:
            lower = kind_of(rule).lower
            unit = lower(system, rule) if lower is not None else None
            if unit is not None and isinstance(unit.main, Procedure):
                yield system, rule


def _inputs(args: Any) -> list[str]:
    inputs = []
    for name, value in args:
        if isinstance(value, dict):
            inputs.append(f"{name}=" + ",".join(f"{k}:{v}" for k, v in value.items()))
        elif isinstance(value, bool):
            inputs.append(f"{name}={'true' if value else 'false'}")
        else:
            inputs.append(f"{name}={value}")
    return inputs


def _traced_examples(workspace: Workspace) -> int:
    """Explain each worked example of each rule lowered to a procedure: its
    steps, and no warning that the trace and the runtime disagree (a refused
    one: a usage error for its arguments, or its steps up to the rule's own
    refusal). How many answered."""
    seen = 0
    with workspace.runtime() as runtime:
        for system, rule in _procedures(workspace):
            for example in rule.examples:
                dice = (
                    None
                    if example.dice is None
                    else ",".join(str(d) for d in example.dice)
                )
                args = argparse.Namespace(
                    inputs=_inputs(example.args), seed=1, dice=dice
                )
                if example.raises is not None:  # refused: explain says so
                    try:
                        text = explain(workspace, system, rule, runtime, args)
                    except UsageError as refused:  # for its arguments
                        assert "refuses these inputs" in str(refused)
                        continue
                    # by its own steps: shown up to the refusal
                    assert "refuse the call: " in text, text
                    assert "\nAnswer\n  refused: " in text, text
                    assert "WARNING" not in text, text
                    continue
                text = explain(workspace, system, rule, runtime, args)
                assert "\nSteps, in order\n" in text, (rule.id, example.name)
                assert "WARNING" not in text, text
                seen += 1
    return seen


def test_every_worked_example_traced_as_the_runtime_answers(
    workspace: Workspace,
) -> None:
    """Each worked example of each rule of the project lowered to a procedure."""
    assert _traced_examples(workspace) >= 10


def test_a_refusal_of_the_rule_s_own_is_shown_step_by_step(project: Path) -> None:
    """A call the rule's cases refuse (not its arguments' checks): the tests
    tried, the refusal, and the runtime's refusal as the answer."""
    done = rulesc(
        "explain",
        "edge_of_darkness.ranged_modifier",
        "target=Completely covered",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    steps = done.stdout.split("Steps, in order\n")[1].split("\n\n")[0]
    why = (
        "A completely covered target cannot be hit past its cover: the shots "
        "hit the cover. Shoot through the cover instead."
    )
    assert steps.splitlines() == [
        "  if close_combat: no",
        '  if target == "Completely covered": yes',
        f"    refuse the call: {why}",
    ]
    assert f"Answer\n  refused: {why}\n" in done.stdout
    assert "WARNING" not in done.stdout


def test_arguments_outside_a_decision_are_a_usage_error(project: Path) -> None:
    done = rulesc(
        "explain",
        "edge_of_darkness.shoot_through_cover",
        "successes=3",
        "durability=-1",
        "structure=4",
        cwd=project,
    )
    assert done.returncode != 0
    assert "refuses these inputs" in done.stderr


@pytest.mark.parametrize("folder", ["tests/cookbook", "tests/dice_formulas"])
def test_the_cookbooks_worked_examples_traced_as_the_runtime_answers(
    folder: str, tmp_path: Path
) -> None:
    """The same over the cookbooks' rules lowered to procedures: names bound
    with the dice they rolled, turns, the cases, the answer and its parts."""
    workspace = open_workspace(ROOT / folder, tmp_path / "cache")
    assert _traced_examples(workspace) >= 3


def test_a_runtime_that_disagrees_is_flagged(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trace is a check, not a copy: a runtime whose answer differs from the
    steps' is named a bug."""
    with workspace.runtime() as runtime:
        module = runtime.module("gurps")
        real = module.random_hit

        @functools.wraps(real)  # the same parameters, as explain reads them
        def wrong(exposure: Any, rng: Any) -> Any:
            hit = real(exposure, rng)
            return type(hit)(hit.location, not hit.strikes_cover, hit.roll, hit.check)

        monkeypatch.setattr(module, "random_hit", wrong)
        system = next(s for s in workspace.systems if s.id == "gurps")
        rule = next(r for r in system.rules if r.id == "random_hit")
        args = argparse.Namespace(inputs=[EXPOSURE], seed=1, dice="3,3,4,5")
        text = explain(workspace, system, rule, runtime, args)
    assert "WARNING" in text and "this is a bug in rulesc" in text


def test_a_long_run_shows_its_first_lines_and_counts_the_rest(project: Path) -> None:
    done = rulesc(
        "explain", "d20_scifi.healing", "points=100", "ready_at_minutes=0", cwd=project
    )
    assert done.returncode == 0, done.stderr
    steps = done.stdout.split("Steps, in order\n")[1].split("\n\n")[0].splitlines()
    # a start, then five lines a heal and the last test: 1 + 5 x 100 + 1
    assert len(steps) == MAX_LINES + 1
    assert steps[-1] == f"  ... and {1 + 5 * 100 + 1 - MAX_LINES} more line(s)"
    assert "WARNING" not in done.stdout


def test_a_state_s_transition_step_by_step(project: Path) -> None:
    """A transition written as statements, traced on the state as each roll
    finds it: the tests, the loop past a condition already suffered, the field
    it sets and the outcome, agreeing with the runtime."""
    done = rulesc("explain", "d20_scifi.secondary_effects", "1", "3", cwd=project)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Roll 1 (1): the steps of apply\n  if roll == 1: yes\n" in out
    assert "    next_stage = nausea + 1 = 1\n" in out
    assert "      the state's nausea becomes next_stage = 1\n" in out
    assert (
        '      answer effect "Nausea", stage 1, condition "Fatigued", reroll false'
        in out
    )
    # Fatigued from Nausea: Weakness's loop turns once, past it, to Exhausted
    assert "  otherwise, if roll == 3: yes\n" in out
    assert "      next_stage = next_stage + 1 = 2\n" in out
    assert '      answer effect "Weakness", stage 2, condition "Exhausted"' in out
    assert "WARNING" not in out


def test_a_state_that_disagrees_is_flagged(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state whose transition answers otherwise than its steps is named a bug."""
    with workspace.runtime() as runtime:
        module = runtime.module("d20_scifi")
        real = module.SecondaryEffects.apply

        def wrong(self: Any, roll: int) -> Any:
            outcome = real(self, roll)
            return type(outcome)(
                outcome.effect,
                outcome.stage,
                outcome.condition,
                not outcome.reroll,
                outcome.permanent_point,
            )

        monkeypatch.setattr(module.SecondaryEffects, "apply", wrong)
        system = next(s for s in workspace.systems if s.id == "d20_scifi")
        rule = next(r for r in system.rules if r.id == "secondary_effects")
        args = argparse.Namespace(inputs=["1"], seed=1, dice=None)
        text = explain(workspace, system, rule, runtime, args)
    assert "WARNING" in text and "this is a bug in rulesc" in text


COOKBOOK = ROOT / "tests" / "cookbook"


def test_a_record_state_s_transitions_step_by_step() -> None:
    """A transition of changes: its test, its names in order, then each field's
    new value from the values before, traced for each transition given."""
    done = run_rulesc(
        "explain",
        "--rules",
        str(COOKBOOK),
        "table_games.stress",
        "take=5",
        "take=7",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert (
        "  take=7: stress 0, traumas 1, retired no\n"
        "    unless retired: no\n"
        "    after = stress + n = 12\n"
        "    broken = after > 9 = true\n"
        "    the state's stress becomes 0 if broken else after = 0\n"
        "    the state's traumas becomes traumas + 1 if broken else traumas = 1\n"
    ) in out
    assert "WARNING" not in out


def test_a_ladder_s_transitions_step_by_step() -> None:
    done = run_rulesc(
        "explain",
        "--rules",
        str(COOKBOOK),
        "cookbook.exhaustion",
        "gain=2",
        "long_rest",
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "  gain=2: level 2\n"
        "    the state's level becomes min(level + levels, 6) = 2\n"
        "  long_rest: level 1\n"
        "    the state's level becomes max(level - 1, 0) = 1\n"
    ) in done.stdout
    assert "WARNING" not in done.stdout
