"""Formula expressions: parse, type-check, emit Python and math text."""

from __future__ import annotations

import difflib
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, TypeAlias

Rounding: TypeAlias = Literal["down", "up"]
FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "min": (2, None),
    "max": (2, None),
    "clamp": (3, 3),
}
KEYWORDS = frozenset({"if", "else", "and", "or", "not", "true", "false"})
COMPARE_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
ARITH_OPS = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide"}


class ExprError(Exception):
    """A formula error at source offsets start..end (end exclusive)."""

    def __init__(
        self, message: str, start: int, end: int, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message, self.start, self.end, self.hint = message, start, end, hint


@dataclass(frozen=True, slots=True)
class Param:
    """A formula parameter as declared in the rules data."""

    name: str
    type: Literal["int", "bool", "choice"]
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Interval:
    """An integer range; None means unbounded on that side."""

    lo: int | None
    hi: int | None

    @property
    def bounded(self) -> bool:
        return self.lo is not None and self.hi is not None

    def contains(self, value: int) -> bool:
        above = self.lo is None or self.lo <= value
        return above and (self.hi is None or value <= self.hi)

    def __str__(self) -> str:
        lo = "-inf" if self.lo is None else str(self.lo)
        return f"{lo}..{'inf' if self.hi is None else self.hi}"


# AST nodes. Offsets do not take part in equality: nodes compare by structure.


@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class StrLit:
    value: str
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "not"
    operand: Node
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * // and or == != < <= > >=
    left: Node
    right: Node
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Cond:
    body: Node  # `body if test else orelse`
    test: Node
    orelse: Node
    start: int = field(compare=False)
    end: int = field(compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple[Node, ...]
    start: int = field(compare=False)
    end: int = field(compare=False)


Node: TypeAlias = IntLit | StrLit | BoolLit | Name | Unary | Binary | Cond | Call


@dataclass(frozen=True, slots=True)
class Checked:
    """The result of check(): the root node, its type and its integer range."""

    node: Node
    type: Literal["int", "bool"]
    interval: Interval | None


def _suggest(word: str, options: Iterable[str], label: str) -> str:
    known = list(options)
    listing = f"{label}: {', '.join(known)}" if known else f"no {label}"
    prefixed = [option for option in known if option.startswith(word)]
    close = prefixed or difflib.get_close_matches(word, known, n=1)
    return f"did you mean '{close[0]}'? {listing}" if close else listing


# --- tokenizer ---

_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<int>[0-9]\w*)|(?P<name>[A-Za-z_]\w*)"
    r'|(?P<str>"[^"\n]*")|(?P<op>//|==|!=|<=|>=|[-+*(),<>])',
    re.ASCII,
)
_CHAR_HINTS = {
    "/": "use '//' for division (rounded by the system's rounding rule)",
    '"': 'close the label with " on the same line',
    "=": "use '==' to compare",
    "!": "use '!=' or 'not'",
    "&": "use 'and'",
    "|": "use 'or'",
    "'": 'labels use double quotes: "LABEL"',
}


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "int", "str", "name", "eof", or the operator/keyword itself
    text: str
    start: int
    end: int


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.lastgroup is None:
            raise _bad_char(text, pos)
        kind, word, end = match.lastgroup, match.group(), match.end()
        if kind == "int" and not word.isdigit():
            raise ExprError(
                f"invalid number '{word}'", pos, end, "names start with a letter"
            )
        if kind == "int" and len(word) > 1 and word[0] == "0":
            message = f"leading zeros are not allowed: '{word}'"
            raise ExprError(message, pos, end, f"write {int(word)}")
        if kind == "op" or word in KEYWORDS:
            kind = word
        if kind != "space":
            tokens.append(_Token(kind, word, pos, end))
        pos = end
    return [*tokens, _Token("eof", "", len(text), len(text))]


def _bad_char(text: str, pos: int) -> ExprError:
    char, end = text[pos], pos + 1
    if char == '"':
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        return ExprError("unterminated string literal", pos, end, _CHAR_HINTS[char])
    message = "'/' is not an operator" if char == "/" else f"unexpected {char!r}"
    return ExprError(message, pos, end, _CHAR_HINTS.get(char))


