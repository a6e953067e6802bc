"""Calls of rules by rules count against the runtime's entry limit: a rule
whose calls fan out (each calling the next twice, 40 deep) ends with
``RuleInputError`` at the 100,001st call, with the same message and at the
same count in Python, in JavaScript and through the runner of the site's
"try it" forms (``docsite/plan.js``), as a loop past the limit does; their
odds functions count their calls alike (and refuse past the limit too)."""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.runtime._support import MAX_ENTRIES

from . import bounds_cases as cases
from .conftest import ROOT, import_fresh
from .js_node import node

pytestmark = pytest.mark.usefixtures("no_hang")

# Each family: its fan-out and how many rules deep its chain goes. A call of
# rule k of a family makes fan + fan^2 + ... + fan^(length - k) calls.
FAMILIES = {2: 18, 3: 11, 10: 5}
LONG = 40  # the issue's chain: 2^40 calls, refused at the 100,001st


def _rule(name: str, expression: str) -> str:
    return (
        f"  - id: {name}\n    kind: formula\n    title: {name.title()}\n"
        "    summary: A call of the next rule.\n    source: {section: A}\n"
        f"    function: {name}\n"
        "    parameters: [{name: x, type: int, min: 0, max: 3, description: X.}]\n"
        f'    expression: "{expression}"\n'
    )


def _family(fan: int, length: int) -> str:
    """Rules ``fan{fan}_0`` to ``fan{fan}_{length}``, each the highest of
    ``fan`` calls of the next (so that its odds stay two values: their work
    stays small, and only the calls run into the limit), the last a roll."""
    calls = ", ".join([f"fan{fan}_{{next}}(x)"] * fan)
    rules = [
        _rule(f"fan{fan}_{k}", f"max({calls})".replace("{next}", str(k + 1)))
        for k in range(length)
    ]
    return "".join(rules) + _rule(f"fan{fan}_{length}", "x + d2")


def _issues(length: int) -> str:
    """The issue's chain: ``long_k`` is ``long_{k+1}(x) + long_{k+1}(x)``."""
    rules = [
        _rule(f"long_{k}", f"long_{k + 1}(x) + long_{k + 1}(x)") for k in range(length)
    ]
    return "".join(rules) + _rule(f"long_{length}", "x + d6")


def calls_made(fan: int, start: int) -> int:
    """The calls of rules a call of ``fan{fan}_{start}`` makes inside it."""
    return sum(fan**i for i in range(1, FAMILIES[fan] - start + 1))


@pytest.fixture(scope="module")
def built() -> Iterator[Path]:
    """The families, and the issue's chain (``fan2_`` of 40), built to a folder
    (the build's bound of their odds off: their calls run into the runtime's
    limits, which the build would say at each rule)."""
    folder = Path(tempfile.mkdtemp())
    try:
        text = "".join(_family(fan, n) for fan, n in FAMILIES.items())
        yield cases.built_unbounded(folder, text + _issues(LONG))
    finally:
        shutil.rmtree(folder)


