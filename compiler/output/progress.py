"""Progress: what a command has written so far, so that an interrupted one says so.

A command names each thing it may write (``at_stake``) and writes it inside
``step``: Ctrl-C is held back for the step's span (a few renames), so a step is
either done and recorded or not begun. ``report`` is then the truth: what was written, what was
left as it was.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_stake: dict[str, bool] = {}  # by what is shown: written yet?


def reset() -> None:
    _stake.clear()


def at_stake(shown: str) -> None:
    """``shown`` may be written by this command (not yet)."""
    _stake.setdefault(shown, False)


def done(shown: str) -> None:
    _stake[shown] = True


class Step:
    """A step under way: ``written`` is whether it wrote what it names, once it
    ends without an exception (set it to False when it chose not to)."""

    written = True


@contextmanager
def step(shown: str) -> Iterator[Step]:
    """Write ``shown`` in the body, with Ctrl-C held back until it is recorded
    as written (when the body ends without an exception) or not."""
    at_stake(shown)
    with _held():
        now = Step()
        yield now
        if now.written:
            done(shown)


_holding = False


@contextmanager
def _held() -> Iterator[None]:
    """Ctrl-C (SIGINT) caught and put off until the body has ended: then the
    handler there was before gets it. Signal handlers run in the main thread
    only, whichever thread the signal reached; elsewhere, or inside another
    hold, nothing changes."""
    global _holding
    if _holding or threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    _holding = True
    try:
        yield
    finally:
        _holding = False
        signal.signal(signal.SIGINT, before)
        if caught and callable(before):
            before(signal.SIGINT, None)  # Python's own: KeyboardInterrupt
        elif caught and before == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:6])
    return shown + (f" and {len(items) - 6} more" if len(items) > 6 else "")


def report() -> str:
    """What was written and what was left as it was, for ``rulesc: interrupted; ...``."""
    written = [s for s, done in _stake.items() if done]
    left = [s for s, done in _stake.items() if not done]
    if not written and not left:
        return "nothing was written"
    parts = []
    if written:
        parts.append(
            f"{_listed(written)} {'was' if len(written) == 1 else 'were'} written"
        )
    if left:
        they = "was left as it was" if len(left) == 1 else "were left as they were"
        parts.append(f"{_listed(left)} {they}")
    return "; ".join(parts)