def _describe(tok: _Token) -> str:
    return "end of formula" if tok.kind == "eof" else f"'{tok.text}'"


# --- parser (recursive descent, one method per grammar rule) ---


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.tokens, self.pos = text, _tokenize(text), 0

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def next(self) -> _Token:
        tok = self.tokens[self.pos]
        self.pos += tok.kind != "eof"
        return tok

    def accept(self, kind: str) -> bool:
        found = self.peek().kind == kind
        self.pos += found
        return found

    def expect(self, kind: str, context: str) -> _Token:
        tok = self.peek()
        if tok.kind != kind:
            message = f"expected '{kind}' {context}, found {_describe(tok)}"
            raise ExprError(message, tok.start, tok.end)
        return self.next()

    def parse(self) -> Node:
        if self.peek().kind == "eof":
            raise ExprError("empty formula", 0, len(self.text))
        node = self.ternary()
        tok = self.peek()
        if tok.kind != "eof":
            missing = tok.kind in ("int", "name", "str", "(")
            hint = "is an operator missing before it?" if missing else None
            message = f"unexpected {_describe(tok)} after the end of the expression"
            raise ExprError(message, tok.start, tok.end, hint)
        return node

    def ternary(self) -> Node:
        body = self.or_expr()
        if not self.accept("if"):
            return body
        test = self.or_expr()
        self.expect("else", "after the condition of 'if'")
        orelse = self.ternary()
        return Cond(body, test, orelse, body.start, orelse.end)

    def binary(self, ops: tuple[str, ...], operand: Callable[[], Node]) -> Node:
        """A left-associative chain of `operand (op operand)*`."""
        left = operand()
        while self.peek().kind in ops:
            op = self.next().kind
            right = operand()
            left = Binary(op, left, right, left.start, right.end)
        return left

    def or_expr(self) -> Node:
        return self.binary(("or",), self.and_expr)

    def and_expr(self) -> Node:
        return self.binary(("and",), self.not_expr)

    def not_expr(self) -> Node:
        return self.prefix("not", self.not_expr, self.comparison)

    def comparison(self) -> Node:
        left = self.additive()
        op = self.peek()
        if op.kind not in COMPARE_OPS:
            return left
        self.next()
        right = self.additive()
        if (again := self.peek()).kind in COMPARE_OPS:
            hint = "combine two comparisons with 'and', e.g. a < b and b < c"
            message = "comparisons cannot be chained"
            raise ExprError(message, again.start, again.end, hint)
        return Binary(op.kind, left, right, left.start, right.end)

    def additive(self) -> Node:
        return self.binary(("+", "-"), self.term)

    def term(self) -> Node:
        return self.binary(("*", "//"), self.unary)

    def unary(self) -> Node:
        return self.prefix("-", self.unary, self.primary)

    def prefix(
        self, op: str, again: Callable[[], Node], other: Callable[[], Node]
    ) -> Node:
        tok = self.peek()
        if not self.accept(op):
            return other()
        operand = again()
        return Unary(op, operand, tok.start, operand.end)

    def primary(self) -> Node:
        tok = self.next()
        if tok.kind == "int":
            return IntLit(int(tok.text), tok.start, tok.end)
        if tok.kind == "str":
            return StrLit(tok.text[1:-1], tok.start, tok.end)
        if tok.kind in ("true", "false"):
            return BoolLit(tok.kind == "true", tok.start, tok.end)
        if tok.kind == "name" and self.peek().kind == "(":
            return self.call(tok)
        if tok.kind == "name":
            return Name(tok.text, tok.start, tok.end)
        if tok.kind == "(":
            inner = self.ternary()
            close = self.expect(")", f"to close '(' at offset {tok.start}")
            return replace(inner, start=tok.start, end=close.end)
        message = f"expected a number, name or '(' but found {_describe(tok)}"
        raise ExprError(message, tok.start, tok.end)

    def call(self, name: _Token) -> Node:
        func = name.text
        if func not in FUNCTIONS:
            hint = _suggest(func, FUNCTIONS, "known functions")
            raise ExprError(f"unknown function '{func}'", name.start, name.end, hint)
        self.next()  # the '('
        args = [] if self.peek().kind == ")" else [self.ternary()]
        while args and self.accept(","):
            args.append(self.ternary())
        close = self.expect(")", f"to close the arguments of '{func}'")
        least, most = FUNCTIONS[func]
        if len(args) < least or (most is not None and len(args) > most):
            want = f"exactly {least}" if least == most else f"at least {least}"
            message = f"{func}() takes {want} arguments, got {len(args)}"
            raise ExprError(message, name.start, close.end)
        return Call(func, tuple(args), name.start, close.end)


