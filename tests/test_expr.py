"""Tests for the formula expression language (compiler.lang.expr)."""

from __future__ import annotations

import enum
import functools
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.emit.expr import to_python
from rulesc.lang.expr import (
    Attr,
    Binary,
    BoolLit,
    Call,
    Checked,
    Cond,
    ExprError,
    Field,
    Index,
    Interval,
    IntLit,
    Name,
    Node,
    NullLit,
    Param,
    Rounding,
    StrLit,
    Table,
    Unary,
    check,
    compile_formula,
    evaluate,
    fits,
    names_used,
    parse,
    tables_used,
    to_source,
)
from rulesc.lang.nodes import walk
from rulesc.workbench.math import to_math

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


class Cover(enum.Enum):
    NONE = "NONE"
    HALF = "HALF"
    FULL = "FULL"


class Location(enum.Enum):  # labels differ from member names
    HULL = "hull"
    DECK = "deck"
    VACUUM = "vacuum"


class Exposure(enum.Enum):
    OPEN = "open"
    COVERED = "covered"
    SEALED = "sealed"


# A decision's world: PARAMS and more, and two tables to look rows up in.
LIMBS = ("NONE", "ONE_ARM", "TWO_ARMS")
COVERS = ("NONE", "HALF", "FULL")
LOCATIONS = ("hull", "deck", "vacuum")
EXPOSURES = ("open", "covered", "sealed")
COVER_FIELDS = {
    "cover_ac": Field("int", min=0, max=4),
    "stealth": Field("int", nullable=True, min=-2, max=5),
    "reason": Field("text"),
    "note": Field("text", nullable=True),
    "blocks": Field("bool"),
    "hides": Field("bool", nullable=True),
    "worse": Field("choice", nullable=True, choices=COVERS, enum="Cover"),
    "limb": Field("choice", choices=LIMBS, enum="Limb"),
}
TABLES = {
    "cover": Table("cover", "Cover", COVERS, COVER_FIELDS),
    "gear": Table("gear", "Limb", LIMBS, {"weight": Field("int", min=0, max=9)}),
}
DPARAMS = {
    **PARAMS,
    "level": Param("level", "choice", choices=COVERS, enum="Cover"),
    "other_level": Param("other_level", "choice", choices=COVERS, enum="Cover"),
    "arm": Param("arm", "choice", choices=LIMBS, enum="Limb"),
    "free": Param("free", "choice", choices=COVERS),  # no enum: known by labels
    "bonus": Param("bonus", "int", 0, 3, nullable=True),
    "maybe": Param("maybe", "bool", nullable=True),
    "maybe_level": Param(
        "maybe_level", "choice", choices=COVERS, enum="Cover", nullable=True
    ),
    "where": Param("where", "choice", choices=LOCATIONS, enum="Location"),
    "maybe_where": Param(
        "maybe_where", "choice", choices=LOCATIONS, enum="Location", nullable=True
    ),
    # mappings: exposure[where] == "covered", shield[level] ?? 0
    "exposure": Param(
        "exposure",
        "mapping",
        key_enum="Location",
        key_labels=LOCATIONS,
        value=Field("choice", choices=EXPOSURES, enum="Exposure"),
    ),
    "shield": Param(
        "shield",
        "mapping",
        key_enum="Cover",
        key_labels=COVERS,
        value=Field("int", nullable=True, min=0, max=3),
    ),
    "cover_at": Param(
        "cover_at",
        "mapping",
        key_enum="Location",
        key_labels=LOCATIONS,
        value=Field("choice", choices=COVERS, enum="Cover"),
    ),
}
ENUMS: dict[str, type[enum.Enum]] = {
    "Cover": Cover,
    "Limb": Limb,
    "Location": Location,
    "Exposure": Exposure,
}
PARAM_ENUMS: dict[str, type[enum.Enum]] = {
    "limb": Limb,
    "level": Cover,
    "other_level": Cover,
    "arm": Limb,
    "free": Cover,
    "maybe_level": Cover,
    "where": Location,
    "maybe_where": Location,
}
# A mapping parameter's key enum and (for choices) value enum.
MAPPING_ENUMS: dict[str, tuple[type[enum.Enum], type[enum.Enum] | None]] = {
    "exposure": (Location, Exposure),
    "shield": (Cover, None),
    "cover_at": (Location, Cover),
}
Rows = dict[str, dict[str, dict[str, object]]]
ROWS: Rows = {
    "cover": {
        "NONE": {
            **{"cover_ac": 0, "stealth": None, "reason": "open", "note": None},
            **{"blocks": False, "hides": None, "worse": None, "limb": "NONE"},
        },
        "HALF": {
            **{"cover_ac": 2, "stealth": 1, "reason": "half", "note": "low wall"},
            **{"blocks": False, "hides": False, "worse": "NONE", "limb": "ONE_ARM"},
        },
        "FULL": {
            **{"cover_ac": 4, "stealth": 5, "reason": "full", "note": None},
            **{"blocks": True, "hides": True, "worse": "HALF", "limb": "TWO_ARMS"},
        },
    },
    "gear": {
        "NONE": {"weight": 0},
        "ONE_ARM": {"weight": 3},
        "TWO_ARMS": {"weight": 9},
    },
}


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


def row(table: str, key: Node, field: str) -> Attr:
    return Attr(Call(table, (key,), 0, 0), field, 0, 0)


def index(mapping: str, key: Node) -> Index:
    return Index(var(mapping), key, 0, 0)


NULL = NullLit(0, 0)


def py(node: Node, rounding: Rounding = "down") -> str:
    return to_python(
        node, name=lambda n: n, choice=lambda p, v: f"Limb.{v}", rounding=rounding
    )


def run_python(code: str, env: dict[str, Any]) -> Any:
    """Evaluate emitted Python (tests only), choices as Limb members."""
    scope = {k: Limb[v] if isinstance(v, str) else v for k, v in env.items()}
    scope["Limb"] = Limb
    return eval(code, {"__builtins__": {"min": min, "max": max}}, scope)


def dcheck(text: str) -> Checked:
    return compile_formula(text, DPARAMS, tables=TABLES)


def member(enum_class: type[enum.Enum], label: str) -> str:
    """Python text naming the enum member of a label."""
    return f"{enum_class.__name__}.{enum_class(label).name}"


def dpy(node: Node, rounding: Rounding = "down") -> str:
    return to_python(
        node,
        name=lambda n: n,
        choice=lambda p, v: member(PARAM_ENUMS[p], v),
        rounding=rounding,
        lookup=lambda table, key: f"_{table.upper()}_ROWS[{key}]",
        label=lambda enum_name, v: member(ENUMS[enum_name], v),
    )


def python_rows(tables: Rows) -> dict[str, Any]:
    """The rows as generated code would hold them: objects by enum member."""
    scope: dict[str, Any] = {}
    for name, rows in tables.items():
        table = TABLES[name]
        by_member: dict[enum.Enum, SimpleNamespace] = {}
        for key, values in rows.items():
            fields = {}
            for field, value in values.items():
                enum_name = table.fields[field].enum
                if enum_name is not None and isinstance(value, str):
                    value = ENUMS[enum_name](value)
                fields[field] = value
            by_member[ENUMS[table.key_enum](key)] = SimpleNamespace(**fields)
        scope[f"_{name.upper()}_ROWS"] = by_member
    return scope


