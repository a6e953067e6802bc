"""``make bench``: what rulesc and the rulebook runtime cost, side by side in one run.

Prints a Markdown report and writes it to tests/bench/report.md (not committed).
Every figure is a median of several runs on this machine, and every ratio is
between figures of the same run. Commands are timed as a user runs them: a new
process each time, with bytecode written (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment) and warmed by one run that is not counted. The
runtime is timed in this process. Each target that is not met gets a profile
of what it measured (``profile.py``). The pytest suite times nothing; this
module is not collected by it.

Environment: ``BENCH_BUDGET`` (seconds, default 600) is what the whole run may
take; the 1000x build is projected from the 100x one (and the report says so)
when it would not fit. ``BENCH_FULL=1`` runs it whatever it takes.
"""

from __future__ import annotations

import dataclasses
import datetime
import importlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from . import handwritten, profile, synth

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
GENERATED = ROOT / "generated"
REPORT = Path(__file__).resolve().parent / "report.md"
PY = sys.executable
RULESC = str(Path(PY).parent / "rulesc")
SYSTEMS = ("d20_scifi", "gurps", "edge_of_darkness")
BUDGET = float(os.environ.get("BENCH_BUDGET", "600"))
FULL = os.environ.get("BENCH_FULL") == "1"
START = time.perf_counter()
# As on a user's machine: Python writes (and then reads) bytecode.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclasses.dataclass
class Row:
    figure: str
    measured: str
    target: str = ""
    met: bool | None = None  # None: no target, or not measured
    profile: list[str] | None = None  # what a row that is not met spent its time on

    def cells(self) -> list[str]:
        verdict = {True: "met", False: "**not met**", None: ""}[self.met]
        return [self.figure, self.measured, self.target, verdict]


@dataclasses.dataclass
class Report:
    targets: dict[int, list[Row]] = dataclasses.field(default_factory=dict)
    other: list[Row] = dataclasses.field(default_factory=list)

    def target(self, number: int, row: Row) -> Row:
        self.targets.setdefault(number, []).append(row)
        _say(row)
        return row

    def add(self, row: Row) -> Row:
        self.other.append(row)
        _say(row)
        return row


def _say(row: Row) -> None:
    print(f"  {' | '.join(c for c in row.cells() if c)}", file=sys.stderr)


def elapsed() -> float:
    return time.perf_counter() - START


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.3f} µs"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Seconds one command takes; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(
        cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed in {cwd}:\n{done.stderr}")
    return took


def median(times: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(times))


def rulesc(project: Path, *args: str) -> float:
    return run([RULESC, *args], cwd=project)


def clean(project: Path, *, cache: bool) -> None:
    shutil.rmtree(project / "generated", ignore_errors=True)
    if cache:
        shutil.rmtree(project / ".generated.cache", ignore_errors=True)


def count_rules(project: Path) -> int:
    manifest = json.loads((project / "generated" / "manifest.json").read_text())
    return len(manifest["rules"])


def ratio_row(figure: str, took: float, base: float, limit: float) -> Row:
    return Row(
        figure,
        f"{ms(took)} against {ms(base)}: {took / base:.2f}x",
        f"<= {limit:g}x",
        took <= limit * base,
    )


# -- the machine ----------------------------------------------------------------


def machine() -> list[str]:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"- machine: {os.cpu_count()} CPUs ({cpu}), {platform.system()} "
        f"{platform.machine()}, Python {platform.python_version()}",
        f"- load average when the bench started: {load}",
    ]


# -- builds -----------------------------------------------------------------------


class Project:
    """A copy of the project's rules (or a synthetic set) in a temporary folder."""

    def __init__(self, folder: Path, edit_system: str) -> None:
        self.folder = folder
        self.edit_system = edit_system
        self._edits = iter(range(10_000))

    def edit(self) -> None:
        synth.edit_one_file(
            self.folder / "rules", self.edit_system, str(next(self._edits))
        )

    def check(self, times: int) -> float:
        return median(times, lambda: rulesc(self.folder, "check"))

    def rebuild(self, times: int) -> float:
        def once() -> float:
            self.edit()
            return rulesc(self.folder, "build")

        return median(times, once)

    def rebuild_profile(self, tmp: Path) -> list[str]:
        self.edit()
        return profile.command(self.folder, ["build"], tmp, ENV)


def real_project(tmp: Path) -> Project:
    folder = tmp / "real"
    shutil.copytree(RULES, folder / "rules")
    return Project(folder, SYSTEMS[0])


