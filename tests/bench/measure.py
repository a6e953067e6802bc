"""How ``make bench`` times things: commands in a new process, medians, alternation."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

PY = sys.executable
# rulesc as each side runs it: its compiler/ folder, by its PYTHONPATH (HEAD's
# is imported as rulesc once installed, the base's as compiler: the folder's
# name is both's).
RULESC = [PY, "-m", "compiler"]
BUDGET = float(os.environ.get("BENCH_BUDGET", "600"))
FULL = os.environ.get("BENCH_FULL") == "1"
START = time.perf_counter()
LOAD = os.getloadavg()  # when the bench started
# As on a user's machine: Python writes (and then reads) bytecode.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def elapsed() -> float:
    return time.perf_counter() - START


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.3f} µs"


def short(seconds: float) -> str:
    """Three or four significant digits, enough to read a 10% difference."""
    if seconds < 1e-3:
        return us(seconds)
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def say(line: str) -> None:
    print(f"  {line}", file=sys.stderr)


class Took(NamedTuple):
    """Seconds on the clock, and of CPU (user and system, with the processes it
    waited for): on a machine shared with other work, the clock also counts the
    others' turns, the CPU time only the work."""

    wall: float
    cpu: float


def median(taken: Sequence[Took]) -> Took:
    return Took(
        statistics.median(t.wall for t in taken),
        statistics.median(t.cpu for t in taken),
    )


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Took:
    """What one command takes; it must succeed."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(
        cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True, check=False
    )
    took = Took(time.perf_counter() - start, _cpu() - cpu)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed in {cwd}:\n{done.stderr}")
    return took


def alternate(times: int, measures: Sequence[Callable[[], Took]]) -> list[Took]:
    """The median of each measure, taken in turn ``times`` times: load on the
    machine hits them alike."""
    taken: list[list[Took]] = [[] for _ in measures]
    for _ in range(times):
        for into, measure in zip(taken, measures, strict=True):
            into.append(measure())
    return [median(each) for each in taken]
