"""Every whole number a kind's own steps work out (a process's handlers and
their loops, a pool's dealing, a recovery's heals) stays within 2**53 - 1, or
the rule is refused at build time, located.

Random process rules (with a pool to deal and, or not, a recovery to heal)
are drawn with extreme parameter ranges and figures: a bonus without bounds
or up to 10**15, a time to leave up to 10**15, courses that start, incubate and
come back in eons, dice that deal trillions. Each either fails to build, every
error located in its file and saying what passes the limit; or builds, and then
Python and JavaScript answer alike at the corners of its parameters (the same
events and totals from the same seeds, every number within 2**53 - 1). Rules of
modest figures always build.
"""

from __future__ import annotations

import importlib
import json
import random
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.common.limits import MAX_EXACT
from rulesc.output.writer import write_tree
from rulesc.pipeline import build, load_systems
from rulesc.runtime._support import MAX_ENTRIES

from . import test_process_bounds as process_bounds
from .conftest import import_fresh
from .js_node import drawn, node_json

SYSTEM = process_bounds.SYSTEM.replace(
    "time_units: {rounds: 1, turns: 10}",
    "time_units: {rounds: 1, days: 1440, eons: 1000000000}",
)
BIG = 10**15 - 1  # the largest figure the rules write
UNITS = ("rounds", "days", "eons")
MINUTES = {"rounds": 1, "days": 1440, "eons": 1000000000}


@dataclass(frozen=True)
class Drawn:
    """One process rule's ranges and figures (with its pool and recovery)."""

    grit: int | None  # the bonus is -grit..grit (None: no bounds)
    stay: int | None  # leaving is at 1..stay (None: no max)
    start: tuple[int, str]  # the course starts: an amount of a unit
    onset: tuple[str, str]  # its incubation: dice in a unit
    every: tuple[int, str]  # it is checked again this often
    checks: int
    toll: str  # the dice a failure deals (not healed)
    deal_every: tuple[int, str]  # the pool deals this often
    heals: tuple[int, str] | None  # the recovery heals this often (None: none)
    track: bool  # every 2 points of harm roll on a track of woes

    def modest(self) -> bool:
        """Figures a game uses: these always build."""
        return (
            self.grit is not None
            and self.grit <= 2**30
            and self.stay is not None
            and self.stay <= 2**40
            and "eons"
            not in (self.start[1], self.onset[1], self.every[1], self.deal_every[1])
            and (self.heals is None or self.heals[1] != "eons")
            and "x10000000000000" not in self.toll
            and "x1000000000" not in self.onset[0]
        )

    def rules(self, n: int) -> str:
        """The rules of this draw, their ids ending in ``n``."""
        grit = "" if self.grit is None else f", min: {-self.grit}, max: {self.grit}"
        stay = "" if self.stay is None else f", max: {self.stay}"
        lines = [
            f"- id: dealing{n}",
            "  kind: pool",
            "  title: Dealing",
            "  summary: A pool dealt a little at a time.",
            "  source: {section: Lab}",
            f"  function: dealing{n}",
            "  deal: 1d4",
            f"  every: {_duration(self.deal_every)}",
            "  on_save: {divide_by: 2, minimum: 1}",
        ]
        if self.heals is not None:
            lines += [
                f"- id: mending{n}",
                "  kind: recovery",
                "  title: Mending",
                "  summary: Points heal.",
                "  source: {section: Lab}",
                f"  function: mending{n}",
                "  amount: 1",
                f"  every: {_duration(self.heals)}",
            ]
        if self.track:
            lines += [
                f"- id: woes{n}",
                "  kind: track",
                "  title: Woes",
                "  summary: Woes that worsen.",
                "  source: {section: Lab}",
                f"  class: Woes{n}",
                f"  outcome: Woe{n}Outcome",
                "  roll: 1d3",
                "  every: 2",
                "  reroll_label: Reroll",
                f"  effect_enum: Woe{n}",
                f"  condition_enum: Woe{n}Condition",
                "  effects:",
                "    - {name: ACHE, label: Ache, stages: [Sore, Stiff]}",
                "    - {name: CHILL, label: Chill, stages: [Cold]}",
                "    - {name: SCAR, label: Scar, marks: true, description: A mark.}",
            ]
        lines += [
            f"- id: ordeal{n}",
            "  kind: process",
            "  title: An ordeal",
            "  summary: Checked a few times.",
            "  source: {section: Lab}",
            f"  function: ordeal{n}",
            f"  result: Ordeal{n}",
            "  clock: rounds",
            f"  event: {{class: Ordeal{n}Event, time: round}}",
            "  parameters:",
            f"    - {{name: grit, type: int{grit}, description: Grit.}}",
            f"    - {{name: stay, type: int, min: 1{stay}, description: Rounds stayed.}}",
            "  contact: {enter: begun, leave: left, left_at: stay}",
            "  courses:",
            "    - target: 12",
            f"      start: {_duration(self.start)}",
            f"      onset: {{dice: {self.onset[0]}, unit: {self.onset[1]}}}",
            "      pool: 2d6",
            f"      every: {_duration(self.every)}",
            f"      checks: {self.checks}",
            f"      on_failure: [{{score: toll, dice: {self.toll}}}]",
            "  check: {dice: 1d20, bonus: grit, always_fails: 1, always_succeeds: 20}",
            "  events: {onset: onset, check: test}",
            "  scores: [{name: harm}, {name: toll}]",
            f"  pool: {{rule: dealing{n}, score: harm}}",
        ]
        if self.track:
            lines.append(f"  track: {{rule: woes{n}, score: harm, event: woe}}")
        if self.heals is not None:
            lines.append(f"  recovery: {{rule: mending{n}, score: harm, event: mend}}")
        lines += [
            "  totals:",
            "    - {name: harm, of: dealt, score: harm, description: Harm dealt.}",
            "    - {name: toll, of: dealt, score: toll, description: Toll dealt.}",
        ]
        return "\n".join(lines) + "\n"

    def corners(self) -> list[tuple[int, int]]:
        """The bonus and the time to leave at their ends (where they have no
        bound, as far as both runtimes take them)."""
        grit = MAX_EXACT if self.grit is None else self.grit
        stay = MAX_EXACT if self.stay is None else self.stay
        return [(g, s) for g in (-grit, grit) for s in (1, stay)]