def run_decision(code: str, env: dict[str, Any], tables: Rows) -> Any:
    """Run emitted Python in a function body, as generated code does (tests only).

    Choices come back as their labels, like evaluate() gives them.
    """
    scope: dict[str, Any] = {"__builtins__": {"min": min, "max": max}}
    scope |= ENUMS | python_rows(tables)
    for name, value in env.items():
        choice = name in PARAM_ENUMS and value is not None
        scope[name] = PARAM_ENUMS[name](value) if choice else value
        if name in MAPPING_ENUMS:  # a mapping: by key member, to a member
            keys, values = MAPPING_ENUMS[name]
            scope[name] = {
                keys(k): v if values is None or v is None else values(v)
                for k, v in value.items()
            }
    exec(f"def _formula():\n    return {code}\n", scope)
    result = scope["_formula"]()
    return result.value if isinstance(result, enum.Enum) else result


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
        ("null", NULL),
        ("nullable", var("nullable")),
        ('"a reason"', label("a reason")),
        ("a ?? b ?? c", bop("??", bop("??", a, b), c)),
        ("a ?? (b ?? c)", bop("??", a, bop("??", b, c))),
        ("a ?? b if flag else c", cond(bop("??", a, b), flag, c)),
        ("a if flag ?? other else c", cond(a, bop("??", flag, other), c)),
        ("a if flag else b ?? c", cond(a, flag, bop("??", b, c))),
        ("flag or other ?? flag", bop("??", bop("or", flag, other), flag)),
        ("a + 1 ?? -b", bop("??", bop("+", a, lit(1)), neg(b))),
        ("a == null", bop("==", a, NULL)),
        ("cover(level).cover_ac", row("cover", var("level"), "cover_ac")),
        ('cover("HALF").note', row("cover", label("HALF"), "note")),
        ("-cover(level).stealth", neg(row("cover", var("level"), "stealth"))),
        ("(a).x", Attr(a, "x", 0, 0)),
        ("(a + 1).x.y", Attr(Attr(bop("+", a, lit(1)), "x", 0, 0), "y", 0, 0)),
        ("t(u(v).w).x", row("t", row("u", var("v"), "w"), "x")),
        ("f(a, b)", call("f", a, b)),
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
        ("flag or other and flag", "flag or (other and flag)"),
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
        ("(a ?? b) ?? c", "a ?? b ?? c"),
        ("a ?? (b ?? c)", "a ?? (b ?? c)"),
        ("(a ?? b) if flag else c", "a ?? b if flag else c"),
        ("a ?? (b if flag else c)", "a ?? (b if flag else c)"),
        ("(a if flag else b) ?? c", "(a if flag else b) ?? c"),
        ("(flag or other) ?? flag", "flag or other ?? flag"),
        ("a ?? (flag or other)", "a ?? flag or other"),
        ("x ?? -1", "x ?? -1"),
        ("(cover(level)).x", "cover(level).x"),
        ("(-1).x", "(-1).x"),
        ("-(x.y)", "-x.y"),
        ("(null)", "null"),
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
        ("a / 2", "'/' divides exactly", (0, 5), "round(a / 2) (half up)"),
        ("1 + a / 2 * 3", "'/' divides exactly", (4, 9), "floor(a / 2)"),
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
        ("flor(a)", "unknown function 'flor'", (0, 4), "did you mean 'floor'?"),
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
        ("limb == 1", "cannot compare choice and int with '=='", (0, 9), "choices"),
        ("limb + 1", "cannot add choice and int", (0, 4), 'limb == "NONE"'),
        ("-limb", "cannot negate choice", (1, 5), "valid choices: NONE, ONE"),
        ('"NONE" == 1', "cannot compare text and int with '=='", (0, 11), None),
        ('a == "NONE"', "cannot compare int and text with '=='", (0, 11), None),
        ('"NONE" + 1', "cannot join text and int", (9, 10), "text(1)"),
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
        # min, max and clamp are inline comparisons, each operand evaluated once
        (
            "clamp(a + 1, 0, b)",
            "_t2 if (_t2 := (_t1 if (_t1 := a + 1) > 0 else 0)) < b else b",
            None,
        ),
        (
            "clamp(a if flag else 0, 0, 1)",
            "_t2 if (_t2 := (_t1 if (_t1 := a if flag else 0) > 0 else 0)) < 1 else 1",
            None,
        ),
        ("min(a, b, 3)", "_t1 if (_t1 := (a if a < b else b)) < 3 else 3", None),
        ("max(a, -2)", "a if a > -2 else -2", None),
        ("min(a, max(b, 1))", "a if a < (_t1 := b if b > 1 else 1) else _t1", None),
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


def test_to_python_needs_a_way_to_name_a_label() -> None:
    node = compile_formula('limb == "NONE"', PARAMS).node
    with pytest.raises(ValueError, match="no choice emitter"):
        to_python(node, name=str, rounding="down")


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


@pytest.mark.parametrize(
    "text",
    [
        "clamp(a + 1, 0, b)",
        "min(a, b, 3)",
        "max(a, -2) - min(b * 2, a)",
        "min(a, max(b, 1)) + clamp(max(10 + 5 * a, 5) - 10 * b, 0, 40)",
        "max(a if flag else b, c, a - b)",
    ],
)
def test_inline_extremes_answer_as_the_builtins(text: str) -> None:
    node = parse(text)
    code = py(node)
    assert "min(" not in code and "max(" not in code
    for a_, b_, c_ in [
        (x, y, z) for x in (-3, 0, 2, 7) for y in (-1, 0, 5) for z in (0, 4)
    ]:
        env = {"a": a_, "b": b_, "c": c_, "flag": a_ > 0}
        assert run_python(code, env) == evaluate(node, env, rounding="down")


def test_evaluate() -> None:
    env: dict[str, int | bool | str] = {"a": 3, "b": 4, "flag": False, "limb": "NONE"}
    assert evaluate(parse("clamp(a * b, 0, 10)"), env, rounding="down") == 10
    assert evaluate(parse("min(a, b, 2) + max(a, b)"), env, rounding="down") == 6
    assert evaluate(parse('limb == "NONE" and not flag'), env, rounding="down") is True
    assert evaluate(parse("a if flag else -b"), env, rounding="down") == -4
    assert evaluate(parse("flag or a < b"), env, rounding="down") is True
    assert evaluate(parse("a == 3 and b != 4"), env, rounding="down") is False
    assert evaluate(parse('"NONE"'), env, rounding="down") == "NONE"
    assert evaluate(parse("limb"), env, rounding="down") == "NONE"


def test_names_used() -> None:
    node = parse('clamp(a + b, 0, c) if limb == "NONE" or flag else min(a, 2)')
    assert names_used(node) == frozenset({"a", "b", "c", "limb", "flag"})
    assert names_used(parse("1 + 2")) == frozenset()


# --- decisions: text, null, table lookups ---


