"""Odds of comprehensions that roll (issue 39): drawn comprehensions over lists
of dice sizes, whose body or test rolls, answer the chances brute-force
enumeration of their dice gives, in Python and in JavaScript alike, with the
same work counted and the same refusals."""

from __future__ import annotations

import importlib
import json
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from rulesc.odds import work as odds_work
from rulesc.pipeline import load_systems
from rulesc.runtime._support import MAX_WORK

from . import bounds_cases as cases
from .conftest import import_fresh
from .js_node import drawn, node_json

Roll = Callable[[int], int]

ITEMS: dict[str, Callable[[list[int], int], list[int]]] = {
    "pool": lambda pool, k: pool,
    "[2, k + 1]": lambda pool, k: [2, k + 1],
}
TESTS: dict[str | None, Callable[[int, int, Roll], bool]] = {
    None: lambda s, k, roll: True,
    "s > k": lambda s, k, roll: s > k,
    "d(s) > k": lambda s, k, roll: roll(s) > k,
    "d(4) >= k": lambda s, k, roll: roll(4) >= k,
}
BODIES: dict[str, Callable[[int, int, Roll], int]] = {
    "d(s)": lambda s, k, roll: roll(s),
    "d(s) + k": lambda s, k, roll: roll(s) + k,
    "s - d(2)": lambda s, k, roll: s - roll(2),
    "k * 10 + s": lambda s, k, roll: k * 10 + s,  # its test rolls
}
FOLDS: dict[str, Callable[[list[int]], int]] = {
    "sum({})": sum,
    "len({})": len,
    "max({} + [0])": lambda made: max([*made, 0]),
}


@dataclass(frozen=True)
class Shape:
    """A comprehension that rolls, read through a fold, maybe in a branch or
    bound by a let."""

    items: str
    test: str | None
    body: str
    fold: str
    branch: bool
    let: bool

    def comprehension(self) -> str:
        test = "" if self.test is None else f" if {self.test}"
        return f"[{self.body} for s in {self.items}{test}]"

    def expression(self) -> str:
        """The fold of the list (each parameter read besides)."""
        made = self.fold.format("made" if self.let else self.comprehension())
        if self.branch:
            return f"({made}) if k > 2 else len(pool)"
        return f"({made}) * 100 + len(pool) * 10 + k"

    def rule(self, index: int) -> str:
        let = (
            f"    let:\n      - {{name: made, value: {json.dumps(self.comprehension())}, "
            "description: The list.}\n"
            if self.let
            else ""
        )
        return (
            f"  - id: f{index}\n    kind: formula\n    title: F{index}\n"
            f"    summary: A drawn comprehension.\n    source: {{section: A}}\n"
            f"    function: f{index}\n    parameters:\n"
            "      - {name: pool, type: list, items: int, min: 2, max: 5, "
            "min_items: 1, max_items: 3, description: Dice sizes.}\n"
            "      - {name: k, type: int, min: 1, max: 4, description: A figure.}\n"
            f"{let}    expression: {json.dumps(self.expression())}\n"
        )

    def value(self, pool: list[int], k: int, roll: Roll) -> int:
        """The rule's answer for dice ``roll`` gives, worked out here."""
        if self.branch and not k > 2:
            return len(pool)
        made = [
            BODIES[self.body](s, k, roll)
            for s in ITEMS[self.items](pool, k)
            if TESTS[self.test](s, k, roll)
        ]
        folded = FOLDS[self.fold](made)
        return folded if self.branch else folded * 100 + len(pool) * 10 + k


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    body = draw(st.sampled_from(sorted(BODIES)))
    rolling = [t for t in TESTS if t is not None and "d(" in t]
    tests = rolling if "d(" not in body else list(TESTS)
    return Shape(
        draw(st.sampled_from(sorted(ITEMS))),
        draw(st.sampled_from(tests)),
        body,
        draw(st.sampled_from(sorted(FOLDS))),
        draw(st.booleans()),
        draw(st.booleans()),
    )


def _valued(shape: Shape, args: list[Any], roll: Roll) -> int:
    return shape.value(args[0], args[1], roll)


class _Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


