"""A unique decision's cases are proved to answer every call, each once: over
its parameters' ranges and over every outcome of the dice its names roll,
unless its last case is ``when: "true"``, the fallback. Random decisions (random
conditions over small ranges and a name that rolls) are built and their errors
compared with every input enumerated here, by a reference of the test's own;
where the inputs cannot all be tried, a decision without a fallback is refused
with the reason, and one with a fallback builds."""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from .test_proved_ranges import rule_errors

OPS: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    ">": operator.gt,
}
# What a name rolls: its notation, and every total it can come to for a given a.
ROLLS: dict[str, Callable[[int], list[int]]] = {
    "1d3": lambda a: [1, 2, 3],
    "2d3kh1": lambda a: [1, 2, 3],
    "(a)d2": lambda a: list(range(a, 2 * a + 1)),
    "1d4 - a": lambda a: [f - a for f in range(1, 5)],
}
Term = tuple[str, str, int]  # (what is compared, operator, number)
Condition = tuple[Term, ...]  # terms joined with "and"


def _value(what: str, env: dict[str, int]) -> int:
    return env["a"] + env["r"] if what == "a + r" else env[what]


def _holds(condition: Condition, env: dict[str, int]) -> bool:
    return all(OPS[op](_value(what, env), k) for what, op, k in condition)


terms = st.tuples(
    st.sampled_from(["a", "b", "r", "a + r"]),
    st.sampled_from(sorted(OPS)),
    st.integers(-1, 6),
)
conditions = st.lists(terms, min_size=1, max_size=2).map(tuple)


def _rule(conditions: list[Condition], rolled: str, fallback: bool, high: int) -> str:
    cases = "".join(
        f'    - when: "{" and ".join(f"{w} {op} {k}" for w, op, k in c)}"\n'
        f"      then: {i}\n"
        for i, c in enumerate(conditions)
    )
    if fallback:
        cases += '    - when: "true"\n      then: -1\n'
    return f"""\
- id: pick
  kind: decision
  title: Pick
  summary: One case answers each call.
  source: {{section: Tests}}
  function: pick
  parameters:
    - {{name: a, type: int, min: 0, max: {high}, description: A number.}}
    - {{name: b, type: int, min: 0, max: 1, description: Another.}}
  let:
    - {{name: r, value: "{rolled}"}}
  value: {{type: int, title: Case}}
  hit_policy: unique
  cases:
{cases}"""


def _shown(message: str) -> dict[str, int]:
    """The input an error names: ``a=1, b=0, r=3``."""
    found = re.search(r"match(?:es)? (\w+=-?\d+(?:, \w+=-?\d+)*)", message)
    assert found is not None, message
    pairs = (item.split("=") for item in found.group(1).split(", "))
    return {k: int(v) for k, v in pairs}


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    st.lists(conditions, min_size=1, max_size=3),
    st.sampled_from(sorted(ROLLS)),
    st.booleans(),
    st.integers(0, 3),
)
def test_gaps_and_overlaps_are_those_every_input_shows(
    tmp_path_factory: pytest.TempPathFactory,
    cases: list[Condition],
    rolled: str,
    fallback: bool,
    high: int,
) -> None:
    uses = {w for c in cases for w, _, _ in c}
    envs = [
        {"a": a, "b": b, "r": r}
        for a, b in itertools.product(range(high + 1), (0, 1))
        for r in ROLLS[rolled](a)
    ]
    gaps, pairs = [], set()
    for env in envs:
        matched = [i for i, c in enumerate(cases) if _holds(c, env)]
        if not matched:
            gaps.append(env)
        if len(matched) >= 2:
            pairs.add((matched[0] + 1, matched[1] + 1))
    errors = rule_errors(
        tmp_path_factory.mktemp("cover"), _rule(cases, rolled, fallback, high)
    )
    if "r" not in uses and "a + r" not in uses:  # the name is read by nothing
        errors = [e for e in errors if "'r' is not used" not in e]
    found_gaps = [e for e in errors if "no case matches" in e]
    found_pairs = {
        (int(m.group(1)), int(m.group(2))): e
        for e in errors
        if (m := re.search(r"cases (\d+) and (\d+) both match", e))
    }
    event(f"gaps {bool(found_gaps)} pairs {bool(found_pairs)} fallback {fallback}")
    assert len(errors) == len(found_gaps) + len(found_pairs), errors
    assert set(found_pairs) == pairs, (errors, pairs)
    for (first, second), error in found_pairs.items():
        shown = _shown(error)
        assert _holds(cases[first - 1], _full(shown, envs))
        assert _holds(cases[second - 1], _full(shown, envs))
    if fallback or not gaps:
        assert found_gaps == []
        return
    assert len(found_gaps) == 1, errors
    shown = _shown(found_gaps[0])
    assert not any(_holds(c, _full(shown, envs)) for c in cases)


def _full(shown: dict[str, int], envs: list[dict[str, int]]) -> dict[str, int]:
    """An input the error names, with what it leaves out (names the cases
    do not read) taken from any input that agrees with it."""
    return next(e for e in envs if all(e[k] == v for k, v in shown.items()))


UNBOUNDED = """\
- id: pick
  kind: decision
  title: Pick
  summary: Cases over a number without bounds.
  source: {section: Tests}
  function: pick
  parameters:
    - {name: n, type: int, min: 0, description: A number.}
  let:
    - {name: r, value: ROLL}
  value: {type: int, title: Case}
  hit_policy: unique
  cases:
    - {when: "n < 5 and r > 0", then: 1}
    - {when: "n >= 5 or r <= 0", then: 2}
"""


@pytest.mark.parametrize(
    ("roll", "reason"),
    [
        ("1d6", "'n' takes too many values to try each"),
        ("1d6! - n", "'r' rolls dice that explode without end"),
    ],
)
def test_what_cannot_be_tried_needs_a_fallback(
    tmp_path: Path, roll: str, reason: str
) -> None:
    body = UNBOUNDED.replace("ROLL", f'"{roll}"')
    if "!" not in roll:
        body = body.replace("min: 0,", "min: 0, max: 100000,")
    errors = rule_errors(tmp_path / "one", body)
    assert errors == [
        "15:17: the cases cannot be proved to answer every call: " + reason
    ]
    fallback = body + '    - {when: "true", then: 0}\n'
    assert rule_errors(tmp_path / "two", fallback) == []


def test_only_the_last_case_may_be_the_fallback(tmp_path: Path) -> None:
    body = UNBOUNDED.replace("ROLL", "1d6").replace('"n < 5 and r > 0"', '"true"')
    assert rule_errors(tmp_path, body) == [
        '17:16: only the last case of a unique decision may be when: "true": '
        "it answers where no other case does"
    ]