def scaled_project(tmp: Path, scale: int) -> Project:
    folder = tmp / f"x{scale}"
    ids = synth.make_rules(RULES, scale, folder / "rules")
    return Project(folder, ids[len(ids) // 2])


def bench_real(report: Report, tmp: Path) -> tuple[float, Project]:
    """Targets 1 and 2 at the real rules' scale; the floor."""
    project = real_project(tmp)
    floor_cmd = [PY, "-c", "import jinja2, jsonschema, ruamel.yaml"]
    run(floor_cmd, tmp)
    rulesc(project.folder, "build", "--no-cache")  # writes the bytecode

    def cold() -> float:
        clean(project.folder, cache=True)
        return rulesc(project.folder, "build", "--no-cache")

    floors, colds = [], []
    for _ in range(7):  # in alternation: load on the machine hits both alike
        floors.append(run(floor_cmd, tmp))
        colds.append(cold())
    floor, cold_time = statistics.median(floors), statistics.median(colds)
    row = report.target(
        1,
        ratio_row(
            "`rulesc build --no-cache` (empty output) against "
            '`python -c "import jinja2, jsonschema, ruamel.yaml"`',
            cold_time,
            floor,
            2,
        ),
    )
    if not row.met:
        clean(project.folder, cache=True)
        row.profile = profile.command(project.folder, ["build", "--no-cache"], tmp, ENV)
    rulesc(project.folder, "build")  # fills the cache
    check = project.check(9)
    rebuild = project.rebuild(7)
    row = report.target(
        2,
        ratio_row(
            "1x (3 systems): `rulesc build` after one rules file changed, against "
            "a no-op `rulesc check`",
            rebuild,
            check,
            2,
        ),
    )
    if not row.met:
        row.profile = project.rebuild_profile(tmp)
    report.add(
        Row('floor: `python -c "import jinja2, jsonschema, ruamel.yaml"`', ms(floor))
    )
    report.add(Row("`rulesc check`, nothing changed (with its cache)", ms(check)))
    plain = median(3, lambda: rulesc(project.folder, "check", "--no-cache"))
    report.add(Row("`rulesc check --no-cache` (a fresh clone, as in CI)", ms(plain)))

    def warm() -> float:
        clean(project.folder, cache=False)
        return rulesc(project.folder, "build")

    report.add(
        Row(
            "`rulesc build`, empty output, rules unchanged since the last build",
            ms(median(5, warm)),
        )
    )
    return floor, project


@dataclasses.dataclass
class Scaled:
    scale: int
    rules: int
    build: float
    project: Project


def bench_scale(report: Report, tmp: Path, scale: int, floor: float) -> Scaled:
    """A cold build of ``scale`` copies of the rules (once), then target 2 there."""
    project = scaled_project(tmp, scale)
    print(f"  {scale}x: cold build...", file=sys.stderr)
    build = rulesc(project.folder, "build")
    rules = count_rules(project.folder)
    report.add(
        Row(
            f"{scale}x ({rules} rules): cold build, 2 cores",
            f"{ms(build)}, {(build - floor) / rules * 1000:.2f} ms per rule past the floor",
        )
    )
    check = project.check(5)
    rebuild = project.rebuild(5)
    row = report.target(
        2,
        ratio_row(
            f"{scale}x ({rules} rules): `rulesc build` after one rules file changed, "
            "against a no-op `rulesc check`",
            rebuild,
            check,
            2,
        ),
    )
    if not row.met:
        row.profile = project.rebuild_profile(tmp)
    return Scaled(scale, rules, build, project)


def bench_thousand(report: Report, tmp: Path, floor: float, last: Scaled) -> None:
    """Target 3: 1000x cold, run when it fits the budget, else projected."""
    per_rule = (last.build - floor) / last.rules
    rules = last.rules // last.scale * 1000
    projected = floor + per_rule * rules
    figure = f"1000x ({rules} rules, 3000 systems): cold `rulesc build`, 2 cores"
    if FULL or elapsed() + projected * 1.2 + 20 <= BUDGET:
        project = scaled_project(tmp, 1000)
        print("  1000x: cold build...", file=sys.stderr)
        took = rulesc(project.folder, "build")
        row = report.target(3, Row(figure, ms(took), "<= 30 s", took <= 30))
        shutil.rmtree(project.folder, ignore_errors=True)
    else:
        row = report.target(
            3,
            Row(
                figure,
                f"not run (it would not fit the bench's {BUDGET:.0f} s): projected "
                f"{ms(projected)} from the {last.scale}x build's time per rule "
                "(`BENCH_FULL=1` runs it)",
                "<= 30 s",
                projected <= 30,
            ),
        )
    if not row.met:
        # Where a rule's time goes: a cold build of the 10x set in one process.
        project = scaled_project(tmp, 10)
        env = dict(ENV, RULESC_JOBS="1")
        row.profile = profile.command(project.folder, ["build"], tmp, env)
        shutil.rmtree(project.folder, ignore_errors=True)


# -- import -----------------------------------------------------------------------


def bench_import(report: Report, tmp: Path, wide: Path | None) -> None:
    """Target 4: the three modules over ``python -c pass``; then 10x the rules."""
    package = tmp / "import" / "rulebook"
    # A copy: a build swaps generated/ whole, and its bytecode with it.
    shutil.copytree(GENERATED / "rulebook", package)
    statement = "import " + ", ".join(f"rulebook.{s}" for s in SYSTEMS)
    base = import_cost(package.parent, statement, tmp)
    row = report.target(
        4,
        Row(
            f"`python -c '{statement}'` over `python -c pass`",
            ms(base),
            "<= 20 ms",
            base <= 0.020,
        ),
    )
    if not row.met:
        row.profile = profile.imports(package.parent, statement, tmp, ENV)
    if wide is None:
        return
    ids = sorted(p.stem for p in wide.glob("*.py") if not p.stem.startswith("_"))
    ids = [i for i in ids if i not in ("dice", "errors", "json")]
    wide_statement = "import " + ", ".join(f"rulebook.{s}" for s in ids)
    cost = import_cost(wide.parent, wide_statement, tmp)
    row = report.target(
        4,
        Row(
            f"the same for 10x the rules ({len(ids)} systems' modules, the 10x set)",
            f"{ms(cost)}: {cost / base:.2f}x the real rules'",
            "<= 1.5x",
            cost <= 1.5 * base,
        ),
    )
    if not row.met:
        row.profile = profile.imports(wide.parent, wide_statement, tmp, ENV)


def import_cost(path: Path, statement: str, tmp: Path) -> float:
    env = dict(ENV, PYTHONPATH=str(path))
    run([PY, "-c", statement], tmp, env)  # writes the bytecode
    bare, loaded = [], []
    for _ in range(31):  # in alternation; the fastest of each (start-up is noisy)
        bare.append(run([PY, "-c", "pass"], tmp, env))
        loaded.append(run([PY, "-c", statement], tmp, env))
    return min(loaded) - min(bare)


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
    gen_times, hand_times = [], []
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
    decision = zen.ZenEngine().create_decision(json.dumps(cover_decision(d20)))
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
    rules, fields = [], []
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


# -- exact distributions --------------------------------------------------------------


def bench_charts(report: Report) -> None:
    """Every exact distribution the docs draw (compiler/charts.py), from scratch."""
    from compiler import pipeline
    from compiler.charts import for_pages
    from compiler.runtime import _success_pool
    from compiler.runtime import dice as dice_mod

    outputs = pipeline.build(RULES)
    pages = {
        path: blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("docs/") and path.endswith(".md")
    }
    systems = list(outputs.systems)
    charts: dict[str, str] = {}

    def once() -> float:
        nonlocal charts
        dice_mod._sum_counts.cache_clear()
        _success_pool._distribution.cache_clear()
        start = time.perf_counter()
        charts = for_pages(systems, pages)
        return time.perf_counter() - start

    took = median(5, once)
    report.add(
        Row(
            f"every chart the docs draw ({len(charts)} SVG charts), from scratch",
            ms(took),
        )
    )


# -- report -----------------------------------------------------------------------


def markdown(report: Report, took: float) -> str:
    lines = [
        "# rulebook performance",
        "",
        *machine(),
        f"- bench took: {took:.0f} s",
        "",
        "## The targets (issue 15)",
        "",
        "| # | figure | measured | target | |",
        "|---|---|---|---|---|",
    ]
    for number in sorted(report.targets):
        for row in report.targets[number]:
            lines.append("| " + " | ".join([str(number), *row.cells()]) + " |")
    lines += ["", "## Other figures", "", "| figure | measured |", "|---|---|"]
    lines += [f"| {row.figure} | {row.measured} |" for row in report.other]
    profiled = [
        (number, row)
        for number in sorted(report.targets)
        for row in report.targets[number]
        if row.profile
    ]
    if profiled:
        lines += ["", "## Where the time goes, for each target not met", ""]
        for number, row in profiled:
            lines += [f"### {number}. {row.figure}", "", *(row.profile or []), ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    print("make bench: measuring (this takes a few minutes)...", file=sys.stderr)
    report = Report()
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as name:
        tmp = Path(name)
        print("runtime", file=sys.stderr)
        bench_runtime(report)
        print("build, 1x", file=sys.stderr)
        floor, real = bench_real(report, tmp)
        shutil.rmtree(real.folder, ignore_errors=True)
        print("build, 10x", file=sys.stderr)
        ten = bench_scale(report, tmp, 10, floor)
        print("import", file=sys.stderr)
        bench_import(report, tmp, ten.project.folder / "generated" / "rulebook")
        shutil.rmtree(ten.project.folder, ignore_errors=True)
        print("build, 100x", file=sys.stderr)
        hundred = bench_scale(report, tmp, 100, floor)
        shutil.rmtree(hundred.project.folder, ignore_errors=True)
        print("build, 1000x", file=sys.stderr)
        bench_thousand(report, tmp, floor, hundred)
        print("charts", file=sys.stderr)
        bench_charts(report)
    text = markdown(report, elapsed())
    REPORT.write_text(text, encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
