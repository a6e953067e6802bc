"""Dice notation in JavaScript answers as in Python: for each of hundreds of
generated notation strings (valid pools of every option, and mutants of them,
many refused), the notation read back, a seeded roll, the exact odds (``dumps``
text, mean and variance) and every refusal (message, offset, hint) are the same
in both runtimes; one Node process answers every case."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.runtime.dice import DiceSyntaxError
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import odds, odds_work
from rulesc.runtime.dice_rolls import roll, total
from rulesc.runtime.dice_terms import DiceSum, Pool, Term
from rulesc.runtime.errors import RuleInputError
from rulesc.runtime.json import dumps

from .js_node import JS_TESTS, node
from .test_dice_odds import sums

# What a mutant inserts or puts in a character's place: the notation's own
# characters, and non-ASCII ones (digits of other scripts, a letter, an emoji)
ALPHABET = "0123456789d%F+-rok!hl<>=x* ٣²éⅫ😀"
SPELLED = [  # spellings that read back otherwise
    "d20", "d%", "4dF", "4d6k3", "2d20kl", "6d6>=5", "2d6ro<2", "2d6r=1",
    "3d6!!dl1*2", "-1d4+3-d6", "4dF>=-0", "4d6dl1", "1d6!", "2d20kl1", "4d6kh3",
]  # fmt: skip


def _refusal(error: RuleInputError) -> dict[str, Any]:
    found: dict[str, Any] = {"error": type(error).__name__, "message": str(error)}
    if isinstance(error, DiceSyntaxError):
        found.update(offset=error.offset, hint=error.hint)
    return found


def python_answer(text: str, seed: int, depth: int) -> dict[str, Any]:
    """What the Python runtime answers, in the shape tests/js/dice_notation.mjs prints."""
    try:
        dice = parse_notation(text)
    except RuleInputError as error:
        return {"parse": _refusal(error)}
    found: dict[str, Any] = {"parse": str(dice)}
    try:
        found["work"] = str(odds_work(dice, depth))
    except RuleInputError as error:
        found["work"] = _refusal(error)
    try:
        rolled = roll(dice, random.Random(seed))
        found["roll"] = {
            # a total that is no whole number: "7/2", as JavaScript prints it
            "total": rolled.total if type(rolled.total) is int else str(rolled.total),
            "results": list(rolled.results),
            "rolled": list(rolled.rolled),
            "text": dumps(rolled),
            "stringified": True,  # JavaScript's JSON.stringify writes the same
        }
    except RuleInputError as error:
        found["roll"] = _refusal(error)
    found["totals"] = [_total(pool, seed) for pool in _pools(dice)]
    try:
        chances = odds(dice, depth)
        found["odds"] = {
            "text": dumps(chances),
            "mean": None if chances.mean is None else str(chances.mean),
            "variance": None if chances.variance is None else str(chances.variance),
            "stringified": True,  # the odds and their chances, in JavaScript too
        }
    except RuleInputError as error:
        found["odds"] = _refusal(error)
    return found


def _pools(dice: DiceSum) -> list[Pool]:
    return [term.value for term in dice.terms if isinstance(term.value, Pool)]


def _total(pool: Pool, seed: int) -> dict[str, Any]:
    """``total`` of one pool, seeded, and the rng's next draw after it: the same
    as a roll of the pool alone gives, and leaves (checked here; the
    JavaScript runtime's are compared with these)."""
    rng, reference = random.Random(seed), random.Random(seed)
    try:
        found = total(pool, rng)
    except RuleInputError as error:
        with pytest.raises(RuleInputError, match=re.escape(str(error))):
            roll(DiceSum((Term(1, pool),)), reference)
        return _refusal(error)
    assert found == roll(DiceSum((Term(1, pool),)), reference).total, pool
    after = rng.randint(1, 10**6)
    assert after == reference.randint(1, 10**6), pool
    return {"total": found, "next": after}


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A notation string: a generated sum written out, a spelling of the issue's,
    or either with one character inserted, deleted or replaced."""
    text = draw(st.one_of(sums().map(str), st.sampled_from(SPELLED)))
    return mutant(draw, text, ALPHABET)


def mutant(draw: st.DrawFn, text: str, alphabet: str) -> str:
    """``text`` as is, or with one character of ``alphabet`` inserted, one
    deleted or one replaced."""
    how = draw(st.sampled_from(("as is", "insert", "delete", "replace")))
    if how == "as is" or not text:
        return text
    at = draw(st.integers(0, len(text) - (0 if how == "insert" else 1)))
    if how == "delete":
        return text[:at] + text[at + 1 :]
    ch = draw(st.sampled_from(alphabet))
    return text[:at] + ch + text[at + (0 if how == "insert" else 1) :]


# odds refused past MAX_WORK steps, by keeping and by exploding (each before
# any of the work: what it would take is worked out first, alike in both)
LIMITS = [
    ("300d20kh150", 10),
    ("50d6!+50d6!", 100),
    ("999d100kh11", 10),
    ("1d1000!>=2", 30),
    ("100d20kh50", 10),
]


def _cases() -> list[dict[str, Any]]:
    found = [{"text": t, "seed": 7, "depth": d} for t, d in LIMITS]

    @settings(
        max_examples=400,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(texts(), st.integers(0, 2**32), st.integers(0, 3))
    def collect(text: str, seed: int, depth: int) -> None:
        found.append({"text": text, "seed": seed, "depth": depth})

    collect()
    return found


def test_javascript_reads_rolls_and_works_out_odds_as_python(tmp_path: Path) -> None:
    cases = _cases()
    answers = [python_answer(c["text"], c["seed"], c["depth"]) for c in cases]
    read = [a for a in answers if isinstance(a["parse"], str)]
    refused = [a for a in answers if not isinstance(a["parse"], str)]
    assert len(cases) >= 200 and len(read) >= 100 and len(refused) >= 50
    # total() of each pool, plain ones (its short way) and others alike
    assert sum(len(a["totals"]) for a in read) >= 100
    assert all("steps to work out" in a["odds"]["message"] for a in answers[:5])
    # the sample reaches what matters: explosions cut off (a tail), non-ASCII
    # digits, the pool's own checks; and (LIMITS) odds past the runtime's limits
    assert any(
        a["odds"].get("text", "").endswith('"tail": "0"}') is False for a in read
    )
    messages = " ".join(a["parse"]["message"] for a in refused)
    assert "is not an ASCII digit" in messages and "unexpected" in messages
    found = javascript_answers(cases, tmp_path)
    for case, want, got in zip(cases, answers, found, strict=True):
        assert got == want, case


def javascript_answers(cases: list[dict[str, Any]], tmp_path: Path) -> list[Any]:
    """What the JavaScript package answers for each case (tests/js/dice_notation.mjs),
    in the shape ``python_answer`` gives."""
    given = tmp_path / "cases.json"
    given.write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run(
        [node(), str(JS_TESTS / "dice_notation.mjs"), str(given)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    found: list[Any] = json.loads(done.stdout)
    assert len(found) == len(cases)
    return found