def test_lookup_offsets_point_into_the_source() -> None:
    text = "1 + cover( level ).cover_ac ?? x"
    node = parse(text)
    assert isinstance(node, Binary) and isinstance(node.left, Binary)
    lookup = node.left.right
    assert isinstance(lookup, Attr) and isinstance(lookup.obj, Call)
    assert text[lookup.start : lookup.end] == "cover( level ).cover_ac"
    assert text[lookup.obj.start : lookup.obj.end] == "cover( level )"
    assert (node.start, node.end) == (0, len(text))


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        ("a ? b", "unexpected '?'", (2, 3), "use '??'"),
        ("1.5 + a", "decimal numbers are not allowed: '1.5'", (0, 3), "whole"),
        ("a.", "expected a field name after '.', found end of formula", (2, 2), None),
        ("a.1", "expected a field name after '.', found '1'", (2, 3), None),
        ("a ??", "expected a number, name or '('", (4, 4), None),
        ("?? a", "expected a number, name or '(' but found '??'", (0, 2), None),
        ("a null", "unexpected 'null' after the end", (2, 6), "operator missing"),
    ],
)
def test_syntax_errors_of_the_extension(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    with pytest.raises(ExprError) as info:
        parse(text)
    assert message in info.value.message
    assert (info.value.start, info.value.end) == span
    if hint is not None:
        assert info.value.hint is not None and hint in info.value.hint


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        # table lookups
        (
            "cover(level)",
            "use a field of the row, e.g. cover(level).cover_ac",
            (0, 12),
            None,
        ),
        ('cover("HALF") == null', 'e.g. cover("HALF").cover_ac', (0, 13), None),
        (
            "cover(level).armor",
            "unknown field 'armor' of cover()",
            (13, 18),
            "fields: cover_ac, stealth",
        ),
        (
            "cover(level).stelth",
            "unknown field 'stelth'",
            (13, 19),
            "did you mean 'stealth'?",
        ),
        (
            "cover(levl).cover_ac",
            "unknown name 'levl'",
            (6, 10),
            "did you mean 'level'?",
        ),
        (
            'cover("HALX").cover_ac',
            "unknown key 'HALX' for cover()",
            (6, 12),
            "did you mean 'HALF'? valid keys: NONE, HALF, FULL",
        ),
        (
            "cover(arm).cover_ac",
            "cover() needs a Cover key, got a choice of Limb",
            (6, 9),
            "labels: NONE, HALF, FULL",
        ),
        (
            "cover(limb).cover_ac",
            "got a choice of (NONE, ONE_ARM, TWO_ARMS)",
            (6, 10),
            None,
        ),
        ("cover(a).cover_ac", "cover() needs a Cover key, got int", (6, 7), None),
        ("cover(a ?? 1).cover_ac", "'a' is never null", (6, 7), None),
        (
            "cover(level, 1).cover_ac",
            "cover() takes exactly 1 argument (a Cover key), got 2",
            (0, 15),
            None,
        ),
        ("cover().cover_ac", "takes exactly 1 argument", (0, 7), None),
        (
            "cover(cover(level).worse).cover_ac + 1",
            "cannot add int? and int",
            (0, 34),
            "'cover(cover(level).worse).cover_ac' may be null: give a default",
        ),
        (
            "cover(maybe_level).cover_ac < 2",
            "cannot compare int? and int with '<'",
            (0, 27),
            "may be null",
        ),
        (
            "cover(maybe_where).cover_ac",
            "cover() needs a Cover key, got a choice of Location",
            (6, 17),
            "labels: NONE, HALF, FULL",
        ),
        ("cover(null).cover_ac", "cover() needs a Cover key, got null", (6, 10), None),
        ("cover(bonus).cover_ac", "cover() needs a Cover key, got int?", (6, 11), None),
        (
            "covr(level).cover_ac",
            "unknown function 'covr'",
            (0, 4),
            "did you mean 'cover'? known functions and tables: min, max, clamp, abs, floor, ceil, round, len, sum, any, all, text, sorted, count, tally, roll, reversed, cover",
        ),
        (
            "cover + 1",
            "'cover' is a table, not a value",
            (0, 5),
            "cover(level).cover_ac",
        ),
        ("cover.cover_ac", "'cover' is a table", (0, 5), None),
        (
            "a.x",
            "'a' is int, not a table row: it has no fields",
            (0, 1),
            "only a table lookup has fields, e.g. cover(level).cover_ac",
        ),
        (
            "cover(level).cover_ac.x",
            "'cover(level).cover_ac' is int, not a table",
            (0, 21),
            None,
        ),
        ("(flag).x", "'flag' is bool", (0, 6), None),
        ("min(a, 1).x", "'min(a, 1)' is int", (0, 9), None),
        ("mix(a, 1).x", "unknown function 'mix'", (0, 3), "did you mean 'min'?"),
        ("a(level)", "'a' is a parameter, not a function or table", (0, 1), None),
        # null and nullable operands
        (
            "cover(level).stealth + 1",
            "cannot add int? and int",
            (0, 20),
            "'cover(level).stealth' may be null: give a default with ??",
        ),
        ("1 * bonus", "cannot multiply int and int?", (4, 9), "may be null"),
        (
            "cover(level).stealth < 3",
            "cannot compare int? and int with '<'",
            (0, 20),
            "may be null",
        ),
        ("-bonus", "cannot negate int?", (1, 6), "may be null"),
        ("not maybe", "'not' needs a bool operand, got bool?", (4, 9), "may be null"),
        (
            "flag and cover(level).hides",
            "'and' needs bool operands, got bool and bool?",
            (9, 27),
            "may be null",
        ),
        ("maybe or flag", "'or' needs bool operands, got bool? and bool", (0, 5), None),
        (
            "1 if maybe else 2",
            "condition of 'if' must be bool, got bool?",
            (5, 10),
            "may be null",
        ),
        ("min(a, bonus)", "min() needs int arguments, got int?", (7, 12), None),
        ("clamp(bonus, 0, 1)", "clamp() needs int arguments", (6, 11), None),
        ("null + 1", "cannot add null and int", (0, 4), None),
        ("null < 1", "cannot compare null and int with '<'", (0, 4), None),
        ("a < null", "cannot compare int and null with '<'", (4, 8), None),
        ("bonus > null", "cannot compare int? and null", (0, 5), "may be null"),
        ("a ?? 1", "'a' is never null: '??' has no effect", (0, 1), "remove"),
        ("(a + 1) ?? 1", "'a + 1' is never null", (0, 7), None),
        ("bonus ?? 1 ?? 2", "'bonus ?? 1' is never null", (0, 10), None),
        (
            "bonus ?? true",
            "the sides of '??' have different types: int and bool",
            (0, 13),
            None,
        ),
        ("cover(level).note ?? 1", "different types: text and int", (0, 22), None),
        (
            "cover(level).worse ?? arm",
            "the sides of '??' are choices of different enums: Cover and Limb",
            (0, 25),
            None,
        ),
        ("a == null", "'a' is never null", (0, 1), "only a value that may be null"),
        ("null != 1", "'1' is never null", (8, 9), None),
        ('"x" == null', "'\"x\"' is never null", (0, 3), None),
        ("level == null", "'level' is never null", (0, 5), None),
        ("1 if flag else true ?? 2", "'true' is never null", (15, 19), None),
        # texts and choices
        (
            '1 if flag else "x"',
            "branches of 'if' have different types: int and text",
            (0, 18),
            None,
        ),
        (
            "cover(level).worse if flag else arm",
            "the branches of 'if' are choices of different enums: Cover and Limb",
            (0, 35),
            None,
        ),
        (
            "level == arm",
            "cannot compare a choice of Cover with one of Limb",
            (0, 12),
            None,
        ),
        (
            "level == limb",
            "a choice of Cover with one of (NONE, ONE_ARM, TWO_ARMS)",
            (0, 13),
            None,
        ),
        (
            "level < other_level",
            "a choice needs == or != to compare, not '<'",
            (0, 19),
            None,
        ),
        (
            'level >= "HALF"',
            "a choice needs == or != to compare, not '>='",
            (0, 15),
            None,
        ),
        (
            'level == "HALX"',
            "unknown choice 'HALX' for 'level'",
            (9, 15),
            "did you mean 'HALF'?",
        ),
        (
            '"FUL" != cover(level).worse',
            "unknown choice 'FUL' for 'cover(level).worse'",
            (0, 5),
            "did you mean 'FULL'?",
        ),
        (
            'level == ("HALF" if flag else "FULL")',
            "cannot compare choice and text",
            (0, 37),
            'level == "NONE"',
        ),
        ('"a" < "b"', "cannot compare text and text with '<'", (0, 3), None),
        ('"a" - "b"', "cannot subtract text and text", (0, 3), None),
        ('not "a"', "'not' needs a bool operand, got text", (4, 7), None),
        ("cover(level).reason == 1", "cannot compare text and int", (0, 24), None),
        (
            "level + 1",
            "cannot add choice and int",
            (0, 5),
            'compare a choice with ==, e.g. level == "NONE"',
        ),
    ],
)
def test_decision_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    with pytest.raises(ExprError) as info:
        dcheck(text)
    error = info.value
    assert message in error.message
    assert (error.start, error.end) == span, text[error.start : error.end]
    assert 0 <= error.start <= error.end <= len(text)
    if hint is not None:
        assert error.hint is not None and hint in error.hint


def test_a_parameter_may_not_shadow_a_table() -> None:
    params = {"cover": Param("cover", "int", 0, 1), **DPARAMS}
    with pytest.raises(ExprError) as info:
        compile_formula("1 + cover", params, tables=TABLES)
    error = info.value
    assert "parameter 'cover' has the name of a table" in error.message
    assert (error.start, error.end) == (4, 9)
    assert error.hint is not None and "share one namespace" in error.hint
    with pytest.raises(ExprError) as info:  # even where neither is used
        compile_formula(" a + 1", params, tables=TABLES)
    assert (info.value.start, info.value.end) == (1, 6)


def test_a_call_of_a_built_in_name_calls_the_built_in() -> None:
    """A table named like a function of the language does not stop that
    function working: a name followed by ``(`` is the language's function."""
    tables = {"min": Table("min", "Cover", COVERS, COVER_FIELDS)}
    checked = compile_formula("min(a, 1) + 2", DPARAMS, tables=tables)
    assert evaluate(checked.node, {"a": 5}, rounding="down") == 3
    params = {**DPARAMS, "max": Param("max", "int", 0, 9)}
    checked = compile_formula("max(max, a) + max", params)
    assert evaluate(checked.node, {"a": 5, "max": 7}, rounding="down") == 14


def test_a_table_without_fields() -> None:
    tables = {"cover": Table("cover", "Cover", COVERS, {})}
    with pytest.raises(ExprError) as info:
        compile_formula("cover(level)", DPARAMS, tables=tables)
    assert info.value.message == "the table 'cover' has no fields usable in formulas"
    with pytest.raises(ExprError) as info:
        compile_formula("cover(level).x", DPARAMS, tables=tables)
    assert info.value.hint == "no fields"


def test_the_row_hint_without_a_key_parameter() -> None:
    with pytest.raises(ExprError) as info:
        compile_formula("cover + 1", {}, tables=TABLES)
    assert info.value.hint == 'look up a field of a row: cover("NONE").cover_ac'


@pytest.mark.parametrize(
    ("text", "kind", "interval", "nullable"),
    [
        ("null", "null", None, True),
        ("null if flag else null", "null", None, True),
        ("null ?? null", "null", None, True),
        ("cover(level).cover_ac", "int", Interval(0, 4), False),
        ('cover("FULL").cover_ac * 2', "int", Interval(0, 8), False),
        ("cover(level).stealth", "int", Interval(-2, 5), True),
        ("cover(level).stealth ?? 0", "int", Interval(-2, 5), False),
        ("cover(level).stealth ?? 10", "int", Interval(-2, 10), False),
        ("cover(level).stealth ?? bonus", "int", Interval(-2, 5), True),
        ("cover(level).stealth ?? bonus ?? 9", "int", Interval(-2, 9), False),
        ("cover(level).stealth ?? null", "int", Interval(-2, 5), True),
        ("null ?? a", "int", Interval(-6, 6), False),
        ("a if flag else null", "int", Interval(-6, 6), True),
        ("null if flag else b", "int", Interval(0, 9), True),
        ("a if flag else bonus", "int", Interval(-6, 6), True),
        ("(bonus ?? 0) * 2", "int", Interval(0, 6), False),
        ("gear(cover(level).limb).weight", "int", Interval(0, 9), False),
        ("gear(arm).weight + gear(limb).weight", "int", Interval(0, 18), False),
        ('"a reason"', "text", None, False),
        ("cover(level).reason", "text", None, False),
        ("cover(level).note", "text", None, True),
        ('cover(level).note ?? "none"', "text", None, False),
        ('"x" if flag else null', "text", None, True),
        ("cover(level).blocks", "bool", None, False),
        ("cover(level).hides", "bool", None, True),
        ("cover(level).hides ?? maybe ?? false", "bool", None, False),
        ("cover(level).stealth == null", "bool", None, False),
        ("null != cover(level).note", "bool", None, False),
        ("null == null", "bool", None, False),
        ("bonus == 1", "bool", None, False),
        ('cover(level).note == "x"', "bool", None, False),
        ('"x" != "y"', "bool", None, False),
        ("maybe == flag", "bool", None, False),
        ("level == other_level", "bool", None, False),
        ("level != free", "bool", None, False),
        ("limb == limb", "bool", None, False),
        ("cover(level).worse == level", "bool", None, False),
        ('cover(level).worse != "FULL"', "bool", None, False),
        ('cover(free).cover_ac == cover("NONE").cover_ac', "bool", None, False),
    ],
)
def test_decision_types(
    text: str, kind: str, interval: Interval | None, nullable: bool
) -> None:
    checked = dcheck(text)
    assert (checked.type, checked.interval, checked.nullable) == (
        kind,
        interval,
        nullable,
    )
    assert checked.node == parse(text)  # labels resolved, structure unchanged


