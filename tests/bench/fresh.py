"""Timings and profiles of one side's code, taken by worker.py in a fresh process."""

from __future__ import annotations

import dataclasses
import json
import pstats
import subprocess
from pathlib import Path

from . import profile
from .baseline import Side
from .measure import PY, Took, median

WORKER = Path(__file__).resolve().parent / "worker.py"


@dataclasses.dataclass
class Timed:
    """What a worker measured: seconds per call of each figure (on the clock and
    of CPU), and its notes."""

    times: dict[str, list[tuple[float, float]]]
    notes: dict[str, str]

    def median(self, name: str) -> Took:
        return median([Took(wall, cpu) for wall, cpu in self.times[name]])


@dataclasses.dataclass(frozen=True)
class Work:
    """A kind of figure of worker.py, on one side: its argument and import path."""

    side: Side
    kind: str
    arg: str
    path: Path

    def _run(self, tmp: Path, *args: str) -> str:
        done = subprocess.run(
            [PY, "-P", str(WORKER), self.kind, self.arg, *args],
            cwd=tmp,
            env=self.side.python_env(self.path),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{self.side.label}: worker.py failed:\n{done.stderr}")
        return done.stdout

    def time(self, tmp: Path, repeat: int, least: float = 0.2) -> Timed:
        found = json.loads(self._run(tmp, str(repeat), "--least", str(least)))
        return Timed(found["times"], found["notes"])

    def _profiled(self, tmp: Path, name: str) -> tuple[pstats.Stats, int]:
        out = tmp / f"worker-{self.kind}.prof"
        calls = json.loads(self._run(tmp, "1", "--profile", name, str(out)))["calls"]
        return pstats.Stats(str(out)), int(calls)

    def groups(self, tmp: Path, name: str) -> dict[str, float]:
        """Own seconds per call of figure ``name``, by stage or library."""
        stats, calls = self._profiled(tmp, name)
        return {k: v / calls for k, v in profile.groups(stats)[0].items()}

    def summary(self, tmp: Path, name: str) -> list[str]:
        """Where a call of figure ``name`` spends its time (shares)."""
        stats, calls = self._profiled(tmp, name)
        return profile.summary(stats, f"{calls} calls of `{name}`")


def alternate(tmp: Path, works: list[Work], rounds: int, repeat: int) -> list[Timed]:
    """Each work's timings, worker processes in turn ``rounds`` times."""
    taken: list[Timed] = [Timed({}, {}) for _ in works]
    for _ in range(rounds):
        for into, work in zip(taken, works, strict=True):
            timed = work.time(tmp, repeat, 0.2 if work.kind == "runtime" else 0.05)
            for name, seconds in timed.times.items():
                into.times.setdefault(name, []).extend(seconds)
            into.notes.update(timed.notes)
    return taken
