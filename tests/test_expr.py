"""Tests for the formula expression language (compiler.expr)."""

from __future__ import annotations

import enum
import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.expr import (
    Binary,
    BoolLit,
    Call,
    Checked,
    Cond,
    ExprError,
    Interval,
    IntLit,
    Name,
    Node,
    Param,
    Rounding,
    StrLit,
    Unary,
    check,
    compile_formula,
    evaluate,
    names_used,
    parse,
    to_math,
    to_python,
    to_source,
)

TIMES = "\N{MULTIPLICATION SIGN}"
ROUNDINGS: tuple[Rounding, ...] = ("down", "up")

PARAMS = {
    "a": Param("a", "int", -6, 6),
    "b": Param("b", "int", 0, 9),
    "c": Param("c", "int"),
    "climb_bonus": Param("climb_bonus", "int"),
    "occupied_limbs": Param("occupied_limbs", "int", 0, 4),
    "p": Param("p", "int", 0, None),
    "q": Param("q", "int", 1, None),
    "n": Param("n", "int", None, -1),
    "flag": Param("flag", "bool"),
    "other": Param("other", "bool"),
    "limb": Param("limb", "choice", choices=("NONE", "ONE_ARM", "TWO_ARMS")),
}


class Limb(enum.Enum):
    NONE = "NONE"
    ONE_ARM = "ONE_ARM"
    TWO_ARMS = "TWO_ARMS"


# --- helpers building nodes (offsets do not take part in equality) ---


def lit(value: int) -> Node:
    return IntLit(value, 0, 0) if value >= 0 else Unary("-", IntLit(-value, 0, 0), 0, 0)


def var(name: str) -> Name:
    return Name(name, 0, 0)


def bop(op: str, left: Node, right: Node) -> Binary:
    return Binary(op, left, right, 0, 0)


def neg(operand: Node) -> Unary:
    return Unary("-", operand, 0, 0)


def not_(operand: Node) -> Unary:
    return Unary("not", operand, 0, 0)


def cond(body: Node, test: Node, orelse: Node) -> Cond:
    return Cond(body, test, orelse, 0, 0)


def call(func: str, *args: Node) -> Call:
    return Call(func, args, 0, 0)


def label(value: str) -> StrLit:
    return StrLit(value, 0, 0)


def py(node: Node, rounding: Rounding = "down") -> str:
    return to_python(
        node, name=lambda n: n, choice=lambda p, v: f"Limb.{v}", rounding=rounding
    )


def run_python(code: str, env: dict[str, Any]) -> Any:
    """Evaluate emitted Python (tests only), choices as Limb members."""
    scope = {k: Limb[v] if isinstance(v, str) else v for k, v in env.items()}
    scope["Limb"] = Limb
    return eval(code, {"__builtins__": {"min": min, "max": max}}, scope)


a, b, c = var("a"), var("b"), var("c")
flag, other = var("flag"), var("other")


