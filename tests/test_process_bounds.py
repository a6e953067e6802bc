"""A process must end: one that nothing ends is a located build error, never a
function that builds and then fails every call.

The property test writes process rules with every mix of the keys that end a
run (a course's ``every``, ``until`` and ``checks``, the check's
``always_succeeds``, a track with or without an effect that ends a roll), builds
each distinct shape once in memory, and calls what builds with in-range
arguments and seeded rngs.
"""

from __future__ import annotations

import functools
import importlib
import random
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.examples import runtime_from
from rulesc.pipeline import build

SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: Mechanics written to test the rule kinds.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
time_units: {rounds: 1, turns: 10}
"""

TRACK = """\
- id: woes
  kind: track
  title: Woes
  summary: Woes that worsen.
  source: {section: Woes}
  class: Woes
  outcome: WoeOutcome
  roll: 1d2
  every: 2
  reroll_label: Reroll
  effect_enum: Woe
  condition_enum: WoeCondition
  effects:
    - {name: ACHE, label: Ache, stages: [Sore, Stiff]}
"""
LAST_EFFECT = {
    "staged": "    - {name: CHILL, label: Chill, stages: [Cold]}\n",
    "marking": (
        "    - {name: SCAR, label: Scar, marks: true, description: A lasting mark.}\n"
    ),
}


class Shape(NamedTuple):
    """Which of the keys that end a run a process has."""

    every: bool
    until: bool
    checks: bool
    always_succeeds: bool
    track: str  # "none", "staged" (every effect has stages) or "marking"

    def refused(self) -> bool:
        """Whether nothing (or nothing certain) ends the run, or a key lacks 'every'."""
        needs_every = (self.until or self.checks) and not self.every
        endless = self.every and not (self.until or self.checks)
        luck_only = self.until and not self.checks and not self.always_succeeds
        return needs_every or endless or luck_only or self.track == "staged"


def rules(shape: Shape) -> str:
    course = "    - target: 5\n"
    if shape.every:
        course += "      every: {amount: 1, unit: turns}\n"
    if shape.until:
        course += "      until: 2\n"
    if shape.checks:
        course += "      checks: 3\n"
    course += "      on_failure: [{score: harm, dice: 1d3}]\n"
    succeeds = ", always_succeeds: 6" if shape.always_succeeds else ""
    body = ""
    if shape.track != "none":
        body += TRACK + LAST_EFFECT[shape.track]
    body += textwrap.dedent(
        """\
        - id: ordeal
          kind: process
          title: An ordeal
          summary: Checked until it ends.
          source: {section: Ordeals}
          function: ordeal
          result: Ordeal
          clock: rounds
          parameters:
            - {name: grit, type: int, min: -3, max: 3, description: Grit.}
          courses:
        """
    )
    body += course
    body += f"  check: {{dice: 1d6, bonus: grit{succeeds}}}\n"
    body += "  events: {check: test, end: done}\n"
    body += "  scores: [{name: harm}]\n"
    if shape.track != "none":
        body += "  track: {rule: woes, score: harm, event: woe}\n"
    body += "  totals:\n"
    body += "    - {name: harm, of: dealt, score: harm, description: Harm dealt.}\n"
    return (
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: lab\nrules:\n" + textwrap.indent(body, "  ")
    )


class Built(NamedTuple):
    errors: tuple[tuple[int, int, str, str | None], ...]
    run: Callable[..., Any] | None
    text: str


@functools.cache
def built(shape: Shape) -> Built:
    text = rules(shape)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rules" / "lab"
        folder.mkdir(parents=True)
        (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
        (folder / "lab.yaml").write_text(text, encoding="utf-8")
        try:
            outputs = build(folder.parent)
        except RulesError as e:
            errors = tuple((d.line, d.col, d.message, d.hint) for d in e.diagnostics)
            assert all(d.file.endswith("lab.yaml") for d in e.diagnostics)
            return Built(errors, None, text)
    files = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        run = importlib.import_module(f"{name}.lab").ordeal
    return Built((), run, text)


SHAPES = st.builds(
    Shape,
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["none", "staged", "marking"]),
)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(SHAPES, st.integers(-3, 3), st.integers(0, 2**32))
def test_a_process_ends_or_is_refused_at_its_place(
    shape: Shape, grit: int, seed: int
) -> None:
    result = built(shape)
    assert bool(result.errors) == shape.refused(), (shape, result.errors)
    lines = result.text.splitlines()
    for line, col, message, hint in result.errors:
        assert 1 <= line <= len(lines) and 1 <= col <= len(lines[line - 1]) + 1
        assert message and "\n" not in message
        if "forever" in message:
            assert hint, message
    if result.run is not None:
        run = result.run(grit, random.Random(seed))
        assert run.events and run.events[-1].kind in ("test", "done", "harm", "woe")
        tests = sum(1 for e in run.events if e.kind == "test")
        assert 1 <= tests <= (3 if shape.checks else 1000)


def test_an_endless_course_is_refused_at_every() -> None:
    shape = Shape(True, False, False, True, "none")
    result = built(shape)
    assert [(line, col, m) for line, col, m, _ in result.errors] == [
        (
            16,
            16,
            "nothing ends the course: it would be checked again forever",
        )
    ], result.errors
    assert result.text.splitlines()[15].strip().startswith("every:")


def test_a_track_that_rerolls_forever_is_refused_at_its_rule() -> None:
    result = built(Shape(True, False, True, True, "staged"))
    assert [m for _, _, m, _ in result.errors] == [
        "nothing ends a roll on 'woes': once every effect is at its last stage, "
        "each roll is a reroll, forever"
    ]
