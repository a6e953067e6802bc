"""Timelines: handlers run at the times they were scheduled for, earliest first.

A generated timeline schedules its handlers (``at``), runs them in time order
(``run``: of those scheduled for one time, the first scheduled runs first),
and records what happens (``append``). It records at most ``MAX_ENTRIES``
events (a limit of the runtime, not of the rules): past it, it raises
``RuleInputError``, so a run that would never end stops there.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Generic, TypeVar

from ._support import MAX_ENTRIES, too_many

__all__ = ["Timeline"]

EventT = TypeVar("EventT")


class Timeline(Generic[EventT]):
    """The handlers still to run, by time, and the events recorded so far."""

    __slots__ = ("_queue", "_seq", "events")

    def __init__(self) -> None:
        self._queue: list[tuple[int, int, Callable[..., None], tuple[object, ...]]] = []
        self._seq = 0
        self.events: list[EventT] = []

    def at(self, time: int, handler: Callable[..., None], *args: object) -> None:
        """Run ``handler(time, *args)`` at ``time``, after those already
        scheduled for it."""
        heapq.heappush(self._queue, (time, self._seq, handler, args))
        self._seq += 1

    def run(self) -> None:
        """Run every handler scheduled, and every one they schedule, in order."""
        queue = self._queue
        while queue:
            time, _, handler, args = heapq.heappop(queue)
            handler(time, *args)

    def append(self, event: EventT) -> None:
        """Record ``event``, refusing a run past the runtime's entry limit."""
        if len(self.events) >= MAX_ENTRIES:
            raise too_many(
                "events (an rng that keeps rolling the same, or figures too large, "
                "can make a run that long)"
            )
        self.events.append(event)