@pytest.mark.parametrize(
    ("text", "enum_name", "nullable"),
    [
        ("level", "Cover", False),
        ("cover(level).worse", "Cover", True),
        ("cover(level).worse ?? level", "Cover", False),
        ("free if flag else level", "Cover", False),
        ("free if flag else free", None, False),
        ("level if flag else null", "Cover", True),
        ("cover(level).limb", "Limb", False),
    ],
)
def test_choice_results(text: str, enum_name: str | None, nullable: bool) -> None:
    checked = dcheck(text)
    assert (checked.type, checked.enum, checked.nullable) == (
        "choice",
        enum_name,
        nullable,
    )
    assert checked.choices in (COVERS, LIMBS) and checked.interval is None


def test_limb_alone_is_a_choice() -> None:
    checked = compile_formula("limb", PARAMS)
    assert checked == Checked(checked.node, "choice", None, choices=LIMBS)


@pytest.mark.parametrize(
    ("text", "slot", "problem"),
    [
        ("cover(level).cover_ac", Field("int"), None),
        ("cover(level).cover_ac", Field("int", min=0, max=4), None),
        ("cover(level).cover_ac", Field("int", nullable=True, min=-1), None),
        (
            "a",
            Field("int", min=0, max=10),
            "gives an int in -6..6, but the field allows only 0..10",
        ),
        (
            "a",
            Field("int", max=5),
            "gives an int in -6..6, but the field allows only -inf..5",
        ),
        (
            "c",
            Field("int", min=0),
            "gives an int in -inf..inf, but the field allows only 0..inf",
        ),
        ("c", Field("int"), None),
        (
            "cover(level).stealth",
            Field("int"),
            "gives int or null, but the field is int",
        ),
        ("cover(level).stealth", Field("int", nullable=True), None),
        (
            "cover(level).stealth",
            Field("int", nullable=True, max=4),
            "gives an int in -2..5, but the field allows only -inf..4",
        ),
        ("null", Field("text", nullable=True), None),
        ("null", Field("text"), "gives null, but the field is text"),
        ("null", Field("choice", nullable=True, choices=LIMBS), None),
        ('"x"', Field("text"), None),
        ('"x"', Field("text", nullable=True), None),
        ('"x"', Field("int"), "gives text, but the field is int"),
        (
            '"x" if flag else null',
            Field("text"),
            "gives text or null, but the field is text",
        ),
        (
            '"x" if flag else null',
            Field("bool", nullable=True),
            "gives text or null, but the field is bool or null",
        ),
        ("flag", Field("bool"), None),
        ("level", Field("choice", choices=COVERS, enum="Cover"), None),
        ("level", Field("choice", choices=COVERS), None),
        ("free", Field("choice", choices=COVERS, enum="Cover"), None),
        (
            "level",
            Field("choice", choices=LIMBS, enum="Limb"),
            "gives a choice of Cover, but the field is a choice of Limb",
        ),
        (
            "limb",
            Field("choice", choices=COVERS),
            "gives a choice of (NONE, ONE_ARM, TWO_ARMS), but the field is a choice "
            "of (NONE, HALF, FULL)",
        ),
        (
            "cover(level).worse",
            Field("choice", choices=COVERS, enum="Cover"),
            "gives choice or null, but the field is choice",
        ),
    ],
)
def test_fits(text: str, slot: Field, problem: str | None) -> None:
    assert fits(dcheck(text), slot) == problem


DECISION_ENVS: list[dict[str, Any]] = [
    {
        "a": 2,
        "b": 3,
        "flag": True,
        "other": False,
        "limb": "NONE",
        "level": "NONE",
        "other_level": "FULL",
        "free": "HALF",
        "arm": "TWO_ARMS",
        "bonus": None,
        "maybe": None,
        "maybe_level": None,
        "where": "hull",
        "maybe_where": None,
        "exposure": {"hull": "open", "deck": "covered", "vacuum": "sealed"},
        "shield": {"NONE": None, "HALF": 1, "FULL": 3},
        "cover_at": {"hull": "FULL", "deck": "HALF", "vacuum": "NONE"},
    },
    {
        "a": -6,
        "b": 0,
        "flag": False,
        "other": True,
        "limb": "TWO_ARMS",
        "level": "HALF",
        "other_level": "NONE",
        "free": "FULL",
        "arm": "NONE",
        "bonus": 3,
        "maybe": False,
        "maybe_level": "FULL",
        "where": "deck",
        "maybe_where": "vacuum",
        "exposure": {"hull": "covered", "deck": "covered", "vacuum": "open"},
        "shield": {"NONE": 0, "HALF": None, "FULL": 2},
        "cover_at": {"hull": "NONE", "deck": "NONE", "vacuum": "FULL"},
    },
    {
        "a": 6,
        "b": 9,
        "flag": False,
        "other": False,
        "limb": "ONE_ARM",
        "level": "FULL",
        "other_level": "HALF",
        "free": "NONE",
        "arm": "ONE_ARM",
        "bonus": 0,
        "maybe": True,
        "maybe_level": "HALF",
        "where": "vacuum",
        "maybe_where": "deck",
        "exposure": {"hull": "sealed", "deck": "open", "vacuum": "sealed"},
        "shield": {"NONE": 3, "HALF": 2, "FULL": None},
        "cover_at": {"hull": "HALF", "deck": "FULL", "vacuum": "HALF"},
    },
]


@pytest.mark.parametrize(
    ("text", "python"),
    [
        ("cover(level).cover_ac", "_COVER_ROWS[level].cover_ac"),
        ('cover("HALF").cover_ac', "_COVER_ROWS[Cover.HALF].cover_ac"),
        (
            "gear(cover(level).limb).weight",
            "_GEAR_ROWS[_COVER_ROWS[level].limb].weight",
        ),
        ("-cover(level).cover_ac", "-_COVER_ROWS[level].cover_ac"),
        ("bonus ?? 1", "(bonus if bonus is not None else 1)"),
        ("null ?? 1", "(None if None is not None else 1)"),
        (
            "cover(level).stealth ?? 0",
            "(_t1 if (_t1 := _COVER_ROWS[level].stealth) is not None else 0)",
        ),
        (
            "(cover(level).stealth ?? cover(other_level).stealth ?? 2) + 1",
            "(_t1 if (_t1 := (_t2 if (_t2 := _COVER_ROWS[level].stealth) is not None"
            " else _COVER_ROWS[other_level].stealth)) is not None else 2) + 1",
        ),
        (
            "cover(level).stealth ?? (cover(free).stealth ?? bonus ?? 0)",
            "(_t1 if (_t1 := _COVER_ROWS[level].stealth) is not None else (_t2 if"
            " (_t2 := (_t3 if (_t3 := _COVER_ROWS[free].stealth) is not None else"
            " bonus)) is not None else 0))",
        ),
        (
            "(a if flag else null) ?? b",
            "(_t1 if (_t1 := a if flag else None) is not None else b)",
        ),
        (
            "bonus ?? a if flag else b",
            "(bonus if bonus is not None else a) if flag else b",
        ),
        (
            "a if flag else bonus ?? b",
            "a if flag else (bonus if bonus is not None else b)",
        ),
        ("cover(level).stealth == null", "_COVER_ROWS[level].stealth is None"),
        ("null != bonus", "bonus is not None"),
        ("null == null", "None is None"),
        ("(a if flag else null) == null", "(a if flag else None) is None"),
        ("a + 1 if flag else null", "a + 1 if flag else None"),
        ('"a reason"', "'a reason'"),
        ('"it\'s"', '"it\'s"'),
        ('"back\\\\slash"', "'back\\\\\\\\slash'"),
        (
            'cover(level).note ?? "none"',
            "(_t1 if (_t1 := _COVER_ROWS[level].note) is not None else 'none')",
        ),
        ('cover(level).note == "x"', "_COVER_ROWS[level].note == 'x'"),
        ('"x" != "y"', "'x' != 'y'"),
        ('level == "HALF"', "level is Cover.HALF"),
        ('"HALF" != level', "Cover.HALF is not level"),
        ('cover(level).worse == "FULL"', "_COVER_ROWS[level].worse is Cover.FULL"),
        ('free == "FULL"', "free is Cover.FULL"),
        ('limb == "NONE"', "limb is Limb.NONE"),
        ("level == other_level", "level == other_level"),
        (
            "cover(level).worse ?? level",
            "(_t1 if (_t1 := _COVER_ROWS[level].worse) is not None else level)",
        ),
        ("maybe ?? flag and other", "(maybe if maybe is not None else flag and other)"),
    ],
)
def test_decision_to_python(text: str, python: str) -> None:
    checked = dcheck(text)
    assert dpy(checked.node) == python
    for env in DECISION_ENVS:
        expected = evaluate(checked.node, env, rounding="down", tables=ROWS)
        assert run_decision(python, env, ROWS) == expected


