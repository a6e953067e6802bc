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
)  # fmt: skip


@st.composite
def pools(draw: st.DrawFn) -> str:
    count = draw(st.sampled_from(("", "1", "2", "3", "4", "7")))
    text = f"{count}d{draw(st.sampled_from(SIDES))}"
    for option in draw(st.lists(st.sampled_from(OPTIONS), max_size=3, unique=True)):
        text += option
    return text


def _space(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(("", "", " ")))


def expressions(depth: int) -> st.SearchStrategy[str]:
    """Notation text of a tree at most ``depth`` deep."""
    numbers = st.sampled_from(("0", "1", "2", "3", "5", "10", "1.5", "0.25", "02"))
    atoms = st.one_of(pools(), pools(), numbers)
    if depth == 0:
        return atoms

    @st.composite
    def tree(draw: st.DrawFn) -> str:
        inner = expressions(depth - 1)
        how = draw(
            st.sampled_from(
                ("atom", "sum", "product", "call", "group", "paren", "label", "test")
            )
        )
        if how == "atom":
            return draw(atoms)
        if how in ("sum", "product"):
            ops = "+-" if how == "sum" else "*/"
            text = draw(inner)
            for _ in range(draw(st.integers(1, 2))):
                text += (
                    _space(draw)
                    + draw(st.sampled_from(ops))
                    + _space(draw)
                    + draw(inner)
                )
            return text
        if how == "call":
            name = draw(
                st.sampled_from(("floor", "ceil", "round", "abs", "max", "min"))
            )
            args = draw(st.lists(inner, min_size=1, max_size=3))
            return f"{name}({(',' + _space(draw)).join(args)})"
        if how == "group":
            items = draw(st.lists(inner, min_size=1, max_size=3))
            options = draw(
                st.sampled_from(("", "kh1", "kl1", "dl1", ">=7", ">=5f1", "k"))
            )
            return "{" + ",".join(items) + "}" + options
        if how == "paren":
            return "(" + _space(draw) + draw(inner) + _space(draw) + ")"
        if how == "label":
            return (
                draw(inner)
                + _space(draw)
                + "["
                + draw(st.sampled_from(("STR", "fire", "")))
                + "]"
            )
        op = draw(st.sampled_from((">=", "<=", ">", "<", "=", "==")))
        return f"{draw(inner)} {op} {draw(inner)}"

    return tree()


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A notation: a drawn tree or a spelling of the design's, as is or with
    one character inserted, deleted or replaced."""
    text = draw(st.one_of(expressions(2), st.sampled_from(SPELLED)))
    return mutant(draw, text, ALPHABET)


def python_answer(text: str, seed: int, bare_d6: bool) -> dict[str, Any]:
    """What the Python runtime answers, in the shape tests/js/dice_tree.mjs prints."""
    try:
        dice = parse_notation(text, bare_d6=bare_d6)
    except RuleInputError as error:
        return {"parse": _refusal(error)}
    assert parse_notation(str(dice), bare_d6=bare_d6) == dice, text  # it reads back
    found: dict[str, Any] = {
        "parse": str(dice),
        "tree": dumps(dice),
        "pools": len(dice.pools),
    }
    try:
        rolled = roll(dice, random.Random(seed))
        found["roll"] = {
            "total": str(rolled.total),
            "results": list(rolled.results),
            "rolled": list(rolled.rolled),
            "text": dumps(rolled),
        }
    except RuleInputError as error:
        found["roll"] = _refusal(error)
    return found


def _cases() -> list[dict[str, Any]]:
    spelled = [{"text": t, "seed": 3, "bareD6": False} for t in SPELLED]
    bare = [{"text": t, "seed": 5, "bareD6": True} for t in ("3d", "3d+2d!", "d-1")]
    found = drawn(st.tuples(texts(), st.integers(0, 2**32), st.booleans()), 500)
    drawn_cases = [{"text": t, "seed": s, "bareD6": b} for t, s, b in found]
    return spelled + bare + drawn_cases


def test_javascript_reads_rolls_and_refuses_as_python(tmp_path: Path) -> None:
    cases = _cases()
    answers = [python_answer(c["text"], c["seed"], c["bareD6"]) for c in cases]
    read = [a for a in answers if isinstance(a["parse"], str)]
    refused = [a for a in answers if not isinstance(a["parse"], str)]
    assert len(read) >= 150 and len(refused) >= 100, (len(read), len(refused))
    # the corpus reaches what matters: fractions, groups, tests, several pools
    assert any("/" in a["roll"].get("total", "") for a in read)
    assert any(a["pools"] >= 3 for a in read)
    assert any('"items"' in a["tree"] for a in read)
    assert any("division by zero" in a["roll"].get("message", "") for a in read)
    found = node_cases(JS_TESTS / "dice_tree.mjs", {"cases": cases}, tmp_path)
    assert len(found) == len(cases)
    for case, want, got in zip(cases, answers, found, strict=True):
        assert got == want, case