def enumerated(answer: Callable[[Roll], int]) -> dict[int, Fraction]:
    """The exact chances of ``answer``'s values over every sequence of the
    dice it rolls (each die rolled as it asks for it)."""
    found: dict[int, Fraction] = {}
    todo: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while todo:
        prefix, chance = todo.pop()
        at = iter(prefix)

        def roll(sides: int, at: Iterator[int] = at) -> int:
            face = next(at, None)
            if face is None:
                raise _Need(sides)
            return face

        try:
            value = answer(roll)
        except _Need as need:
            todo += [
                ((*prefix, f), chance / need.sides) for f in range(1, need.sides + 1)
            ]
            continue
        found[value] = found.get(value, Fraction(0)) + chance
    return found


BIG = (
    "  - id: big\n    kind: formula\n    title: Big\n    summary: Big dice.\n"
    "    source: {section: A}\n    function: big\n    parameters:\n"
    "      - {name: pool, type: list, items: int, min: 1, max: 10, "
    "max_items: 2, description: Dice counts.}\n"
    '    expression: "sum([(s)d1000 for s in pool])"\n'
)


@pytest.fixture(scope="module")
def built() -> Iterator[tuple[Path, list[Shape]]]:
    """The drawn comprehensions as rules of one system (and one past the
    runtime's limit of work, its build's bound off), built to a folder."""
    found = list(dict.fromkeys(drawn(shapes(), 40)))[:24]
    folder = Path(tempfile.mkdtemp())
    try:
        text = "".join(s.rule(i) for i, s in enumerate(found)) + BIG
        yield cases.built_unbounded(folder, text), found
    finally:
        shutil.rmtree(folder)


def _javascript(out: Path, calls: list[tuple[str, list[Any]]]) -> Any:
    js = out / "js"
    script = (
        f'import * as m from "{(js / "lab.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ CALL }} from "{(js / "_support.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => {\n"
        "  try { const c = m[f](...args); return [dumps(c), String(CALL.work)]; }\n"
        "  catch (e) { return ['refused: ' + e.message, '']; }\n"
        "})));\n"
    )
    return node_json(script)


def test_drawn_comprehensions_that_roll_have_exact_odds_alike_everywhere(
    built: tuple[Path, list[Shape]],
) -> None:
    out, found = built
    assert len(found) >= 16
    rng = random.Random(39)
    calls: list[tuple[str, list[Any]]] = [
        (
            f"f{i}",
            [[rng.randint(2, 5) for _ in range(rng.randint(1, 3))], rng.randint(1, 4)],
        )
        for i in range(len(found))
        for _ in range(3)
    ]
    calls += [("big", [[3, 2]]), ("big", [[10]]), ("big", [[1]])]
    javascript = _javascript(out, [(f"{f}Odds", a) for f, a in calls])
    refusals = 0
    with import_fresh(out):
        module = importlib.import_module("rulebook.lab")
        dumps = importlib.import_module("rulebook.json").dumps
        support = importlib.import_module("rulebook._support")
        refused = importlib.import_module("rulebook.errors").RuleInputError
        for (name, args), js in zip(calls, javascript, strict=True):
            try:
                chances = getattr(module, f"{name}_odds")(*args)
            except refused as error:
                assert js == [f"refused: {error}", ""], (name, args)
                refusals += 1
                continue
            assert js == [dumps(chances), str(support.CALL.work)], (name, args)
            if name == "big":  # 10d1000 too many rolls to enumerate: JS alike
                if args == [[1]]:
                    assert dict(chances) == enumerated(lambda roll: roll(1000))
                continue
            shape = found[int(name[1:])]
            expected = enumerated(partial(_valued, shape, args))
            assert dict(chances) == expected, (name, args, shape.expression())
    # the big dice, past the limit of work, in both: the lists of two items
    # of 3d1000 and 2d1000 (the total of 10d1000 alone is within it)
    assert refusals == 1


