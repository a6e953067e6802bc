"""The build's proof of a kind's own steps (``rulesc.core.exact``) follows a
loop exactly where it grows by a constant step, and soundly where a test
narrows what a turn runs on.

A procedure of the core sets ``x`` from a parameter, then steps it by ``k``
while a test holds, at most ``n`` times, answering each value: the proof's
range of the answers is exactly the hull of what running it gives at the
parameter's ends (so a recovery's last heal may end on 2**53 - 1 itself, and
one minute more is refused). A comparison narrows a branch to what may hold
there, never to less."""

from __future__ import annotations

import operator

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.limits import MAX_EXACT
from rulesc.core.exact import Prover
from rulesc.core.exprs import checked
from rulesc.core.ir import Emit, Local, Procedure, Set, While
from rulesc.core.ranges import Value, narrowed
from rulesc.front.model import Param
from rulesc.lang.expr import (
    Checked,
    Interval,
    parse,
)

_FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None)


def _param(lo: int, hi: int) -> Param:
    return Param("a", "int", lo, hi, None, False, "A start.", None)


def _loop(a: Param, step: int, most: int) -> Procedure:
    """``x = a``; then ``most`` times: ``x = x + step``, answered."""
    names = (Local("x", None, None),)

    def c(text: str) -> Checked:
        return checked(text, (a,), names)

    return Procedure(
        name="stepping",
        params=(a,),
        locals=names,
        body=(
            Set("x", c("a")),
            While(
                c("true"),
                (Set("x", c(f"x + ({step})")), Emit((c("x"),))),
                most,
            ),
        ),
        answer="xs",
        item=1,
        doc="Steps.",
        origin="a test",
        rule_id="lab.stepping",
        answer_doc="Each step.",
    )


def _run(start: int, step: int, most: int) -> list[int]:
    return [start + step * turn for turn in range(1, most + 1)]


def _answers(procedure: Procedure) -> tuple[Value | None, list[str]]:
    prover = Prover({})
    with prover.answering() as made:
        prover.procedure(procedure, prover.params(procedure.params))
    unproved = [u.message for u in prover.found.values()]
    return (made[0] if made else None), unproved


@_FAST
@given(
    st.integers(-(10**6), 10**6),
    st.integers(0, 10**6),
    st.integers(1, 7),
    st.integers(1, 400),
)
def test_a_loop_of_a_constant_step_is_followed_exactly(
    low: int, width: int, step: int, most: int
) -> None:
    a = _param(low, low + width)
    value, unproved = _answers(_loop(a, step, most))
    assert unproved == []
    assert value is not None
    runs = _run(low, step, most) + _run(low + width, step, most)
    assert value.iv == Interval(min(runs), max(runs))
    assert value.sources >= {"a"}


@_FAST
@given(st.integers(1, 10**9), st.sampled_from([10, 1000, 100_000]))
def test_the_last_turn_may_end_on_the_limit_and_no_further(
    step: int, most: int
) -> None:
    latest = MAX_EXACT - step * most  # as a recovery bounds its start
    within = _answers(_loop(_param(0, latest), step, most))
    assert within[1] == [] and within[0] is not None
    assert within[0].iv.hi == MAX_EXACT
    past = _answers(_loop(_param(0, latest + 1), step, most))
    assert past[1] and "past 9,007,199,254,740,991 (2**53 - 1)" in past[1][0]


_HOLDS = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


@_FAST
@given(
    st.integers(-50, 50),
    st.integers(0, 60),
    st.sampled_from(sorted(_HOLDS)),
    st.integers(-60, 60),
    st.booleans(),
)
def test_a_test_narrows_each_branch_to_what_may_hold_there(
    low: int, width: int, op: str, other: int, holds: bool
) -> None:
    env = {"x": Value(Interval(low, low + width), frozenset({"x"}))}
    found = narrowed(parse(f"x {op} ({other})"), env, holds)
    kept = [v for v in range(low, low + width + 1) if _HOLDS[op](v, other) == holds]
    said = op if holds else _NEGATED[op]  # what the branch knows
    if said == "!=":  # nothing to narrow by
        assert found == env
        return
    if not kept:
        assert found is None
        return
    assert found is not None
    assert found["x"] == Value(Interval(min(kept), max(kept)), frozenset({"x"}))