def test_label_callback_is_preferred_and_choice_is_the_fallback() -> None:
    node = dcheck('level == "HALF" and limb != "NONE" and cover("FULL").blocks').node
    with_label = to_python(
        node,
        name=str,
        choice=lambda p, v: f"{p}.{v}",
        rounding="down",
        lookup=lambda t, k: f"ROWS[{k}]",
        label=lambda e, v: f"{e}.{v}",
    )
    assert (
        with_label
        == "level is Cover.HALF and limb is not limb.NONE and ROWS[Cover.FULL].blocks"
    )
    without = to_python(
        node,
        name=str,
        choice=lambda p, v: f"{p}.{v}",
        rounding="down",
        lookup=lambda t, k: f"ROWS[{k}]",
    )
    assert (
        without
        == "level is level.HALF and limb is not limb.NONE and ROWS[level.FULL].blocks"
    )


def test_to_python_needs_lookup_and_label_emitters() -> None:
    node = compile_formula('cover("HALF").cover_ac', {}, tables=TABLES).node
    with pytest.raises(ValueError, match="no lookup emitter"):
        to_python(node, name=str, rounding="down")
    with pytest.raises(ValueError, match="no label emitter"):
        to_python(node, name=str, rounding="down", lookup=lambda t, k: k)
    assert (
        to_python(
            node, name=str, rounding="down", lookup=lambda t, k: k, label=str.__add__
        )
        == "CoverHALF.cover_ac"
    )


def test_temporaries_avoid_parameter_names() -> None:
    params = {
        "_t1": Param("_t1", "int", 0, 3, nullable=True),
        "flag": Param("flag", "bool"),
    }
    node = compile_formula("(_t1 if flag else null) ?? 0", params).node
    text = to_python(node, name=str, rounding="down")
    assert text == "(_t2 if (_t2 := _t1 if flag else None) is not None else 0)"
    renamed = to_python(node, name=lambda n: f"self.{n}", rounding="down")
    assert renamed.startswith("(_t1 if (_t1 := self._t1 if")


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("cover(level).stealth ?? 0", "cover(level).stealth ?? 0"),
        ('cover("HALF").cover_ac', 'cover("HALF").cover_ac'),
        ("cover(level).stealth == null", "cover(level).stealth = none"),
        ("a if flag else null", "a if flag else none"),
        ('"it`s here"', '"it\'s here"'),
        ("(bonus ?? 1) * 2", f"(bonus ?? 1) {TIMES} 2"),
        ("bonus ?? a // 2", "bonus ?? ⌊a ÷ 2⌋"),
        ("level != other_level", "level ≠ other_level"),
    ],
)
def test_decision_to_math(text: str, math: str) -> None:
    assert to_math(dcheck(text).node, rounding="down") == math


def test_evaluate_with_tables() -> None:
    env = DECISION_ENVS[0]  # level NONE, bonus None

    def run(text: str) -> object:
        return evaluate(dcheck(text).node, env, rounding="down", tables=ROWS)

    assert run("cover(level).stealth") is None
    assert run("cover(level).stealth ?? bonus") is None
    assert run("cover(level).stealth ?? bonus ?? 7") == 7
    assert run('cover("FULL").stealth ?? 7') == 5
    assert run("cover(other_level).worse") == "HALF"
    assert run("cover(cover(other_level).worse ?? level).note") == "low wall"
    assert run('cover(level).reason if cover(level).hides == null else "?"') == "open"
    assert run("gear(cover(free).limb).weight") == 3
    assert run("null") is None
    assert run('cover(level).worse == "NONE"') is False


def test_names_and_tables_used() -> None:
    node = dcheck("gear(cover(level).limb).weight + (bonus ?? a)").node
    assert names_used(node) == frozenset({"level", "bonus", "a"})
    assert tables_used(node) == frozenset({"cover", "gear"})
    assert tables_used(parse("min(a, 1)")) == frozenset()


def test_checking_twice_gives_the_same_tree() -> None:
    node = dcheck('level == "HALF"').node
    again = check(node, DPARAMS, tables=TABLES)
    assert again.node == node
    assert dpy(again.node) == "level is Cover.HALF"
    text_node = compile_formula('"HALF"', DPARAMS).node  # alone: a text value
    assert dpy(text_node) == "'HALF'"


# --- nullable keys and mapping parameters ---


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("exposure[where]", index("exposure", var("where"))),
        ('exposure["hull"]', index("exposure", label("hull"))),
        (
            'exposure[where] == "covered"',
            bop("==", index("exposure", var("where")), label("covered")),
        ),
        ("-shield[level]", neg(index("shield", var("level")))),
        ("m[k][j]", Index(index("m", var("k")), var("j"), 0, 0)),
        ("m[k].x", Attr(index("m", var("k")), "x", 0, 0)),
        ("(a + 1)[k]", Index(bop("+", a, lit(1)), var("k"), 0, 0)),
        (
            "cover(cover_at[where]).cover_ac",
            row("cover", index("cover_at", var("where")), "cover_ac"),
        ),
        (
            "shield[level if flag else other_level] ?? 0",
            bop(
                "??",
                index("shield", cond(var("level"), flag, var("other_level"))),
                lit(0),
            ),
        ),
        ("m[n ?? k]", index("m", bop("??", var("n"), var("k")))),
    ],
)
def test_parse_index(text: str, tree: Node) -> None:
    assert parse(text) == tree
    assert parse(to_source(tree)) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("exposure[ ( where ) ]", "exposure[where]"),
        ("(exposure[where])", "exposure[where]"),
        ("(exposure)[where]", "exposure[where]"),
        ("-(shield[level])", "-shield[level]"),
        ("(-m)[k]", "(-m)[k]"),
        ("m[(a if flag else b)]", "m[a if flag else b]"),
        ("(m[k] ?? 0) + 1", "(m[k] ?? 0) + 1"),
    ],
)
def test_index_to_source(text: str, canonical: str) -> None:
    assert to_source(parse(text)) == canonical
    assert parse(canonical) == parse(text)


def test_index_offsets_point_into_the_source() -> None:
    text = "1 + exposure[ where ] "
    node = parse(text)
    assert isinstance(node, Binary) and isinstance(node.right, Index)
    assert text[node.right.start : node.right.end] == "exposure[ where ]"
    assert text[node.right.index.start : node.right.index.end] == "where"


@pytest.mark.parametrize(
    ("text", "message", "span"),
    [
        ("exposure[where", "expected ']' to close '[' at offset 8", (14, 14)),
        ("exposure[]", "expected a number, name or '(' but found ']'", (9, 10)),
        ("exposure[where, 1]", "expected ']' to close '[' at offset 8", (14, 15)),
        ("exposure]", "unexpected ']' after the end", (8, 9)),
        ("[where", "expected ']' to close the list at offset 0", (6, 6)),
    ],
)
def test_index_syntax_errors(text: str, message: str, span: tuple[int, int]) -> None:
    with pytest.raises(ExprError) as info:
        parse(text)
    assert message in info.value.message
    assert (info.value.start, info.value.end) == span