def parse(text: str) -> Node:
    """Parse formula source text into an AST; raises ExprError."""
    return _Parser(text).parse()


# --- interval arithmetic (None ends are infinities) ---


def _sign(value: int | None, infinity: int) -> int:
    return infinity if value is None else (value > 0) - (value < 0)


def _ends(iv: Interval) -> tuple[tuple[int | None, int], ...]:
    """Both ends, each with the sign of the infinity it stands for if None."""
    return ((iv.lo, -1), (iv.hi, 1))


def _hull(corners: list[tuple[int, Fraction]]) -> Interval:
    """Hull of (infinity sign, finite value) corners; floor/ceil keep it sound."""
    (lo_inf, lo), (hi_inf, hi) = min(corners), max(corners)
    return Interval(
        None if lo_inf else math.floor(lo), None if hi_inf else math.ceil(hi)
    )


def _iv_mul(a: Interval, b: Interval) -> Interval:
    corners: list[tuple[int, Fraction]] = []
    for x, x_inf in _ends(a):
        for y, y_inf in _ends(b):
            if x is not None and y is not None:
                corners.append((0, Fraction(x * y)))
            else:  # infinity times a 0 end is 0: that infinity is never reached
                corners.append((_sign(x, x_inf) * _sign(y, y_inf), Fraction(0)))
    return _hull(corners)


def _iv_div(a: Interval, b: Interval) -> Interval:
    """Sound hull of a // b rounded either way; b must exclude 0."""
    corners: list[tuple[int, Fraction]] = []
    for x, x_inf in _ends(a):
        for y, y_inf in _ends(b):
            if x is not None and y is not None:
                corners.append((0, Fraction(x, y)))
            elif x is not None:  # finite / infinite tends to 0
                corners.append((0, Fraction(0)))
            elif y is not None:  # infinite / finite; inf / inf adds nothing new
                corners.append((x_inf * _sign(y, y_inf), Fraction(0)))
    return _hull(corners)


def _iv_add(a: Interval, b: Interval) -> Interval:
    lo = None if a.lo is None or b.lo is None else a.lo + b.lo
    return Interval(lo, None if a.hi is None or b.hi is None else a.hi + b.hi)


def _iv_neg(a: Interval) -> Interval:
    return Interval(None if a.hi is None else -a.hi, None if a.lo is None else -a.lo)


def _iv_min(ivs: Sequence[Interval]) -> Interval:
    los = [iv.lo for iv in ivs if iv.lo is not None]
    his = [iv.hi for iv in ivs if iv.hi is not None]
    return Interval(min(los) if len(los) == len(ivs) else None, min(his, default=None))


def _iv_max(ivs: Sequence[Interval]) -> Interval:
    return _iv_neg(_iv_min([_iv_neg(iv) for iv in ivs]))


def _iv_hull(a: Interval, b: Interval) -> Interval:
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    return Interval(lo, None if a.hi is None or b.hi is None else max(a.hi, b.hi))


_IV_ARITH: dict[str, Callable[[Interval, Interval], Interval]] = {
    "+": _iv_add,
    "-": lambda a, b: _iv_add(a, _iv_neg(b)),
    "*": _iv_mul,
    "//": _iv_div,
}