def _duration(amount: tuple[int, str]) -> str:
    return f"{{amount: {amount[0]}, unit: {amount[1]}}}"


def _amounts(units: tuple[str, ...] = UNITS) -> st.SearchStrategy[tuple[int, str]]:
    """Times, mostly of a game's figures, now and then of eons."""
    return st.tuples(
        st.sampled_from([1, 1, 1000, 1000000]),
        st.sampled_from([*units[:-1], *units]),
    )


DRAWS = st.builds(
    Drawn,
    st.sampled_from([20, 20, 2**30, BIG, None]),
    st.sampled_from([60, 2**40, BIG, None]),
    _amounts(),
    st.tuples(
        st.sampled_from(["1d6", "2d6x1000", "1d6x1000000000"]),
        st.sampled_from(UNITS),
    ),
    _amounts(),
    st.sampled_from([1, 3]),
    st.sampled_from(["1d3", "1d3", "1d3x1000000", "2d6x10000000000000"]),
    _amounts(),
    st.one_of(st.none(), _amounts(("days", "eons"))),
    st.booleans(),
)


def _lab(folder: Path, body: str) -> Path:
    """A rules folder of one system, ``lab``, of the rules ``body``."""
    lab = folder / "rules" / "lab"
    lab.mkdir(parents=True, exist_ok=True)
    (lab / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    text = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
    text += "system: lab\nrules:\n" + textwrap.indent(body, "  ")
    (lab / "lab.yaml").write_text(text, encoding="utf-8")
    return folder / "rules"


def _errors(draw: Drawn) -> list[tuple[int, int, str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        rules = _lab(Path(tmp), draw.rules(0))
        lines = (rules / "lab" / "lab.yaml").read_text(encoding="utf-8").splitlines()
        try:
            load_systems(rules)
        except RulesError as error:
            found = []
            for d in error.diagnostics:
                assert d.file.endswith("lab/lab.yaml"), d
                assert 1 <= d.line <= len(lines) and d.col >= 1, d
                found.append((d.line, d.col, d.message, d.hint or ""))
            return found
    return []


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(DRAWS)
def test_a_process_is_proved_exact_or_refused_at_its_place(draw: Drawn) -> None:
    errors = _errors(draw)
    event("refused" if errors else "built")
    if draw.modest():
        assert errors == [], (draw, errors)
    for _, _, message, hint in errors:
        assert "\n" not in message and hint
        assert "(2**53 - 1)" in message or "the largest figure" in message, message
    checked = [m for _, _, m, _ in errors]
    early = [m for m in checked if " heals " in m or "the largest figure" in m]
    if draw.grit is None and not early:  # the check's total has no bound
        assert any(m.startswith("grit may be any whole number") for m in checked)


def _built(draws: list[Drawn], tmp: Path) -> Path:
    """The draws that build, as one system, built to ``tmp / "out"``."""
    body = "".join(d.rules(n) for n, d in enumerate(draws))
    outputs = build(_lab(tmp, body), run_examples=False)
    out = tmp / "out"
    write_tree(out, outputs.files)
    return out


def test_processes_that_build_answer_alike_in_python_and_javascript(
    tmp_path: Path,
) -> None:
    accepted = [d for d in drawn(DRAWS, 100) if not _errors(d)][:16]
    assert len(accepted) >= 10, accepted
    assert any(d.track for d in accepted) and any(d.heals for d in accepted)
    assert any(d.grit == BIG or d.stay in (BIG, None) for d in accepted)
    out = _built(accepted, tmp_path)
    calls = []
    for n, draw in enumerate(accepted):
        for grit, stay in draw.corners():
            for seed in (1, 2):
                calls.append((f"ordeal{n}", [grit, stay], seed))
        if draw.heals is not None:  # healing from its latest start
            amount, unit = draw.heals
            every = amount * MINUTES[unit]
            calls.append((f"mending{n}", [3, MAX_EXACT - every * MAX_ENTRIES], 0))
        calls.append((f"dealing{n}", [7], 0))
    javascript = _javascript(out, calls)
    with import_fresh(out):
        lab = importlib.import_module("rulebook.lab")
        dumps = importlib.import_module("rulebook.json").dumps
        for (name, args, seed), got in zip(calls, javascript, strict=True):
            answer = _python(lab, name, args, seed)
            text = answer if isinstance(answer, str) else dumps(answer)
            assert got == text, (name, args, seed)
            if not isinstance(answer, str):
                assert _within(json.loads(text)), (name, args, seed)


def _python(lab: Any, name: str, args: list[Any], seed: int) -> Any:
    function = getattr(lab, name)
    try:
        if name.startswith("mending"):
            return function(*args)
        return function(*args, random.Random(seed))
    except ValueError as error:
        return f"refused: {error}"


def _javascript(out: Path, calls: list[tuple[str, list[Any], int]]) -> list[str]:
    module = (out / "js" / "lab.js").as_uri()
    script = f"""
import * as m from {json.dumps(module)};
import {{ Random }} from {json.dumps((out / "js" / "random.js").as_uri())};
import {{ dumps }} from {json.dumps((out / "js" / "json.js").as_uri())};
const calls = {json.dumps(calls)};
console.log(JSON.stringify(calls.map(([name, args, seed]) => {{
  try {{
    if (name.startsWith("mending")) return dumps(m[name](...args));
    return dumps(m[name](...args, new Random(seed)));
  }} catch (e) {{ return `refused: ${{e.message}}`; }}
}})));
"""
    return list(node_json(script))


def _within(value: Any) -> bool:
    """Whether every whole number in a JSON value is within 2**53 - 1."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return abs(value) <= MAX_EXACT
    if isinstance(value, list):
        return all(_within(v) for v in value)
    if isinstance(value, dict):
        return all(_within(v) for v in value.values())
    return True
