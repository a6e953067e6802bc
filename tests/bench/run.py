"""``make bench``: what rulesc and the rulebook runtime cost, side by side in one run.

Prints a Markdown report and writes it to tests/bench/report.md (not committed).
Every figure is a median of several runs on this machine, and every ratio is
between figures of the same run. Commands are timed as a user runs them (a new
process each time); the runtime is timed in this process. The pytest suite
times nothing; this module is not collected by it.

Environment: ``BENCH_BUDGET`` (seconds, default 270) is what the whole run may
take; a scale whose build would not fit is projected from the last one that ran
instead of run, and the report says so. ``BENCH_FULL=1`` runs every scale
whatever it takes.
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

from . import handwritten, synth

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
GENERATED = ROOT / "generated"
REPORT = Path(__file__).resolve().parent / "report.md"
PY = sys.executable
RULESC = str(Path(PY).parent / "rulesc")
SYSTEMS = ("d20_scifi", "gurps", "edge_of_darkness")
SCALES = (10, 100, 1000)
BUDGET = float(os.environ.get("BENCH_BUDGET", "270"))
FULL = os.environ.get("BENCH_FULL") == "1"
START = time.perf_counter()


@dataclasses.dataclass
class Row:
    figure: str
    measured: str
    target: str = ""
    met: bool | None = None  # None: no target, or not measured

    def cells(self) -> list[str]:
        verdict = {True: "met", False: "**not met**", None: ""}[self.met]
        return [self.figure, self.measured, self.target, verdict]


@dataclasses.dataclass
class Section:
    title: str
    note: str = ""
    rows: list[Row] = dataclasses.field(default_factory=list)

    def add(self, *args: Any, **kwargs: Any) -> Row:
        row = Row(*args, **kwargs)
        self.rows.append(row)
        print(f"  {' | '.join(c for c in row.cells() if c)}", file=sys.stderr)
        return row


def elapsed() -> float:
    return time.perf_counter() - START


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} µs"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Seconds one command takes; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False
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


# -- build ----------------------------------------------------------------------


def floor_time(project: Path) -> float:
    cmd = [PY, "-c", "import jinja2, jsonschema, ruamel.yaml"]
    return median(9, lambda: run(cmd, project))


def bench_build(tmp: Path, floor: float) -> tuple[Section, float]:
    project = tmp / "real"
    shutil.copytree(RULES, project / "rules")
    systems = sorted(p.name for p in RULES.iterdir() if p.is_dir())
    out = Section(
        "Build: the real rules",
        f"{len(systems)} systems ({', '.join(systems)}) in a copy of the project. "
        "Floor: starting Python and importing the build's own libraries "
        "(`python -c 'import jinja2, jsonschema, ruamel.yaml'`). The build cache "
        "(beside the output folder) is emptied for the cold build.",
    )
    out.add("floor", ms(floor))

    def cold() -> float:
        clean(project, cache=True)
        return rulesc(project, "build")

    def warm() -> float:
        clean(project, cache=False)
        return rulesc(project, "build")

    cold_time = median(5, cold)
    out.add(
        "`rulesc build`, cold: empty output, empty cache",
        f"{ms(cold_time)} ({cold_time / floor:.2f}x floor)",
        "<= 2x floor",
        cold_time <= 2 * floor,
    )
    warm_time = median(5, warm)
    out.add(
        "`rulesc build`, empty output, sources unchanged since the last build",
        f"{ms(warm_time)} ({warm_time / floor:.2f}x floor)",
        "<= 2x floor",
        warm_time <= 2 * floor,
    )
    check_time = median(7, lambda: rulesc(project, "check"))
    out.add(
        "`rulesc check`, nothing changed",
        f"{ms(check_time)} ({check_time / floor:.2f}x floor)",
        "<= 1.5x floor",
        check_time <= 1.5 * floor,
    )
    plain = median(3, lambda: rulesc(project, "check", "--no-cache"))
    out.add(
        "`rulesc check --no-cache`, nothing changed (a fresh clone, as CI)",
        f"{ms(plain)} ({plain / floor:.2f}x floor)",
    )
    edits = iter(range(1000))

    def one_change() -> float:
        synth.edit_one_file(project / "rules", systems[0], str(next(edits)))
        return rulesc(project, "build")

    rebuild = median(5, one_change)
    out.add(
        "`rulesc build` after one rules file changed",
        f"{ms(rebuild)} ({rebuild / check_time:.2f}x check, {rebuild / floor:.2f}x floor)",
        "<= 2x check",
        rebuild <= 2 * check_time,
    )
    shutil.rmtree(project, ignore_errors=True)
    return out, check_time


# -- scaling --------------------------------------------------------------------


@dataclasses.dataclass
class Scale:
    scale: int
    rules: int = 0
    build: float | None = None
    check: float | None = None
    rebuild: float | None = None
    projected: float | None = None

    def per_rule(self, floor: float) -> float | None:
        if self.build is None or not self.rules:
            return None
        return (self.build - floor) / self.rules


def bench_scale(
    tmp: Path, scale: int, floor: float, ran: Scale | None, skipping: bool
) -> Scale:
    """Build ``scale`` copies, or project the time from ``ran`` (the last scale
    that ran) when that would not fit the budget or a smaller scale did not."""
    real_rules = (ran.rules // ran.scale) if ran else 0
    result = Scale(scale, rules=real_rules * scale)
    if ran is not None and not FULL:
        per_rule = ran.per_rule(floor) or 0.0
        projected = floor + per_rule * result.rules
        # The build, then the checks and one-file rebuilds and the clean-up,
        # which come to about 40% of a cold build at the larger scales.
        if skipping or elapsed() + projected * 1.45 + 15 > BUDGET:
            result.projected = projected
            return result
    project = tmp / f"x{scale}"
    ids = synth.make_rules(RULES, scale, project / "rules")
    print(f"  {scale}x: {len(ids)} systems...", file=sys.stderr)
    result.build = rulesc(project, "build")
    result.rules = count_rules(project)
    result.check = median(3, lambda: rulesc(project, "check"))
    edits = iter(range(1000))

    def one_change() -> float:
        synth.edit_one_file(project / "rules", ids[len(ids) // 2], str(next(edits)))
        return rulesc(project, "build")

    result.rebuild = median(3, one_change)
    shutil.rmtree(project, ignore_errors=True)
    return result


def scaling_section(tmp: Path, floor: float) -> Section:
    out = Section(
        "Scaling: synthetic rule sets",
        "N copies of every real system under new ids, each file different "
        "(tests/bench/synth.py), in a temporary folder. The build is cold (empty "
        "output and cache) and run once; time per rule is (build - floor) / rules. "
        "A rebuild changes one rule's title in one file. "
        f"Scales that would not fit the bench's {BUDGET:.0f} s budget are "
        "projected from the last one that ran (`make bench BENCH_FULL=1` runs "
        "them all).",
    )
    results: list[Scale] = []
    ran: Scale | None = None
    for scale in SCALES:
        result = bench_scale(
            tmp, scale, floor, ran, len(results) > 0 and ran is not results[-1]
        )
        results.append(result)
        if result.build is not None:
            ran = result
    base = results[0].per_rule(floor)
    for r in results:
        per_rule = r.per_rule(floor)
        if r.build is not None and per_rule is not None:
            out.add(
                f"{r.scale}x: cold build of {r.rules} rules",
                f"{ms(r.build)}, {per_rule * 1000:.2f} ms per rule"
                + (f" ({per_rule / base:.2f}x the 10x figure)" if base else ""),
                "per rule <= 1.3x the 10x figure",
                base is None or per_rule <= 1.3 * base,
            )
            if r.scale == 1000:
                out.add("1000x: the cold build", ms(r.build), "< 10 s", r.build < 10)
        else:
            out.add(
                f"{r.scale}x: cold build of about {r.rules} rules",
                f"not run: projected {ms(r.projected or 0)} at the last scale's "
                "time per rule",
                "< 10 s" if r.scale == 1000 else "",
                False if r.scale == 1000 and (r.projected or 0) >= 10 else None,
            )
        if r.check is not None and r.rebuild is not None:
            out.add(
                f"{r.scale}x: `rulesc check` nothing changed / `rulesc build` after one file changed",
                f"{ms(r.check)} / {ms(r.rebuild)} ({r.rebuild / r.check:.2f}x)",
                "rebuild <= 2x check",
                r.rebuild <= 2 * r.check,
            )
    return out


# -- runtime --------------------------------------------------------------------


def per_call(function: Callable[[], object], repeat: int = 9) -> Iterator[float]:
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


def versus(out: Section, figure: str, times: tuple[float, float], what: str) -> None:
    gen, hand = times
    out.add(
        figure,
        f"{us(gen)} vs {us(hand)} {what}: {gen / hand:.2f}x",
        "<= 1.3x",
        gen <= 1.3 * hand,
    )


def runtime_section() -> Section:
    out = Section(
        "Runtime: generated code against hand-written code",
        "Median time per call, in this process. Hand-written: tests/bench/"
        "handwritten.py (a dict of frozen dataclasses; a function with the same "
        "checks) and tests/reference_radiation.py.",
    )
    d20 = runtime_module("d20_scifi")
    if d20 is None:
        out.add(
            "runtime rows", "unavailable: generated/rulebook/d20_scifi.py is missing"
        )
        return out
    hand_cover = handwritten.cover_table(d20)
    for label in ("1/2", "TOTAL"):
        row = d20.cover(label)
        assert dataclasses.astuple(hand_cover(label)) == tuple(
            getattr(row, name) for name in row.FIELDS
        )
    versus(
        out,
        "table lookup by label: `cover('1/2')`",
        compare(lambda: d20.cover("1/2"), lambda: hand_cover("1/2")),
        "hand-written",
    )
    member = d20.CoverLevel("1/2")
    versus(
        out,
        "table lookup by enum member: `cover(CoverLevel.HALF)`",
        compare(lambda: d20.cover(member), lambda: hand_cover(member)),
        "hand-written",
    )
    same = all(
        d20.crawl_speed(climb_bonus=b, occupied_limbs=limbs)
        == handwritten.crawl_speed(b, limbs)
        for b in range(-5, 10)
        for limbs in range(5)
    )
    versus(
        out,
        "formula: `crawl_speed(climb_bonus=2, occupied_limbs=1)`"
        + ("" if same else " (the hand-written one is out of date!)"),
        compare(
            lambda: d20.crawl_speed(climb_bonus=2, occupied_limbs=1),
            lambda: handwritten.crawl_speed(climb_bonus=2, occupied_limbs=1),
        ),
        "hand-written",
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
    versus(
        out,
        "`simulate_radiation('High', 10, 2, rng)`, 40 seeds",
        (gen / len(seeds), ref / len(seeds)),
        "the reference",
    )
    zen_row(out, d20)
    return out


def zen_row(out: Section, d20: ModuleType) -> None:
    figure = "GoRules ZEN (`zen-engine`) evaluating the cover table as a decision table"
    try:
        import zen
    except ImportError as exc:
        out.add(
            figure,
            f"unavailable: zen-engine is not installed ({exc}); "
            "`pip install -e '.[bench]'` installs it",
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
    out.add(
        figure,
        f"{us(theirs)} per evaluation vs {us(ours)} for `cover('1/2')`: "
        f"ZEN takes {theirs / ours:.0f}x as long",
        "report the factor",
    )


def cover_decision(d20: ModuleType) -> dict[str, Any]:
    """The cover table as a JDM decision graph: input -> decision table -> output."""
    fields = list(d20.CoverRow.FIELDS)
    rules = []
    for index, member in enumerate(d20.CoverLevel):
        row = d20.cover(member).to_dict()
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


# -- import ---------------------------------------------------------------------


def import_section(tmp: Path) -> Section:
    present = [s for s in SYSTEMS if (GENERATED / "rulebook" / f"{s}.py").is_file()]
    missing = [s for s in SYSTEMS if s not in present]
    out = Section(
        "Import",
        "A new interpreter each time (`python -S`, with a copy of generated/ on "
        "PYTHONPATH), its bytecode already written; median of 21 runs of each, in "
        "alternation."
        + (
            f" Missing systems (not generated yet): {', '.join(missing)}."
            if missing
            else ""
        ),
    )
    if not present:
        out.add("import", "unavailable: no system is generated")
        return out
    # A copy: a build swaps generated/ whole, and its bytecode with it.
    package = tmp / "import" / "rulebook"
    shutil.copytree(GENERATED / "rulebook", package)
    env = dict(os.environ, PYTHONPATH=str(package.parent))
    statement = "import " + ", ".join(f"rulebook.{s}" for s in present)
    # -S: no site, so neither side pays for the venv's .pth files.
    run([PY, "-S", "-c", statement], tmp, env)  # writes the bytecode
    bare, loaded = [], []
    for _ in range(21):
        bare.append(run([PY, "-S", "-c", "pass"], tmp, env))
        loaded.append(run([PY, "-S", "-c", statement], tmp, env))
    cost = statistics.median(loaded) - statistics.median(bare)
    out.add(
        f"`{statement}` over a bare interpreter start ({ms(statistics.median(bare))})",
        ms(cost),
        "<= 20 ms",
        cost <= 0.020,
    )
    return out


# -- distributions ----------------------------------------------------------------


def distributions_section() -> Section:
    """The exact distributions the docs draw (compiler/charts.py), from scratch."""
    from compiler import pipeline
    from compiler.runtime import dice as dice_mod

    outputs = pipeline.build(RULES)
    pages = {
        path: blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("docs/") and path.endswith(".md")
    }
    systems = list(outputs.systems)
    out = Section(
        "Exact distributions",
        "Every chart the docs show (compiler/charts.py: each dice expression's and "
        "each success pool's exact distribution, drawn as SVG), computed from "
        "scratch as a build does, with every distribution cache emptied first.",
    )

    def clear() -> None:
        dice_mod._sum_counts.cache_clear()
        try:
            from compiler.runtime import _success_pool
        except ImportError:
            return
        _success_pool._distribution.cache_clear()

    try:
        from compiler.charts import for_pages
    except ImportError:
        out.add("charts", "unavailable: compiler/charts.py is missing")
        return out
    charts: dict[str, str] = {}

    def once() -> float:
        nonlocal charts
        clear()
        start = time.perf_counter()
        charts = for_pages(systems, pages)
        return time.perf_counter() - start

    took = median(5, once)
    out.add(
        f"all {len(charts)} charts of the docs",
        ms(took) if took >= 0.001 else f"{took * 1e6:.0f} µs",
        "< 100 ms in all",
        took < 0.1,
    )
    return out


# -- report -----------------------------------------------------------------------


def markdown(sections: list[Section], took: float) -> str:
    lines = [
        "# rulebook performance",
        "",
        *machine(),
        f"- bench took: {took:.0f} s",
        "",
    ]
    for section in sections:
        lines += [f"## {section.title}", ""]
        if section.note:
            lines += [section.note, ""]
        lines += ["| figure | measured | target | |", "|---|---|---|---|"]
        lines += ["| " + " | ".join(row.cells()) + " |" for row in section.rows]
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    print("make bench: measuring (this takes a few minutes)...", file=sys.stderr)
    sections: list[Section] = []
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as name:
        tmp = Path(name)
        print("runtime", file=sys.stderr)
        sections.append(runtime_section())
        print("import", file=sys.stderr)
        sections.append(import_section(tmp))
        print("distributions", file=sys.stderr)
        sections.append(distributions_section())
        print("build", file=sys.stderr)
        floor = floor_time(tmp)
        build, _ = bench_build(tmp, floor)
        sections.insert(0, build)
        print("scaling", file=sys.stderr)
        sections.insert(1, scaling_section(tmp, floor))
    report = markdown(sections, elapsed())
    REPORT.write_text(report + "\n", encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