# --- parsing ---


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("1 + 2 * 3", bop("+", lit(1), bop("*", lit(2), lit(3)))),
        ("(1 + 2) * 3", bop("*", bop("+", lit(1), lit(2)), lit(3))),
        ("a - b - c", bop("-", bop("-", a, b), c)),
        ("a - (b - c)", bop("-", a, bop("-", b, c))),
        ("a // b // c", bop("//", bop("//", a, b), c)),
        ("-a * b", bop("*", neg(a), b)),
        ("-(a * b)", neg(bop("*", a, b))),
        ("--a", neg(neg(a))),
        ("a * -b", bop("*", a, neg(b))),
        ("not flag and other", bop("and", not_(flag), other)),
        ("not not flag", not_(not_(flag))),
        ("flag or other and flag", bop("or", flag, bop("and", other, flag))),
        ("not a == b", not_(bop("==", a, b))),
        ("a + 1 <= b * 2", bop("<=", bop("+", a, lit(1)), bop("*", b, lit(2)))),
        ("a if flag else b", cond(a, flag, b)),
        ("a if flag else b if other else c", cond(a, flag, cond(b, other, c))),
        ("(a if flag else b) + 1", bop("+", cond(a, flag, b), lit(1))),
        (
            "a + 1 if flag or other else 2",
            cond(bop("+", a, lit(1)), bop("or", flag, other), lit(2)),
        ),
        ("min(a, b, 3)", call("min", a, b, lit(3))),
        ("clamp(a, 0, 40)", call("clamp", a, lit(0), lit(40))),
        ("max(a if flag else b, 1)", call("max", cond(a, flag, b), lit(1))),
        ('limb == "ONE_ARM"', bop("==", var("limb"), label("ONE_ARM"))),
        ("true != false", bop("!=", BoolLit(True, 0, 0), BoolLit(False, 0, 0))),
        ("0", lit(0)),
        ("\n  a\n  +\tb\n", bop("+", a, b)),
        ("if_ + elsewhere", bop("+", var("if_"), var("elsewhere"))),
    ],
)
def test_parse_tree(text: str, tree: Node) -> None:
    assert parse(text) == tree
    assert parse(to_source(parse(text))) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("(a)", "a"),
        ("((a + b)) * (c)", "(a + b) * c"),
        ("a+b*c", "a + b * c"),
        ("(a * b) + c", "a * b + c"),
        ("a - (b + c)", "a - (b + c)"),
        ("a * (b // c)", "a * (b // c)"),
        ("(a // b) * c", "a // b * c"),
        ("-(-a)", "-(-a)"),
        ("--a", "-(-a)"),
        ("a - -b", "a - (-b)"),
        ("-a // b", "-a // b"),
        ("(not flag) == other", "(not flag) == other"),
        ("not (flag == other)", "not flag == other"),
        ("(a < b) == (b < c)", "(a < b) == (b < c)"),
        ("(flag or other) and flag", "(flag or other) and flag"),
        ("flag or (other and flag)", "flag or other and flag"),
        ("(flag or other) or flag", "flag or other or flag"),
        ("flag or (other or flag)", "flag or (other or flag)"),
        ("(a if flag else b) if other else c", "(a if flag else b) if other else c"),
        (
            "a if (flag if other else flag) else b",
            "a if (flag if other else flag) else b",
        ),
        ("a if flag else (b if other else c)", "a if flag else b if other else c"),
        ("min((a if flag else b), (1))", "min(a if flag else b, 1)"),
        ('"NONE"  !=  limb', '"NONE" != limb'),
    ],
)
def test_to_source_minimal_parentheses(text: str, canonical: str) -> None:
    node = parse(text)
    assert to_source(node) == canonical
    assert parse(canonical) == node


def test_offsets_point_into_the_source() -> None:
    text = "1 + (a * 20) // max(b, 2)"
    node = parse(text)
    assert isinstance(node, Binary)
    assert (node.start, node.end) == (0, len(text))
    division = node.right
    assert isinstance(division, Binary) and division.op == "//"
    assert text[division.start : division.end] == "(a * 20) // max(b, 2)"
    assert text[division.left.start : division.left.end] == "(a * 20)"
    assert text[division.right.start : division.right.end] == "max(b, 2)"
    assert isinstance(division.left, Binary)
    assert text[division.left.right.start : division.left.right.end] == "20"


def test_nodes_are_frozen_and_compare_by_structure() -> None:
    first, second = parse("a+1"), parse("  a  +  1 ")
    assert first == second and hash(first) == hash(second)
    assert first.end != second.end
    with pytest.raises(AttributeError):
        first.start = 3  # type: ignore[misc]