# --- type and interval checking ---


def _require(items: Sequence[Checked], want: str, message: str) -> None:
    for item in items:
        if item.type != want:
            raise ExprError(message, item.node.start, item.node.end)


def _iv(item: Checked) -> Interval:
    assert item.interval is not None, item
    return item.interval


class _Checker:
    def __init__(self, params: Mapping[str, Param]) -> None:
        self.params = params

    def visit(self, node: Node) -> Checked:
        match node:
            case IntLit():
                return Checked(node, "int", Interval(node.value, node.value))
            case BoolLit():
                return Checked(node, "bool", None)
            case StrLit():
                message = "a string label can only be compared to a choice parameter"
                raise ExprError(message, node.start, node.end)
            case Name():
                return self.name(node)
            case Unary(op="-"):
                item = self.visit(node.operand)
                _require([item], "int", f"cannot negate {item.type}")
                return Checked(node, "int", _iv_neg(_iv(item)))
            case Unary():
                item = self.visit(node.operand)
                _require([item], "bool", f"'not' needs a bool operand, got {item.type}")
                return Checked(node, "bool", None)
            case Binary() if node.op in ARITH_OPS:
                return self.arith(node)
            case Binary() if node.op in COMPARE_OPS:
                return self.compare(node)
            case Binary():
                pair = [self.visit(node.left), self.visit(node.right)]
                got = f"got {pair[0].type} and {pair[1].type}"
                _require(pair, "bool", f"'{node.op}' needs bool operands, {got}")
                return Checked(node, "bool", None)
            case Cond():
                return self.cond(node)
            case Call():
                return self.call(node)
        raise AssertionError(node)

    def name(self, node: Name) -> Checked:
        param = self.params.get(node.name)
        if param is None:
            hint = _suggest(node.name, sorted(self.params), "known parameters")
            raise ExprError(f"unknown name '{node.name}'", node.start, node.end, hint)
        if param.type == "choice":
            message = f"choice parameter '{node.name}' can only be compared to a label"
            choices = ", ".join(param.choices)
            hint = f'write e.g. {node.name} == "LABEL"; valid choices: {choices}'
            raise ExprError(message, node.start, node.end, hint)
        if param.type == "bool":
            return Checked(node, "bool", None)
        return Checked(node, "int", Interval(param.min, param.max))

    def arith(self, node: Binary) -> Checked:
        left, right = self.visit(node.left), self.visit(node.right)
        message = f"cannot {ARITH_OPS[node.op]} {left.type} and {right.type}"
        _require([left, right], "int", message)
        divisor = _iv(right)
        if node.op == "//" and divisor.contains(0):
            message = "division by zero possible: divisor may be 0"
            hint = f"the divisor ranges over {divisor}; e.g. use max(divisor, 1)"
            raise ExprError(message, node.right.start, node.right.end, hint)
        return Checked(node, "int", _IV_ARITH[node.op](_iv(left), divisor))

    def compare(self, node: Binary) -> Checked:
        if self.choice_compare(node):
            return Checked(node, "bool", None)
        left, right = self.visit(node.left), self.visit(node.right)
        message = f"cannot compare {left.type} and {right.type} with '{node.op}'"
        if node.op not in ("==", "!="):
            _require([left, right], "int", message)
        elif left.type != right.type:
            raise ExprError(message, node.start, node.end)
        return Checked(node, "bool", None)

    def choice_compare(self, node: Binary) -> bool:
        """Check `choice == "LABEL"` (either order); False if not that shape."""
        for side, other in ((node.left, node.right), (node.right, node.left)):
            param = self.params.get(side.name) if isinstance(side, Name) else None
            if param is None or param.type != "choice":
                continue
            if not isinstance(other, StrLit):
                return False
            if node.op not in ("==", "!="):
                message = f"a choice needs == or != to compare, not '{node.op}'"
                raise ExprError(message, node.start, node.end)
            if other.value not in param.choices:
                message = f"unknown choice '{other.value}' for '{param.name}'"
                hint = _suggest(other.value, param.choices, "valid choices")
                raise ExprError(message, other.start, other.end, hint)
            return True
        return False

    def cond(self, node: Cond) -> Checked:
        test = self.visit(node.test)
        _require([test], "bool", f"the condition of 'if' must be bool, got {test.type}")
        body, orelse = self.visit(node.body), self.visit(node.orelse)
        if body.type != orelse.type:
            message = "the branches of 'if' have different types: "
            message += f"{body.type} and {orelse.type}"
            raise ExprError(message, node.start, node.end)
        if body.type == "bool":
            return Checked(node, "bool", None)
        return Checked(node, "int", _iv_hull(_iv(body), _iv(orelse)))

    def call(self, node: Call) -> Checked:
        args = [self.visit(arg) for arg in node.args]
        for arg in args:
            _require([arg], "int", f"{node.func}() needs int arguments, got {arg.type}")
        ivs = [_iv(arg) for arg in args]
        if node.func != "clamp":
            combine = _iv_min if node.func == "min" else _iv_max
            return Checked(node, "int", combine(ivs))
        value, lo, hi = ivs
        if lo.lo is not None and hi.hi is not None and lo.lo > hi.hi:
            message = f"clamp() lower bound ({lo}) is above its upper bound ({hi})"
            raise ExprError(message, node.args[1].start, node.args[2].end)
        return Checked(node, "int", _iv_min([_iv_max([value, lo]), hi]))


