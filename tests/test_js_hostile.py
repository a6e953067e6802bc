"""Labels, keys and options are data in JavaScript as in Python (issue 23, item 5).

Generated cases with hostile labels and keys ("__proto__", "constructor",
"toString", bidirectional and control characters) go through the JavaScript
runtime's helpers in one Node process (tests/js/hostile.mjs) and through the
Python runtime's: the same refusals with the same messages, the same ``dumps``
text. Every call of the worked examples answers the same after Object.prototype
has been polluted with every option's name. A string literal the compiler
writes holds no character Python's repr would escape, and means its text.
"""

from __future__ import annotations

import importlib
import inspect
import json
from enum import StrEnum
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulesc.emit.javascript.expr import string_literal
from rulesc.emit.javascript.names import camel
from rulesc.runtime import _support
from rulesc.runtime import json as rjson
from rulesc.runtime.errors import RuleInputError

from .conftest import project_systems
from .js_node import JS_TESTS, PACKAGE, drawn, example_case, node_cases, ported

ROOT = Path(__file__).resolve().parent.parent
CASES = 300  # generated cases of each kind (one Node process for all of them)

HOSTILE = [
    "__proto__",
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "prototype",
    "then",
    "toJSON",
    "__defineGetter__",
    "\u202e",
    "a\u202eb",
    "\u2066x\u2069",
    "\u200b",
    "\u2028",
    "\x00",
    "\x1b[2J",
    "\x7f",
    "'\"\\",
    "\ud800",
    "Ǆ",
    "ß",
    "0",
    "length",
]
# Characters Python's Unicode data has (Node's is newer: what it has and Python
# has not, each runtime's messages show as its own data says, see the report)
known = st.characters(exclude_categories=["Cn"])
label = st.one_of(
    st.sampled_from(HOSTILE), st.text(alphabet=known, min_size=1, max_size=6)
)
labels = st.lists(label, min_size=1, max_size=5, unique_by=str.casefold)


def _run(tmp: Path, spec: dict[str, Any]) -> Any:
    return node_cases(JS_TESTS / "hostile.mjs", spec, tmp)


def _kind(name: str, given: list[str]) -> Any:
    return StrEnum(name, [(f"M{i}", text) for i, text in enumerate(given)])


def _python(case: dict[str, Any]) -> dict[str, Any]:
    """What the Python runtime answers a case, as hostile.mjs reports it."""
    try:
        if case["kind"] == "mapping":
            keys, values = _kind("K", case["keys"]), _kind("V", case["values"])
            coerced = _support.mapping(
                keys,
                {str.casefold(m.value): m for m in keys},
                values,
                {str.casefold(m.value): m for m in values},
                json.loads(case["given"]),
                "given",
            )
            # JavaScript's answer is in label order, as an object keeps it
            order = _js_order([m.value for m in keys])
            text = rjson.dumps(coerced, sort_keys=True)
            return {"answer": [text, order, True]}
        if case["kind"] == "choice":
            keys = _kind("K", case["keys"])
            by_label = {str.casefold(m.value): m for m in keys}
            return {
                "answer": _support.choice(
                    keys, by_label, json.loads(case["value"]), "given"
                ).value
            }
        if case["kind"] == "dumps":
            options = case["options"]
            return {
                "answer": rjson.dumps(
                    json.loads(case["data"]),
                    indent=options.get("indent"),
                    sort_keys=options.get("sortKeys", False),
                    ensure_ascii=options.get("ensureAscii", True),
                )
            }
        return {"answer": case["text"]}
    except RuleInputError as exc:
        return {"raises": "RuleInputError", "message": str(exc)}


def _index(key: str) -> int | None:
    """The array index a key is to a JavaScript object (or None)."""
    if (
        key.isascii()
        and key.isdigit()
        and str(int(key)) == key
        and int(key) < 2**32 - 1
    ):
        return int(key)
    return None


def _js_order(keys: list[str]) -> list[str]:
    """Keys in the order a JavaScript object keeps them: array indexes first,
    ascending, then the others as given (so both runtimes see one order)."""
    indexes = sorted((k for k in keys if _index(k) is not None), key=lambda k: int(k))
    return [*indexes, *(k for k in keys if _index(k) is None)]


@st.composite
def mapping_cases(draw: st.DrawFn) -> dict[str, Any]:
    keys, values = draw(labels), draw(labels)
    entries: dict[str, Any] = {}
    for key in keys:
        if draw(st.integers(0, 9)):  # now and then a key left out
            spelled = draw(st.sampled_from([key, key.upper(), key.lower()]))
            entries[spelled] = draw(st.sampled_from([*values, *HOSTILE, 3]))
    for _ in range(draw(st.integers(0, 2))):  # keys that are no label
        entries[draw(label)] = draw(st.sampled_from(values))
    order = _js_order(draw(st.permutations(list(entries))))
    given = {k: entries[k] for k in order}
    return {
        "kind": "mapping",
        "keys": keys,
        "values": values,
        "given": json.dumps(given),
    }


