"""Mutation tests for the radiation rules: the figures the simulation runs on.

Each test changes one figure in a copy of rules/, builds (without the worked
examples, which pin the real figures), and checks the runtime and docs follow.
"""

from __future__ import annotations

from pathlib import Path

from rulesc.pipeline import Outputs, build

from .conftest import Editor
from .probe import ask, doc

RADIATION = "d20_scifi/radiation.yaml"
# One High-radiation run (see the high_room examples): saves roll 5 and 2.
HIGH_ROOM = "[2, 2, 3, 1, 1, 1, 1, 1, 1, 1, 5, 4, 3, 3, 3, 2, 4, 1, 2, 4, 3, 4]"


def _mutated(rules: Path) -> Outputs:
    return build(rules, run_examples=False)


def test_fort_dc(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    dcs = (
        "[e.dc for e in m.simulate_radiation('High', 30, 0,"
        f" rulebook.dice.Scripted({HIGH_ROOM})).events if e.kind == 'save']"
    )
    assert ask(built, dcs) == [12, 19]
    edit(
        RADIATION,
        "{key: High, incubation: 3d6, fort_dc: 19,",
        "{key: High, incubation: 3d6, fort_dc: 20,",
    )
    mutated = _mutated(rules_copy)
    assert ask(mutated, dcs) == [12, 20]
    assert ask(mutated, "m.radiation_exposure('High').fort_dc") == 20
    assert "| High | 3d6 hours | 20 |" in doc(mutated)


def test_instant_exposure_offset(
    built: Outputs, rules_copy: Path, edit: Editor
) -> None:
    question = "m.instant_exposure_level('High')"
    assert ask(built, question) == "Low"
    edit(RADIATION, "    offset: -2\n", "    offset: -1\n")
    mutated = _mutated(rules_copy)
    assert ask(mutated, question) == "Moderate"
    assert ask(mutated, "m.instant_exposure('High').fort_dc") == 15
    levels = "[e.effective_level for e in m.exposures('High', 30, 7)]"
    assert ask(mutated, levels) == ["Moderate", "High"]
    assert "1 level down, from Moderate up" in doc(mutated)


def test_hourly_deal(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    question = "m.accumulation(10, rulebook.dice.Scripted([4, 4, 2]))"
    assert ask(built, question) == [4, 4, 2]
    edit(RADIATION, "    deal: 1d4\n", "    deal: 1d6\n")
    mutated = _mutated(rules_copy)
    assert ask(mutated, "m.accumulation(10, rulebook.dice.Scripted([6, 4]))") == [6, 4]
    assert "dealt `1d6` points at a time" in doc(mutated)


def test_secondary_effect_interval(
    built: Outputs, rules_copy: Path, edit: Editor
) -> None:
    count = (
        "len([e for e in m.simulate_radiation('High', 30, 0,"
        " __import__('random').Random(4)).events if e.kind == 'secondary_effect'"
        " and not e.reroll])"
    )
    dealt = (
        "m.simulate_radiation('High', 30, 0, __import__('random').Random(4))"
        ".con_damage_dealt"
    )
    total = ask(built, dealt)
    assert isinstance(total, int)
    assert ask(built, count) == total // 3
    edit(RADIATION, "    every: 3\n", "    every: 2\n")
    mutated = _mutated(rules_copy)
    total = ask(mutated, dealt)
    assert isinstance(total, int) and total >= 2
    assert ask(mutated, count) == total // 2
    assert "For every 2 points dealt" in doc(mutated)