@pytest.mark.parametrize(
    ("text", "message", "span", "hint"),
    [
        # indexing something else
        (
            "a[where]",
            "only a mapping parameter can be indexed, not 'a'",
            (0, 1),
            "mapping parameters: exposure, shield, cover_at",
        ),
        ("(a + 1)[where]", "can be indexed, not 'a + 1'", (0, 7), None),
        ("cover(level)[where]", "not 'cover(level)'", (0, 12), None),
        ("cover(level).cover_ac[level]", "not 'cover(level).cover_ac'", (0, 21), None),
        ("exposure[where][where]", "not 'exposure[where]'", (0, 15), None),
        ('"x"[where]', "not '\"x\"'", (0, 3), None),
        ("expo[where]", "unknown name 'expo'", (0, 4), "did you mean 'exposure'?"),
        ("cover[level]", "'cover' is a table, not a value", (0, 5), None),
        # a mapping used as a value
        (
            "exposure",
            "'exposure' is a mapping, not a value: use exposure[where]",
            (0, 8),
            "valid keys: hull, deck, vacuum",
        ),
        ("shield ?? 1", "use shield[level]", (0, 6), None),
        ("1 + exposure == null", "use exposure[where]", (4, 12), None),
        ("cover(cover_at).cover_ac", "use cover_at[where]", (6, 14), None),
        ("exposure.x", "use exposure[where]", (0, 8), None),
        ("m[where] if flag else exposure", "unknown name 'm'", (0, 1), None),
        (
            "exposure(where)",
            "'exposure' is a parameter, not a function or table",
            (0, 8),
            "index a mapping with [], e.g. exposure[where]",
        ),
        # bad indexes
        (
            "exposure[level]",
            "exposure[] needs a Location key, got a choice of Cover",
            (9, 14),
            "pass a Location choice or one of its labels: hull, deck, vacuum",
        ),
        ("exposure[a]", "exposure[] needs a Location key, got int", (9, 10), None),
        ("exposure[bonus]", "got int?", (9, 14), None),
        ("exposure[null]", "got null", (9, 13), None),
        ("exposure[flag]", "got bool", (9, 13), None),
        (
            "shield[where]",
            "shield[] needs a Cover key, got a choice of Location",
            (7, 12),
            None,
        ),
        ("shield[limb]", "got a choice of (NONE, ONE_ARM, TWO_ARMS)", (7, 11), None),
        (
            'exposure["hul"]',
            "unknown key 'hul' for exposure[]",
            (9, 14),
            "did you mean 'hull'? valid keys: hull, deck, vacuum",
        ),
        ('shield["half"]', "unknown key 'half' for shield[]", (7, 13), None),
        ("exposure[exposure]", "use exposure[where]", (9, 17), None),
        # what an index gives
        (
            'exposure[where] == "coverd"',
            "unknown choice 'coverd' for 'exposure[where]'",
            (19, 27),
            "did you mean 'covered'? valid choices: open, covered, sealed",
        ),
        ('"x" != exposure[maybe_where]', "unknown choice 'x'", (0, 3), None),
        (
            'exposure[where] < "open"',
            "a choice needs == or != to compare, not '<'",
            (0, 24),
            None,
        ),
        (
            "exposure[where] == level",
            "cannot compare a choice of Exposure with one of Cover",
            (0, 24),
            None,
        ),
        (
            "exposure[where] + 1",
            "cannot add choice and int",
            (0, 15),
            'compare a choice with ==, e.g. exposure[where] == "open"',
        ),
        (
            "shield[level] + 1",
            "cannot add int? and int",
            (0, 13),
            "'shield[level]' may be null: give a default with ??",
        ),
        (
            "cover_at[maybe_where] ?? exposure[where]",
            "the sides of '??' are choices of different enums: Cover and Exposure",
            (0, 40),
            None,
        ),
        ("exposure[where] == null", "'exposure[where]' is never null", (0, 15), None),
        (
            "exposure[where].x",
            "'exposure[where]' is choice, not a table",
            (0, 15),
            None,
        ),
        ("exposure[where] ?? 1", "'exposure[where]' is never null", (0, 15), None),
    ],
)
def test_index_errors(
    text: str, message: str, span: tuple[int, int], hint: str | None
) -> None:
    with pytest.raises(ExprError) as info:
        dcheck(text)
    error = info.value
    assert message in error.message
    assert (error.start, error.end) == span, text[error.start : error.end]
    if hint is not None:
        assert error.hint is not None and hint in error.hint


def test_index_errors_without_a_key_parameter() -> None:
    params = {
        "m": Param("m", "mapping", key_labels=("x", "y"), value=Field("int")),
        "n": Param("n", "mapping", key_enum="E", key_labels=("x",)),
        "i": Param("i", "int"),
    }
    with pytest.raises(ExprError) as info:
        compile_formula("m + 1", params)
    assert info.value.message == "'m' is a mapping, not a value: use m[\"x\"]"
    with pytest.raises(ExprError) as info:
        compile_formula("m[i]", params)
    assert info.value.message == "m[] needs a (x, y) key, got int"
    with pytest.raises(ExprError) as info:
        compile_formula('n["x"]', params)
    assert info.value.message == "the mapping parameter 'n' has no value type"
    assert (info.value.start, info.value.end) == (0, 1)
    with pytest.raises(ExprError) as info:
        compile_formula("i[i]", {"i": Param("i", "int")})
    assert info.value.hint is None  # no mapping parameters to list


@pytest.mark.parametrize(
    ("text", "kind", "interval", "nullable", "enum_name"),
    [
        ("cover(maybe_level).cover_ac", "int", Interval(0, 4), True, None),
        ("cover(maybe_level).stealth", "int", Interval(-2, 5), True, None),
        ("cover(maybe_level).cover_ac ?? 0", "int", Interval(0, 4), False, None),
        ("cover(cover(level).worse).cover_ac", "int", Interval(0, 4), True, None),
        ("cover(maybe_level).reason", "text", None, True, None),
        ("cover(maybe_level).blocks", "bool", None, True, None),
        ("cover(maybe_level).limb", "choice", None, True, "Limb"),
        ("gear(cover(maybe_level).limb).weight", "int", Interval(0, 9), True, None),
        ("cover(level if flag else null).cover_ac", "int", Interval(0, 4), True, None),
        ("cover(maybe_level ?? level).cover_ac", "int", Interval(0, 4), False, None),
        ("exposure[where]", "choice", None, False, "Exposure"),
        ('exposure["deck"]', "choice", None, False, "Exposure"),
        ("exposure[maybe_where]", "choice", None, True, "Exposure"),
        ("shield[level]", "int", Interval(0, 3), True, None),
        ("shield[free]", "int", Interval(0, 3), True, None),  # known by labels
        ('shield["FULL"] ?? 0', "int", Interval(0, 3), False, None),
        ("cover_at[where]", "choice", None, False, "Cover"),
        ("cover(cover_at[where]).cover_ac", "int", Interval(0, 4), False, None),
        ("cover(cover_at[maybe_where]).cover_ac", "int", Interval(0, 4), True, None),
        ("shield[cover_at[where]]", "int", Interval(0, 3), True, None),
        ('exposure[where] == "covered"', "bool", None, False, None),
        ('"open" != exposure[maybe_where]', "bool", None, False, None),
        ("exposure[where] == exposure[maybe_where]", "bool", None, False, None),
        ("exposure[maybe_where] == null", "bool", None, False, None),
        ("cover_at[where] == level", "bool", None, False, None),
        ("maybe_level == null", "bool", None, False, None),
        ('maybe_level != "HALF"', "bool", None, False, None),
    ],
)
def test_index_and_nullable_key_types(
    text: str,
    kind: str,
    interval: Interval | None,
    nullable: bool,
    enum_name: str | None,
) -> None:
    checked = dcheck(text)
    assert (checked.type, checked.interval, checked.nullable, checked.enum) == (
        kind,
        interval,
        nullable,
        enum_name,
    )
    assert checked.node == parse(text)


@pytest.mark.parametrize(
    ("text", "python"),
    [
        (
            "cover(maybe_level).cover_ac",
            "(_COVER_ROWS[maybe_level].cover_ac if maybe_level is not None else None)",
        ),
        (
            "cover(cover(level).worse).cover_ac",
            "(_COVER_ROWS[_t1].cover_ac if (_t1 := _COVER_ROWS[level].worse)"
            " is not None else None)",
        ),
        (
            "cover(maybe_level).stealth ?? 0",
            "(_t1 if (_t1 := (_COVER_ROWS[maybe_level].stealth if maybe_level"
            " is not None else None)) is not None else 0)",
        ),
        (
            "gear(cover(maybe_level).limb).weight",
            "(_GEAR_ROWS[_t1].weight if (_t1 := (_COVER_ROWS[maybe_level].limb if"
            " maybe_level is not None else None)) is not None else None)",
        ),
        (
            "cover(level if flag else null).note",
            "(_COVER_ROWS[_t1].note if (_t1 := level if flag else None)"
            " is not None else None)",
        ),
        (
            "-(cover(maybe_level).cover_ac ?? 1)",
            "-(_t1 if (_t1 := (_COVER_ROWS[maybe_level].cover_ac if maybe_level"
            " is not None else None)) is not None else 1)",
        ),
        (
            "cover(maybe_level).cover_ac == cover(other_level).cover_ac",
            "(_COVER_ROWS[maybe_level].cover_ac if maybe_level is not None else None)"
            " == _COVER_ROWS[other_level].cover_ac",
        ),
        (
            'cover(maybe_level).worse == "HALF"',
            "(_COVER_ROWS[maybe_level].worse if maybe_level is not None else None)"
            " is Cover.HALF",
        ),
        ("maybe_level == null", "maybe_level is None"),
        ('maybe_level != "HALF"', "maybe_level is not Cover.HALF"),
        ("exposure[where]", "exposure[where]"),
        ('exposure["deck"]', "exposure[Location.DECK]"),
        (
            "exposure[maybe_where]",
            "(exposure[maybe_where] if maybe_where is not None else None)",
        ),
        ('exposure[where] == "covered"', "exposure[where] is Exposure.COVERED"),
        ('"sealed" != exposure[where]', "Exposure.SEALED is not exposure[where]"),
        (
            'exposure[maybe_where] == "open"',
            "(exposure[maybe_where] if maybe_where is not None else None)"
            " is Exposure.OPEN",
        ),
        (
            "exposure[where] == exposure[maybe_where]",
            "exposure[where] == (exposure[maybe_where] if maybe_where is not None"
            " else None)",
        ),
        ("shield[level] ?? 0", "(_t1 if (_t1 := shield[level]) is not None else 0)"),
        ('shield["FULL"] == null', "shield[Cover.FULL] is None"),
        (
            "shield[cover(level).worse] ?? a",
            "(_t1 if (_t1 := (shield[_t2] if (_t2 := _COVER_ROWS[level].worse)"
            " is not None else None)) is not None else a)",
        ),
        (
            "shield[maybe_level ?? level] ?? 0",
            "(_t1 if (_t1 := shield[(maybe_level if maybe_level is not None"
            " else level)]) is not None else 0)",
        ),
        ("cover(cover_at[where]).cover_ac", "_COVER_ROWS[cover_at[where]].cover_ac"),
        (
            "cover(cover_at[maybe_where]).cover_ac",
            "(_COVER_ROWS[_t1].cover_ac if (_t1 := (cover_at[maybe_where] if"
            " maybe_where is not None else None)) is not None else None)",
        ),
        ('cover_at["vacuum"] == level', "cover_at[Location.VACUUM] == level"),
        ("exposure[where] if flag else null", "exposure[where] if flag else None"),
    ],
)
def test_index_and_nullable_key_to_python(text: str, python: str) -> None:
    checked = dcheck(text)
    assert dpy(checked.node) == python
    for env in DECISION_ENVS:
        expected = evaluate(checked.node, env, rounding="down", tables=ROWS)
        assert run_decision(python, env, ROWS) == expected


