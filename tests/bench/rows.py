"""The rows of ``make bench``'s report, and the report as Markdown."""

from __future__ import annotations

import dataclasses
import datetime
import os
import platform
from collections.abc import Callable
from pathlib import Path

from .measure import BUDGET, LOAD, Took, elapsed, say, short

WITHIN = 1.10  # a figure of HEAD may take at most 10% longer than the base's


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
class Against:
    """A figure of HEAD beside the same figure of the base."""

    figure: str
    head: Took
    base: Took | None  # None: the base cannot measure it, and ``why`` says why
    show: Callable[[float], str] = short
    why: str = ""
    profile: list[str] | None = None  # where HEAD spends more, when it does

    @property
    def met(self) -> bool | None:
        """Within 10% on the clock; None when the base has no such figure."""
        return None if self.base is None else self.head.wall <= WITHIN * self.base.wall

    @property
    def lost(self) -> bool:
        """Past 10% on the clock and in CPU time: more work, not more waiting."""
        return self.met is False and not self._cpu_within()

    def _cpu_within(self) -> bool:
        return self.base is not None and self.head.cpu <= WITHIN * self.base.cpu

    def cells(self) -> list[str]:
        if self.base is None:
            return [self.figure, self.show(self.head.wall), self.why, "", "", ""]
        if self.met:
            verdict = "met"
        elif not self.lost:
            verdict = (
                "on the clock only: the CPU time is within 10%, the rest was "
                "waiting on a machine shared with other work"
            )
        else:
            verdict = "**not met**" + (f" ({self.why})" if self.why else "")
        return [
            self.figure,
            self.show(self.head.wall),
            self.show(self.base.wall),
            _ratio(self.head.wall, self.base.wall),
            _ratio(self.head.cpu, self.base.cpu),
            verdict,
        ]


def _ratio(head: float, base: float) -> str:
    return f"{head / base:.2f}x" if base > 0 else "-"


@dataclasses.dataclass
class Report:
    targets: dict[int, list[Row]] = dataclasses.field(
        default_factory=dict[int, list[Row]]
    )
    odds: list[Row] = dataclasses.field(default_factory=list[Row])
    other: list[Row] = dataclasses.field(default_factory=list[Row])
    against: list[Against] = dataclasses.field(default_factory=list[Against])
    base: str = ""  # the base's label, or why there is none
    base_left_out: str = ""  # why the base is not measured at this stage

    def target(self, number: int, row: Row) -> Row:
        self.targets.setdefault(number, []).append(row)
        say(" | ".join(c for c in row.cells() if c))
        return row

    def add(self, row: Row) -> Row:
        self.other.append(row)
        say(" | ".join(c for c in row.cells() if c))
        return row

    def odd(self, row: Row) -> Row:
        self.odds.append(row)
        say(" | ".join(c for c in row.cells() if c))
        return row

    def compare(
        self, row: Against, explain: Callable[[], list[str]] | None = None
    ) -> Against:
        """Adds ``row``; when HEAD does more work than 10% past the base's,
        ``explain`` (the two sides profiled) says where, if the budget allows."""
        self.against.append(row)
        say(" | ".join(c for c in row.cells() if c))
        if row.lost and explain is not None:
            if elapsed() > BUDGET:
                row.why = "not profiled: the bench's budget was spent"
            else:
                row.profile = explain()
        return row


def machine() -> list[str]:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in LOAD)
    return [
        f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"- machine: {os.cpu_count()} CPUs ({cpu}), {platform.system()} "
        f"{platform.machine()}, Python {platform.python_version()}",
        f"- load average when the bench started: {load}",
    ]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(cells) + " |" for cells in rows]


def _against(report: Report, measured: bool) -> list[str]:
    lines = ["", f"## Against the base ({report.base})", ""]
    if not measured:
        return [*lines, f"Not measured: {report.base}."]
    lines += [
        "Every figure measured again on the base, in this run, in turn with HEAD's, "
        "on the clock and in CPU time (user and system); HEAD's is met when it takes "
        f"at most {WITHIN:.2f}x the base's on the clock (faster is met). A row the "
        "base cannot measure says why; one past it says whether HEAD did more work "
        "(CPU time), and then where (a profile of each side, below).",
        "",
    ]
    header = ["figure", "HEAD", report.base, "HEAD / base", "CPU", "within 10%"]
    return lines + _table(header, [row.cells() for row in report.against])


def _profiles(report: Report) -> list[str]:
    profiled: list[tuple[str, list[str]]] = [
        (f"{number}. {row.figure}", row.profile)
        for number in sorted(report.targets)
        for row in report.targets[number]
        if row.profile
    ]
    profiled += [
        (f"odds: {row.figure}", row.profile) for row in report.odds if row.profile
    ]
    profiled += [
        (f"against the base: {row.figure}", row.profile)
        for row in report.against
        if row.profile
    ]
    if not profiled:
        return []
    lines = ["", "## Where the time goes, for each row not met", ""]
    for title, profile in profiled:
        lines += [f"### {title}", "", *profile, ""]
    return lines


def markdown(report: Report, took: float, *, base_measured: bool) -> str:
    lines = [
        "# rulebook performance",
        "",
        *machine(),
        f"- bench took: {took:.0f} s",
        "",
        "## The targets (issue 15)",
        "",
    ]
    lines += _table(
        ["#", "figure", "measured", "target", ""],
        [
            [str(number), *row.cells()]
            for number in sorted(report.targets)
            for row in report.targets[number]
        ],
    )
    lines += ["", "## Odds functions (issue 26), their int parameters at the top", ""]
    lines += _table(
        ["function", "measured", "target", ""], [row.cells() for row in report.odds]
    )
    lines += ["", "## Other figures", ""]
    lines += _table(
        ["figure", "measured"], [[row.figure, row.measured] for row in report.other]
    )
    lines += _against(report, base_measured)
    lines += _profiles(report)
    return "\n".join(lines).rstrip() + "\n"
