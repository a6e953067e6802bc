"""Every range the dice and the odds need is proved at build time: dice whose
count or sides come from the parameters are checked at the most they can roll
(the limits of every dice expression: at most 100 dice of at most 1000 sides
and 10,000 possible sums), and a decision's ``depth`` over its parameters'
ranges must lie within the 0 to 100 dice its odds follow; else a located
error, never an odds function that refuses every call."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.common.limits import (
    MAX_DICE_COUNT,
    MAX_DICE_SIDES,
    MAX_DICE_SUMS,
)
from rulesc.lang import expr
from rulesc.pipeline import load_systems
from rulesc.runtime.dice_odds import MAX_DEPTH

_FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None)

_SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: Rules for the tests.
source: {file: lab, work: Tests}
rounding: down
dice_notation: d20
"""


def rule_errors(tmp_path: Path, body: str) -> list[str]:
    """The errors (``line:col: message``) of a system of the rules ``body``
    (YAML list items), checked as a build checks it; none when it is right."""
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "system.yaml").write_text(_SYSTEM, encoding="utf-8")
    text = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
    text += "system: lab\nrules:\n" + textwrap.indent(textwrap.dedent(body), "  ")
    (folder / "lab.yaml").write_text(text, encoding="utf-8")
    try:
        load_systems(folder.parent)
    except RulesError as error:
        return [f"{d.line}:{d.col}: {d.message}" for d in error.diagnostics]
    return []


def _past_limits(count: int, sides: int, kept: int) -> bool:
    """Whether ``count`` dice of ``sides``, ``kept`` of them summed, are past
    the limits (worked out here from the dice, not by rulesc)."""
    if count == 0:
        return False  # no die rolled
    sums = kept * (sides - 1) + 1
    return count > MAX_DICE_COUNT or sides > MAX_DICE_SIDES or sums > MAX_DICE_SUMS


ranges = st.tuples(st.integers(0, 300), st.integers(0, 300)).map(sorted)


@_FAST
@given(
    ranges,
    st.sampled_from([1, 6, 100, 999, 1000, 1001, 5000]),
    st.sampled_from(["", "kh3", "kl1", "dl2", "dh150"]),
    st.booleans(),
)
def test_dice_are_refused_exactly_where_their_most_passes_the_limits(
    counts: list[int], sides: int, keep: str, computed_sides: bool
) -> None:
    low, high = counts
    params = {"n": expr.Param("n", "int", low, high)}
    if computed_sides:  # `(3)d(n + sides)`: no options after computed sides
        text, keep, most, face = f"(3)d(n + {sides})", "", 3, high + sides
    else:
        text, most, face = f"(n)d{sides}{keep}", high, sides
    kept = most
    if keep:
        k = int(keep[2:])
        kept = min(k, most) if keep[0] == "k" else max(most - k, 0)
    refused = _past_limits(most, face, kept)
    try:
        checked = expr.check(expr.parse(text), params)
    except expr.ExprError as error:
        assert refused, (text, error.message)
        assert "more dice than rulesc works out exactly" in error.message
        assert (error.start, error.end) == (0, len(text))  # at the dice
        return
    assert not refused, text
    assert checked.interval is not None and checked.interval.bounded


def _depth_rule(low: int, high: int, depth: str) -> str:
    return f"""\
    - id: deep
      kind: decision
      title: Deep
      summary: Follows an explosion as deep as its parameter says.
      source: {{section: Tests}}
      function: deep
      parameters:
        - {{name: n, type: int, min: {low}, max: {high}, description: A number.}}
      let:
        - {{name: roll, value: 1d6!}}
      depth: "{depth}"
      value: {{type: int, title: Total}}
      cases:
        - when: "true"
          then: roll
    """


@_FAST
@given(
    st.tuples(st.integers(-20, 60), st.integers(-20, 60)).map(sorted),
    st.integers(-40, 40),
    st.integers(-50, 150),
)
def test_a_depth_is_proved_within_the_odds_limits_over_the_parameters(
    tmp_path_factory: pytest.TempPathFactory,
    bounds: list[int],
    times: int,
    plus: int,
) -> None:
    low, high = bounds
    depth = f"n * {times} + {plus}"
    values = [n * times + plus for n in range(low, high + 1)]
    fits = all(0 <= v <= MAX_DEPTH for v in values)
    errors = rule_errors(
        tmp_path_factory.mktemp("depth"), _depth_rule(low, high, depth)
    )
    if fits:
        assert errors == []
        return
    assert len(errors) == 1, errors
    assert errors[0].startswith("14:12: depth ")  # at the rule's depth
    assert f"the odds follow explosions 0 to {MAX_DEPTH} dice deep" in errors[0]
    shown = f"{min(values)}..{max(values)}"
    assert (f"is {values[0]}" if min(values) == max(values) else shown) in errors[0]
