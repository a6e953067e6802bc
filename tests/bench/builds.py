"""``make bench``'s commands: rulesc at 1x to 1000x the rules and imports of the
runtime, each timed on HEAD and on the base in turn."""

from __future__ import annotations

import dataclasses
import functools
import json
import shutil
from collections.abc import Callable
from pathlib import Path

from . import profile, synth
from .baseline import HEAD, Side
from .measure import BUDGET, ENV, FULL, PY, Took, alternate, elapsed, ms, run, say
from .rows import Against, Report, Row

SYSTEMS = ("d20_scifi", "gurps", "edge_of_darkness")


class Project:
    """One side's copy of its rules (or a synthetic set) in a temporary folder."""

    def __init__(self, folder: Path, systems: list[str], side: Side) -> None:
        self.folder = folder
        self.systems = systems
        self.side = side
        self._edits = iter(range(10_000))

    def rulesc(self, *args: str) -> Took:
        return self.side.rulesc(self.folder, *args)

    def edit(self) -> None:
        system = self.systems[len(self.systems) // 2]
        synth.edit_one_file(self.folder / "rules", system, str(next(self._edits)))

    def clean(self, *, cache: bool = True) -> None:
        shutil.rmtree(self.folder / "generated", ignore_errors=True)
        if cache:
            shutil.rmtree(self.folder / ".generated.cache", ignore_errors=True)

    def check(self) -> Took:
        return self.rulesc("check")

    def rebuild(self) -> Took:
        self.edit()
        return self.rulesc("build")

    def cold(self) -> Took:
        self.clean()
        return self.rulesc("build", "--no-cache")

    def warm(self) -> Took:
        self.clean(cache=False)
        return self.rulesc("build")

    def rules(self) -> int:
        manifest = json.loads((self.folder / "generated" / "manifest.json").read_text())
        return len(manifest["rules"])

    def stats(self, args: list[str], tmp: Path, **env: str) -> dict[str, float]:
        """Own seconds by stage or library of one ``rulesc ARGS``, profiled."""
        env = dict(self.side.env, **env)
        return profile.groups(profile.command_stats(self.folder, args, tmp, env))[0]


def _folder(tmp: Path, name: str, side: Side) -> Path:
    return tmp / f"{name}-{side.label.replace(' ', '-')}"


def real_project(tmp: Path, side: Side) -> Project:
    folder = _folder(tmp, "real", side)
    shutil.copytree(side.rules, folder / "rules")
    return Project(folder, [SYSTEMS[0]], side)


def scaled_project(tmp: Path, scale: int, side: Side) -> Project:
    folder = _folder(tmp, f"x{scale}", side)
    return Project(folder, synth.make_rules(side.rules, scale, folder / "rules"), side)


def ratio_row(figure: str, took: Took, base: Took, limit: float) -> Row:
    return Row(
        figure,
        f"{ms(took.wall)} against {ms(base.wall)}: {took.wall / base.wall:.2f}x",
        f"<= {limit:g}x",
        took.wall <= limit * base.wall,
    )


Profiler = Callable[[Project], dict[str, float]]


def against(
    report: Report,
    figure: str,
    took: list[Took],
    projects: list[Project],
    what: str,
    profiler: Profiler,
) -> None:
    """HEAD's figure beside the base's, when there is a base; when HEAD does more
    work, where (``profiler`` run on each side)."""
    if len(took) < 2:
        if report.base_left_out:
            why = f"not measured: {report.base_left_out}"
            report.compare(Against(figure, took[0], None, why=why))
        return

    def explain() -> list[str]:
        head, base = (profiler(project) for project in projects[:2])
        return profile.difference(what, head, base, projects[1].side.label)

    row = Against(figure, took[0], took[1], why=_written(projects[:2]))
    report.compare(row, explain)


def _written(projects: list[Project]) -> str:
    """How much output each side makes (a build renders, formats, reads back
    and hashes all of it; a check renders it and compares), what of it is new
    in HEAD (the output's folders the base does not write), and where to read
    the rest of why HEAD takes longer."""
    folders: list[dict[str, int]] = []
    for p in projects:
        sizes: dict[str, int] = {}
        for f in (p.folder / "generated").rglob("*"):
            if f.is_file():
                top = f.relative_to(p.folder / "generated").parts[0]
                sizes[top] = sizes.get(top, 0) + f.stat().st_size
        folders.append(sizes)
    totals = [sum(sizes.values()) for sizes in folders]
    if len(totals) < 2 or not totals[1]:
        return "where HEAD spends more: the profiles below"
    new = [
        f"{name}/ {size / 1e6:.1f} MB"
        for name, size in sorted(folders[0].items())
        if name not in folders[1] and size >= 0.05 * totals[0]
    ]
    return (
        f"HEAD's output is {totals[0] / totals[1]:.2f}x the base's, "
        f"{totals[0] / 1e6:.1f} MB against {totals[1] / 1e6:.1f} MB"
        + (f" (new in HEAD: {', '.join(new)})" if new else "")
        + "; where HEAD spends more: the profiles below"
    )


def bench_real(report: Report, tmp: Path, sides: list[Side]) -> Took:
    """Targets 1 and 2 at the real rules' scale, and the floor."""
    projects = [real_project(tmp, side) for side in sides]
    head = projects[0]
    floor_cmd = [PY, "-c", "import jinja2, jsonschema, ruamel.yaml"]
    run(floor_cmd, tmp)
    for project in projects:
        project.rulesc("build", "--no-cache")  # writes the bytecode
    # In turn: load on the machine hits them all alike.
    floor, *colds = alternate(
        7, [lambda: run(floor_cmd, tmp), *(p.cold for p in projects)]
    )
    row = report.target(
        1,
        ratio_row(
            "`rulesc build --no-cache` (empty output) against "
            '`python -c "import jinja2, jsonschema, ruamel.yaml"`',
            colds[0],
            floor,
            2,
        ),
    )
    if not row.met:
        head.clean()
        row.profile = profile.command(
            head.folder, ["build", "--no-cache"], tmp, HEAD.env
        )

    def cold_stats(project: Project) -> dict[str, float]:
        project.clean()
        return project.stats(["build", "--no-cache"], tmp)

    figure = "`rulesc build --no-cache` (empty output)"
    against(report, figure, colds, projects, figure, cold_stats)
    for project in projects:
        project.rulesc("build")  # fills the cache
    checks = alternate(9, [p.check for p in projects])
    rebuilds = alternate(7, [p.rebuild for p in projects])
    row = report.target(
        2,
        ratio_row(
            "1x (3 systems): `rulesc build` after one rules file changed, against "
            "a no-op `rulesc check`",
            rebuilds[0],
            checks[0],
            2,
        ),
    )
    if not row.met:
        head.edit()
        row.profile = profile.command(head.folder, ["build"], tmp, HEAD.env)
    changed(report, tmp, "1x", rebuilds, projects)
    report.add(
        Row(
            'floor: `python -c "import jinja2, jsonschema, ruamel.yaml"`',
            ms(floor.wall),
        )
    )
    report.add(
        Row("`rulesc check`, nothing changed (with its cache)", ms(checks[0].wall))
    )
    unchanged(report, tmp, "1x", checks, projects)
    plain = alternate(
        3, [functools.partial(p.rulesc, "check", "--no-cache") for p in projects]
    )
    figure = "`rulesc check --no-cache` (a fresh clone, as in CI)"
    report.add(Row(figure, ms(plain[0].wall)))
    args = ["check", "--no-cache"]
    against(report, figure, plain, projects, figure, lambda p: p.stats(args, tmp))
    warm = alternate(5, [p.warm for p in projects])
    figure = "`rulesc build`, empty output, rules unchanged since the last build"
    report.add(Row(figure, ms(warm[0].wall)))

    def warm_stats(project: Project) -> dict[str, float]:
        project.clean(cache=False)
        return project.stats(["build"], tmp)

    against(report, figure, warm, projects, "`rulesc build`", warm_stats)
    for project in projects:
        shutil.rmtree(project.folder, ignore_errors=True)
    return floor


def unchanged(
    report: Report, tmp: Path, scale: str, took: list[Took], projects: list[Project]
) -> None:
    figure = f"{scale}: `rulesc check`, nothing changed"
    against(report, figure, took, projects, figure, lambda p: p.stats(["check"], tmp))


def changed(
    report: Report, tmp: Path, scale: str, took: list[Took], projects: list[Project]
) -> None:
    def rebuild_stats(project: Project) -> dict[str, float]:
        project.edit()
        return project.stats(["build"], tmp)

    figure = f"{scale}: `rulesc build` after one rules file changed"
    against(report, figure, took, projects, figure, rebuild_stats)


@dataclasses.dataclass
class Scaled:
    scale: int
    rules: int
    build: Took
    project: Project


class OneProcess:
    """Where a rule's time goes: a cold build of a side's 10x set in one process,
    profiled once a side (the 10x, 100x and 1000x rows ask alike)."""

    what = "a cold `rulesc build` of the 10x set in one process"

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.done: dict[str, dict[str, float]] = {}

    def __call__(self, project: Project) -> dict[str, float]:
        side = project.side
        if side.label not in self.done:
            ten = scaled_project(self.tmp / "one-process", 10, side)
            self.done[side.label] = ten.stats(["build"], self.tmp, RULESC_JOBS="1")
            shutil.rmtree(ten.folder, ignore_errors=True)
        return self.done[side.label]

    def summary(self, project: Project) -> list[str]:
        return profile.shares(self(project), self.what)


def bench_scale(
    report: Report,
    tmp: Path,
    scale: int,
    floor: Took,
    sides: list[Side],
    one: OneProcess,
    room: Callable[[Took], str] = lambda _took: "",
) -> list[Scaled]:
    """A cold build of ``scale`` copies of the rules (once a side), then target 2.
    ``room`` says why the base is left out, given HEAD's cold build (the budget)."""
    projects = [scaled_project(tmp, scale, side) for side in sides]
    builds: list[Took] = []
    for project in projects:
        if builds and (why := room(builds[0])):
            report.base_left_out = why
            shutil.rmtree(project.folder, ignore_errors=True)
            projects = projects[:1]
            break
        say(f"{scale}x: cold build, {project.side.label}...")
        builds.append(project.rulesc("build"))
    counts = [p.rules() for p in projects]
    rules = counts[0]
    report.add(
        Row(
            f"{scale}x ({rules} rules): cold build, 2 cores",
            f"{ms(builds[0].wall)}, {(builds[0].wall - floor.wall) / rules * 1000:.2f} ms per rule "
            "past the floor",
        )
    )
    base_rules = f"; the base's {counts[-1]}" if counts[-1] != rules else ""
    figure = f"{scale}x ({rules} rules{base_rules}): cold `rulesc build`"
    against(report, figure, builds, projects, one.what, one)
    checks = alternate(5, [p.check for p in projects])
    rebuilds = alternate(5, [p.rebuild for p in projects])
    row = report.target(
        2,
        ratio_row(
            f"{scale}x ({rules} rules): `rulesc build` after one rules file changed, "
            "against a no-op `rulesc check`",
            rebuilds[0],
            checks[0],
            2,
        ),
    )
    if not row.met:
        projects[0].edit()
        row.profile = profile.command(projects[0].folder, ["build"], tmp, HEAD.env)
    unchanged(report, tmp, f"{scale}x", checks, projects)
    changed(report, tmp, f"{scale}x", rebuilds, projects)
    return [
        Scaled(scale, count, took, project)
        for project, count, took in zip(projects, counts, builds, strict=True)
    ]


def bench_thousand(
    report: Report, tmp: Path, floor: Took, lasts: list[Scaled], one: OneProcess
) -> None:
    """Target 3: 1000x cold, run on each side when that fits the budget, else
    projected from the last scale's time per rule."""
    projected = [
        Took(
            *(
                at_floor
                + (built - at_floor) / last.rules * (last.rules // last.scale * 1000)
                for built, at_floor in zip(last.build, floor, strict=True)
            )
        )
        for last in lasts
    ]
    rules = lasts[0].rules // lasts[0].scale * 1000
    figure = f"1000x ({rules} rules, 3000 systems): cold `rulesc build`, 2 cores"
    if FULL or elapsed() + sum(p.wall for p in projected) * 1.2 + 20 <= BUDGET:
        took: list[Took] = []
        for last in lasts:
            project = scaled_project(tmp, 1000, last.project.side)
            say(f"1000x: cold build, {project.side.label}...")
            took.append(project.rulesc("build"))
            shutil.rmtree(project.folder, ignore_errors=True)
        row = report.target(
            3, Row(figure, ms(took[0].wall), "<= 30 s", took[0].wall <= 30)
        )
        compared = "1000x: cold `rulesc build`"
    else:
        took = projected
        row = report.target(
            3,
            Row(
                figure,
                f"not run (it would not fit the bench's {BUDGET:.0f} s): projected "
                f"{ms(projected[0].wall)} from the {lasts[0].scale}x build's time per "
                "rule (`BENCH_FULL=1` runs it)",
                "<= 30 s",
                projected[0].wall <= 30,
            ),
        )
        compared = f"1000x: cold `rulesc build`, projected from {lasts[0].scale}x"
    if not row.met:
        row.profile = one.summary(lasts[0].project)
    against(report, compared, took, [last.project for last in lasts], one.what, one)


# -- import -----------------------------------------------------------------------


def bench_import(
    report: Report, tmp: Path, sides: list[Side], tens: list[Project]
) -> None:
    """Target 4: the three modules over ``python -c pass``; then 10x the rules."""
    packages: list[Path] = []
    for side in sides:
        # A copy: a build swaps generated/ whole, and its bytecode with it.
        package = _folder(tmp, "import", side) / "rulebook"
        shutil.copytree(side.generated / "rulebook", package)
        packages.append(package.parent)
    statement = "import " + ", ".join(f"rulebook.{s}" for s in SYSTEMS)
    real = [(path, statement) for path in packages]
    costs = import_costs(real, tmp)
    row = report.target(
        4,
        Row(
            f"`python -c '{statement}'` over `python -c pass`",
            ms(costs[0].wall),
            "<= 20 ms",
            costs[0].wall <= 0.020,
        ),
    )
    if not row.met:
        row.profile = profile.imports(packages[0], statement, tmp, ENV)
    imports_against(report, "importing the three systems' modules", costs, real, tmp)
    if not tens:
        return
    wide = [
        (
            ten.folder / "generated",
            "import " + ", ".join(f"rulebook.{s}" for s in ten.systems),
        )
        for ten in tens
    ]
    wide_costs = import_costs(wide, tmp)
    count = len(tens[0].systems)
    row = report.target(
        4,
        Row(
            f"the same for 10x the rules ({count} systems' modules, the 10x set)",
            f"{ms(wide_costs[0].wall)}: {wide_costs[0].wall / costs[0].wall:.2f}x "
            "the real rules'",
            "<= 1.5x",
            wide_costs[0].wall <= 1.5 * costs[0].wall,
        ),
    )
    if not row.met:
        row.profile = profile.imports(wide[0][0], wide[0][1], tmp, ENV)
    figure = f"importing the 10x set's {count} systems' modules"
    imports_against(report, figure, wide_costs, wide, tmp)


def imports_against(
    report: Report,
    figure: str,
    took: list[Took],
    imports: list[tuple[Path, str]],
    tmp: Path,
) -> None:
    if len(took) < 2:
        return

    def explain() -> list[str]:
        head, base = (profile.import_times(p, code, tmp, ENV) for p, code in imports)
        return profile.difference("`python -X importtime`", head, base, report.base)

    report.compare(
        Against(f"{figure}, over `python -c pass`", took[0], took[1]), explain
    )


def import_costs(imports: list[tuple[Path, str]], tmp: Path) -> list[Took]:
    """What each statement adds to ``python -c pass``, its folder on the path: the
    fastest of each less the fastest bare start (start-up is noisy)."""
    envs = [dict(ENV, PYTHONPATH=str(path)) for path, _ in imports]
    for env, (_, statement) in zip(envs, imports, strict=True):
        run([PY, "-c", statement], tmp, env)  # writes the bytecode
    bare: list[Took] = []
    loaded: list[list[Took]] = [[] for _ in imports]
    for _ in range(31):  # in alternation
        bare.append(run([PY, "-c", "pass"], tmp, envs[0]))
        for into, env, (_, statement) in zip(loaded, envs, imports, strict=True):
            into.append(run([PY, "-c", statement], tmp, env))

    def least(taken: list[Took]) -> Took:
        return Took(min(t.wall for t in taken), min(t.cpu for t in taken))

    start = least(bare)
    return [Took(t.wall - start.wall, t.cpu - start.cpu) for t in map(least, loaded)]