@st.composite
def choice_cases(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(labels)
    value = draw(st.one_of(st.sampled_from(keys), label, st.integers(-5, 5)))
    return {"kind": "choice", "keys": keys, "value": json.dumps(value)}


json_data = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**53) + 1, 2**53 - 1), label),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        # in the order a JavaScript object keeps its keys
        st.dictionaries(label, inner, max_size=4).map(
            lambda d: {k: d[k] for k in _js_order(list(d))}
        ),
    ),
    max_leaves=8,
)


@st.composite
def dumps_cases(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["indent"] = draw(st.sampled_from([0, 2, "\t"]))
    if draw(st.booleans()):
        options["sortKeys"] = draw(st.booleans())
    if draw(st.booleans()):
        options["ensureAscii"] = draw(st.booleans())
    return {"kind": "dumps", "data": json.dumps(draw(json_data)), "options": options}


def _literal_case(text: str) -> dict[str, Any]:
    return {"kind": "literal", "literal": string_literal(text), "text": text}


def test_hostile_labels_keys_and_text_agree_with_python(tmp_path: Path) -> None:
    """Mappings, choices, dumps and string literals over hostile labels: the
    JavaScript runtime refuses what Python refuses, with the same message, and
    answers the same text; a mapping's answer has every label (a "__proto__"
    one too) as an own key of an object without a prototype."""
    literals = st.one_of(label, st.text(max_size=12)).map(_literal_case)  # any text
    cases = [
        *drawn(mapping_cases(), CASES),
        *drawn(choice_cases(), CASES),
        *drawn(dumps_cases(), CASES),
        *drawn(literals, CASES),
    ]
    assert len(cases) >= 4 * 200  # each strategy gave enough cases
    answers = _run(tmp_path, {"package": str(PACKAGE), "cases": cases})["cases"]
    wrong = [
        (case, got, want)
        for case, got in zip(cases, answers, strict=True)
        if got != (want := _python(case))
    ]
    assert not wrong, wrong[:5]
    kinds = {c["kind"] for c in cases}
    for kind in kinds:  # each kind has answers and (but literals) refusals
        found = [a for c, a in zip(cases, answers, strict=True) if c["kind"] == kind]
        assert any("answer" in a for a in found), kind
        assert kind in {"literal", "dumps"} or any("raises" in a for a in found), kind
    for case in cases:
        if case["kind"] == "literal":
            assert all(ch.isprintable() for ch in case["literal"]), case["literal"]


# -- Object.prototype polluted ------------------------------------------------------


def _options(module: Any) -> dict[str, Any]:
    """Every keyword-only parameter of the module's functions (and its classes'
    methods), by JavaScript name, with a value that would change an answer."""
    found: dict[str, Any] = {}
    for _, value in inspect.getmembers(module):
        targets = [value]
        if inspect.isclass(value) and value.__module__ == module.__name__:
            targets += [m for _, m in inspect.getmembers(value, inspect.isfunction)]
        for target in targets:
            if (
                not callable(target)
                or getattr(target, "__module__", None) != module.__name__
            ):
                continue
            try:
                params = inspect.signature(target).parameters.values()
            except (TypeError, ValueError):
                continue
            for p in params:
                if p.kind is inspect.Parameter.KEYWORD_ONLY:
                    default = p.default
                    changed = (
                        (not default)
                        if isinstance(default, bool)
                        else default + 1
                        if isinstance(default, int)
                        else "polluted"
                    )
                    found[camel(p.name)] = changed
    return found


def test_a_polluted_object_prototype_changes_no_answer(tmp_path: Path) -> None:
    """Object.prototype given every option's name (and dumps' options, a
    fraction's and toDict): every worked example's call answers as before, and
    as Python answers it."""
    groups: list[dict[str, Any]] = []
    pollute: dict[str, Any] = {"indent": 3, "sortKeys": True, "ensureAscii": False}
    expected: list[dict[str, Any]] = []
    for system in project_systems():
        module = importlib.import_module(f"rulebook.{system.id}")
        pollute |= _options(module)
        here = ported(system)
        cases = [
            example_case(system, module, rule, ex)
            for rule in system.rules
            if rule.qualified_id in here
            for ex in rule.examples
        ]
        groups.append({"system": system.id, "cases": cases})
        expected += [c["python"] for c in cases]
    assert "warheadPenetrates" in pollute  # an option of the rules here
    spec = {"package": str(PACKAGE), "cases": [], "plans": groups, "pollute": pollute}
    out = _run(tmp_path, spec)
    assert len(out["clean"]) == len(expected) >= 50
    changed = [
        (i, a, b)
        for i, (a, b) in enumerate(zip(out["clean"], out["polluted"], strict=True))
        if a != b
    ]
    assert not changed, changed[:3]
    for got, python in zip(out["clean"], expected, strict=True):
        if "raises" in python:
            assert got.get("raises") == "RuleInputError", (got, python)
        else:
            assert json.loads(got["answer"]) == python["answer"], (got, python)
