"""``make bench``'s rows beside icepool: the first odds call in a fresh process, rulebook's and icepool's.

The rules are tests/bench/rules/bench_odds (built by HEAD's rulesc); the
icepool side is written as icepool is meant to be used (its pools' multiset
expressions, a ``multiset_function`` for a pool read several ways, evaluated
once for all its reads). Each measurement is its own process: the library and
the rules are imported first, then only the call is timed, so both sides pay
the first call's cost (no cache warmed by an earlier call). The target: each
within 2x of icepool's time (issue 39 item 2), none refused.
"""

from __future__ import annotations

import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import odds
from .baseline import ROOT, Side
from .measure import PY, short
from .rows import Report, Row

RULES = ROOT / "tests" / "bench" / "rules"
RUNS = 5  # fresh processes per side and case: the median is reported
TARGET = 2.0  # at most this many times icepool's time


@dataclass(frozen=True)
class Case:
    """A row: rulebook's call (in bench_odds) and icepool's code for the same
    odds (``setup`` defines what ``call`` uses; only ``call`` is timed)."""

    figure: str
    rulebook: str
    icepool: str
    setup: str = ""
    ours: str = ""  # rulebook's own set-up (not timed)


_MIXED = """
@multiset_function
def three(a):
    return a.highest(1).sum(), a.lowest(1).sum(), a.keep_outcomes(lambda o: o >= 6).size()
"""
_EXALTED = """
@multiset_function
def exalted(a):
    return (
        (a.keep_outcomes([7, 8, 9, 10]) + a.keep_outcomes([10])).size(),
        a.keep_outcomes([1]).size(),
    )
"""

# dice of symbols as icepool writes them: each face a Vector of the symbols'
# counts, a pool's tallies the sum of its dice
_THREE_KINDS = """
from icepool import Die, Vector
def faces(*counts):
    return Die([Vector(c) for c in counts])
boost = faces((0, 0), (0, 0), (1, 0), (1, 1), (0, 2), (0, 1))
ability = faces((0, 0), (1, 0), (1, 0), (2, 0), (0, 1), (0, 1), (1, 1), (0, 2))
proficiency = faces(
    (0, 0), (1, 0), (1, 0), (2, 0), (2, 0), (0, 1),
    (1, 1), (1, 1), (1, 1), (0, 2), (0, 2), (0, 0),
)
"""
_SYMBOLS = """
from icepool import Die, Vector
good = Die([Vector(c) for c in ((0, 0), (0, 0), (1, 0), (1, 0), (1, 1), (0, 2))])
bad = Die([Vector(c) for c in ((0, 0), (0, 0), (-1, 0), (-1, 0), (0, -1), (0, -1))])
"""

CASES = [
    *(
        Case(
            f"successes (5 or 6) of {n}d6",
            f"successes_odds({n})",
            f"d6.pool({n}).keep_outcomes([5, 6]).size()",
        )
        for n in (10, 20, 40)
    ),
    *(
        Case(
            f"highest of {n}d6", f"highest_odds({n})", f"d6.pool({n}).highest(1).sum()"
        )
        for n in (10, 20, 40)
    ),
    Case(
        "mixed pool (d4, 2d6, 2d8, 2d10, d12) read three ways",
        "mixed_pool_odds()",
        "three(Pool([d4, d6, d6, d8, d8, d10, d10, d12]))",
        _MIXED,
    ),
    Case(
        "exalted_roll_odds(40): successes and botch of 40d10",
        "exalted_roll_odds(40)",
        "exalted(d10.pool(40)).map(lambda s, ones: (s, s == 0 and ones > 0), star=True)",
        _EXALTED,
    ),
    Case(
        "three kinds of dice of symbols (d6, d8, d12 faces), 6 of each, tallied",
        "three_kinds_odds()",
        "tot = 6 @ boost + 6 @ ability + 6 @ proficiency\n"
        "(tot.marginals[0], tot.marginals[1])",
        _THREE_KINDS,
    ),
    Case(
        "symbol_pool_odds(6, 6): success and edge of 6 good and 6 bad dice",
        "symbol_pool_odds(6, 6)",
        "tot = 6 @ good + 6 @ bad\n(tot.map(lambda v: v[0] >= 1), tot.marginals[1])",
        _SYMBOLS,
    ),
]

# issue 41: notations as players type them, read by the runtime's parser (not
# timed) and worked out by its odds; icepool's explosions at the same cut (the
# runtime's default depth; icepool's chances are those given no die was cut)
_EXPLODING_COUNT = """
from icepool import Again, Reroll
tens = d10.map(lambda f: 1 + Again if f == 10 else int(f >= 8), again_depth=10, again_end=Reroll)
"""


def _notation(text: str, icepool: str, setup: str = "") -> Case:
    return Case(
        f"`{text}` as typed (parse_notation, odds)",
        "odds(dice)",
        icepool,
        setup,
        f"dice = parse_notation({text!r})",
    )


CASES += [
    _notation("100d6", "100 @ d6"),
    _notation("20d10kh5", "d10.pool(20).highest(5).sum()"),
    _notation("40d10!>=10>=8", "40 @ tens", _EXPLODING_COUNT),
]

_TIMED = """
import sys, time
{imports}
{setup}
start = time.perf_counter()
{call}
print(time.perf_counter() - start)
"""


def _seconds(code: str, path: Path) -> float | str:
    """The seconds the timed call took in a fresh process, or why it failed."""
    done = subprocess.run(
        [PY, "-P", "-c", code],
        cwd=path,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["(no message)"]
        return f"failed: `{lines[-1][:160]}`"
    return float(done.stdout.strip().splitlines()[-1])


def _code(case: Case, built: Path) -> tuple[str, str]:
    """The two sides' programs for ``case``."""
    ours = _TIMED.format(
        imports=f"sys.path.insert(0, {str(built)!r})\n"
        "from rulebook.bench_odds import *\n"
        "from rulebook.dice_notation import parse_notation\n"
        "from rulebook.dice_odds import odds",
        setup=case.ours,
        call=case.rulebook,
    )
    theirs = _TIMED.format(
        imports="from icepool import Pool, d4, d6, d8, d10, d12, multiset_function",
        setup=case.setup,
        call=case.icepool,
    )
    return ours, theirs


def bench_icepool(report: Report, tmp: Path, head: Side) -> None:
    """A row for each case: the medians of each side and their ratio."""
    built = odds.build(head, tmp, RULES)
    if isinstance(built, str):
        report.odd(Row("odds beside icepool", built))
        return
    for case in CASES:
        ours, theirs = _code(case, built)
        taken: tuple[list[float], list[float]] = ([], [])
        failed = ""
        for _ in range(RUNS):  # the two sides in turn
            for into, code in zip(taken, (ours, theirs), strict=True):
                seconds = _seconds(code, tmp)
                if isinstance(seconds, str):
                    failed = seconds
                    break
                into.append(seconds)
            if failed:
                break
        figure = f"beside icepool: {case.figure}"
        if failed:
            report.odd(Row(figure, failed, f"<= {TARGET:g}x icepool", False))
            continue
        mine, its = (statistics.median(t) for t in taken)
        ratio = mine / its
        measured = f"{short(mine)} vs icepool {short(its)}: {ratio:.2f}x"
        report.odd(Row(figure, measured, f"<= {TARGET:g}x icepool", ratio <= TARGET))
