"""Lists, membership, len/sum/any/all/abs/text, text joining and null narrowing.

Each capability is parsed, checked (types and integer ranges), emitted as
Python that is run here, rendered as math and canonical source, and evaluated
by the reference evaluator; misuse gives a located error with a hint.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.emit.expr import to_python
from rulesc.examples import runtime_from
from rulesc.lang.expr import (
    Binary,
    Call,
    Checked,
    ExprError,
    Field,
    Interval,
    IntLit,
    ListLit,
    Name,
    Node,
    NullLit,
    Param,
    Rounding,
    StrLit,
    compile_formula,
    evaluate,
    fits,
    parse,
    to_source,
)
from rulesc.pipeline import build
from rulesc.workbench.math import to_math
from rulesc.workbench.steps import Stepper
from tests.test_expr_rules import _formula, _write


class Size(enum.StrEnum):  # as generated: values are the labels
    SMALL = "Small"
    LARGE = "Large"
    HUGE = "Huge"


class Mood(enum.StrEnum):
    CALM = "Calm"
    ANGRY = "Angry"


SIZES = ("Small", "Large", "Huge")
PARAMS = {
    "x": Param("x", "int", -5, 3),
    "y": Param("y", "int", 0, 4),
    "n": Param("n", "int", 1, None),
    "bonus": Param("bonus", "int", 0, 3, nullable=True),
    "flag": Param("flag", "bool"),
    "size": Param("size", "choice", choices=SIZES, enum="Size"),
    "other": Param("other", "choice", choices=SIZES, enum="Size"),
    "maybe": Param("maybe", "choice", choices=SIZES, enum="Size", nullable=True),
    "mood": Param("mood", "choice", choices=("Calm", "Angry"), enum="Mood"),
}
ENUMS: dict[str, type[enum.StrEnum]] = {"Size": Size, "Mood": Mood}
CHOICES = {"size": Size, "other": Size, "maybe": Size, "mood": Mood}
ENV: dict[str, Any] = {
    "x": -4,
    "y": 2,
    "n": 7,
    "bonus": None,
    "flag": True,
    "size": "Large",
    "other": "Small",
    "maybe": None,
    "mood": "Calm",
}
BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "abs": abs, "str": str}
BUILTINS |= {"min": min, "max": max}


def check(text: str) -> Checked:
    return compile_formula(text, PARAMS)


def python(node: Node, rounding: Rounding = "down") -> str:
    return to_python(
        node,
        name=str,
        rounding=rounding,
        label=lambda enum_name, label: f"{enum_name}.{ENUMS[enum_name](label).name}",
    )


def run(text: str, env: dict[str, Any], rounding: Rounding = "down") -> Any:
    """Check, emit and run the Python (in a function body, as generated code
    does), and compare it with the reference evaluator; the answer."""
    checked = check(text)
    scope: dict[str, Any] = {"__builtins__": BUILTINS, **ENUMS}
    for name, value in env.items():
        choice = CHOICES.get(name)
        scope[name] = choice(value) if choice and value is not None else value
    exec(f"def _formula():\n    return {python(checked.node, rounding)}\n", scope)
    answer = scope["_formula"]()
    reference = evaluate(checked.node, env, rounding=rounding)
    assert answer == reference, (text, answer, reference)
    return reference


def error(text: str) -> ExprError:
    with pytest.raises(ExprError) as info:
        check(text)
    return info.value


# --- parsing and canonical source ---


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("[1, x]", ListLit((IntLit(1, 0, 0), Name("x", 0, 0)), 0, 0)),
        ("[1,]", ListLit((IntLit(1, 0, 0),), 0, 0)),
        ("[]", ListLit((), 0, 0)),
        (
            "x in [1]",
            Binary("in", Name("x", 0, 0), ListLit((IntLit(1, 0, 0),), 0, 0), 0, 0),
        ),
        (
            "x not in [1]",
            Binary("not in", Name("x", 0, 0), ListLit((IntLit(1, 0, 0),), 0, 0), 0, 0),
        ),
        ("x is null", Binary("is", Name("x", 0, 0), NullLit(0, 0), 0, 0)),
        ("x is not null", Binary("is not", Name("x", 0, 0), NullLit(0, 0), 0, 0)),
        ("len([x])", Call("len", (ListLit((Name("x", 0, 0),), 0, 0),), 0, 0)),
        (
            '"a" + text(x)',
            Binary(
                "+", StrLit("a", 0, 0), Call("text", (Name("x", 0, 0),), 0, 0), 0, 0
            ),
        ),
    ],
)
def test_parse(text: str, tree: Node) -> None:
    assert parse(text) == tree
    assert parse(to_source(tree)) == tree


@pytest.mark.parametrize(
    ("text", "canonical", "math"),
    [
        ("[ 1,2 , x ]", "[1, 2, x]", "[1, 2, x]"),
        (
            "size in ['Small']".replace("'", '"'),
            'size in ["Small"]',
            'size ∈ ["Small"]',
        ),
        ("y not in [1, 2]", "y not in [1, 2]", "y ∉ [1, 2]"),
        ("bonus is null", "bonus is null", "bonus = none"),
        ("bonus is not null", "bonus is not null", "bonus ≠ none"),
        ("not (bonus is null)", "not bonus is null", "not bonus = none"),
        ("x in ([1] if flag else [2])", "x in ([1] if flag else [2])", None),
        ("len([x // 2, y])", "len([x // 2, y])", "len([⌊x ÷ 2⌋, y])"),
        ("abs(x - y)", "abs(x - y)", "abs(x - y)"),
        ('"a" + text(size)', '"a" + text(size)', '"a" + text(size)'),
    ],
)
def test_source_and_math(text: str, canonical: str, math: str | None) -> None:
    node = check(text).node
    assert to_source(node) == canonical
    assert parse(canonical) == parse(text)
    if math is not None:
        assert to_math(node, rounding="down") == math


def test_is_and_in_are_keywords() -> None:
    assert error("in + 1").message == "expected a number, name or '(' but found 'in'"
    found = error("x is 3")
    assert found.message == "'is' compares with null only, found '3'"
    assert (found.start, found.end) == (5, 6) and found.hint is not None
    assert "==" in found.hint
    chained = error("x in [1] in [true]")
    assert chained.message == "comparisons cannot be chained"
    assert (chained.start, chained.end) == (9, 11)
    unclosed = error("[1, 2")
    assert "expected ']' to close the list at offset 0" in unclosed.message


# --- list literals ---


@pytest.mark.parametrize(
    ("text", "item", "interval", "choices"),
    [
        ("[x, y, 10]", "int", Interval(-5, 10), ()),
        ("[flag, x > y]", "bool", None, ()),
        ('["a", "b"]', "text", None, ()),
        ("[size, other]", "choice", None, SIZES),
        ("[1, 2] if flag else [3]", "int", Interval(1, 3), ()),
    ],
)
def test_list_types(
    text: str, item: str, interval: Interval | None, choices: tuple[str, ...]
) -> None:
    checked = check(text)
    assert (checked.type, checked.item, checked.interval) == ("list", item, interval)
    assert checked.choices == choices and not checked.nullable
    assert fits(checked, Field("int")) == "gives list, but the field is int"


def test_a_literal_list_has_a_fixed_length_and_a_branch_its_range() -> None:
    assert check("[x, y, 10]").length == Interval(3, 3)
    assert check("[1, 2] if flag else [3]").length == Interval(1, 2)
    assert check("len([1, 2] if flag else [3])").interval == Interval(1, 2)
    assert check("len([x, y, 10])").interval == Interval(3, 3)


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        ("x in []", "nothing is ever in an empty list", (0, 7), "its elements"),
        (
            "[1, flag]",
            "the elements of a list have one type: this is bool, the first is int",
            (4, 8),
            "nothing is converted implicitly",
        ),
        ('["a", x]', "this is int, the first is text", (6, 7), "text(x)"),
        ("[size, mood]", "cannot hold a choice of Mood", (7, 11), None),
        ("[bonus, 1]", "'bonus' may be null", (1, 6), "bonus is not null"),
        ("[null]", "a list cannot hold null", (1, 5), "leave it out"),
        ("[[1]]", "a list cannot hold list of int", (1, 4), "ints, bools"),
        ("[1] if flag else null", "are a list and null", (0, 21), "never null"),
        ("[1] == [1]", "cannot compare list of int and list of int", (0, 10), "'in'"),
        # `+` of a list joins two lists of one type: the side at fault is shown
        ("[1] + 1", "cannot join list of int and int", (6, 7), "[x] + list"),
        ("x + [1]", "cannot join int and list of int", (0, 1), "brackets"),
        ("[1] + bonus", "'+' of a list joins two lists", (6, 11), "lists of one"),
        ('"a" + [1]', "cannot join text and list of int", (0, 3), "[x] + list"),
        (
            "[1] + [flag]",
            "cannot join a list of int and a list of bool: a list holds one type",
            (0, 12),
            "nothing is converted implicitly",
        ),
        ("[x] + [size]", "a list of int and a list of choices of Size", (0, 12), None),
        ('["a"] + [x]', "a list of text and a list of int", (0, 11), "text(x)"),
        (
            "[size] + [mood]",
            "choices of Size and a list of choices of Mood",
            (0, 15),
            None,
        ),
        ("[1] - [1]", "cannot subtract list of int and list of int", (0, 3), None),
        ("max([1] + 2)", "cannot join list of int and int", (10, 11), None),
        (
            "[1] if flag else [true]",
            "different types: list of int and list of bool",
            (0, 23),
            None,
        ),
    ],
)
def test_list_errors(
    text: str, message: str, span: tuple[int, int] | None, hint: str | None
) -> None:
    found = error(text)
    assert message in found.message
    if span is not None:
        assert (found.start, found.end) == span, text[found.start : found.end]
    if hint is not None:
        assert found.hint is not None and hint in found.hint


# --- membership ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x in [1, -4]", True),
        ("x not in [1, -4]", False),
        ("y in [x, 3]", False),
        ('size in ["Small", "Large"]', True),
        ('size not in ["Small", "Large"]', False),
        ('"Small" in [size, other]', True),
        ('"Huge" in [size, other]', False),
        ("other in [size]", False),
        ('size in (["Small"] if flag else ["Large"])', False),
        ('"a" + "b" in ["ab", "c"]', True),
        ("flag in [x > 0]", False),
        ("maybe in [size]", False),  # null is in no list
    ],
)
def test_membership(text: str, expected: bool) -> None:
    assert check(text).type == "bool"
    assert run(text, ENV) is expected


def test_membership_emits_enum_members() -> None:
    assert python(check('size in ["Small", "Huge"]').node) == (
        "size in [Size.SMALL, Size.HUGE]"
    )
    assert python(check('"Huge" not in [size, other]').node) == (
        "Size.HUGE not in [size, other]"
    )
    assert python(check("bonus is not null").node) == "bonus is not None"


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        (
            'size in ["Tiny"]',
            "unknown choice 'Tiny' for 'size'",
            (9, 15),
            "valid choices",
        ),
        ('size in ["Smal"]', "unknown choice 'Smal'", (9, 15), "did you mean 'Small'?"),
        ('"Tiny" in [size]', "unknown choice 'Tiny'", (0, 6), "valid choices"),
        (
            "mood in [size]",
            "cannot look for a choice of Mood in a list of choices of Size",
            (0, 14),
            None,
        ),
        ('x in ["1"]', "cannot look for int in a list of text", (0, 10), "text(x)"),
        ("x in 3", "'in' needs a list on its right, got int", (5, 6), "brackets"),
        ("null in [1]", "null is never in a list", (0, 4), "is null"),
        ("x in [flag]", "cannot look for int in a list of bool", (0, 11), None),
    ],
)
def test_membership_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    found = error(text)
    assert message in found.message
    if span is not None:
        assert (found.start, found.end) == span, text[found.start : found.end]
    if hint is not None:
        assert found.hint is not None and hint in found.hint


# --- functions ---


@pytest.mark.parametrize(
    ("text", "interval", "expected"),
    [
        ("abs(x)", Interval(0, 5), 4),  # x in -5..3
        ("abs(y)", Interval(0, 4), 2),
        ("abs(-y - 1)", Interval(1, 5), 3),
        ("abs(n)", Interval(1, None), 7),
        ("abs(-n)", Interval(1, None), 7),
        ("abs(x * n)", Interval(0, None), 28),
        ("len([x, y, n])", Interval(3, 3), 3),
        ("sum([x, y])", Interval(-10, 8), -2),  # length 2 times -5..4
        ("sum([y, 1, 2])", Interval(0, 12), 5),
        ("sum([x] if flag else [y, y])", Interval(-10, 8), -4),
        ("sum([n, 1])", Interval(2, None), 8),
        ("max([x, y, 1])", Interval(-5, 4), 2),
        ("min([x, y])", Interval(-5, 4), -4),
        ("abs(x) // 2", Interval(0, 3), 2),
    ],
)
def test_int_functions(text: str, interval: Interval, expected: int) -> None:
    checked = check(text)
    assert (checked.type, checked.interval) == ("int", interval)
    roundings: tuple[Rounding, ...] = ("down", "up")
    for rounding in roundings:
        assert interval.contains(run(text, ENV, rounding))
    assert run(text, ENV) == expected


def test_division_keeps_the_system_rounding_with_the_new_forms() -> None:
    env = ENV | {"x": -3}
    assert run("sum([x, y]) // 2", env, "down") == -1
    assert run("sum([x, y]) // 2", env, "up") == 0
    assert run("abs(x) // 2", env, "down") == 1 and run("abs(x) // 2", env, "up") == 2
    assert to_math(check("len([x]) // 2").node, rounding="up") == "⌈len([x]) ÷ 2⌉"


@pytest.mark.parametrize("x", range(-5, 4))
def test_abs_over_its_whole_range(x: int) -> None:
    value = run("abs(x)", ENV | {"x": x})
    assert value == abs(x) and check("abs(x)").interval == Interval(0, 5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("any([flag, x > 0])", True),
        ("any([not flag, x > 0])", False),
        ("all([flag, x < 0])", True),
        ("all([flag, x > 0])", False),
        ("any([x in [1, 2], y in [2]])", True),
    ],
)
def test_any_and_all(text: str, expected: bool) -> None:
    assert check(text).type == "bool"
    assert run(text, ENV) is expected


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        ("len(x)", "len() needs a list, got int", (4, 5), "len([a, b])"),
        ("sum([flag])", "sum() needs a list of int, got list of bool", (4, 10), None),
        ("any([1])", "any() needs a list of bool, got list of int", (4, 7), None),
        ("all(flag)", "all() needs a list, got bool", (4, 8), "brackets"),
        ("abs(flag)", "abs() needs an int, got bool", (4, 8), None),
        ("abs(bonus)", "abs() needs an int, got int?", (4, 9), "??"),
        ("abs(x, y)", "abs() takes exactly 1 arguments, got 2", (0, 9), None),
        ("max(x)", "max() takes at least 2 arguments, got 1", (0, 6), "max([a, b])"),
        ("min([flag])", "min() needs a list of int", (4, 10), None),
    ],
)
def test_function_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    found = error(text)
    assert message in found.message
    if span is not None:
        assert (found.start, found.end) == span, text[found.start : found.end]
    if hint is not None:
        assert found.hint is not None and hint in found.hint


# --- text joining ---


@pytest.mark.parametrize(
    ("text", "expected", "emitted"),
    [
        ('"a" + "b"', "ab", "'a' + 'b'"),
        ('"size " + text(size)', "size Large", "'size ' + str(size)"),
        ('text(x) + "/" + text(y)', "-4/2", "str(x) + '/' + str(y)"),
        ('"x" + (text(maybe) if maybe is not null else "-")', "x-", None),
    ],
)
def test_text_joining(text: str, expected: str, emitted: str | None) -> None:
    checked = check(text)
    assert (checked.type, checked.nullable) == ("text", False)
    assert run(text, ENV) == expected
    if emitted is not None:
        assert python(checked.node) == emitted


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        (
            '"a" + x',
            "cannot join text and int: 'x' is int, not text",
            (6, 7),
            "text(x)",
        ),
        ('size + "a"', "cannot join choice and text", (0, 4), "text(size)"),
        ('"a" + flag', "cannot join text and bool", (6, 10), None),
        ('"a" - "b"', "cannot subtract text and text", (0, 3), None),
        ("text(flag)", "text() needs an int or a choice, got bool", (5, 9), '"yes"'),
        ('text("a")', "'\"a\"' is already text", (5, 8), "remove"),
        ("text(maybe)", "text() needs a value, but 'maybe' may be null", (5, 10), "??"),
    ],
)
def test_text_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    found = error(text)
    assert message in found.message
    if span is not None:
        assert (found.start, found.end) == span, text[found.start : found.end]
    if hint is not None:
        assert found.hint is not None and hint in found.hint


# --- null narrowing ---


@pytest.mark.parametrize(
    ("text", "interval"),
    [
        ("bonus + 1 if bonus is not null else 0", Interval(0, 4)),
        ("0 if bonus is null else bonus * 2", Interval(0, 6)),
        ("bonus + 1 if bonus != null else 0", Interval(0, 4)),
        ("0 if bonus == null else bonus - 5", Interval(-5, 0)),
        ("0 if null == bonus else bonus", Interval(0, 3)),
        ("bonus + 1 if not (bonus is null) else 0", Interval(0, 4)),
        ("bonus if bonus is not null and flag else 0", Interval(0, 3)),
        ("0 if bonus is null or flag else bonus", Interval(0, 3)),
        ("0 if not (bonus != null and flag) else bonus", Interval(0, 3)),
        ("abs(x - bonus) if bonus is not null else 0", Interval(0, 8)),
    ],
)
def test_narrowing_in_branches(text: str, interval: Interval) -> None:
    checked = check(text)
    assert (checked.type, checked.interval, checked.nullable) == (
        "int",
        interval,
        False,
    )
    assert fits(checked, Field("int")) is None
    for bonus in (None, 0, 3):
        for flag in (True, False):
            value = run(text, ENV | {"bonus": bonus, "flag": flag})
            assert interval.contains(value)


@pytest.mark.parametrize(
    ("text", "bonus", "expected"),
    [
        ("bonus != null and bonus > 2", 3, True),
        ("bonus != null and bonus > 2", None, False),
        ("bonus is not null and bonus > 2", 1, False),
        ("bonus is null or bonus < 2", None, True),
        ("bonus is null or bonus < 2", 2, False),
        ('bonus is not null and "+" + text(bonus) == "+3"', 3, True),
    ],
)
def test_narrowing_in_and_and_or(text: str, bonus: int | None, expected: bool) -> None:
    assert check(text).type == "bool"
    assert run(text, ENV | {"bonus": bonus}) is expected


def test_a_narrowed_choice_is_a_key_that_is_never_null() -> None:
    text = 'text(maybe) if maybe is not null and maybe in ["Huge", "Small"] else "no"'
    assert check(text).type == "text" and not check(text).nullable
    assert run(text, ENV | {"maybe": "Huge"}) == "Huge"
    assert run(text, ENV | {"maybe": "Large"}) == "no"
    assert run(text, ENV) == "no"


@pytest.mark.parametrize(
    ("text", "message", "span"),
    [
        ("bonus + 1 if bonus is null else 0", "cannot add int? and int", (0, 5)),
        ("0 if bonus is not null else bonus + 1", "cannot add int? and int", (28, 33)),
        ("bonus != null or bonus > 2", "cannot compare int? and int", (17, 22)),
        ("bonus == null and bonus > 2", "cannot compare int? and int", (18, 23)),
        ("bonus > 2 and bonus != null", "cannot compare int? and int", (0, 5)),
        ("(bonus ?? 0) if bonus is not null else 0", "'bonus' is never null", (1, 6)),
        ("x is null", "'x' is never null", (0, 1)),
    ],
)
def test_narrowing_only_where_the_test_holds(
    text: str, message: str, span: tuple[int, int]
) -> None:
    found = error(text)
    assert message in found.message
    assert (found.start, found.end) == span, text[found.start : found.end]


def test_a_null_hint_says_a_name_can_be_tested() -> None:
    found = error("bonus + 1")
    assert found.hint is not None and "bonus is not null" in found.hint


# --- explain steps through lists ---


def test_explain_steps_show_lists_with_their_values() -> None:
    checked = check("sum([x * 2, y]) + len([1, 2])")
    stepper = Stepper(ENV, rounding="down")
    assert stepper.run(checked.node) == -6 + 2
    shown = [(step.text, step.shown, step.value) for step in stepper.steps]
    assert shown == [
        ("x × 2", "-4 × 2", -8),
        ("sum([[1], y])", "sum([-8, 2])", -6),
        ("len([1, 2])", "len([1, 2])", 2),
        ("[2] + [3]", "-6 + 2", -4),
    ]


def test_evaluate_gives_lists_as_python_lists() -> None:
    env = ENV | {"bonus": 2}
    node = check('["a", text(size)]').node
    assert evaluate(node, env, rounding="down") == ["a", "Large"]
    assert evaluate(check("[bonus ?? 0, x]").node, env, rounding="down") == [2, -4]


# --- end to end: rules written in YAML, built, and called ---

SIZE_TABLE = """\
- id: armor
  kind: table
  title: Armor
  summary: Armor by size.
  source: {section: Armor}
  function: armor
  key:
    param: size
    title: Size
    enum: Size
    members: [{name: SMALL, label: Small}, {name: LARGE, label: Large}, {name: HUGE, label: Huge}]
  row: ArmorRow
  columns:
    - {name: ac, type: int, title: AC, description: Armor class.}
  rows:
    - {key: Small, ac: 2}
    - {key: Large, ac: 5}
    - {key: Huge, ac: 9}