def test_null_keys_give_null() -> None:
    env = DECISION_ENVS[0]  # maybe_level and maybe_where are None

    def both(text: str) -> object:
        node = dcheck(text).node
        value = evaluate(node, env, rounding="down", tables=ROWS)
        assert run_decision(dpy(node), env, ROWS) == value
        return value

    assert env["maybe_level"] is None and env["maybe_where"] is None
    assert both("cover(maybe_level).cover_ac") is None
    assert both("cover(maybe_level).stealth ?? 7") == 7
    assert both("gear(cover(maybe_level).limb).weight") is None
    assert both("cover(cover(level).worse).cover_ac") is None  # level NONE: no worse
    assert both("exposure[maybe_where]") is None
    assert both('exposure[maybe_where] == "open"') is False
    assert both('exposure[maybe_where] != "open"') is True
    assert both("cover(cover_at[maybe_where]).cover_ac ?? -1") == -1
    assert both("shield[level]") is None  # a null value, not a null key
    assert both('exposure[where] == "open"') is True
    assert both("cover(cover_at[where]).reason") == "full"
    assert both("shield[cover_at[where]]") == 3


def test_index_to_math() -> None:
    def math(text: str) -> str:
        return to_math(dcheck(text).node, rounding="down")

    assert math('exposure[where] == "covered"') == 'exposure[where] = "covered"'
    assert math('exposure["deck"] != "open"') == 'exposure["deck"] ≠ "open"'
    assert math("(shield[level] ?? 0) * 2") == f"(shield[level] ?? 0) {TIMES} 2"
    assert (
        math("cover(maybe_level).cover_ac ?? 0") == "cover(maybe_level).cover_ac ?? 0"
    )
    assert (
        math("shield[maybe_level ?? level] ?? 0") == "shield[maybe_level ?? level] ?? 0"
    )


def test_index_names_the_mapping_and_its_labels_through_callbacks() -> None:
    node = dcheck(
        'exposure[maybe_where] == "open" or exposure["hull"] != "sealed"'
    ).node
    text = to_python(
        node,
        name=lambda n: f"self.{n}",
        rounding="down",
        label=lambda e, v: f"{e}.{v.upper()}",
    )
    assert text == (
        "(self.exposure[self.maybe_where] if self.maybe_where is not None else None)"
        " is Exposure.OPEN or self.exposure[Location.HULL] is not Exposure.SEALED"
    )
    with pytest.raises(ValueError, match="no label emitter for Exposure"):
        to_python(node, name=str, rounding="down")


def test_key_labels_without_an_enum_use_the_choice_callback() -> None:
    """A mapping keyed by labels only: its key labels name a parameter to `choice`."""
    value = Field("int", min=0, max=5)
    mapping = Param("m", "mapping", key_labels=COVERS, value=value)
    alone = compile_formula('m["HALF"]', {"m": mapping}).node
    assert isinstance(alone, Index) and isinstance(alone.index, StrLit)
    assert (alone.index.enum, alone.index.param) == (None, "m")

    def choice(param: str, value: str) -> str:
        return f"{param}_{value}"

    assert to_python(alone, name=str, choice=choice, rounding="down") == "m[m_HALF]"
    params = {"m": mapping, **DPARAMS}  # level (Cover) and free (none) are keys
    both = compile_formula('m["HALF"] + m[level] + m[free]', params).node
    assert to_python(both, name=str, choice=choice, rounding="down") == (
        "m[level_HALF] + m[level] + m[free]"  # a parameter with those labels
    )
    values = {"NONE": 0, "HALF": 4, "FULL": 1}
    env: dict[str, Any] = {"m": values, "level": "FULL", "free": "HALF"}
    assert evaluate(both, env, rounding="down") == 4 + 1 + 4


def test_index_names_and_tables_used() -> None:
    node = dcheck('exposure[where] == "open" and shield["FULL"] == null').node
    assert names_used(node) == frozenset({"exposure", "where", "shield"})
    assert tables_used(node) == frozenset()
    lookup = dcheck("cover(cover_at[maybe_where]).cover_ac").node
    assert names_used(lookup) == frozenset({"cover_at", "maybe_where"})
    assert tables_used(lookup) == frozenset({"cover"})


def test_nullable_keys_survive_a_second_check() -> None:
    for text in ("cover(maybe_level).cover_ac", "exposure[maybe_where]"):
        node = dcheck(text).node
        assert dpy(check(node, DPARAMS, tables=TABLES).node) == dpy(node)
    unchecked = parse("exposure[maybe_where]")  # not checked: no guard
    assert dpy(unchecked) == "exposure[maybe_where]"


# --- property tests ---

INT_NAMES = ("a", "b")
LABELS = LIMBS
TEXTS = ("x", "it's", "a b", "")
LABEL = st.sampled_from(LABELS)


def coalesce(value: Node, default: Node) -> Binary:
    return bop("??", value, default)


# Location keys (of the mappings exposure and cover_at), some of them null.
LOCATION_KEYS = st.one_of(st.just(var("where")), st.sampled_from(LOCATIONS).map(label))
NLOCATION_KEYS = st.one_of(
    st.just(var("maybe_where")), st.just(cond(var("where"), flag, NULL))
)
# Keys of the cover table: a Cover choice parameter, a label, a choice field, or
# a mapping's choice value.
COVER_KEYS = st.one_of(
    st.just(var("level")),
    st.just(var("free")),
    st.sampled_from(COVERS).map(label),
    st.just(coalesce(row("cover", var("level"), "worse"), var("other_level"))),
    LOCATION_KEYS.map(lambda key: index("cover_at", key)),
)
# Cover keys that may be null: the lookup gives null then.
NCOVER_KEYS = st.one_of(
    st.just(var("maybe_level")),
    st.just(row("cover", var("level"), "worse")),
    st.just(cond(var("other_level"), flag, NULL)),
    NLOCATION_KEYS.map(lambda key: index("cover_at", key)),
)
GEAR_KEYS = st.one_of(
    st.just(var("arm")),
    st.sampled_from(LIMBS).map(label),
    COVER_KEYS.map(lambda key: row("cover", key, "limb")),
)


def cover(field: str) -> st.SearchStrategy[Node]:
    return COVER_KEYS.map(lambda key: row("cover", key, field))


def ncover(field: str) -> st.SearchStrategy[Node]:
    """A field of a row looked up by a key that may be null."""
    return NCOVER_KEYS.map(lambda key: row("cover", key, field))


@functools.cache
def int_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(
        st.integers(0, 12).map(lit),
        st.sampled_from(INT_NAMES).map(var),
        cover("cover_ac"),
        GEAR_KEYS.map(lambda key: row("gear", key, "weight")),
        st.builds(coalesce, nint_trees(0), st.integers(-3, 3).map(lit)),
    )
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
        st.builds(coalesce, nint_trees(depth - 1), sub),
    )