# --- errors ---


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        ("", "empty formula", (0, 0), None),
        ("  \n ", "empty formula", (0, 4), None),
        ("climb + 1", "unknown name 'climb'", (0, 5), "did you mean 'climb_bonus'?"),
        ("occupied_limb", "unknown name", (0, 13), "known parameters: a, b, c,"),
        ("a / 2", "'/' is not an operator", (2, 3), "use '//'"),
        ("a + 007", "leading zeros are not allowed", (4, 7), "write 7"),
        ("00", "leading zeros", (0, 2), "write 0"),
        ("12abc", "invalid number '12abc'", (0, 5), None),
        ("1 < a < 3", "comparisons cannot be chained", (6, 7), "'and'"),
        ("a == b != c", "comparisons cannot be chained", (7, 9), None),
        ("a $ b", "unexpected '$'", (2, 3), None),
        ("a = b", "unexpected '='", (2, 3), "'=='"),
        ("a é b", "unexpected 'é'", (2, 3), None),
        ('limb == "ONE_ARM', "unterminated string literal", (8, 16), None),
        ('limb == "ONE\n" ', "unterminated string literal", (8, 12), None),
        ("a b", "unexpected 'b' after the end", (2, 3), "operator missing"),
        ("a + 1)", "unexpected ')' after the end", (5, 6), None),
        ("(a + 1", "expected ')'", (6, 6), None),
        ("a +", "expected a number, name or '('", (3, 3), None),
        ("a * * b", "found '*'", (4, 5), None),
        ("a if flag", "expected 'else'", (9, 9), None),
        ("mix(a, b)", "unknown function 'mix'", (0, 3), "did you mean 'min'?"),
        ("floor(a)", "unknown function 'floor'", (0, 5), "known functions: min"),
        ("min(a)", "min() takes at least 2 arguments, got 1", (0, 6), None),
        ("max()", "max() takes at least 2 arguments, got 0", (0, 5), None),
        ("clamp(a, 1)", "clamp() takes exactly 3 arguments, got 2", (0, 11), None),
        ("clamp(a, 1, 2, 3)", "exactly 3 arguments, got 4", (0, 17), None),
        ("10 // b", "division by zero possible: divisor may be 0", (6, 7), "0..9"),
        ("10 // 0", "division by zero possible", (6, 7), None),
        ("10 // (a + 6)", "division by zero possible", (6, 13), "0..12"),
        ("10 // c", "division by zero possible", (6, 7), "-inf..inf"),
        (
            'limb == "TWO_ARM"',
            "unknown choice 'TWO_ARM' for 'limb'",
            (8, 17),
            "TWO_ARMS",
        ),
        ('limb != "x"', "unknown choice", (8, 11), "valid choices: NONE, ONE_ARM"),
        ('limb < "NONE"', "needs == or !=", (0, 13), None),
        ("limb == 1", "choice parameter 'limb'", (0, 4), "valid choices"),
        ("limb + 1", "choice parameter 'limb'", (0, 4), None),
        ("limb == limb", "choice parameter 'limb'", (0, 4), None),
        ('"NONE" == 1', "a string label can only be compared", (0, 6), None),
        ('a == "NONE"', "a string label can only be compared", (5, 11), None),
        ("flag + 1", "cannot add bool and int", (0, 4), None),
        ("1 - (a < b)", "cannot subtract int and bool", (4, 11), None),
        ("a * true", "cannot multiply int and bool", (4, 8), None),
        ("flag // 2", "cannot divide bool and int", (0, 4), None),
        ("-flag", "cannot negate bool", (1, 5), None),
        ("not a", "'not' needs a bool operand, got int", (4, 5), None),
        ("flag and a", "'and' needs bool operands, got bool and int", (9, 10), None),
        ("a or flag", "'or' needs bool operands, got int and bool", (0, 1), None),
        ("flag < other", "cannot compare bool and bool with '<'", (0, 4), None),
        ("a == flag", "cannot compare int and bool with '=='", (0, 9), None),
        ("1 if a else 2", "condition of 'if' must be bool, got int", (5, 6), None),
        ("1 if flag else true", "different types: int and bool", (0, 19), None),
        ("min(a, flag)", "min() needs int arguments, got bool", (7, 11), None),
        ("clamp(a, 5, 2)", "clamp() lower bound (5..5) is above", (9, 13), None),
        ("clamp(a, b + 10, 9)", "clamp() lower bound", (9, 18), None),
    ],
)
def test_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    with pytest.raises(ExprError) as info:
        compile_formula(text, PARAMS)
    error = info.value
    assert message in error.message
    assert str(error) == error.message
    assert (error.start, error.end) == span
    assert 0 <= error.start <= error.end <= len(text)
    if hint is not None:
        assert error.hint is not None and hint in error.hint


