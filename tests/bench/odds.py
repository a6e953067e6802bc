"""``make bench``'s odds rows: every odds function of tests/dice_formulas and of
the cookbooks (tests/cookbook: table_games), its int parameters at their
maximum, against 50 ms each (issue 26 item 3), and beside the base's where the
base has it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from . import fresh, profile
from .baseline import ROOT, Side
from .measure import RULESC, short
from .rows import Against, Report, Row

RULES = (ROOT / "tests" / "dice_formulas", ROOT / "tests" / "cookbook")
TARGET = 0.050


def build(side: Side, tmp: Path, rules: Path) -> Path | str:
    """The side's build of ``rules``, or why there is none."""
    out = tmp / f"{rules.name}-{side.label.replace(' ', '-')}"
    done = subprocess.run(
        [*RULESC, "build", "--rules", str(rules), "--out", str(out)],
        cwd=tmp,
        env=side.env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return out
    lines = done.stderr.strip().splitlines() or ["(no message)"]
    first = next((line for line in lines if "error" in line), lines[0])
    home = ROOT if rules.is_relative_to(ROOT) else side.root
    return (
        f"{side.label} cannot build {rules.relative_to(home)}: `{first.strip()[:160]}`"
    )


def bench_odds(report: Report, tmp: Path, sides: list[Side]) -> None:
    for rules in RULES:
        _bench(report, tmp, sides, rules)


def _bench(report: Report, tmp: Path, sides: list[Side], rules: Path) -> None:
    built = [build(side, tmp, rules) for side in sides]
    for at, side in enumerate(sides[1:], start=1):
        own = side.root / rules.relative_to(ROOT)  # the base's own copy of them
        if isinstance(built[at], str) and own.is_dir():
            # HEAD's rules use what the base cannot read: the base's own rules
            # of that folder, the calls both have compared
            built[at] = build(side, tmp, own)
    if isinstance(built[0], str):
        where = rules.relative_to(ROOT)
        report.odd(Row(f"the odds functions of {where}", built[0]))
        return
    works = [
        fresh.Work(side, "odds", str(out), out)
        for side, out in zip(sides, built, strict=True)
        if isinstance(out, Path)
    ]
    timed = fresh.alternate(tmp, works, rounds=2, repeat=4)
    head = timed[0]
    for name, note in head.notes.items():
        if name not in head.times:
            report.odd(Row(f"`{name}`", note))
            continue
        took = head.median(name)
        measured = f"{short(took.wall)} ({note})"
        row = report.odd(Row(f"`{name}`", measured, "<= 50 ms", took.wall <= TARGET))
        if not row.met:
            row.profile = works[0].summary(tmp, name)
        if len(sides) < 2:
            continue
        figure = f"odds: `{name}`"
        if len(timed) < 2 or name not in timed[1].times:
            why = missing(built[1], report, rules)
            report.compare(Against(figure, took, None, why=why))
            continue

        def explain(name: str = name) -> list[str]:
            head_own, base_own = (work.groups(tmp, name) for work in works)
            return profile.difference(f"`{name}`", head_own, base_own, sides[1].label)

        report.compare(Against(figure, took, timed[1].median(name)), explain)


def missing(built: Path | str, report: Report, rules: Path) -> str:
    """Why the base has no such odds function: in full the first time."""
    if isinstance(built, Path):
        return "the base's build has no such function"
    said = any(row.why == built for row in report.against)
    return (
        f"as above: the base cannot build {rules.relative_to(ROOT)}" if said else built
    )