@functools.cache
def nint_trees(depth: int) -> st.SearchStrategy[Node]:
    """Ints that may be null (or are always null)."""
    leaf = st.one_of(
        cover("stealth"),
        st.just(var("bonus")),
        st.just(NULL),
        ncover("cover_ac"),
        ncover("stealth"),
        ncover("limb").map(lambda key: row("gear", key, "weight")),
        (COVER_KEYS | NCOVER_KEYS).map(lambda key: index("shield", key)),
    )
    if depth == 0:
        return leaf
    sub, num, test = nint_trees(depth - 1), int_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(
        leaf,
        st.builds(cond, num, test, sub),
        st.builds(cond, sub, test, num),
        st.builds(coalesce, sub, sub),
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


@functools.cache
def text_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(
        st.sampled_from(TEXTS).map(label),
        cover("reason"),
        st.builds(coalesce, cover("note"), st.sampled_from(TEXTS).map(label)),
        st.builds(coalesce, ncover("reason"), st.sampled_from(TEXTS).map(label)),
    )
    if depth == 0:
        return leaf
    sub, test = text_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(
        leaf,
        st.builds(cond, sub, test, sub),
        st.builds(coalesce, ntext_trees(depth - 1), sub),
    )


@functools.cache
def ntext_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(cover("note"), ncover("note"), ncover("reason"), st.just(NULL))
    if depth == 0:
        return leaf
    sub, test = ntext_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(
        leaf,
        st.builds(cond, text_trees(depth - 1), test, sub),
        st.builds(cond, sub, test, sub),
        st.builds(coalesce, sub, sub),
    )


@functools.cache
def choice_trees(depth: int) -> st.SearchStrategy[Node]:
    """Cover choices, some of them null."""
    leaf = st.one_of(
        st.sampled_from(["level", "free", "other_level", "maybe_level"]).map(var),
        cover("worse"),
        ncover("worse"),
        (LOCATION_KEYS | NLOCATION_KEYS).map(lambda key: index("cover_at", key)),
        st.just(NULL),
    )
    if depth == 0:
        return leaf
    sub, test = choice_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(
        leaf,
        st.builds(cond, sub, test, sub),
        st.builds(coalesce, cover("worse"), sub),
    )


@functools.cache
def exposure_trees(depth: int) -> st.SearchStrategy[Node]:
    """Exposure choices: a mapping's values by a (maybe null) location."""
    leaf = (LOCATION_KEYS | NLOCATION_KEYS).map(lambda key: index("exposure", key))
    if depth == 0:
        return leaf
    sub, test = exposure_trees(depth - 1), bool_trees(depth - 1)
    return st.one_of(leaf, st.builds(cond, sub, test, sub))


def choice_test(op: str, value: str, label_first: bool) -> Node:
    sides = (label(value), var("limb"))
    return bop(op, *(sides if label_first else sides[::-1]))


def either_way(op: str, left: Node, right: Node, swap: bool) -> Binary:
    return bop(op, right, left) if swap else bop(op, left, right)


EQ = st.sampled_from(["==", "!="])


def typed(values: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    """Leave out trees that are always null: only a nullable value meets null."""
    return values.filter(lambda n: check(n, DPARAMS, tables=TABLES).type != "null")


@functools.cache
def bool_trees(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(
        st.booleans().map(lambda v: BoolLit(v, 0, 0)),
        st.just(var("flag")),
        st.builds(choice_test, EQ, LABEL, st.booleans()),
        cover("blocks"),
        st.builds(coalesce, cover("hides"), st.just(var("flag"))),
        st.builds(coalesce, st.just(var("maybe")), cover("blocks")),
        st.builds(either_way, EQ, nint_trees(0), st.just(NULL), st.booleans()),
        st.builds(either_way, EQ, cover("note"), st.just(NULL), st.booleans()),
        st.builds(either_way, EQ, cover("worse"), COVER_KEYS, st.booleans()),
        st.builds(
            either_way,
            EQ,
            typed(choice_trees(0)),
            st.sampled_from(COVERS).map(label),
            st.booleans(),
        ),
        st.builds(coalesce, ncover("blocks"), st.just(flag)),
        st.builds(
            either_way,
            EQ,
            exposure_trees(0),
            st.sampled_from(EXPOSURES).map(label),
            st.booleans(),
        ),
        st.builds(bop, EQ, exposure_trees(0), exposure_trees(0)),
    )
    if depth == 0:
        return leaf
    sub, num = bool_trees(depth - 1), int_trees(depth - 1)
    nullable = nint_trees(depth - 1)
    choices = typed(choice_trees(depth - 1))
    return st.one_of(
        leaf,
        sub.map(not_),
        st.builds(bop, st.sampled_from(["and", "or"]), sub, sub),
        st.builds(bop, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), num, num),
        st.builds(bop, EQ, sub, sub),
        st.builds(cond, sub, sub, sub),
        st.builds(either_way, EQ, typed(nullable), nullable | num, st.booleans()),
        st.builds(bop, EQ, text_trees(depth - 1), typed(ntext_trees(depth - 1))),
        st.builds(bop, EQ, choices, choices),
    )


def render(node: Node) -> str:
    """Fully parenthesised source text, independent of to_source."""
    match node:
        case IntLit() | Name():
            return str(node.value if isinstance(node, IntLit) else node.name)
        case BoolLit():
            return "true" if node.value else "false"
        case NullLit():
            return "null"
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
        case Attr():
            return f"{render(node.obj)}.{node.name}"
        case Index():
            return f"{render(node.obj)}[{render(node.index)}]"
    raise AssertionError(node)


def maybe(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | values


ENVS = st.fixed_dictionaries(
    {
        "a": st.integers(-6, 6),
        "b": st.integers(0, 9),
        "flag": st.booleans(),
        "limb": st.sampled_from(LABELS),
        "level": st.sampled_from(COVERS),
        "other_level": st.sampled_from(COVERS),
        "free": st.sampled_from(COVERS),
        "arm": st.sampled_from(LIMBS),
        "bonus": maybe(st.integers(0, 3)),
        "maybe": maybe(st.booleans()),
        "maybe_level": maybe(st.sampled_from(COVERS)),
        "where": st.sampled_from(LOCATIONS),
        "maybe_where": maybe(st.sampled_from(LOCATIONS)),
        "exposure": st.fixed_dictionaries(
            dict.fromkeys(LOCATIONS, st.sampled_from(EXPOSURES))
        ),
        "shield": st.fixed_dictionaries(
            dict.fromkeys(COVERS, maybe(st.integers(0, 3)))
        ),
        "cover_at": st.fixed_dictionaries(
            dict.fromkeys(LOCATIONS, st.sampled_from(COVERS))
        ),
    }
)
COVER_ROW = st.fixed_dictionaries(
    {
        "cover_ac": st.integers(0, 4),
        "stealth": maybe(st.integers(-2, 5)),
        "reason": st.sampled_from(TEXTS),
        "note": maybe(st.sampled_from(TEXTS)),
        "blocks": st.booleans(),
        "hides": maybe(st.booleans()),
        "worse": maybe(st.sampled_from(COVERS)),
        "limb": st.sampled_from(LIMBS),
    }
)
TABLE_ROWS = st.fixed_dictionaries(
    {
        "cover": st.fixed_dictionaries(dict.fromkeys(COVERS, COVER_ROW)),
        "gear": st.fixed_dictionaries(
            dict.fromkeys(LIMBS, st.fixed_dictionaries({"weight": st.integers(0, 9)}))
        ),
    }
)
_MATH_AS_SOURCE = {
    " × ": " * ",
    " = ": " == ",
    " ≠ ": " != ",
    " ≤ ": " <= ",
    " ≥ ": " >= ",
    " ∈ ": " in ",
    " ∉ ": " not in ",
}


def _as_source(math: str, node: Node) -> str:
    """The math text with its operators spelled back as source, where that is
    all it changes (no division, null, text or identity test): the math
    printer brackets as the source printer does."""
    if any(
        isinstance(n, NullLit | StrLit)
        or (isinstance(n, Binary) and n.op in ("//", "is", "is not"))
        for n in walk(node)
    ):
        return to_source(node)
    for shown, written in _MATH_AS_SOURCE.items():
        math = math.replace(shown, written)
    return math


TREES = st.one_of(
    int_trees(3),
    bool_trees(3),
    nint_trees(2),
    text_trees(2),
    ntext_trees(2),
    choice_trees(2),
    exposure_trees(2),
)
PYTHON_TYPES: dict[str, type] = {"int": int, "bool": bool, "text": str, "choice": str}


@settings(max_examples=200, deadline=None)
@given(tree=TREES, env=ENVS, rows=TABLE_ROWS)
def test_random_formulas_agree_everywhere(
    tree: Node, env: dict[str, Any], rows: Rows
) -> None:
    text = render(tree)
    node = parse(text)
    assert node == tree
    assert parse(to_source(node)) == tree
    assert to_source(parse(to_source(node))) == to_source(node)
    checked = check(node, DPARAMS, tables=TABLES)
    assert checked.node == node
    assert names_used(node) <= set(DPARAMS) and tables_used(node) <= set(TABLES)
    assert "`" not in to_math(checked.node, rounding="down")
    assert _as_source(to_math(node, rounding="up"), node) == to_source(node)
    assert checked.type != "list"  # no tree here is a whole list
    kind = "text" if checked.type == "null" else checked.type
    slot = Field(kind, checked.nullable, choices=checked.choices, enum=checked.enum)
    assert fits(checked, slot) is None
    for rounding in ROUNDINGS:
        expected = evaluate(checked.node, env, rounding=rounding, tables=rows)
        assert run_decision(dpy(checked.node, rounding), env, rows) == expected
        if expected is None:
            assert checked.nullable
            continue
        assert type(expected) is PYTHON_TYPES[checked.type]
        if isinstance(expected, int) and checked.type == "int":
            assert checked.interval is not None and checked.interval.bounded
            assert checked.interval.contains(expected)
        if checked.type == "choice":
            assert expected in checked.choices


def test_unchecked_trees_still_emit_with_the_choice_callback() -> None:
    """The old path: to_python on a parsed (unchecked) tree of PARAMS."""
    node = parse('a + b if limb == "NONE" and not flag else -a // 2')
    env: dict[str, int | bool | str | None] = {
        "a": 5,
        "b": 1,
        "flag": False,
        "limb": "NONE",
    }
    assert run_python(py(node, "up"), env) == evaluate(node, env, rounding="up")


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
    assert checked.interval is not None and isinstance(value, int)
    assert checked.interval.contains(value), (formula, x, y, checked.interval)