def test_unknown_name_without_parameters() -> None:
    with pytest.raises(ExprError) as info:
        compile_formula("x", {})
    assert info.value.hint == "no known parameters"


def test_parse_alone_accepts_ill_typed_formulas() -> None:
    assert parse("flag + unknown") == bop("+", flag, var("unknown"))


# --- intervals ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "clamp(max(10 + 5 * climb_bonus, 5) - 10 * occupied_limbs, 0, 40)",
            Interval(0, 40),
        ),
        ("max(10 + 5 * c, 5)", Interval(5, None)),
        ("min(10 + 5 * c, 5)", Interval(None, 5)),
        ("min(a, c)", Interval(None, 6)),
        ("max(a, b, 3)", Interval(3, 9)),
        ("clamp(c, 0, 40)", Interval(0, 40)),
        ("clamp(a, 0, 40)", Interval(0, 6)),
        ("clamp(c, b, 20)", Interval(0, 20)),
        ("a + b", Interval(-6, 15)),
        ("a - b", Interval(-15, 6)),
        ("-a + 1", Interval(-5, 7)),
        ("-n", Interval(1, None)),
        ("a * b", Interval(-54, 54)),
        ("b * b", Interval(0, 81)),
        ("a * -3", Interval(-18, 18)),
        ("c * 0", Interval(0, 0)),
        ("0 * c", Interval(0, 0)),
        ("c * 2", Interval(None, None)),
        ("p * 3", Interval(0, None)),
        ("p * b", Interval(0, None)),
        ("p * a", Interval(None, None)),
        ("p * n", Interval(None, 0)),
        ("n * n", Interval(1, None)),
        ("p + q", Interval(1, None)),
        ("p - q", Interval(None, None)),
        ("a // 4", Interval(-2, 2)),
        ("b // 2", Interval(0, 5)),
        ("10 // (b + 1)", Interval(1, 10)),
        ("a // -2", Interval(-3, 3)),
        ("c // 2", Interval(None, None)),
        ("p // 2", Interval(0, None)),
        ("5 // q", Interval(0, 5)),
        ("-5 // q", Interval(-5, 0)),
        ("p // q", Interval(0, None)),
        ("a // q", Interval(-6, 6)),
        ("c // q", Interval(None, None)),
        ("p // n", Interval(None, 0)),
        ("a if flag else b + 20", Interval(-6, 29)),
        ("a if flag else c", Interval(None, None)),
        ("7", Interval(7, 7)),
    ],
)
def test_intervals(text: str, expected: Interval) -> None:
    checked = compile_formula(text, PARAMS)
    assert checked == Checked(checked.node, "int", expected)


@pytest.mark.parametrize("text", ["flag", "a < b", 'limb != "NONE" or flag', "true"])
def test_bool_formulas_have_no_interval(text: str) -> None:
    checked = check(parse(text), PARAMS)
    assert (checked.type, checked.interval) == ("bool", None)


def test_interval_helpers() -> None:
    assert str(Interval(0, 40)) == "0..40"
    assert str(Interval(None, 5)) == "-inf..5"
    assert str(Interval(-3, None)) == "-3..inf"
    assert Interval(0, 4).bounded and not Interval(0, None).bounded
    assert Interval(None, 0).contains(-(10**30)) and not Interval(None, 0).contains(1)


def test_huge_bounds_stay_exact() -> None:
    big = 10**400
    params = {"x": Param("x", "int", -big, big), "y": Param("y", "int", 3, None)}
    assert compile_formula("x * x", params).interval == Interval(-(big**2), big**2)
    assert compile_formula("x // 3", params).interval == Interval(
        -big // 3, -(-big // 3)
    )
    assert compile_formula("x * y", params).interval == Interval(None, None)


