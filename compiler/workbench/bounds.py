"""Time bounds: a rule answering the workbench's inputs is stopped after a while.

A rule's inputs may be any whole number of up to 15 digits; some rules do work
in proportion to one (a pool of that many points dealt one by one), so the
workbench gives each answer ``SECONDS`` of wall time and then refuses the
inputs as a usage error, naming the largest number given. Where there is no
``SIGALRM`` timer (Windows, or off the main thread) nothing is bounded.

Many runs of one answer (``simulate --runs N``) have ``RUNS_SECONDS`` for all
of them: past that, or once the runs so far show they would take much longer,
the runs are stopped and ``--runs`` refused (``Budget``), not the inputs, which
answered in time.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from .usage import UsageError

SECONDS = 2.0
RUNS_SECONDS = 20.0
T = TypeVar("T")


class Overrun(BaseException):
    """The time given has run out (a BaseException: no ``except Exception``
    inside a rule's code swallows it)."""


def _ring(signum: int, frame: Any) -> None:
    raise Overrun


class Clock:
    """Runs one answer at a time within ``seconds``, or raises ``Overrun``."""

    def __init__(self, seconds: float, live: bool) -> None:
        self.seconds, self.live = seconds, live

    def run(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        if not self.live:
            return function(*args, **kwargs)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return function(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def bounded(seconds: float | None = None) -> Iterator[Clock]:
    """A clock for answers within the block (its timer signal handled there),
    each given ``seconds`` (by default ``SECONDS``)."""
    seconds = SECONDS if seconds is None else seconds
    if not hasattr(signal, "setitimer") or (
        threading.current_thread() is not threading.main_thread()
    ):
        yield Clock(seconds, live=False)
        return
    previous = signal.signal(signal.SIGALRM, _ring)
    try:
        yield Clock(seconds, live=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def too_slow(
    rule: str, given: Mapping[str, Any], seconds: float | None = None
) -> UsageError:
    """The usage error for a rule that did not answer in time."""
    seconds = SECONDS if seconds is None else seconds
    numbers = [(abs(v), k) for k, v in given.items() if type(v) is int]
    took = f"{rule} did not answer within {seconds:g} seconds"
    if not numbers:
        return UsageError(f"{took} on these inputs")
    _, name = max(numbers)
    return UsageError(
        f"{took}: {name}={given[name]} is more than it works out quickly",
        f"give {name} a smaller value",
    )


class Budget:
    """The time many runs of one answer have (``RUNS_SECONDS`` by default):
    ``check`` after each run refuses ``--runs`` once they are past it, or once
    the runs made (after a tenth of it) show all would take half as long again."""

    def __init__(self, rule: str, runs: int, seconds: float | None = None) -> None:
        self.rule, self.runs = rule, runs
        self.seconds = RUNS_SECONDS if seconds is None else seconds
        self.start = time.monotonic()

    def check(self, done: int) -> None:
        took = time.monotonic() - self.start
        if took > self.seconds or (
            took >= self.seconds / 10 and took * self.runs > 1.5 * self.seconds * done
        ):
            raise self.refusal(done)

    def refusal(self, done: int) -> UsageError:
        """The usage error naming --runs, with about how many runs fit."""
        took = max(time.monotonic() - self.start, 1e-9)
        fit = int(done * self.seconds / took)
        fit = round(fit, 1 - len(str(fit))) if fit >= 10 else fit  # one figure
        return UsageError(
            f"{self.rule} would not finish {self.runs:,} runs within "
            f"{self.seconds:g} seconds: --runs={self.runs} is more than it works "
            "out quickly",
            f"give --runs a smaller value (about {max(fit, 1):,} runs fit)",
        )
