"""rulesc explain: the answer, how it was reached, and where each part is written."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from rulesc.output.cache import cache_dir_for
from rulesc.workbench.explain import explain
from rulesc.workbench.workspace import Workspace, open_workspace

from .conftest import RULES
from .workbench_helpers import line_of, project, rulesc

__all__ = ["project"]

COVER = RULES / "d20_scifi" / "cover.yaml"
ZERO_G = RULES / "d20_scifi" / "zero_g.yaml"


def test_a_table_row_with_its_line_and_rulings(project: Path) -> None:
    done = rulesc("explain", "d20_scifi.cover", "1/2", cwd=project)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    row = line_of(COVER, '- key: "1/2"')
    assert f"Row '1/2' of the table, written at rules/d20_scifi/cover.yaml:{row}" in out
    assert "Cover AC bonus (cover_ac)" in out and "+4 AC" in out
    assert "Concealment miss chance (miss_chance)" in out and "20%" in out
    ruling = line_of(COVER, "- id: total_cover_has_no_figures")
    assert f"total_cover_has_no_figures   (rules/d20_scifi/cover.yaml:{ruling})" in out


def test_a_formula_step_by_step_with_its_limits(project: Path) -> None:
    done = rulesc(
        "explain",
        "d20_scifi.crawl_speed",
        "climb_bonus=-3",
        "occupied_limbs=1",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    expression = line_of(ZERO_G, "expression: clamp(max(10 + 5 * climb_bonus")
    assert f"Formula, written at rules/d20_scifi/zero_g.yaml:{expression}" in out
    assert "clamp(max(10 + 5 × climb_bonus, 5) - 10 × occupied_limbs, 0, 40)" in out
    assert "max(-5, 5)" in out and "floor 5 applied: -5 raised to 5" in out
    assert "floor 0 applied: -5 raised to 0" in out
    assert "Answer\n  0 feet per round" in out
    assert "WARNING" not in out
    for ruling in ("climb_floor_before_limbs", "cap_applies_last", "never_negative"):
        assert (
            f"{ruling}   (rules/d20_scifi/zero_g.yaml:{line_of(ZERO_G, f'- id: {ruling}')})"
            in out
        )


def test_a_decision_names_the_case_that_answered(project: Path) -> None:
    done = rulesc(
        "explain",
        "d20_scifi.attack_through_cover",
        "1/2",
        "soft",
        "heavy",
        "at_target",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    steps = out.split("Steps, in order\n")[1].split("\n\n")[0].splitlines()
    # each case tried in order, the fifth answering
    assert [line.split(": ")[-1] for line in steps[:5]] == ["no"] * 4 + ["yes"]
    assert steps[4] == '  if mode == "at_target" and material == "soft": yes'
    assert steps[5].startswith("    answer allowed true, ac_bonus 3, miss_chance 0,")
    # a part worked out from the rules' tables, with its value
    assert steps[6].startswith("      ac_bonus = max((cover(level).cover_ac ?? 0)")
    assert steps[6].endswith(" = 3")
    assert "AC bonus (ac_bonus)" in out.split("\nAnswer\n")[1]
    assert "WARNING" not in out


def test_inputs_the_rule_refuses_are_a_usage_error(project: Path) -> None:
    done = rulesc("explain", "d20_scifi.crawl_speed", "0", "5", cwd=project)
    assert done.returncode == 2
    assert "refuses these inputs: occupied_limbs must be in 0..4, not 5" in done.stderr
    unknown = rulesc("explain", "d20_scifi.cover", "2/3", cwd=project)
    assert unknown.returncode == 2 and "level is one of Total, 9/10" in unknown.stderr
    typo = rulesc("explain", "d20_scifi.cover_ac", cwd=project)
    assert typo.returncode == 2 and "did you mean d20_scifi.cover" in typo.stderr


@pytest.fixture(scope="module")
def workspace(project: Path) -> Workspace:
    """The project copy, built through its cache (filled by the tests above)."""
    return open_workspace(project / "rules", cache_dir_for(project / "generated"))


def test_every_rule_explains_with_its_first_example(workspace: Workspace) -> None:
    """Every kind of rule: the explanation names the rule and holds no warning."""
    with workspace.runtime() as runtime:
        for system in workspace.systems:
            for rule in system.rules:
                inputs: list[str] = []
                example = rule.examples[0] if rule.examples else None
                dice = None
                if example is not None:
                    for name, value in example.args:
                        if isinstance(value, list):
                            inputs += [str(v) for v in value]
                        elif isinstance(value, dict):
                            inputs.append(
                                f"{name}="
                                + ",".join(f"{k}:{v}" for k, v in value.items())
                            )
                        else:
                            inputs.append(f"{name}={_word(value)}")
                    if example.dice is not None:
                        dice = ",".join(str(d) for d in example.dice)
                args = argparse.Namespace(inputs=inputs, seed=1, dice=dice)
                text = explain(workspace, system, rule, runtime, args)
                assert text.startswith(f"{rule.qualified_id}: {rule.title}"), rule.id
                assert "WARNING" not in text, text


def _word(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