# --- emission ---


@pytest.mark.parametrize(
    ("text", "down", "up"),
    [
        ("a // b", "a // b", "-(-a // b)"),
        ("a // (b * c)", "a // (b * c)", "-(-a // (b * c))"),
        ("(a + 1) // 2", "(a + 1) // 2", "-(-(a + 1) // 2)"),
        ("a // 2 * 3", "a // 2 * 3", "-(-a // 2) * 3"),
        ("3 * (a // 2)", "3 * (a // 2)", "3 * (-(-a // 2))"),
        ("-(a // 2)", "-(a // 2)", "-(-(-a // 2))"),
        ("1 - a // 2", "1 - a // 2", "1 - (-(-a // 2))"),
        ("-a // 2", "-a // 2", "-(-(-a) // 2)"),
        ("a // 2 // 3", "a // 2 // 3", "-(-(-(-a // 2)) // 3)"),
        ("a - (b - c)", "a - (b - c)", None),
        ("-(a + b)", "-(a + b)", None),
        ("-(-a)", "-(-a)", None),
        ("(a if flag else b) + 1", "(a if flag else b) + 1", None),
        ("true and not false", "True and not False", None),
        ('limb == "ONE_ARM"', "limb is Limb.ONE_ARM", None),
        ('"NONE" != limb', "Limb.NONE is not limb", None),
        ('not limb == "NONE"', "not limb is Limb.NONE", None),
        ("clamp(a + 1, 0, b)", "min(max(a + 1, 0), b)", None),
        ("clamp(a if flag else 0, 0, 1)", "min(max(a if flag else 0, 0), 1)", None),
        ("(a < b) == flag", "(a < b) == flag", None),
        ("a if flag else b if other else c", "a if flag else b if other else c", None),
    ],
)
def test_to_python(text: str, down: str, up: str | None) -> None:
    node = parse(text)
    assert py(node, "down") == down
    assert py(node, "up") == (up or down)


def test_to_python_uses_the_name_callback() -> None:
    node = parse('a + b if limb == "NONE" else 0')
    text = to_python(
        node,
        name=lambda n: f"self.{n}",
        choice=lambda p, v: f"{p.title()}.{v}",
        rounding="down",
    )
    assert text == "self.a + self.b if self.limb is Limb.NONE else 0"


def test_to_python_rejects_a_stray_label() -> None:
    with pytest.raises(ValueError):
        py(parse('"NONE" + 1'))


@pytest.mark.parametrize(
    ("text", "down", "up"),
    [
        ("a // b", "⌊a ÷ b⌋", "⌈a ÷ b⌉"),
        (
            "(a + 1) // (b * 2)",
            f"⌊(a + 1) ÷ (b {TIMES} 2)⌋",
            f"⌈(a + 1) ÷ (b {TIMES} 2)⌉",
        ),
        ("a // b * c", f"⌊a ÷ b⌋ {TIMES} c", f"⌈a ÷ b⌉ {TIMES} c"),
        ("a // b // c", "⌊⌊a ÷ b⌋ ÷ c⌋", "⌈⌈a ÷ b⌉ ÷ c⌉"),
        ("a * -b - 1", f"a {TIMES} (-b) - 1", None),
        ("a <= b and b >= c", "a ≤ b and b ≥ c", None),
        ("a == b or a != c", "a = b or a ≠ c", None),
        ('limb == "ONE_ARM"', 'limb = "ONE_ARM"', None),
        ("not flag", "not flag", None),
        ("a if flag else b", "a if flag else b", None),
        ("clamp(a, 0, 40)", "clamp(a, 0, 40)", None),
        ("min(a, max(b, 1))", "min(a, max(b, 1))", None),
        ("true or false", "true or false", None),
        (
            "clamp(max(10 + 5 * climb_bonus, 5) - 10 * occupied_limbs, 0, 40)",
            f"clamp(max(10 + 5 {TIMES} climb_bonus, 5)"
            f" - 10 {TIMES} occupied_limbs, 0, 40)",
            None,
        ),
    ],
)
def test_to_math(text: str, down: str, up: str | None) -> None:
    node = parse(text)
    assert to_math(node, rounding="down") == down
    assert to_math(node, rounding="up") == (up or down)
    assert "\N{MINUS SIGN}" not in down  # ASCII minus only


