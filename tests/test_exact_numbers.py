"""Every whole number a rule works out stays within 2**53 - 1, or the rule is
refused at build time: JavaScript holds no larger one exactly, so both runtimes
answer alike. Random arithmetic near 2**53 (parameters with bounds or
without, names bound before, dice times a multiplier) is refused exactly
where some part of it can pass the limit, as every corner of its inputs shows
(each input read once, so the corners hold every part's least and greatest);
the rules that build answer in Python and JavaScript alike, and as the
arithmetic says. Both runtimes refuse an argument past 2**53 - 1 alike."""

from __future__ import annotations

import importlib
import itertools
import json
import random
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rulesc.common.limits import MAX_EXACT

from .conftest import import_fresh, run_rulesc
from .js_node import node_json
from .test_proved_ranges import rule_errors

NAMES = ("a", "b", "c")
# the bounds a parameter may have: none, or from 0 or -m to m
MAGNITUDES = (9, 2**20, 2**26, 2**27, 2**40, 10**15 - 1, None)


@dataclass(frozen=True)
class Arith:
    """An expression tree: a name, a whole number, dice times a multiplier
    (``1d6x{times}``), or an operation on two trees."""

    op: str  # "name", "int", "dice", "+", "-", "*"
    value: int | str = 0
    left: Arith | None = None
    right: Arith | None = None

    def text(self) -> str:
        if self.op == "name":
            return str(self.value)
        if self.op == "int":
            return f"({self.value})" if int(self.value) < 0 else str(self.value)
        if self.op == "dice":
            return f"1d6x{self.value}"
        assert self.left is not None and self.right is not None
        return f"({self.left.text()} {self.op} {self.right.text()})"

    def parts(self) -> list[Arith]:
        below = [] if self.left is None else self.left.parts() + self.right.parts()  # type: ignore[union-attr]
        return [*below, self]


def _value(tree: Arith, env: dict[str, int]) -> int:
    if tree.op == "name":
        return env[str(tree.value)]
    if tree.op in ("int", "dice"):
        return env[f"#{id(tree)}"] if tree.op == "dice" else int(tree.value)
    assert tree.left is not None and tree.right is not None
    a, b = _value(tree.left, env), _value(tree.right, env)
    return a + b if tree.op == "+" else a - b if tree.op == "-" else a * b


