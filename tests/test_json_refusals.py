"""What JSON cannot say, both runtimes refuse alike (issue 38, item 10).

Generated values (numbers that are NaN or infinite, mappings whose keys are
written as one JSON key, values nested around ``MAX_NESTING`` levels and far
past it) are written by the Python runtime's ``dumps`` and, in one Node
process (tests/js/json_values.mjs), by the JavaScript runtime's: the same text,
or ``RuleTypeError`` with the same message. A rules file's mapping whose keys
would be one JSON key is a located error.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from rulesc.common.diagnostics import RulesError
from rulesc.front.loader import load_file
from rulesc.runtime import json as rjson
from rulesc.runtime._support import MAX_NESTING
from rulesc.runtime.errors import RuleInputError, RuleTypeError

from .js_node import JS_TESTS, PACKAGE, drawn, node_cases

CASES = 300
Tagged = list[Any]


class Pairs(Mapping[object, object]):
    """A mapping of the pairs given, as a JavaScript Map keeps them: keys
    Python's dict would take as one (``True`` and ``1``) stay two."""

    def __init__(self, pairs: list[tuple[object, object]]) -> None:
        self._pairs = pairs

    def __getitem__(self, key: object) -> object:
        return next(v for k, v in self._pairs if k is key)

    def __iter__(self) -> Iterator[object]:
        return (k for k, _ in self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def items(self) -> Any:
        return list(self._pairs)


_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def build(tagged: Tagged) -> object:
    """The Python value of a tagged value (tests/js/json_values.mjs builds the
    JavaScript one)."""
    tag = tagged[0]
    if tag in ("int", "str", "bool"):
        return tagged[1]
    if tag == "null":
        return None
    if tag == "float":
        return _FLOATS.get(tagged[1], float(tagged[1]))
    if tag == "list":
        return [build(item) for item in tagged[1]]
    if tag == "map":
        return Pairs([(build(k), build(v)) for k, v in tagged[1]])
    assert tag == "deep"
    value = build(tagged[2])
    for _ in range(tagged[1]):
        value = [value]
    return value


def python(tagged: Tagged) -> dict[str, str]:
    try:
        return {"answer": rjson.dumps(build(tagged))}
    except RuleInputError as exc:
        return {"raises": type(exc).__name__, "message": str(exc)}


keys = st.one_of(
    st.integers(-2, 12).map(lambda n: ["int", n]),
    st.sampled_from(["0", "1", "01", "-1", "true", "false", "x"]).map(
        lambda s: ["str", s]
    ),
    st.booleans().map(lambda b: ["bool", b]),
)
leaves = st.one_of(
    st.integers(-(2**53) + 1, 2**53 - 1).map(lambda n: ["int", n]),
    st.sampled_from(["nan", "inf", "-inf", "0.5", "-2.25", "1e-07"]).map(
        lambda f: ["float", f]
    ),
    st.text(max_size=4).map(lambda s: ["str", s]),
    st.booleans().map(lambda b: ["bool", b]),
    st.just(["null"]),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda items: ["list", items]),
        # distinct keys, as a Map's are (1 and "1", true and 1 are distinct)
        st.lists(st.tuples(keys, inner), max_size=4, unique_by=lambda p: str(p[0])).map(
            lambda pairs: ["map", [list(p) for p in pairs]]
        ),
        st.tuples(
            st.sampled_from([MAX_NESTING - 2, MAX_NESTING, MAX_NESTING + 1, 5000]),
            inner,
        ).map(lambda t: ["deep", t[0], t[1]]),
    ),
    max_leaves=6,
)


def test_both_runtimes_write_or_refuse_alike(tmp_path: Path) -> None:
    cases = drawn(values, CASES)
    spec = {"package": str(PACKAGE), "cases": cases}
    answers = node_cases(JS_TESTS / "json_values.mjs", spec, tmp_path)
    wrong = [
        (case, got, want)
        for case, got in zip(cases, answers, strict=True)
        if got != (want := python(case))
    ]
    assert not wrong, wrong[:3]
    said = {a.get("message", "").split(":")[0][:30] for a in answers if "raises" in a}
    assert {a.get("raises") for a in answers} == {None, "RuleTypeError"}
    assert len(said) >= 4, said  # non-finite numbers, depth, colliding keys


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "NaN is not a value of the rules runtime: JSON has no NaN"),
        ([1, -math.inf], "-Infinity is not a value of the rules runtime"),
        ({1: "a", "1": "b"}, "both written as the JSON key '1'"),
        ({False: "a", "false": "b"}, "both written as the JSON key 'false'"),
        (build(["deep", MAX_NESTING + 1, ["int", 1]]), "nested more than 100 levels"),
        (build(["deep", 100_000, ["int", 1]]), "nested more than 100 levels"),
    ],
)
def test_what_json_cannot_say_is_a_rule_type_error(value: object, message: str) -> None:
    for write in (rjson.dumps, rjson.to_data):
        with pytest.raises(RuleTypeError, match=message) as caught:
            write(value)
        assert isinstance(caught.value, TypeError)
    assert rjson.dumps(build(["deep", MAX_NESTING, ["int", 1]])).count("[") == 100


def test_a_to_dict_that_nests_for_ever_is_refused_as_too_deep() -> None:
    class Endless:
        def to_dict(self) -> object:
            return [self]

    with pytest.raises(RuleTypeError, match="nested more than 100 levels"):
        rjson.dumps(Endless())


@pytest.mark.parametrize(
    "text",
    ['a: {1: x, "1": y}\n', 'a:\n  "1": x\n  1: y\n', "a: {true: x, 'true': y}\n"],
)
def test_keys_one_json_key_in_a_rules_file_are_an_error(
    tmp_path: Path, text: str
) -> None:
    """A key that is no text is refused where it stands, so a rules file's
    mapping never holds two keys that JSON would write as one."""
    path = tmp_path / "x.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(RulesError) as caught:
        load_file(path, "rules/s/x.yaml")
    (found,) = caught.value.diagnostics
    assert "is not text" in found.message and found.hint, found
