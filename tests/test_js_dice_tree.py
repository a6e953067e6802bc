"""Dice expressions in JavaScript read, roll and refuse as in Python: for a
drawn corpus of notations (trees of sums, products, calls, groups, tests and
labels over pools of every option, spaced or not, and mutants of them, many
refused) the text read back, the tree's JSON, a seeded roll (total, dice,
faces, JSON) and every refusal (message, offset, hint) are the same in both
runtimes; one Node process answers every case."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.errors import RuleInputError
from rulesc.runtime.json import dumps

from .js_node import JS_TESTS, drawn, node_cases
from .test_js_dice_notation import _refusal, mutant

# A pool's options as players write them (some refused: a strict comparison,
# Roll20's critical markers), and what a mutant puts in a character's place
OPTIONS = (
    "r1", "ro1", "rr<=2", "r1r3", "r", "ro", "r>=5", "!", "!!", "!p", "!o",
    "!>=5", "!=1", "kh2", "kl1", "dh1", "dl1", "d1", "k2", "kh", ">=4", "<=2",
    "=6", "f1", "f<=2", "min2", "max5", "u", "s", "sa", "sd", "x2", ">3",
    "cs", "cf6",
)  # fmt: skip
SIDES = ("4", "6", "6", "10", "20", "%", "F", "F.1", "F.2", "F.3", "3", "1")
ALPHABET = "0123456789d%F+-*/(),{}[] .rok!hl<>=xfu ٣é"
SPELLED = (  # the design's and the spellings
    "4d6r1", "2d10r1r3", "4d6ro<2", "3d6 >= 10", "6d6>=5", "6d6 >= 5", "(2d6+1)>=8",
    "(2d6+3)*2", "2d6/2", "1d6*1d4", "floor(2d6/2)", "ceil(7/2)", "round(-2.5)",
    "abs(1d6-4)", "max(1d6,1d8,3)", "min(2d6, 7)", "4d6d1", "1d10!p", "2d6!kh1",
    "10d10>=8f1", "10d10>8f1", "4d6min2", "4d6max4", "{1d20,1d20}kh1", "{1d20}kh1",
    "{2d6, 1d12, 10}>=7", "1d20+5[STR]", "1d20 [attack] + 5", "dF.1", "4dF.2",
    "4d6 kh3", "3d6>=10", "3d6cs>=5", "5d10%3", "2^3", "2**3", "-d6", "--3",
    "4d6u", "7d6u", "1.5*2d6", "2d6x10", "1d6/0", "1d6/(1d2-1)", "3d6==10",
    "1d20>10", "2d6!!p", "3d6uo", "4d6sa", "4d6sd", "dF.3", "1d6 + (2 * (3d4 - 1))",
    "(" * 60 + "1d6" + ")" * 60, "-" * 60 + "2", "max(" * 30 + "1,2)" * 30, "4d6 d6",
    "1d6 max(1,2)", "2d6 kh1",
)  # fmt: skip


def _pool(rng: random.Random) -> str:
    count = rng.choice(("", "1", "2", "3", "4", "7"))
    options = rng.sample(OPTIONS, rng.choice((0, 0, 0, 1, 1, 2)))
    return f"{count}d{rng.choice(SIDES)}" + "".join(options)


def _space(rng: random.Random) -> str:
    return rng.choice(("", "", " "))


def expression(rng: random.Random, depth: int) -> str:
    """Notation text of a tree at most ``depth`` deep, spaced or not."""
    how = "atom" if depth == 0 else rng.choice(SHAPES)
    if how == "atom":
        return _pool(rng) if rng.random() < 0.7 else rng.choice(NUMBERS)
    inner = [expression(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    if how in ("+", "*"):
        ops = "+-" if how == "+" else "*/"
        text = inner[0]
        for item in inner[1:] or [expression(rng, depth - 1)]:
            text += _space(rng) + rng.choice(ops) + _space(rng) + item
        return text
    if how == "call":
        return f"{rng.choice(FUNCTIONS)}({(',' + _space(rng)).join(inner)})"
    if how == "group":
        return "{" + ",".join(inner) + "}" + rng.choice(GROUP_OPTIONS)
    if how == "()":
        return "(" + _space(rng) + inner[0] + _space(rng) + ")"
    if how == "[]":
        return inner[0] + _space(rng) + "[" + rng.choice(("STR", "fire", "")) + "]"
    right = expression(rng, depth - 1)
    return f"{inner[0]} {rng.choice(('>=', '<=', '>', '<', '=', '=='))} {right}"


NUMBERS = ("0", "1", "2", "3", "5", "10", "1.5", "0.25", "02")
SHAPES = ("atom", "+", "*", "call", "group", "()", "[]", "test")
FUNCTIONS = ("floor", "ceil", "round", "abs", "max", "min")
GROUP_OPTIONS = ("", "kh1", "kl1", "dl1", ">=7", ">=5f1", "k")


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A notation: a tree drawn from a seed or a spelling of the design's, as
    is or with one character inserted, deleted or replaced."""
    tree = st.integers(0, 2**32).map(lambda seed: expression(random.Random(seed), 2))
    text = draw(st.one_of(tree, st.sampled_from(SPELLED)))
    return mutant(draw, text, ALPHABET)


