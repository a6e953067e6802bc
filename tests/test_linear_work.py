"""Work linear in the expression: a build (every target and stage: type and range
checks, the Python and JavaScript emitters, the odds code, the math and words
of the pages) of an expression twice as long takes at most about twice as
long, whatever the expression holds (a subtree emitted two ways, a range asked
at every level, a walk of a deep tree)."""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import generate, load_systems

from . import bounds_cases as cases

pytestmark = pytest.mark.usefixtures("no_hang")

PARAMS = (
    "[{name: x, type: int, min: 0, max: 3, description: X.},"
    " {name: y, type: choice, enum: Ys, members: [{name: A, label: a},"
    " {name: B, label: b}], nullable: true, description: Y.}]"
)
RATIO = 2.5  # twice the expression: at most this much more work


def formula(expression: str, lets: tuple[str, ...] = ()) -> str:
    bound = "".join(
        f'      - {{name: a{i}, value: "{value}"}}\n' for i, value in enumerate(lets)
    )
    return (
        "  - id: many\n    kind: formula\n    title: Many\n    summary: A sum.\n"
        "    source: {section: A}\n    function: many\n"
        f"    parameters: {PARAMS}\n"
        + (f"    let:\n{bound}" if lets else "")
        + f"    expression: '{expression} + (x if y == \"a\" else 0)'\n"
    )


def decision(n: int) -> str:
    whens = "".join(
        f"      - {{when: 'x > {i % 4} and (y is null or y != \"b\")', then: {{total: {i}}}}}\n"
        for i in range(n)
    )
    return (
        "  - id: many\n    kind: decision\n    title: Many\n    summary: Cases.\n"
        "    source: {section: A}\n    function: many\n"
        f"    parameters: {PARAMS}\n"
        "    result: ManyResult\n    fields:\n      - {name: total, title: Total, type: int}\n"
        f'    cases:\n{whens}      - {{when: "true", then: {{total: 0}}}}\n'
    )


def _built(text: str) -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        cases.write(folder, text)
        try:
            generate(load_systems(folder), run_examples=False)
        except RulesError as exc:  # a shape the rules language refuses is a bad test
            raise AssertionError([d.message for d in exc.diagnostics]) from exc
    finally:
        shutil.rmtree(folder)


def _seconds(text: str) -> float:
    """The best of two builds' time."""
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        _built(text)
        best = min(best, time.perf_counter() - start)
    return best


def _calls(text: str) -> int:
    """The Python and C function calls one build makes: a measure of its work
    that a busy machine does not change."""
    count = 0

    def counted(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    _built(text)  # caches and imports warmed up first
    sys.setprofile(counted)
    try:
        _built(text)
    finally:
        sys.setprofile(None)
    return count


# Each shape with n terms (at most 100 operators in one expression, 20 brackets
# deep: the limits of the rules language).
SHAPES: dict[str, Callable[[int], str]] = {
    "a sum of dice": lambda n: formula("+".join(["d6"] * n)),
    "a sum of pools counted": lambda n: formula(
        "+".join(["count(rolls((x)d6), 6)"] * (n // 2))
    ),
    "a sum of names": lambda n: formula("+".join(["x"] * n)),
    "deep brackets": lambda n: formula("(" * 19 + "d6" + "+1)" * 19 + "+d6" * (n - 20)),
    "nested minimums": lambda n: formula(
        "min(d6, " * 19 + "x" + ")" * 19 + "+d6" * (n // 2 - 20)
    ),
    "an if-chain": lambda n: formula(
        "(" + " else ".join(f"d6 if x == {i % 4}" for i in range(n // 3)) + " else 0)"
    ),
    "an and-chain": lambda n: formula(
        "(1 if " + " and ".join(f"d6 > {i % 6}" for i in range(n // 2)) + " else 0)"
    ),
    "and and or nested": lambda n: formula(
        "(1 if "
        + "(" * 18
        + "x > 0"
        + "".join(f" {'or' if i % 2 else 'and'} d6 > {i % 6})" for i in range(18))
        + " or x > 1" * (n // 2 - 20)
        + " else 0)"
    ),
    "a division chain": lambda n: formula(
        "(" * 19 + "d20" + "//2+1)" * 19 + "+x//3" * (n // 2 - 20)
    ),
    "lets reading lets twice": lambda n: formula(
        f"a{n // 3}",
        ("d6", *(f"a{i} + a{i}" for i in range(n // 3))),
    ),
    "decision cases": decision,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_build_of_twice_the_expression_takes_about_twice_as_long(
    shape: str,
) -> None:
    make = SHAPES[shape]
    small, large = _seconds(make(45)), _seconds(make(90))
    assert large <= RATIO * small, (shape, small, large)


_UNITS = st.sampled_from(
    [
        "d6",
        "2d6kh1",
        "(x)d6",
        "x",
        "abs(x - d4)",
        "(d6 if x > 1 else 2)",
        "(1 if d6 > 3 and x > 0 else 0)",
        "max(d6, x)",
        "(d8 // 2)",
        "sum(rolls(2d6))",
        "len([x, d4])",
        "(3 if y is null else 2)",
    ]
)


@st.composite
def chains(draw: st.DrawFn) -> list[str]:
    """A few pieces of expression, to be added up again and again."""
    return draw(st.lists(_UNITS, min_size=1, max_size=3))


@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(units=chains())
def test_the_work_of_a_build_is_linear_in_the_expression(units: list[str]) -> None:
    """Whatever an expression is made of, a build of one with twice its
    terms makes at most about twice the calls."""

    def made(n: int) -> str:
        return formula("+".join(units[i % len(units)] for i in range(n)))

    small, large = _calls(made(12)), _calls(made(24))
    assert large <= RATIO * small, (units, small, large)


def test_walk_visits_a_deep_tree_in_linear_work() -> None:
    """``walk`` (every stage's way through a tree) costs the same per node at any depth."""
    from rulesc.lang.expr import parse
    from rulesc.lang.nodes import (
        Binary,
        walk,
    )

    def deep(n: int) -> Iterator[object]:
        node = parse("x")
        for _ in range(n):
            node = Binary("+", node, parse("1"), 0, 0)
        return walk(node)

    small, large = (
        _calls_of(lambda: list(deep(500))),
        _calls_of(lambda: list(deep(1000))),
    )
    assert large <= RATIO * small


def _calls_of(work: Callable[[], object]) -> int:
    count = 0

    def counted(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counted)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_what_a_test_proves_not_null_is_worked_out_in_linear_work() -> None:
    """``and`` inside ``or`` inside ``and``...: each part of a test is asked
    what it proves once, not once for each way the parts around it go."""
    from rulesc.lang.expr import (
        _not_null,
        parse,
    )
    from rulesc.lang.nodes import Binary

    def nested(n: int) -> Binary:
        node = parse("x is null")
        for i in range(n):
            node = Binary("or" if i % 2 else "and", node, parse("y is null"), 0, 0)
        assert isinstance(node, Binary)
        return node

    def proved(n: int) -> Callable[[], object]:
        tree = nested(n)
        return lambda: (_not_null(tree, True), _not_null(tree, False))

    small, large = _calls_of(proved(100)), _calls_of(proved(200))
    assert large <= RATIO * small