def test_to_math_never_contains_a_backtick() -> None:
    params = {"k": Param("k", "choice", choices=("a`b",))}
    node = compile_formula('k == "a`b"', params).node
    assert "`" not in to_math(node, rounding="down")


@pytest.mark.parametrize(
    ("text", "down", "up"),
    [
        ("7 // 2", 3, 4),
        ("-7 // 2", -4, -3),
        ("7 // -2", -4, -3),
        ("-8 // 2", -4, -4),
        ("0 // 5", 0, 0),
        ("a // 4 + 1", 2, 3),
    ],
)
def test_division_rounding(text: str, down: int, up: int) -> None:
    node = parse(text)
    env = {"a": 5}
    assert evaluate(node, env, rounding="down") == down
    assert evaluate(node, env, rounding="up") == up
    assert run_python(py(node, "down"), env) == down
    assert run_python(py(node, "up"), env) == up


def test_evaluate() -> None:
    env: dict[str, int | bool | str] = {"a": 3, "b": 4, "flag": False, "limb": "NONE"}
    assert evaluate(parse("clamp(a * b, 0, 10)"), env, rounding="down") == 10
    assert evaluate(parse("min(a, b, 2) + max(a, b)"), env, rounding="down") == 6
    assert evaluate(parse('limb == "NONE" and not flag'), env, rounding="down") is True
    assert evaluate(parse("a if flag else -b"), env, rounding="down") == -4
    assert evaluate(parse("flag or a < b"), env, rounding="down") is True
    assert evaluate(parse("a == 3 and b != 4"), env, rounding="down") is False
    with pytest.raises(TypeError):
        evaluate(parse('"NONE"'), env, rounding="down")


def test_names_used() -> None:
    node = parse('clamp(a + b, 0, c) if limb == "NONE" or flag else min(a, 2)')
    assert names_used(node) == frozenset({"a", "b", "c", "limb", "flag"})
    assert names_used(parse("1 + 2")) == frozenset()


# --- property tests ---

INT_NAMES = ("a", "b")
LABELS = ("NONE", "ONE_ARM", "TWO_ARMS")


@functools.cache
def int_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(st.integers(0, 12).map(lit), st.sampled_from(INT_NAMES).map(var))
    if depth == 0:
        return leaf
    sub, test = int_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(
        leaf,
        sub.map(neg),
        st.builds(bop, st.sampled_from(["+", "-", "*"]), sub, sub),
        st.builds(lambda x, d: bop("//", x, d), sub, divisors(depth - 1)),
        st.builds(
            lambda func, args: call(func, *args),
            st.sampled_from(["min", "max"]),
            st.lists(sub, min_size=2, max_size=4),
        ),
        st.builds(
            lambda x, lo, width: call("clamp", x, lit(lo), lit(lo + width)),
            sub,
            st.integers(-5, 5),
            st.integers(0, 10),
        ),
        st.builds(cond, sub, test, sub),
    )


@functools.cache
def divisors(depth: int) -> st.SearchStrategy[Node]:
    return st.one_of(
        st.integers(1, 7).map(lit),
        st.integers(1, 7).map(lambda v: neg(lit(v))),
        st.just(bop("+", var("b"), lit(1))),
        int_trees(depth).map(lambda x: call("max", x, lit(1))),
        int_trees(depth).map(lambda x: call("clamp", x, lit(-9), lit(-2))),
    )


LABEL = st.sampled_from(LABELS)


def choice_test(op: str, value: str, label_first: bool) -> Node:
    sides = (label(value), var("limb"))
    return bop(op, *(sides if label_first else sides[::-1]))


