"""Time bounds: a rule answering the workbench's inputs is stopped after a while.

A rule's inputs may be any whole number of up to 15 digits; some rules do work
in proportion to one (a pool of that many points dealt one by one), so the
workbench gives each answer ``SECONDS`` of wall time and then refuses the
inputs as a usage error, naming the largest number given. Where there is no
``SIGALRM`` timer (Windows, or off the main thread) nothing is bounded.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from .usage import UsageError

SECONDS = 2.0
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