@st.composite
def trees(draw: st.DrawFn, names: list[str], depth: int = 3) -> Arith:
    """A tree reading each name at most once (so its parts' ranges are hulls of corners)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        kind = draw(
            st.sampled_from(
                ["name", "int", "int", "dice"] if names else ["int", "dice"]
            )
        )
        if kind == "name":
            return Arith("name", names.pop(draw(st.integers(0, len(names) - 1))))
        if kind == "dice":
            return Arith("dice", draw(st.sampled_from([1, 1000, 2**30, 2**49])))
        return Arith(
            "int", draw(st.sampled_from([0, 1, -3, 7, 2**31, -(2**40), 10**14]))
        )
    left = draw(trees(names, depth - 1))
    right = draw(trees(names, depth - 1))
    return Arith(draw(st.sampled_from(["+", "-", "*"])), 0, left, right)


Bounds = dict[str, tuple[int | None, int | None]]


@st.composite
def rules(draw: st.DrawFn) -> tuple[Arith, Bounds, bool]:
    bounds: Bounds = {}
    for name in NAMES:
        most = draw(st.sampled_from(MAGNITUDES))
        low = draw(st.sampled_from([0, -1])) * (most or 0) if most else None
        bounds[name] = (low, most)
    tree = draw(trees(list(NAMES)))
    return tree, bounds, draw(st.booleans())


def _corners(tree: Arith, bounds: Bounds) -> list[dict[str, int]]:
    """Every corner of the inputs: each parameter and each dice term at an end
    (a parameter without a bound at what the runtimes take, 2**53 - 1 from 0)."""
    ends: dict[str, tuple[int, int]] = {}
    for name, (low, high) in bounds.items():
        ends[name] = (
            -MAX_EXACT if low is None else low,
            MAX_EXACT if high is None else high,
        )
    for part in tree.parts():
        if part.op == "dice":
            ends[f"#{id(part)}"] = (int(part.value), 6 * int(part.value))
    keys = list(ends)
    return [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*(ends[k] for k in keys))
    ]


def _passes(tree: Arith, bounds: Bounds) -> bool:
    """Whether some part of the tree can pass 2**53 - 1, from every corner."""
    corners = _corners(tree, bounds)
    return any(
        abs(_value(part, env)) > MAX_EXACT for part in tree.parts() for env in corners
    )


def _rule(name: str, tree: Arith, bounds: Bounds, let: bool) -> str:
    params = "".join(
        f"    - {{name: {p}, type: int"
        + ("" if low is None else f", min: {low}")
        + ("" if high is None else f", max: {high}")
        + f", description: {p}.}}\n"
        for p, (low, high) in bounds.items()
    )
    body = tree.text()
    lets = ""
    if let and tree.left is not None and tree.right is not None:  # the left part, named
        lets = f'  let:\n    - {{name: part, value: "{tree.left.text()}"}}\n'
        body = f"(part {tree.op} {tree.right.text()})"
    return (
        f"- id: {name}\n  kind: formula\n  title: {name}\n  summary: Arithmetic.\n"
        f"  source: {{section: Tests}}\n  function: {name}\n"
        f"  unbounded_because: a test.\n  parameters:\n{params}{lets}"
        f'  expression: "{body} + a * 0 + b * 0 + c * 0"\n'
    )


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(rules())
def test_arithmetic_is_refused_exactly_where_a_part_can_pass_the_limit(
    tmp_path_factory: pytest.TempPathFactory, drawn: tuple[Arith, Bounds, bool]
) -> None:
    tree, bounds, let = drawn
    event("refused" if _passes(tree, bounds) else "within")
    errors = rule_errors(
        tmp_path_factory.mktemp("exact"),
        textwrap.indent(_rule("f", tree, bounds, let), "  "),
    )
    if not _passes(tree, bounds):
        assert errors == [], (tree.text(), bounds, errors)
        return
    assert len(errors) == 1, errors
    assert "past 9,007,199,254,740,991 (2**53 - 1)" in errors[0], errors


def _accepted(seed: int) -> list[tuple[Arith, Bounds, bool]]:
    """Rules drawn at random that keep within the limit."""
    found: list[tuple[Arith, Bounds, bool]] = []

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)
    @given(rules())
    def draw(drawn: tuple[Arith, Bounds, bool]) -> None:
        if not _passes(drawn[0], drawn[1]) and len(found) < 25:
            found.append(drawn)

    draw()
    random.Random(seed).shuffle(found)
    return found


def test_rules_within_the_limit_answer_alike_in_python_and_javascript(
    tmp_path: Path,
) -> None:
    accepted = _accepted(1)
    assert len(accepted) >= 10
    body = "".join(_rule(f"f{i}", *drawn) for i, drawn in enumerate(accepted))
    folder = tmp_path / "rules" / "lab"
    rule_errors(tmp_path, textwrap.indent(body, "  "))  # writes the folder
    assert rule_errors(tmp_path, textwrap.indent(body, "  ")) == []
    out = tmp_path / "out"
    done = run_rulesc(
        "build", "--rules", str(folder.parent), "--out", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    calls = []
    for i, (tree, bounds, _) in enumerate(accepted):
        for env in _corners(tree, bounds)[:16]:
            args = [env[name] for name in NAMES]
            calls.append((f"f{i}", args, i))
    script = (
        f'import * as m from "{(out / "js" / "lab.js").as_uri()}";\n'
        f'import {{ Random }} from "{(out / "js" / "random.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args, seed]) => {\n"
        "  try { return m[f](...args, ...(m[f].length > args.length ? [new Random(seed)] : [])); }\n"
        "  catch (e) { return `refused: ${e.message}`; }\n"
        "})));\n"
    )
    javascript = node_json(script)
    with import_fresh(out):
        lab = importlib.import_module("rulebook.lab")
        for (name, args, seed), got in zip(calls, javascript, strict=True):
            function = getattr(lab, name)
            rolls = function.__code__.co_argcount > len(args)
            answer = function(*args, random.Random(seed)) if rolls else function(*args)
            assert got == answer, (name, args)
            assert abs(answer) <= MAX_EXACT


def test_both_runtimes_refuse_an_argument_past_the_limit_alike(tmp_path: Path) -> None:
    body = _rule(
        "f", Arith("name", "a"), {"a": (None, None), "b": (0, 9), "c": (None, 9)}, False
    )
    out = tmp_path / "out"
    rule_errors(tmp_path, textwrap.indent(body, "  "))
    done = run_rulesc(
        "build", "--rules", str(tmp_path / "rules"), "--out", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    calls = [
        [MAX_EXACT, 0, 0],
        [-MAX_EXACT, 9, 9],
        [MAX_EXACT + 1, 0, 0],
        [0, 0, -(2**60)],
    ]
    script = (
        f'import {{ f }} from "{(out / "js" / "lab.js").as_uri()}";\n'
        f"console.log(JSON.stringify({json.dumps(calls)}.map((args) => {{\n"
        "  try { return f(...args); } catch (e) { return e.message; }\n"
        "})));\n"
    )
    javascript = node_json(script)
    with import_fresh(out):
        lab = importlib.import_module("rulebook.lab")
        python = []
        for args in calls:
            try:
                python.append(lab.f(*args))
            except ValueError as error:
                python.append(str(error))
    assert python[:2] == [MAX_EXACT, -MAX_EXACT]
    assert python == javascript
    assert python[2] == (
        f"a must be in {-MAX_EXACT}..{MAX_EXACT}, not {MAX_EXACT + 1}: JavaScript "
        "numbers are exact integers only up to Number.MAX_SAFE_INTEGER"
    )