def test_the_build_bounds_the_work_of_a_comprehension_that_rolls(
    built: tuple[Path, list[Shape]],
) -> None:
    """The build's bound of each drawn rule's odds is no less than the work
    any call counts; the big dice are past it."""
    out, found = built
    folder = Path(tempfile.mkdtemp())
    try:
        cases.write(folder, "".join(s.rule(i) for i, s in enumerate(found)) + BIG)
        (system,) = load_systems(folder)
    finally:
        shutil.rmtree(folder)
    bounds = odds_work.Bounds(system)
    assert (bounds.of("big") or 0) > MAX_WORK
    rng = random.Random(40)
    with import_fresh(out):
        module = importlib.import_module("rulebook.lab")
        support = importlib.import_module("rulebook._support")
        for i in range(len(found)):
            bound = bounds.of(f"f{i}")
            assert bound is not None, found[i].expression()
            for pool in ([5, 5, 5], [rng.randint(2, 5)]):
                for k in (1, 4):
                    getattr(module, f"f{i}_odds")(pool, k)
                    assert support.CALL.work <= bound, (found[i], pool, k)


def _edge(answer: Callable[[Roll, list[int]], int], pool: list[int], roll: Roll) -> int:
    return answer(roll, pool)


def _pair(roll: Roll) -> int:
    return roll(3) + roll(3)


EDGES: list[tuple[str, str, Callable[[Roll, list[int]], int]]] = [
    (  # a comprehension that rolls in the body of another
        "sum([sum([d(t) for t in [s, 2]]) for s in pool])",
        "",
        lambda roll, pool: sum(roll(s) + roll(2) for s in pool),
    ),
    (  # the body reads a let that rolls once, outside it
        "sum([x + d(s) for s in pool])",
        "{name: x, value: d3, description: X.}",
        lambda roll, pool: (lambda x: sum(x + roll(s) for s in pool))(roll(3)),
    ),
    (  # the body reads a pool rolled once, outside it, through a fold
        "sum([sum(p) + d(s) for s in pool])",
        "{name: p, value: rolls(2d3), description: P.}",
        lambda roll, pool: (lambda p: sum(p + roll(s) for s in pool))(_pair(roll)),
    ),
    (  # the items roll too
        "sum([d(s) for s in [d(3) + 1, 2]]) + len(pool)",
        "",
        lambda roll, pool: sum(roll(s) for s in [roll(3) + 1, 2]) + len(pool),
    ),
    (  # the items are the dice a pool keeps
        "sum([d(s) for s in rolls(2d3)]) + len(pool)",
        "",
        lambda roll, pool: sum(roll(s) for s in sorted([roll(3), roll(3)])) + len(pool),
    ),
    (  # a test of two dice, the second rolled where the first holds
        "len([s for s in sorted(pool) if d(s) > 2 and d(2) > 1])",
        "",
        lambda roll, pool: len([s for s in pool if roll(s) > 2 and roll(2) > 1]),
    ),
]


def test_comprehensions_that_roll_inside_others_or_read_what_rolls_outside() -> None:
    """Comprehensions nested, reading a let or a pool that rolls once outside
    them, over items that roll: exact, alike in both runtimes, within the
    build's bound."""
    text = ""
    for i, (expression, let, _) in enumerate(EDGES):
        lets = f"    let:\n      - {let}\n" if let else ""
        text += (
            f"  - id: g{i}\n    kind: formula\n    title: G{i}\n    summary: S.\n"
            f"    source: {{section: A}}\n    function: g{i}\n    parameters:\n"
            "      - {name: pool, type: list, items: int, min: 2, max: 4, "
            "min_items: 1, max_items: 3, description: Dice sizes.}\n"
            f"{lets}    expression: {json.dumps(expression)}\n"
        )
    folder = Path(tempfile.mkdtemp())
    try:
        out = cases.built_unbounded(folder, text)
        (system,) = load_systems(folder / "rules")
        bounds = odds_work.Bounds(system)
        calls = [(f"g{i}", [p]) for i in range(len(EDGES)) for p in ([3, 4, 2], [2])]
        javascript = _javascript(out, [(f"{f}Odds", a) for f, a in calls])
        with import_fresh(out):
            module = importlib.import_module("rulebook.lab")
            dumps = importlib.import_module("rulebook.json").dumps
            support = importlib.import_module("rulebook._support")
            for (name, args), js in zip(calls, javascript, strict=True):
                chances = getattr(module, f"{name}_odds")(*args)
                assert js == [dumps(chances), str(support.CALL.work)], name
                bound = bounds.of(name)
                assert bound is not None and support.CALL.work <= bound, name
                answer = EDGES[int(name[1:])][2]
                expected = enumerated(partial(_edge, answer, args[0]))
                assert dict(chances) == expected, (name, args)
    finally:
        shutil.rmtree(folder)
