"""simulate --runs N: many runs too slow together name --runs, not the rule's
inputs, which answered in time (issue 38, item 10).

The runs have ``bounds.RUNS_SECONDS`` for all of them (shortened here); a run
past its own time after the first is the number of runs' doing too (the
answers kept so far), while a first run past it is the inputs'.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import main
from rulesc.workbench import bounds, simulate
from rulesc.workbench.usage import UsageError

from .conftest import RULES

pytestmark = pytest.mark.usefixtures("no_hang")


def _run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["simulate", "--rules", str(RULES), *args])
    return code, err.getvalue()


def test_too_many_runs_name_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "RUNS_SECONDS", 0.3)
    code, err = _run(
        "d20_scifi.accumulation", "--pool", "1000", "--runs", "1000000", "--seed", "1"
    )
    assert code == 2, err
    first, hint = err.splitlines()
    assert first == (
        "rulesc simulate: error: d20_scifi.accumulation would not finish "
        "1,000,000 runs within 0.3 seconds: --runs=1000000 is more than it works "
        "out quickly"
    )
    assert hint.startswith("  hint: give --runs a smaller value (about ")
    code, err = _run("d20_scifi.accumulation", "--pool", "3", "--runs", "20")
    assert code == 0, err  # a few runs are no trouble


def _options(runs: int) -> argparse.Namespace:
    return argparse.Namespace(runs=runs, json=False)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(runs=st.integers(2, 5000), stopped=st.integers(0, 5000))
def test_a_run_past_its_time_after_the_first_names_runs(
    runs: int, stopped: int
) -> None:
    """Whichever run is stopped by the clock: the first blames the inputs
    (``Overrun`` goes on to the caller, which names them), any later --runs."""
    stopped %= runs
    made: list[int] = []

    def once(rng: Any) -> int:
        if len(made) == stopped:
            raise bounds.Overrun
        made.append(1)
        return 1

    rule: Any = SimpleNamespace(qualified_id="s.rule")
    if stopped == 0:
        with pytest.raises(bounds.Overrun):
            simulate._many(rule, {"pool": 10**9}, 1, _options(runs), once)
        return
    with pytest.raises(UsageError) as caught:
        simulate._many(rule, {"pool": 10**9}, 1, _options(runs), once)
    assert f"--runs={runs} is more than it works out quickly" in caught.value.message
    assert "pool" not in caught.value.message
    assert caught.value.hint is not None and "give --runs" in caught.value.hint