def check(node: Node, params: Mapping[str, Param]) -> Checked:
    """Type-check a parsed formula and compute its integer range."""
    return _Checker(params).visit(node)


def compile_formula(text: str, params: Mapping[str, Param]) -> Checked:
    """Parse and check formula source text; raises ExprError."""
    return check(parse(text), params)


# --- emission: Python, math text and canonical source ---

_COND, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _UNARY, _ATOM = range(9)
_PREC = {"or": _OR, "and": _AND, "+": _ADD, "-": _ADD, "*": _MUL, "//": _MUL}
_MATH_OPS = {"*": "\N{MULTIPLICATION SIGN}", "==": "=", "!=": "≠", "<=": "≤", ">=": "≥"}


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


@dataclass(frozen=True, slots=True)
class _Emitter:
    mode: Literal["python", "math", "source"]
    rounding: Rounding = "down"
    name: Callable[[str], str] = str
    choice: Callable[[str, str], str] = _no_choice

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def operand(self, node: Node, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: `a - (-b)`, `-(-x)`."""
        text, own = self.emit(node)
        return f"({text})" if own < prec or own == _UNARY else text

    def sym(self, op: str) -> str:
        return _MATH_OPS.get(op, op) if self.mode == "math" else op

    def emit(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return str(node.value), _ATOM
            case BoolLit():
                text = "true" if node.value else "false"
                return (text.title() if self.mode == "python" else text), _ATOM
            case StrLit():
                if self.mode == "python":
                    raise ValueError("a label must be compared to a choice parameter")
                return '"' + node.value.replace("`", "'") + '"', _ATOM
            case Name():
                return self.name(node.name), _ATOM
            case Unary(op="-"):
                return "-" + self.operand(node.operand, _UNARY), _UNARY
            case Unary():
                return "not " + self.wrap(node.operand, _NOT), _NOT
            case Binary() if node.op in COMPARE_OPS:
                return self.compare(node), _CMP
            case Binary() if node.op == "//" and self.mode != "source":
                return self.divide(node)
            case Binary():
                prec = _PREC[node.op]
                left = self.wrap(node.left, prec)
                right = self.operand(node.right, prec + 1)
                return f"{left} {self.sym(node.op)} {right}", prec
            case Cond():
                body, test = self.wrap(node.body, _OR), self.wrap(node.test, _OR)
                return f"{body} if {test} else {self.wrap(node.orelse, _COND)}", _COND
            case Call():
                args = [self.wrap(arg, _COND) for arg in node.args]
                if self.mode == "python" and node.func == "clamp":
                    return f"min(max({args[0]}, {args[1]}), {args[2]})", _ATOM
                return f"{node.func}({', '.join(args)})", _ATOM
        raise AssertionError(node)

    def divide(self, node: Binary) -> tuple[str, int]:
        left, right = self.wrap(node.left, _MUL), self.operand(node.right, _UNARY)
        if self.mode == "math":
            opening, closing = ("⌊", "⌋") if self.rounding == "down" else ("⌈", "⌉")
            return f"{opening}{left} ÷ {right}{closing}", _ATOM
        if self.rounding == "down":
            return f"{left} // {right}", _MUL
        return f"-(-{self.wrap(node.left, _ATOM)} // {right})", _UNARY

    def compare(self, node: Binary) -> str:
        sides = (node.left, node.right)
        labels = [side for side in sides if isinstance(side, StrLit)]
        if self.mode != "python" or not labels:
            left, right = self.wrap(node.left, _ADD), self.wrap(node.right, _ADD)
            return f"{left} {self.sym(node.op)} {right}"
        param = node.right if labels[0] is node.left else node.left
        if not isinstance(param, Name) or len(labels) != 1:
            raise ValueError("a label must be compared to a choice parameter")
        left, right = (
            self.choice(param.name, side.value)
            if isinstance(side, StrLit)
            else self.name(param.name)
            for side in sides
        )
        return f"{left} {'is' if node.op == '==' else 'is not'} {right}"


def to_python(
    node: Node,
    *,
    name: Callable[[str], str],
    choice: Callable[[str, str], str],
    rounding: Rounding,
) -> str:
    """A Python expression for a checked formula, with minimal parentheses."""
    return _Emitter("python", rounding, name, choice).emit(node)[0]


def to_math(node: Node, *, rounding: Rounding) -> str:
    """Human-readable math text for docs (never contains a backtick)."""
    return _Emitter("math", rounding).emit(node)[0]


def to_source(node: Node) -> str:
    """Canonical formula source text: parse(to_source(node)) == node."""
    return _Emitter("source").emit(node)[0]


# --- reference evaluator and AST walking ---

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def evaluate(
    node: Node, env: Mapping[str, int | bool | str], *, rounding: Rounding
) -> int | bool:
    """Evaluate a checked formula; choice parameters map to their label."""
    value: int | bool | str = _eval(node, env, rounding)
    if isinstance(value, str):
        raise TypeError("a formula cannot produce a label")
    return value


def _eval(node: Node, env: Mapping[str, int | bool | str], rounding: Rounding) -> Any:
    def sub(child: Node) -> Any:
        return _eval(child, env, rounding)

    match node:
        case IntLit() | StrLit() | BoolLit():
            return node.value
        case Name():
            return env[node.name]
        case Unary():
            return -sub(node.operand) if node.op == "-" else not sub(node.operand)
        case Binary(op="and"):
            return bool(sub(node.left)) and bool(sub(node.right))
        case Binary(op="or"):
            return bool(sub(node.left)) or bool(sub(node.right))
        case Binary(op="//"):
            a, b = sub(node.left), sub(node.right)
            return a // b if rounding == "down" else -(-a // b)
        case Binary():
            return _OPERATORS[node.op](sub(node.left), sub(node.right))
        case Cond():
            return sub(node.body) if sub(node.test) else sub(node.orelse)
        case Call():
            args = [sub(arg) for arg in node.args]
            if node.func == "clamp":
                return min(max(args[0], args[1]), args[2])
            return min(args) if node.func == "min" else max(args)
    raise AssertionError(node)


def _children(node: Node) -> tuple[Node, ...]:
    match node:
        case Unary():
            return (node.operand,)
        case Binary():
            return (node.left, node.right)
        case Cond():
            return (node.body, node.test, node.orelse)
        case Call():
            return node.args
    return ()


def names_used(node: Node) -> frozenset[str]:
    """Every parameter name the formula refers to."""
    if isinstance(node, Name):
        return frozenset({node.name})
    return frozenset[str]().union(*(names_used(child) for child in _children(node)))