@functools.cache
def bool_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(
        st.booleans().map(lambda v: BoolLit(v, 0, 0)),
        st.just(var("flag")),
        st.builds(choice_test, st.sampled_from(["==", "!="]), LABEL, st.booleans()),
    )
    if depth == 0:
        return leaf
    sub, num = bool_trees(depth - 1), int_trees(depth - 1)
    return st.one_of(
        leaf,
        sub.map(not_),
        st.builds(bop, st.sampled_from(["and", "or"]), sub, sub),
        st.builds(bop, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), num, num),
        st.builds(bop, st.sampled_from(["==", "!="]), sub, sub),
        st.builds(cond, sub, sub, sub),
    )


def render(node: Node) -> str:
    """Fully parenthesised source text, independent of to_source."""
    match node:
        case IntLit() | Name():
            return str(node.value if isinstance(node, IntLit) else node.name)
        case BoolLit():
            return "true" if node.value else "false"
        case StrLit():
            return f'"{node.value}"'
        case Unary():
            return f"({node.op} {render(node.operand)})"
        case Binary():
            return f"({render(node.left)} {node.op} {render(node.right)})"
        case Cond():
            parts = (render(node.body), render(node.test), render(node.orelse))
            return "({} if {} else {})".format(*parts)
        case Call():
            return f"{node.func}({', '.join(render(arg) for arg in node.args)})"
    raise AssertionError(node)


ENVS = st.fixed_dictionaries(
    {
        "a": st.integers(-6, 6),
        "b": st.integers(0, 9),
        "flag": st.booleans(),
        "limb": st.sampled_from(LABELS),
    }
)


@settings(max_examples=200, deadline=None)
@given(tree=st.one_of(int_trees(3), bool_trees(3)), env=ENVS)
def test_random_formulas_agree_everywhere(tree: Node, env: dict[str, Any]) -> None:
    text = render(tree)
    node = parse(text)
    assert node == tree
    assert parse(to_source(node)) == tree
    assert to_source(parse(to_source(node))) == to_source(node)
    checked = check(node, PARAMS)
    assert names_used(node) <= set(PARAMS)
    for rounding in ROUNDINGS:
        expected = evaluate(node, env, rounding=rounding)
        assert run_python(py(node, rounding), env) == expected
        if checked.type == "int":
            assert checked.interval is not None
            assert type(expected) is int and checked.interval.contains(expected)
            assert checked.interval.bounded
        else:
            assert type(expected) is bool


@st.composite
def ranged(draw: st.DrawFn, name: str) -> tuple[Param, int]:
    """An int parameter with random (maybe unbounded) ends, and a value in it."""
    value = draw(st.integers(-40, 40) | st.integers(-(10**6), 10**6))
    below, above = st.none() | st.integers(0, 30), st.none() | st.integers(0, 30)
    lo, hi = draw(below), draw(above)
    lo = None if lo is None else value - lo
    return Param(name, "int", lo, None if hi is None else value + hi), value


FORMULAS = [
    "x + y",
    "x - y",
    "x * y",
    "-x * y",
    "x * x",
    "x // y",
    "(x + 3) // y",
    "min(x, y)",
    "max(x, y, 3)",
    "clamp(x, y, 5)",
    "clamp(y, -3, x)",
    "x if x < y else y * 2",
]


@settings(max_examples=200, deadline=None)
@given(
    x=ranged("x"),
    y=ranged("y"),
    formula=st.sampled_from(FORMULAS),
    rounding=st.sampled_from(ROUNDINGS),
)
def test_intervals_are_sound(
    x: tuple[Param, int], y: tuple[Param, int], formula: str, rounding: Rounding
) -> None:
    try:
        checked = compile_formula(formula, {"x": x[0], "y": y[0]})
    except ExprError as error:  # a divisor or clamp bounds that may be wrong
        assert "division" in error.message or "clamp" in error.message
        return
    env = {"x": x[1], "y": y[1]}
    value = evaluate(checked.node, env, rounding=rounding)
    assert checked.interval is not None
    assert checked.interval.contains(value), (formula, x, y, checked.interval)