"""
PARAMETERS = (
    "[{name: roll, type: int, min: -5, max: 5, description: A roll.},"
    " {name: size, type: choice, enum: Size, nullable: true, default: null,"
    " description: Size.}]"
)
SCORE = (
    "(armor(size).ac + len([1, 2]) if size is not null and size in ['Large', 'Huge']"
    " else abs(roll)) + sum([roll, 1]) + (1 if 'ac' + text(roll) == 'ac3' else 0)"
).replace("'", '\\"')  # labels in double quotes, escaped in the YAML string
LABEL = """\
- id: label
  kind: decision
  title: Label
  summary: A text answer joined from parts.
  source: {section: Labels}
  function: label
  parameters:
    - {name: size, type: choice, enum: Size, description: Size.}
    - name: mood
      type: choice
      enum: Mood
      members: [{name: CALM, label: Calm}, {name: ANGRY, label: Angry}]
      nullable: true
      default: null
      description: Mood.
  value: {type: text, title: Label}
  cases:
    - when: mood is null or mood not in ["Calm"]
      then:
        expr: 'text(size) + (" and " + text(mood) if mood is not null else " alone")'
    - when: "true"
      then: {expr: text(size)}
"""


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[ModuleType]:
    body = SIZE_TABLE + _formula("score", SCORE, PARAMETERS) + LABEL
    outputs = build(_write(tmp_path, body))
    files = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        yield importlib.import_module(f"{name}.lab")


def test_a_formula_and_a_decision_use_the_new_forms(lab: Any) -> None:
    assert lab.score(3, "Huge") == (9 + 2) + 4 + 1
    assert lab.score(-5, "Large") == (5 + 2) - 4
    assert lab.score(-5, "Small") == 5 - 4  # not in the list: abs(roll)
    assert lab.score(2, None) == 2 + 3  # narrowed: no lookup with a null size
    assert lab.score(3) == 3 + 4 + 1
    assert lab.label("Huge", "Angry") == "Huge and Angry"
    assert lab.label("Small", "Calm") == "Small"
    assert lab.label("Large") == "Large alone"