def python_answer(text: str, seed: int, bare_d6: bool) -> dict[str, Any]:
    """What the Python runtime answers, in the shape tests/js/dice_tree.mjs prints."""
    try:
        dice = parse_notation(text, bare_d6=bare_d6)
    except RuleInputError as error:
        return {"parse": _refusal(error)}
    assert parse_notation(str(dice), bare_d6=bare_d6) == dice, text  # it reads back
    found: dict[str, Any] = {"parse": str(dice), "pools": len(dice.pools)}
    try:  # (a tree nested past the JSON's depth is refused alike)
        found["tree"] = dumps(dice)
    except RuleInputError as error:
        found["tree"] = _refusal(error)
    try:
        rolled = roll(dice, random.Random(seed))
        found["roll"] = {
            "total": str(rolled.total),
            "results": list(rolled.results),
            "rolled": list(rolled.rolled),
            "text": dumps(rolled),
        }
    except RuleInputError as error:  # (a roll too, or its JSON)
        found["roll"] = _refusal(error)
    return found


def _cases() -> list[dict[str, Any]]:
    spelled = [{"text": t, "seed": 3, "bareD6": False} for t in SPELLED]
    bare = [{"text": t, "seed": 5, "bareD6": True} for t in ("3d", "3d+2d!", "d-1")]
    found = drawn(st.tuples(texts(), st.integers(0, 2**32), st.booleans()), 400)
    drawn_cases = [{"text": t, "seed": s, "bareD6": b} for t, s, b in found]
    return spelled + bare + drawn_cases


def test_javascript_reads_rolls_and_refuses_as_python(tmp_path: Path) -> None:
    cases = _cases()
    answers = [python_answer(c["text"], c["seed"], c["bareD6"]) for c in cases]
    read = [a for a in answers if isinstance(a["parse"], str)]
    refused = [a for a in answers if not isinstance(a["parse"], str)]
    assert len(read) >= 120 and len(refused) >= 100, (len(read), len(refused))
    # the corpus reaches what matters: fractions, groups, tests, several pools
    assert any("/" in a["roll"].get("total", "") for a in read)
    assert any(a["pools"] >= 3 for a in read)
    assert any('"items"' in str(a["tree"]) for a in read)
    assert any("division by zero" in a["roll"].get("message", "") for a in read)
    found = node_cases(JS_TESTS / "dice_tree.mjs", {"cases": cases}, tmp_path)
    assert len(found) == len(cases)
    for case, want, got in zip(cases, answers, found, strict=True):
        assert got == want, case
