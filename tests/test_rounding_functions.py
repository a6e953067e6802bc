"""floor, ceil and round in formulas: of an exact quotient, in both runtimes alike.

A small rules folder, written here as a rules editor writes one, is built;
every argument of its formulas answers in Python as exact arithmetic says
(floor, ceil, and round a half up), the JavaScript package answers the same,
its conformance kit (worked examples, odds) holds in both, and names the
rules give (a parameter ``round``, a let ``floor``) stay theirs.
"""

from __future__ import annotations

import importlib
import json
import math
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path
from types import ModuleType

import pytest

from .conformance.kits import assert_conforms, python_package
from .conftest import ROOT, run_rulesc
from .js_node import node

SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: halves
title: Halves
summary: Quotients made whole by floor, ceil and round.
source: {file: halves.md, work: A test system of our own}
rounding: up
dice_notation: d20
"""
RULES = """\
# yaml-language-server: $schema=../../schema/rules.schema.json
system: halves
rules:
  - id: quotients
    kind: formula
    title: Quotients
    summary: The quotient of a by b, rounded three ways and packed into one number.
    source: {section: Quotients}
    function: quotients
    parameters:
      - {name: a, type: int, min: -40, max: 40, description: The dividend.}
      - {name: b, type: int, min: 1, max: 4, description: The divisor's size.}
      - {name: negative, type: bool, description: Whether the divisor is below 0.}
    expression: >-
      (floor(a / -b) * 10000 + ceil(a / -b) * 100 + round(a / -b)) if negative
      else (floor(a / b) * 10000 + ceil(a / b) * 100 + round(a / b))
    examples:
      - {name: half, summary: Five halves., args: {a: 5, b: 2, negative: false}, expect: 20303}
      - {name: less, summary: Minus five halves., args: {a: -5, b: 2, negative: false}, expect: -30202}
  - id: named
    kind: formula
    title: Named like functions
    summary: Parameters and a let named as the language's functions stay the rules' own.
    source: {section: Names}
    function: named
    parameters:
      - {name: round, type: int, min: 0, max: 9, description: A number named round.}
      - {name: min, type: int, min: 1, max: 5, description: A number named min.}
    let:
      - {name: floor, value: round(round / 2), description: Half of round (a half up).}
    expression: max(floor, min) * 100 + round(floor * 3 / min) + ceil(round)
    examples:
      - {name: three, summary: Three and two., args: {round: 3, min: 2}, expect: 206}
  - id: thirds
    kind: formula
    title: Thirds of two dice
    summary: A third of two six-sided dice, a half up.
    source: {section: Dice}
    function: thirds
    parameters:
      - {name: bonus, type: int, min: 0, max: 3, description: Added before dividing.}
    expression: round((2d6 + bonus) / 3)
    examples:
      - {name: seven, summary: Seven thirds., args: {bonus: 0}, dice: [3, 4], expect: 2}
      - {name: eight, summary: Eight thirds., args: {bonus: 1}, dice: [3, 4], expect: 3}
"""

_HALF = Fraction(1, 2)


def _round(x: Fraction) -> int:
    return math.floor(x + _HALF)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder built by rulesc, as a rules editor builds it."""
    root = tmp_path_factory.mktemp("halves")
    folder = root / "rules" / "halves"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(SYSTEM, "utf-8")
    (folder / "rules.yaml").write_text(RULES, "utf-8")
    built = root / "out"
    done = run_rulesc(
        "build", "--rules", str(root / "rules"), "--out", str(built), cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return built


@pytest.fixture(scope="module")
def halves(out: Path) -> Iterator[ModuleType]:
    with python_package(out):
        yield importlib.import_module("rulebook.halves")


def _quotients(a: int, b: int, negative: bool) -> int:
    q = Fraction(a, -b if negative else b)
    return math.floor(q) * 10000 + math.ceil(q) * 100 + _round(q)


def _named(round_: int, min_: int) -> int:
    floor = _round(Fraction(round_, 2))
    return max(floor, min_) * 100 + _round(Fraction(floor * 3, min_)) + round_


_GRID = list(product(range(-40, 41), range(1, 5), (False, True)))
_NAMED = list(product(range(10), range(1, 6)))


def test_python_answers_as_exact_arithmetic(halves: ModuleType) -> None:
    for a, b, negative in _GRID:
        assert halves.quotients(a, b, negative) == _quotients(a, b, negative)
    for r, m in _NAMED:
        assert halves.named(r, m) == _named(r, m)


def test_the_odds_are_those_of_the_rounded_quotient(halves: ModuleType) -> None:
    for bonus in range(4):
        want: dict[int, Fraction] = {}
        for x, y in product(range(1, 7), repeat=2):
            value = _round(Fraction(x + y + bonus, 3))
            want[value] = want.get(value, Fraction(0)) + Fraction(1, 36)
        assert dict(halves.thirds_odds(bonus)) == want


def test_javascript_answers_as_python(out: Path) -> None:
    module = (out / "js" / "halves.js").as_uri()
    script = (
        f"import * as m from {json.dumps(module)};"
        f"const grid = {json.dumps(_GRID)}, named = {json.dumps(_NAMED)};"
        "console.log(JSON.stringify([grid.map((g) => m.quotients(...g)),"
        " named.map((n) => m.named(...n))]));"
    )
    done = subprocess.run(
        [node(), "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    quotients, named = json.loads(done.stdout)
    assert quotients == [_quotients(*g) for g in _GRID]
    assert named == [_named(*n) for n in _NAMED]


def test_both_runtimes_run_the_kit(out: Path, tmp_path: Path) -> None:
    assert_conforms(out, tmp_path, ["halves"])


def test_the_page_says_how_each_rounds(out: Path) -> None:
    page = (out / "docs" / "halves" / "quotients.md").read_text("utf-8")
    assert r"\lfloor" in page
    assert r"\lceil" in page
    assert r"\operatorname{round}" in page
    assert "round() rounds a half up" in page
    assert "A division rounds" not in page  # no '//' in the formula