def _python(out: Path, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call made on the Python runtime: its answer or refusal, and the
    count of calls the runtime kept."""
    with import_fresh(out):
        return _python_imported(calls)


def _python_imported(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    module = importlib.import_module("rulebook.lab")
    support = importlib.import_module("rulebook._support")
    errors = importlib.import_module("rulebook.errors")
    found = []
    for call in calls:
        function = getattr(module, call["py"])
        args = [call["x"]] + ([random.Random(call["seed"])] if call["rng"] else [])
        try:
            got: dict[str, Any] = {"answer": _shown(function(*args))}
        except errors.RuleInputError as error:
            got = {"refused": str(error)}
        found.append(got | {"calls": support.CALL.calls})
    return found


SCRIPT = """
import { readFileSync } from "node:fs";
import * as module from "%(out)s/js/lab.js";
import { CALL } from "%(out)s/js/_support.js";
import { Random } from "%(out)s/js/random.js";
import { RuleInputError } from "%(out)s/js/errors.js";
import { runPlan } from "%(root)s/docsite/plan.js";
const calls = JSON.parse(readFileSync(process.argv[2], "utf8"));
const found = calls.map((call) => {
  const rng = new Random(call.seed);
  try {
    const answer = call.plan === null
      ? module[call.js](...[call.x, ...(call.rng ? [rng] : [])])
      : runPlan(module, call.plan, rng, { x: call.x });
    const shown = typeof answer === "number" ? answer
      : JSON.stringify(Object.fromEntries([...answer].map(([k, v]) => [k, `${v.numerator}/${v.denominator}`])));
    return { answer: String(shown), calls: CALL.calls };
  } catch (error) {
    if (!(error instanceof RuleInputError)) throw error;
    return { refused: error.message, calls: CALL.calls };
  }
});
console.log(JSON.stringify(found));
"""


def _javascript(out: Path, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    script = out / "calls.mjs"
    script.write_text(SCRIPT % {"out": out.as_posix(), "root": ROOT.as_posix()})
    given = out / "calls.json"
    given.write_text(json.dumps(calls), encoding="utf-8")
    done = subprocess.run(
        [node(), str(script), str(given)],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _plan(out: Path, rule: str) -> dict[str, Any]:
    """The plan of the "try it" form of ``rule``'s page that rolls (the call
    the site makes when asked)."""
    page = (out / "docs" / "lab" / f"{rule}.md").read_text(encoding="utf-8")
    (form,) = re.findall(r"data-form='([^']*)'", page)
    plan: dict[str, Any] = json.loads(form)["calls"][0]["plan"]
    return plan


def _shown(answer: Any) -> str:
    """An answer as the JavaScript script writes it: a number, or odds as JSON."""
    if isinstance(answer, int):
        return str(answer)
    chances = {str(k): f"{p.numerator}/{p.denominator}" for k, p in answer.items()}
    return json.dumps(chances, separators=(",", ":"))


ODDS_CALLS = 2_000  # the odds functions asked here make at most so many calls


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    """A call into one of the families, at any rule of it (its odds function
    only where that is quick: an odds function's call costs far more), directly
    or as the site's form makes it."""
    fan = draw(st.sampled_from(sorted(FAMILIES)))
    start = draw(st.integers(0, FAMILIES[fan]))
    odds = calls_made(fan, start) <= ODDS_CALLS and draw(st.booleans())
    name = f"fan{fan}_{start}" + ("_odds" if odds else "")
    return {
        "py": name,
        "js": _js_name(name),
        "rule": f"fan{fan}_{start}",
        "fan": fan,
        "start": start,
        "x": draw(st.integers(0, 3)),
        "seed": draw(st.integers(0, 2**16)),
        "rng": not odds,
        "site": not odds and draw(st.booleans()),
    }


def _cases() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    @settings(
        max_examples=16,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(entries())
    def collect(entry: dict[str, Any]) -> None:
        found.append(entry)

    collect()
    return found


REFUSAL = (
    f"the call would make more than {MAX_ENTRIES:,} calls of rules: one call "
    f"makes at most {MAX_ENTRIES:,} entries (a limit of the runtime, not of the rules)"
)


def test_fan_out_ends_at_the_entry_limit_alike_in_both_runtimes_and_the_site(
    built: Path,
) -> None:
    calls = _cases()
    for call in calls:
        call["plan"] = _plan(built, call["rule"]) if call["site"] else None
    python = _python(built, calls)
    javascript = _javascript(built, calls)
    for call, py, js in zip(calls, python, javascript, strict=True):
        assert py == js, call
        made = calls_made(call["fan"], call["start"])
        if made > MAX_ENTRIES:  # refused exactly past the limit
            assert py == {"refused": REFUSAL, "calls": MAX_ENTRIES}, call
        else:
            assert "answer" in py and py["calls"] == made, call
    assert {c["site"] for c in calls} == {True, False}
    assert {c["rng"] for c in calls} == {True, False}  # functions and odds
    assert any(calls_made(c["fan"], c["start"]) > MAX_ENTRIES for c in calls)


def _js_name(python: str) -> str:
    head, *rest = python.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def test_the_issue_s_chain_of_forty_is_refused_at_the_limit(built: Path) -> None:
    """2^40 calls, refused at the 100,001st: in Python, in JavaScript and
    through the site's runner alike."""
    calls = [
        {"py": "long_0", "js": "long0", "x": 1, "seed": 1, "rng": True, "plan": plan}
        for plan in (None, _plan(built, "long_0"))
    ]
    python = _python(built, calls)
    assert python == _javascript(built, calls)
    assert python == [{"refused": REFUSAL, "calls": MAX_ENTRIES}] * 2


def test_odds_functions_count_their_calls_against_the_limit(built: Path) -> None:
    """An odds function's calls of other rules' odds functions count as the
    rules' own calls do (here against a limit of 1,000: the count is the
    same code for every call of the runtime)."""
    calls = [
        {"py": f"fan2_{start}_odds", "x": 1, "seed": 1, "rng": False}
        for start in (9, 10)  # 1,022 and 510 calls inside
    ]
    (refused, answered), refusal = _python_limited(built, calls, 1000)
    assert refused == {"refused": refusal, "calls": 1000}
    assert "answer" in answered and answered["calls"] == calls_made(2, 10)


def _python_limited(
    out: Path, calls: list[dict[str, Any]], limit: int
) -> tuple[list[dict[str, Any]], str]:
    """``_python`` with the runtime's entry limit at ``limit``, and the
    message past it."""
    with import_fresh(out):
        names = vars(importlib.import_module("rulebook._support"))
        saved = names["MAX_ENTRIES"]
        names["MAX_ENTRIES"] = limit
        try:
            return _python_imported(calls), str(names["too_many"]("calls of rules"))
        finally:
            names["MAX_ENTRIES"] = saved
