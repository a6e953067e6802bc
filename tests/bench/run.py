"""``make bench``: what rulesc and the rulebook runtime cost, side by side in one run.

Prints a Markdown report and writes it to tests/bench/report.md (not committed).
Every figure is a median of several runs on this machine, and every ratio is
between figures of the same run. Commands are timed as a user runs them: a new
process each time, with bytecode written (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment) and warmed by one run that is not counted. The
runtime's targets are timed in this process; the odds functions of
tests/dice_formulas (``odds.py``) and the charts in a fresh worker process
(``worker.py``); odds beside icepool's, each call in a fresh process
(``versus_icepool.py``). Each target that is not met gets a profile of what it
measured (``profile.py``).

Every figure is measured again, in the same run and in turn with HEAD's, on a
worktree of the commit issue 26 started from (``baseline.py``; ``BENCH_BASE``
names another), and reported beside it with their ratios on the clock and in
CPU time: within 10% on the clock, or the row says why (the base lacks the
feature; only the clock is past it, so the rest was waiting for the CPU; or
a profile of each side shows where HEAD does more work). Build and import
figures are in ``builds.py``. The pytest suite times nothing; this package is
not collected by it.

Environment: ``BENCH_BUDGET`` (seconds, default 600) is what the whole run may
take; the 1000x build is projected from the 100x one (and the report says so)
when it would not fit, and the base's 100x build is left out (its rows say so)
when it would not. ``BENCH_FULL=1`` runs them whatever it takes.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import timeit
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from . import baseline, builds, fresh, handwritten, odds, profile, versus_icepool
from .baseline import Side
from .measure import BUDGET, FULL, Took, elapsed, ms, us
from .rows import Against, Report, Row, markdown

GENERATED = baseline.ROOT / "generated"
REPORT = Path(__file__).resolve().parent / "report.md"

# -- runtime ----------------------------------------------------------------------


def per_call(function: Callable[[], object], repeat: int = 15) -> Iterator[float]:
    timer = timeit.Timer(function)
    number, _ = timer.autorange()
    for _ in range(repeat):
        yield timer.timeit(number) / number


def compare(
    generated: Callable[[], object], hand: Callable[[], object]
) -> tuple[float, float]:
    """Median seconds per call of each, measured in alternation."""
    gen_times: list[float] = []
    hand_times: list[float] = []
    for gen_time, hand_time in zip(per_call(generated), per_call(hand), strict=True):
        gen_times.append(gen_time)
        hand_times.append(hand_time)
    return statistics.median(gen_times), statistics.median(hand_times)


def runtime_module(name: str) -> ModuleType | None:
    if str(GENERATED) not in sys.path:
        sys.path.insert(0, str(GENERATED))
    try:
        return importlib.import_module(f"rulebook.{name}")
    except ImportError:
        return None


def versus(
    report: Report,
    number: int,
    figure: str,
    generated: Callable[[], object],
    hand: Callable[[], object],
    limit: float,
) -> None:
    gen, base = compare(generated, hand)
    row = report.target(
        number,
        Row(
            figure,
            f"{us(gen)} against {us(base)}: {gen / base:.2f}x",
            f"<= {limit:g}x",
            gen <= limit * base,
        ),
    )
    if not row.met:
        row.profile = profile.calls(generated)


def bench_runtime(report: Report) -> None:
    """Targets 5 to 7, then the figures the issue gives no target."""
    d20 = runtime_module("d20_scifi")
    if d20 is None:
        report.add(
            Row(
                "runtime rows",
                "unavailable: generated/rulebook/d20_scifi.py is missing",
            )
        )
        return
    hand_cover = handwritten.cover_table(d20)
    for member in d20.CoverLevel:
        assert hand_cover(member) is d20.cover(member)
        assert hand_cover(member.value.upper()) is d20.cover(member.value.upper())
    label = d20.CoverLevel("1/2").value
    versus(
        report,
        5,
        f"`cover({label!r})` against a dict lookup with a `KeyError` fallback",
        lambda: d20.cover(label),
        lambda: hand_cover(label),
        1.2,
    )
    member = d20.CoverLevel(label)
    versus(
        report,
        6,
        f"`cover(CoverLevel.{member.name})` against the same",
        lambda: d20.cover(member),
        lambda: hand_cover(member),
        1.2,
    )
    same = all(
        d20.crawl_speed(climb_bonus=b, occupied_limbs=limbs)
        == handwritten.crawl_speed(b, limbs)
        for b in range(-5, 10)
        for limbs in range(5)
    )
    versus(
        report,
        7,
        "`crawl_speed(climb_bonus=2, occupied_limbs=1)` against hand-written code "
        "with the same checks and inline comparisons"
        + ("" if same else " (the hand-written one is out of date!)"),
        lambda: d20.crawl_speed(climb_bonus=2, occupied_limbs=1),
        lambda: handwritten.crawl_speed(climb_bonus=2, occupied_limbs=1),
        1.3,
    )
    from tests import reference_radiation

    seeds = range(40)

    def generated_runs() -> None:
        for seed in seeds:
            d20.simulate_radiation("High", 10, 2, random.Random(seed))

    def reference_runs() -> None:
        for seed in seeds:
            reference_radiation.simulate_radiation("High", 10, 2, random.Random(seed))

    gen, ref = compare(generated_runs, reference_runs)
    report.add(
        Row(
            "`simulate_radiation('High', 10, 2, rng)` against "
            "tests/reference_radiation.py (40 seeds)",
            f"{us(gen / 40)} against {us(ref / 40)}: {gen / ref:.2f}x",
        )
    )
    zen_row(report, d20)


def zen_row(report: Report, d20: ModuleType) -> None:
    figure = "GoRules ZEN (`zen-engine`) evaluating the cover table as a decision table"
    try:
        import zen
    except ImportError as exc:
        report.add(
            Row(
                figure,
                f"unavailable: zen-engine is not installed ({exc}); "
                "`pip install -e '.[bench]'` installs it",
            )
        )
        return
    engine: Any = zen.ZenEngine()
    decision: Any = engine.create_decision(json.dumps(cover_decision(d20)))
    for member in d20.CoverLevel:
        expected = {
            k: v for k, v in d20.cover(member).to_dict().items() if v is not None
        }
        got = decision.evaluate({"level": member.value})["result"]
        assert got == expected, (member, got, expected)
    ours, theirs = compare(
        lambda: d20.cover("1/2"), lambda: decision.evaluate({"level": "1/2"})
    )
    report.add(
        Row(
            figure,
            f"{us(theirs)} per evaluation against {us(ours)} for `cover('1/2')`: "
            f"{theirs / ours:.0f}x as long",
        )
    )


def cover_decision(d20: ModuleType) -> dict[str, Any]:
    """The cover table as a JDM decision graph: input -> decision table -> output."""
    rules: list[dict[str, str]] = []
    fields: list[str] = []
    for index, member in enumerate(d20.CoverLevel):
        row = d20.cover(member).to_dict()
        fields = list(row)
        rule = {"_id": f"r{index}", "level": json.dumps(member.value)}
        rule.update({f"o_{name}": json.dumps(row[name]) for name in fields})
        rules.append(rule)
    table = {
        "hitPolicy": "first",
        "inputs": [{"id": "level", "name": "Level", "field": "level"}],
        "outputs": [{"id": f"o_{n}", "name": n, "field": n} for n in fields],
        "rules": rules,
    }
    where = {"x": 0, "y": 0}
    return {
        "nodes": [
            {"id": "in", "type": "inputNode", "name": "in", "position": where},
            {
                "id": "cover",
                "type": "decisionTableNode",
                "name": "cover",
                "position": where,
                "content": table,
            },
            {"id": "out", "type": "outputNode", "name": "out", "position": where},
        ],
        "edges": [
            {"id": "e1", "sourceId": "in", "targetId": "cover", "type": "edge"},
            {"id": "e2", "sourceId": "cover", "targetId": "out", "type": "edge"},
        ],
    }


# -- in a fresh process, beside the base ---------------------------------------------

RUNTIME = {
    "cover_label": "`cover('1/2')`",
    "cover_member": "`cover(CoverLevel.HALF)`",
    "crawl_speed": "`crawl_speed(climb_bonus=2, occupied_limbs=1)`",
    "radiation": "`simulate_radiation('High', 10, 2, rng)`, 40 seeds",
}


def bench_fresh(report: Report, tmp: Path, sides: list[Side]) -> None:
    """The runtime's figures and every chart the docs draw, timed in worker
    processes, the sides in turn (HEAD's charts are also an other figure)."""
    runtime = [fresh.Work(side, "runtime", "-", side.generated) for side in sides]
    timed = fresh.alternate(tmp, runtime, rounds=3, repeat=5)
    beside(report, tmp, runtime, timed, RUNTIME)
    charts = [fresh.Work(side, "charts", str(side.rules), side.root) for side in sides]
    timed = fresh.alternate(tmp, charts, rounds=2, repeat=3)
    figure = f"every chart the docs draw ({timed[0].notes['charts']}), from scratch"
    report.add(Row(figure, ms(timed[0].median("charts").wall)))
    beside(report, tmp, charts, timed, {"charts": figure})


def beside(
    report: Report,
    tmp: Path,
    works: list[fresh.Work],
    timed: list[fresh.Timed],
    figures: dict[str, str],
) -> None:
    """HEAD's figures beside the base's, when there is a base."""
    if len(works) < 2:
        return
    for name, figure in figures.items():

        def explain(name: str = name, figure: str = figure) -> list[str]:
            head, base = (work.groups(tmp, name) for work in works)
            return profile.difference(figure, head, base, works[1].side.label)

        row = Against(figure, timed[0].median(name), timed[1].median(name))
        report.compare(row, explain)


# -- the run ----------------------------------------------------------------------------


def room(ten: list[builds.Scaled]) -> Callable[[Took], str]:
    """Why the base's 100x build would not fit the budget, given HEAD's (none
    when it fits): guessed from HEAD's and the two 10x builds."""

    def why_not(head: Took) -> str:
        if len(ten) < 2:
            return ""
        guess = head.wall * ten[1].build.wall / ten[0].build.wall
        # 60 s: the checks and rebuilds at 100x on each side, at the most.
        if FULL or elapsed() + guess + 60 <= BUDGET:
            return ""
        return (
            f"the base's 100x build (about {guess:.0f} s, from HEAD's) would not fit "
            f"the bench's {BUDGET:.0f} s (`BENCH_BUDGET`)"
        )

    return why_not


def stage(name: str) -> None:
    print(f"{name} (at {elapsed():.0f} s)", file=sys.stderr)


def main() -> int:
    print("make bench: measuring (this takes a few minutes)...", file=sys.stderr)
    report = Report()
    base = baseline.base()
    sides = [baseline.HEAD]
    if isinstance(base, Side):
        sides.append(base)
        report.base = base.label
    else:
        report.base = f"no base: {base}"
    print(f"against: {report.base}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as name:
        tmp = Path(name)
        stage("runtime")
        bench_runtime(report)
        bench_fresh(report, tmp, sides)
        stage("odds")
        odds.bench_odds(report, tmp, sides)
        stage("odds beside icepool")
        versus_icepool.bench_icepool(report, tmp, baseline.HEAD)
        stage("build, 1x")
        floor = builds.bench_real(report, tmp, sides)
        one = builds.OneProcess(tmp)
        stage("build, 10x")
        ten = builds.bench_scale(report, tmp, 10, floor, sides, one)
        stage("import")
        builds.bench_import(report, tmp, sides, [scaled.project for scaled in ten])
        for scaled in ten:
            shutil.rmtree(scaled.project.folder, ignore_errors=True)
        stage("build, 100x")
        hundred = builds.bench_scale(report, tmp, 100, floor, sides, one, room(ten))
        for scaled in hundred:
            shutil.rmtree(scaled.project.folder, ignore_errors=True)
        stage("build, 1000x")
        builds.bench_thousand(report, tmp, floor, hundred, one)
    text = markdown(report, elapsed(), base_measured=len(sides) > 1)
    REPORT.write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
