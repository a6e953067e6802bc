"""Formula expressions: parse, type-check, emit Python and math text.

Values are int, bool, text and choice, each possibly nullable (null, `??`,
`== null`); `table(key).field` reads a field of a table rule's row, and
`mapping[key]` a mapping parameter's value. A key that may be null gives null.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

from .expr_types import (
    DICE_PARTS,
    FUNCTIONS,
    IV_ARITH,
    Attr,
    Binary,
    BoolLit,
    Call,
    Checked,
    Cond,
    Field,
    Function,
    Index,
    Interval,
    IntLit,
    Ladder,
    Name,
    Node,
    NullLit,
    Param,
    Rounding,
    Step,
    StrLit,
    Table,
    Unary,
    ValueType,
    choice_name,
    describe,
    evaluate,
    fits,
    iv_hull,
    iv_max,
    iv_min,
    iv_neg,
    names_used,
    rules_called,
    same_choice,
    tables_used,
    uses_steps,
    walk,
)

__all__ = [
    "ARITH_OPS",
    "COMPARE_OPS",
    "DICE_PARTS",
    "FUNCTIONS",
    "KEYWORDS",
    "Attr",
    "Binary",
    "BoolLit",
    "Call",
    "Checked",
    "Cond",
    "ExprError",
    "Field",
    "Function",
    "Index",
    "IntLit",
    "Interval",
    "Ladder",
    "Name",
    "Node",
    "NullLit",
    "Param",
    "Rounding",
    "Step",
    "StrLit",
    "Table",
    "Unary",
    "ValueType",
    "check",
    "compile_formula",
    "evaluate",
    "fits",
    "names_used",
    "parse",
    "rules_called",
    "rules_called_in",
    "tables_used",
    "to_math",
    "to_python",
    "to_source",
    "uses_steps",
]

KEYWORDS = frozenset({"if", "else", "and", "or", "not", "true", "false", "null"})
COMPARE_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
ARITH_OPS = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide"}
_NO_TABLES: Mapping[str, Table] = MappingProxyType({})
_NO_FUNCTIONS: Mapping[str, Function] = MappingProxyType({})
_NO_LADDERS: Mapping[str, Ladder] = MappingProxyType({})


class ExprError(Exception):
    """A formula error at source offsets start..end (end exclusive)."""

    def __init__(
        self, message: str, start: int, end: int, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.message, self.start, self.end, self.hint = message, start, end, hint


def _suggest(word: str, options: Iterable[str], label: str) -> str:
    known = list(options)
    listing = f"{label}: {', '.join(known)}" if known else f"no {label}"
    prefixed = [option for option in known if option.startswith(word)]
    close = prefixed or difflib.get_close_matches(word, known, n=1)
    return f"did you mean '{close[0]}'? {listing}" if close else listing


# --- tokenizer ---

_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<int>[0-9]\w*)|(?P<name>[A-Za-z_]\w*)"
    r'|(?P<str>"[^"\n]*")|(?P<op>//|==|!=|<=|>=|\?\?|[-+*(),<>.\[\]])',
    re.ASCII,
)
_DECIMAL = re.compile(r"\.[0-9]+", re.ASCII)
_CHAR_HINTS = {
    "/": "use '//' for division (rounded by the system's rounding rule)",
    '"': 'close the label with " on the same line',
    "=": "use '==' to compare",
    "!": "use '!=' or 'not'",
    "&": "use 'and'",
    "|": "use 'or'",
    "'": 'labels use double quotes: "LABEL"',
    "?": "use '??' to give a default to a value that may be null",
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
        if kind == "int" and (fraction := _DECIMAL.match(text, end)):
            message = f"decimal numbers are not allowed: '{text[pos : fraction.end()]}'"
            hint = "formulas use whole numbers; divide with '//'"
            raise ExprError(message, pos, fraction.end(), hint)
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
            missing = tok.kind in ("int", "name", "str", "(", "null")
            hint = "is an operator missing before it?" if missing else None
            message = f"unexpected {_describe(tok)} after the end of the expression"
            raise ExprError(message, tok.start, tok.end, hint)
        return node

    def ternary(self) -> Node:
        body = self.coalesce()
        if not self.accept("if"):
            return body
        test = self.coalesce()
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

    def coalesce(self) -> Node:
        return self.binary(("??",), self.or_expr)

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
        return self.prefix("-", self.unary, self.postfix)

    def prefix(
        self, op: str, again: Callable[[], Node], other: Callable[[], Node]
    ) -> Node:
        tok = self.peek()
        if not self.accept(op):
            return other()
        operand = again()
        return Unary(op, operand, tok.start, operand.end)

    def postfix(self) -> Node:
        """A primary followed by `.field`s and `[index]`es."""
        node = self.primary()
        while True:
            opening = self.peek()
            if self.accept("["):
                index = self.ternary()
                context = f"to close '[' at offset {opening.start}"
                close = self.expect("]", context)
                node = Index(node, index, node.start, close.end)
                continue
            if not self.accept("."):
                return node
            tok = self.next()
            if tok.kind != "name":
                message = f"expected a field name after '.', found {_describe(tok)}"
                raise ExprError(message, tok.start, tok.end)
            node = Attr(node, tok.text, node.start, tok.end)

    def primary(self) -> Node:
        tok = self.next()
        if tok.kind == "int":
            return IntLit(int(tok.text), tok.start, tok.end)
        if tok.kind == "str":
            return StrLit(tok.text[1:-1], tok.start, tok.end)
        if tok.kind in ("true", "false"):
            return BoolLit(tok.kind == "true", tok.start, tok.end)
        if tok.kind == "null":
            return NullLit(tok.start, tok.end)
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
        """A built-in call (arity checked here) or a table lookup (by check)."""
        func = name.text
        self.next()  # the '('
        args = [] if self.peek().kind == ")" else [self.ternary()]
        while args and self.accept(","):
            args.append(self.ternary())
        close = self.expect(")", f"to close the arguments of '{func}'")
        least, most = FUNCTIONS.get(func, (0, None))
        if len(args) < least or (most is not None and len(args) > most):
            want = f"exactly {least}" if least == most else f"at least {least}"
            message = f"{func}() takes {want} arguments, got {len(args)}"
            raise ExprError(message, name.start, close.end)
        return Call(func, tuple(args), name.start, close.end)


def parse(text: str) -> Node:
    """Parse formula source text into an AST; raises ExprError."""
    return _Parser(text).parse()


# --- type and interval checking ---


def _iv(item: Checked) -> Interval:
    assert item.interval is not None, item
    return item.interval


def _span(node: Node) -> tuple[int, int]:
    return node.start, node.end


class _Checker:
    def __init__(
        self,
        params: Mapping[str, Param],
        tables: Mapping[str, Table],
        functions: Mapping[str, Function] = _NO_FUNCTIONS,
        ladders: Mapping[str, Ladder] = _NO_LADDERS,
    ) -> None:
        self.params, self.tables, self.functions = params, tables, functions
        self.ladders = ladders
        self.owners: dict[str | tuple[str, ...] | None, str] = {}
        for param in params.values():  # a choice parameter of each enum
            if param.type == "choice":
                self.owners.setdefault(param.enum, param.name)
                self.owners.setdefault(param.choices, param.name)
        self.owners.pop(None, None)

    def check_namespace(self, root: Node) -> None:
        """Parameters, tables and built-in functions share one namespace."""
        clashes = [
            (name, f"parameter '{name}' has the name of a table")
            for name in self.params
            if name in self.tables
        ]
        clashes += [
            (name, f"table '{name}' has the name of a built-in function")
            for name in self.tables
            if name in FUNCTIONS
        ]
        for name, message in clashes:
            uses = (
                node
                for node in walk(root)
                if (isinstance(node, Name) and node.name == name)
                or (isinstance(node, Call) and node.func == name)
            )
            use = next(uses, root)
            start = use.start
            end = start + len(name) if use is not root else use.end
            hint = "rename one: parameters, tables and functions share one namespace"
            raise ExprError(message, start, end, hint)

    def need(self, items: Sequence[Checked], want: str, message: str) -> None:
        """Each item must have type `want` and never be null."""
        for item in items:
            if item.type != want:
                hint = self.choice_hint(item)
                raise ExprError(message, *_span(item.node), hint)
            if item.nullable:
                raise ExprError(message, *_span(item.node), _null_hint(item))

    def choice_hint(self, item: Checked) -> str | None:
        if item.type != "choice" or not item.choices:
            return None
        example = f'{to_source(item.node)} == "{item.choices[0]}"'
        choices = ", ".join(item.choices)
        return f"compare a choice with ==, e.g. {example}; valid choices: {choices}"

    def visit(self, node: Node) -> Checked:
        match node:
            case IntLit():
                return Checked(node, "int", Interval(node.value, node.value))
            case BoolLit():
                return Checked(node, "bool", None)
            case NullLit():
                return Checked(node, "null", None, nullable=True)
            case StrLit():  # a text value; labels are resolved by compare()
                return Checked(replace(node, enum=None, param=None), "text", None)
            case Name():
                return self.name(node)
            case Unary(op="-"):
                item = self.visit(node.operand)
                self.need([item], "int", f"cannot negate {describe(item)}")
                return Checked(
                    replace(node, operand=item.node), "int", iv_neg(_iv(item))
                )
            case Unary():
                item = self.visit(node.operand)
                message = f"'not' needs a bool operand, got {describe(item)}"
                self.need([item], "bool", message)
                return Checked(replace(node, operand=item.node), "bool", None)
            case Binary(op="??"):
                return self.coalesce(node)
            case Binary() if node.op in ARITH_OPS:
                return self.arith(node)
            case Binary() if node.op in COMPARE_OPS:
                return self.compare(node)
            case Binary():
                left, right = self.visit(node.left), self.visit(node.right)
                got = f"got {describe(left)} and {describe(right)}"
                self.need(
                    [left, right], "bool", f"'{node.op}' needs bool operands, {got}"
                )
                return Checked(
                    replace(node, left=left.node, right=right.node), "bool", None
                )
            case Cond():
                return self.cond(node)
            case Call() if node.func in FUNCTIONS:
                return self.call(node)
            case Call() if node.func in self.functions:
                return self.rule_call(node)
            case Call():
                raise self.bad_call(node)
            case Attr():
                return self.attr(node)
            case Index():
                return self.index(node)
        raise AssertionError(node)

    def name(self, node: Name) -> Checked:
        param = self.params.get(node.name)
        if param is None and node.name in self.tables:
            message = f"'{node.name}' is a table, not a value"
            hint = f"look up a field of a row: {self.example(node.name)}"
            raise ExprError(message, node.start, node.end, hint)
        if param is None:
            hint = _suggest(node.name, sorted(self.params), "known parameters")
            raise ExprError(f"unknown name '{node.name}'", node.start, node.end, hint)
        if param.type == "mapping":
            use = self.index_example(param)
            message = f"'{node.name}' is a mapping, not a value: use {use}"
            hint = f"valid keys: {', '.join(param.key_labels)}"
            raise ExprError(message, node.start, node.end, hint)
        nullable = param.nullable
        if param.type == "choice":
            return Checked(node, "choice", None, nullable, param.enum, param.choices)
        if param.type == "bool":
            return Checked(node, "bool", None, nullable)
        return Checked(node, "int", Interval(param.min, param.max), nullable)

    def example(self, table_name: str, key: str | None = None) -> str:
        """An example lookup of the table: cover(level).cover_ac."""
        table = self.tables[table_name]
        if key is None:
            key = self.key_example(table.key_enum, table.key_labels)
        return f"{table_name}({key}).{next(iter(table.fields), 'FIELD')}"

    def index_example(self, mapping: Param) -> str:
        """An example use of a mapping parameter: exposure[location]."""
        key = self.key_example(mapping.key_enum, mapping.key_labels)
        return f"{mapping.name}[{key}]"

    def key_example(self, enum: str | None, labels: tuple[str, ...]) -> str:
        """A key for an example: a (preferably non-null) parameter, or a label."""
        keys = sorted(
            (p for p in self.params.values() if self.is_key(p, enum, labels)),
            key=lambda p: p.nullable,
        )
        return keys[0].name if keys else f'"{next(iter(labels), "KEY")}"'

    @staticmethod
    def is_key(param: Param, enum: str | None, labels: tuple[str, ...]) -> bool:
        return param.type == "choice" and same_choice(
            param.enum, param.choices, enum, labels
        )

    def arith(self, node: Binary) -> Checked:
        left, right = self.visit(node.left), self.visit(node.right)
        if (
            left.type == "choice"
            and node.op in ("+", "-")
            and left.enum in self.ladders
        ):
            return self.step(node, left, right)
        verb = ARITH_OPS[node.op]
        message = f"cannot {verb} {describe(left)} and {describe(right)}"
        self.need([left, right], "int", message)
        divisor = _iv(right)
        if node.op == "//" and divisor.contains(0):
            message = "division by zero possible: divisor may be 0"
            hint = f"the divisor ranges over {divisor}; e.g. use max(divisor, 1)"
            raise ExprError(message, node.right.start, node.right.end, hint)
        interval = IV_ARITH[node.op](_iv(left), divisor)
        return Checked(replace(node, left=left.node, right=right.node), "int", interval)

    def step(self, node: Binary, left: Checked, right: Checked) -> Checked:
        """`level - 2`: steps along an ordered enum."""
        ladder = self.ladders[left.enum or ""]
        message = f"a step along {ladder.enum} is a whole number, got {describe(right)}"
        self.need([right], "int", message)
        by: Node = right.node
        if node.op == "-":
            by = Unary("-", right.node, node.right.start, node.right.end)
        rebuilt = Step(left.node, by, ladder, node.start, node.end)
        nullable = left.nullable or ladder.past_end == "none"
        return Checked(rebuilt, "choice", None, nullable, left.enum, left.choices)

    def compare(self, node: Binary) -> Checked:
        left, right = self.visit(node.left), self.visit(node.right)
        result = Checked(replace(node, left=left.node, right=right.node), "bool", None)
        equality = node.op in ("==", "!=")
        for side, other, lit_first in ((left, right, False), (right, left, True)):
            if isinstance(other.node, StrLit) and side.type == "choice":
                resolved = self.label(node, side, other.node)
                pair = (resolved, side.node) if lit_first else (side.node, resolved)
                return replace(result, node=replace(node, left=pair[0], right=pair[1]))
        if equality and "null" in (left.type, right.type):
            for side in (left, right):
                if not side.nullable:
                    message = f"'{to_source(side.node)}' is never null"
                    why = "only a value that may be null can be compared with null"
                    raise ExprError(message, *_span(side.node), why)
            return result
        if left.type == right.type == "choice":
            if not equality:
                message = f"a choice needs == or != to compare, not '{node.op}'"
                raise ExprError(message, node.start, node.end)
            if not same_choice(left.enum, left.choices, right.enum, right.choices):
                mine = choice_name(left.enum, left.choices)
                theirs = choice_name(right.enum, right.choices)
                message = f"cannot compare a choice of {mine} with one of {theirs}"
                raise ExprError(message, node.start, node.end)
            return result
        types = f"{describe(left)} and {describe(right)}"
        message = f"cannot compare {types} with '{node.op}'"
        if not equality:
            self.need([left, right], "int", message)
        elif left.type != right.type:
            hint = self.choice_hint(left) or self.choice_hint(right)
            raise ExprError(message, node.start, node.end, hint)
        return result

    def label(self, node: Binary, choice: Checked, lit: StrLit) -> StrLit:
        """Check `choice == "LABEL"` (either order); the label gets its enum."""
        if node.op not in ("==", "!="):
            message = f"a choice needs == or != to compare, not '{node.op}'"
            raise ExprError(message, node.start, node.end)
        if lit.value not in choice.choices:
            message = f"unknown choice '{lit.value}' for '{to_source(choice.node)}'"
            hint = _suggest(lit.value, choice.choices, "valid choices")
            raise ExprError(message, lit.start, lit.end, hint)
        owner = choice.node.name if isinstance(choice.node, Name) else None
        owner = owner or self.owner(choice.enum, choice.choices)
        return replace(lit, enum=choice.enum, param=owner)

    def owner(self, enum: str | None, choices: tuple[str, ...]) -> str | None:
        """A choice parameter of that enum (for the `choice` emitter callback)."""
        return self.owners.get(enum) or self.owners.get(choices)

    def unify(self, a: Checked, b: Checked, node: Node, what: str) -> Checked:
        """The type of a value that is either a or b (branches, sides of ??)."""
        if a.type == "null" or b.type == "null":
            value = b if a.type == "null" else a
            return replace(value, node=node, nullable=True)
        if a.type != b.type:
            message = f"{what} have different types: {describe(a)} and {describe(b)}"
            raise ExprError(message, node.start, node.end)
        if a.type == "choice" and not same_choice(a.enum, a.choices, b.enum, b.choices):
            mine, theirs = (
                choice_name(a.enum, a.choices),
                choice_name(b.enum, b.choices),
            )
            message = f"{what} are choices of different enums: {mine} and {theirs}"
            raise ExprError(message, node.start, node.end)
        interval = iv_hull(_iv(a), _iv(b)) if a.type == "int" else None
        nullable, enum = a.nullable or b.nullable, a.enum or b.enum
        return Checked(node, a.type, interval, nullable, enum, a.choices or b.choices)

    def cond(self, node: Cond) -> Checked:
        test = self.visit(node.test)
        message = f"the condition of 'if' must be bool, got {describe(test)}"
        self.need([test], "bool", message)
        body, orelse = self.visit(node.body), self.visit(node.orelse)
        rebuilt = replace(node, body=body.node, test=test.node, orelse=orelse.node)
        return self.unify(body, orelse, rebuilt, "the branches of 'if'")

    def coalesce(self, node: Binary) -> Checked:
        left = self.visit(node.left)
        if not left.nullable:
            message = f"'{to_source(left.node)}' is never null: '??' has no effect"
            hint = "remove the '??' and its default"
            raise ExprError(message, *_span(left.node), hint)
        right = self.visit(node.right)
        rebuilt = replace(node, left=left.node, right=right.node)
        if left.type == "null":
            return replace(right, node=rebuilt)
        value = replace(left, nullable=False)
        return self.unify(value, right, rebuilt, "the sides of '??'")

    def call(self, node: Call) -> Checked:
        args = [self.visit(arg) for arg in node.args]
        for arg in args:
            message = f"{node.func}() needs int arguments, got {describe(arg)}"
            self.need([arg], "int", message)
        rebuilt = replace(node, args=tuple(arg.node for arg in args))
        ivs = [_iv(arg) for arg in args]
        if node.func != "clamp":
            combine = iv_min if node.func == "min" else iv_max
            return Checked(rebuilt, "int", combine(ivs))
        value, lo, hi = ivs
        if lo.lo is not None and hi.hi is not None and lo.lo > hi.hi:
            message = f"clamp() lower bound ({lo}) is above its upper bound ({hi})"
            raise ExprError(message, node.args[1].start, node.args[2].end)
        return Checked(rebuilt, "int", iv_min([iv_max([value, lo]), hi]))

    def rule_call(self, node: Call) -> Checked:
        """`formula(a, b)`: another rule of the system, with its arguments checked."""
        function = self.functions[node.func]
        params = function.params
        if len(node.args) != len(params):
            names = ", ".join(p.name for p in params)
            message = (
                f"{node.func}() takes {len(params)} argument"
                f"{'s' if len(params) != 1 else ''} ({names}), got {len(node.args)}"
            )
            raise ExprError(message, node.start, node.end)
        args = []
        for arg, param in zip(node.args, params, strict=True):
            if param.type == "choice":
                what = f"argument '{param.name}' of {node.func}()"
                key, null_key = self.key(arg, what, param.enum, param.choices, None)
                if null_key and not param.nullable:
                    item = self.visit(arg)
                    raise ExprError(
                        f"{what} may be null", *_span(arg), _null_hint(item)
                    )
                args.append(key)
                continue
            item = self.visit(arg)
            message = (
                f"argument '{param.name}' of {node.func}() is {param.type}, "
                f"got {describe(item)}"
            )
            self.need([item], param.type, message)
            if param.type == "int":
                iv, allowed = _iv(item), Interval(param.min, param.max)
                low = param.min is not None and (iv.lo is None or iv.lo < param.min)
                high = param.max is not None and (iv.hi is None or iv.hi > param.max)
                if low or high:
                    message = (
                        f"argument '{param.name}' of {node.func}() may be {iv}, "
                        f"but {function.rule} allows only {allowed}"
                    )
                    hint = "bound it with clamp(x, lo, hi), or give the parameter min and max"
                    raise ExprError(message, *_span(arg), hint)
            args.append(item.node)
        rebuilt = replace(node, args=tuple(args), rule=True)
        return _of_slot(rebuilt, function.result, False)

    def bad_call(self, node: Call) -> ExprError:
        """A call that is not a built-in and not followed by `.field`."""
        func, start = node.func, node.start
        if func in self.tables:
            key = to_source(node.args[0]) if len(node.args) == 1 else None
            message = f"use a field of the row, e.g. {self.example(func, key)}"
            if not self.tables[func].fields:
                message = f"the table '{func}' has no fields usable in formulas"
            return ExprError(message, node.start, node.end)
        if func in self.params:
            message = f"'{func}' is a parameter, not a function or table"
            param = self.params[func]
            hint = None
            if param.type == "mapping":
                hint = f"index a mapping with [], e.g. {self.index_example(param)}"
            return ExprError(message, start, start + len(func), hint)
        label = (
            "known functions, tables and rules"
            if self.functions
            else "known functions and tables"
            if self.tables
            else "known functions"
        )
        hint = _suggest(func, [*FUNCTIONS, *self.tables, *self.functions], label)
        return ExprError(f"unknown function '{func}'", start, start + len(func), hint)

    def attr(self, node: Attr) -> Checked:
        call = node.obj
        if not isinstance(call, Call) or call.func not in self.tables:
            item = self.visit(call)
            if item.type == "dice":
                return self.dice_part(node, item)

            message = f"'{to_source(call)}' is {describe(item)}, not a table row"
            hint = "only a table lookup has fields"
            if self.tables:
                hint += f", e.g. {self.example(next(iter(self.tables)))}"
            raise ExprError(f"{message}: it has no fields", *_span(call), hint)
        table = self.tables[call.func]
        if len(call.args) != 1:
            message = f"{call.func}() takes exactly 1 argument (a {table.key_enum} key)"
            raise ExprError(f"{message}, got {len(call.args)}", *_span(call))
        what, labels = f"{call.func}()", table.key_labels
        key, null_key = self.key(call.args[0], what, table.key_enum, labels, None)
        slot = table.fields.get(node.name)
        if slot is None:
            message = f"unknown field '{node.name}' of {call.func}()"
            hint = _suggest(node.name, table.fields, "fields")
            raise ExprError(message, node.end - len(node.name), node.end, hint)
        lookup = replace(call, args=(key,), nullable_key=null_key)
        return _of_slot(replace(node, obj=lookup), slot, null_key)

    def dice_part(self, node: Attr, item: Checked) -> Checked:
        """`dice.min`: an integer part of a dice value."""
        parts = {name: (lo, hi) for name, lo, hi in item.parts}
        if node.name not in parts:
            message = f"a dice value has no part '{node.name}'"
            hint = _suggest(node.name, DICE_PARTS, "parts")
            raise ExprError(message, node.end - len(node.name), node.end, hint)
        if item.nullable:
            message = f"'{to_source(item.node)}' may be null: it has no {node.name}"
            raise ExprError(
                message, *_span(item.node), "look it up with a key that is never null"
            )
        lo, hi = parts[node.name]
        return Checked(replace(node, obj=item.node), "int", Interval(lo, hi))

    def index(self, node: Index) -> Checked:
        """`mapping[key]`: the value of a mapping parameter for a key."""
        obj = node.obj
        param = self.params.get(obj.name) if isinstance(obj, Name) else None
        if param is None or param.type != "mapping":
            if isinstance(obj, Name) and param is None:
                self.visit(obj)  # an unknown name, or a table: say so
            mappings = [p.name for p in self.params.values() if p.type == "mapping"]
            hint = "mapping parameters: " + ", ".join(mappings)
            message = f"only a mapping parameter can be indexed, not '{to_source(obj)}'"
            raise ExprError(message, *_span(obj), hint if mappings else None)
        if param.value is None:
            message = f"the mapping parameter '{param.name}' has no value type"
            raise ExprError(message, *_span(obj))
        what, enum, labels = f"{param.name}[]", param.key_enum, param.key_labels
        key, null_key = self.key(node.index, what, enum, labels, param.name)
        rebuilt = replace(node, index=key, nullable_key=null_key)
        return _of_slot(rebuilt, param.value, null_key)

    def key(
        self,
        arg: Node,
        what: str,
        enum: str | None,
        labels: tuple[str, ...],
        mapping: str | None,
    ) -> tuple[Node, bool]:
        """Check a table key or mapping index: a key choice or one of its labels.

        Gives the checked key and whether it may be null. A label names the
        enum, and a choice parameter of it (else the mapping, if any).
        """
        kind = choice_name(enum, labels)
        if isinstance(arg, StrLit):
            if arg.value not in labels:
                message = f"unknown key '{arg.value}' for {what}"
                hint = _suggest(arg.value, labels, "valid keys")
                raise ExprError(message, *_span(arg), hint)
            owner = self.owner(enum, labels) or mapping
            return replace(arg, enum=enum, param=owner), False
        item = self.visit(arg)
        if item.type == "choice" and same_choice(item.enum, item.choices, enum, labels):
            return item.node, item.nullable
        got = describe(item)
        if item.type == "choice":
            got = f"a choice of {choice_name(item.enum, item.choices)}"
        message = f"{what} needs a {kind} key, got {got}"
        hint = f"pass a {kind} choice or one of its labels: {', '.join(labels)}"
        raise ExprError(message, *_span(arg), hint)


def _of_slot(node: Node, slot: Field, null_key: bool) -> Checked:
    """A field's or mapping value's type; nullable too if its key may be null."""
    nullable = slot.nullable or null_key
    if slot.type == "int":
        return Checked(node, "int", Interval(slot.min, slot.max), nullable)
    if slot.type == "choice":
        return Checked(node, "choice", None, nullable, slot.enum, slot.choices)
    if slot.type == "dice":
        return Checked(node, "dice", None, nullable, parts=slot.parts)
    return Checked(node, slot.type, None, nullable)


def _null_hint(item: Checked) -> str:
    return f"'{to_source(item.node)}' may be null: give a default with ??"


def check(
    node: Node,
    params: Mapping[str, Param],
    *,
    tables: Mapping[str, Table] = _NO_TABLES,
    functions: Mapping[str, Function] = _NO_FUNCTIONS,
    ladders: Mapping[str, Ladder] = _NO_LADDERS,
) -> Checked:
    """Type-check a parsed formula and compute its integer range.

    The returned node equals `node` but has its choice labels resolved: emit
    Python from it, not from the parsed tree.
    """
    checker = _Checker(params, tables, functions, ladders)
    checker.check_namespace(node)
    return checker.visit(node)


def rules_called_in(text: str, names: Iterable[str]) -> frozenset[str]:
    """The names among ``names`` that formula text calls (raises ExprError)."""
    known = set(names)
    return frozenset(
        node.func
        for node in walk(parse(text))
        if isinstance(node, Call) and node.func in known
    )


def compile_formula(
    text: str,
    params: Mapping[str, Param],
    *,
    tables: Mapping[str, Table] = _NO_TABLES,
    functions: Mapping[str, Function] = _NO_FUNCTIONS,
    ladders: Mapping[str, Ladder] = _NO_LADDERS,
) -> Checked:
    """Parse and check formula source text; raises ExprError."""
    _check_size(text)
    return check(
        parse(text), params, tables=tables, functions=functions, ladders=ladders
    )


# Limits that keep every stage (parser, checker, emitters, int-to-text) far from
# Python's recursion limit and its 4300-digit conversion limit.
MAX_OPERATORS = 100
MAX_NESTING = 20
MAX_DIGITS = 15
_OPERATORS = frozenset({*ARITH_OPS, *COMPARE_OPS, "??", "and", "or", "not", "if", "."})


def _check_size(text: str) -> None:
    """Refuse a formula too big to be a rule's: too many operators, too deep."""
    depth = deepest = operators = 0
    for tok in _tokenize(text):
        if tok.kind in ("(", "["):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                message = f"brackets nested deeper than {MAX_NESTING}"
                raise ExprError(message, tok.start, tok.end, "simplify the formula")
        elif tok.kind in (")", "]"):
            depth -= 1
        elif tok.kind in _OPERATORS:
            operators += 1
        elif tok.kind == "int" and len(tok.text) > MAX_DIGITS:
            message = f"number {tok.text[:10]}... has more than {MAX_DIGITS} digits"
            raise ExprError(message, tok.start, tok.end)
    if operators > MAX_OPERATORS:
        message = f"too many operators: {operators} (at most {MAX_OPERATORS})"
        raise ExprError(message, 0, len(text), "split it across rules, or simplify it")


# --- emission: Python, math text and canonical source ---

_COND, _COALESCE, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _UNARY, _ATOM = range(10)
_PREC = {
    "??": _COALESCE,
    "or": _OR,
    "and": _AND,
    "+": _ADD,
    "-": _ADD,
    "*": _MUL,
    "//": _MUL,
}
_MATH_OPS = {"*": "\N{MULTIPLICATION SIGN}", "==": "=", "!=": "≠", "<=": "≤", ">=": "≥"}
_PLAIN = (Name, NullLit, BoolLit)  # `3 is None` would be a SyntaxWarning
_NULL = {"python": "None", "math": "none", "source": "null"}


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


@dataclass(slots=True)
class _Emitter:
    mode: Literal["python", "math", "source"]
    rounding: Rounding = "down"
    name: Callable[[str], str] = str
    choice: Callable[[str, str], str] = _no_choice
    lookup: Callable[[str, str], str] | None = None
    label: Callable[[str, str], str] | None = None
    taken: frozenset[str] = frozenset()
    temps: int = 0

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def operand(self, node: Node, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: `a - (-b)`, `-(-x)`."""
        text, own = self.emit(node)
        return f"({text})" if own < prec or own == _UNARY else text

    @staticmethod
    def bracket_and(node: Node, text: str) -> str:
        is_and = isinstance(node, Binary) and node.op == "and"
        return f"({text})" if is_and else text

    def sym(self, op: str) -> str:
        return _MATH_OPS.get(op, op) if self.mode == "math" else op

    def emit(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return str(node.value), _ATOM
            case BoolLit():
                text = "true" if node.value else "false"
                return (text.title() if self.mode == "python" else text), _ATOM
            case NullLit():
                return _NULL[self.mode], _ATOM
            case StrLit():
                return self.string(node), _ATOM
            case Name():
                return self.name(node.name), _ATOM
            case Unary(op="-"):
                return "-" + self.operand(node.operand, _UNARY), _UNARY
            case Unary():
                return "not " + self.wrap(node.operand, _NOT), _NOT
            case Binary() if node.op in COMPARE_OPS:
                return self.compare(node), _CMP
            case Binary(op="??") if self.mode == "python":
                return self.coalesce(node), _ATOM
            case Binary(op="??"):
                left, right = (
                    self.wrap(node.left, _COALESCE),
                    self.wrap(node.right, _OR),
                )
                return f"{left} ?? {right}", _COALESCE
            case Binary() if node.op == "//" and self.mode != "source":
                return self.divide(node)
            case Binary():
                prec = _PREC[node.op]
                left = self.wrap(node.left, prec)
                right = self.operand(node.right, prec + 1)
                if node.op == "or":  # `a or (b and c)`: brackets that help readers
                    left, right = (
                        self.bracket_and(node.left, left),
                        self.bracket_and(node.right, right),
                    )
                return f"{left} {self.sym(node.op)} {right}", prec
            case Cond():
                body = self.wrap(node.body, _COALESCE)
                test = self.wrap(node.test, _COALESCE)
                return f"{body} if {test} else {self.wrap(node.orelse, _COND)}", _COND
            case Call(rule=True):
                args = [self.wrap(arg, _COND) for arg in node.args]
                return f"{node.func}({', '.join(args)})", _ATOM
            case Step() if self.mode == "python":
                value, by = self.wrap(node.operand, _COND), self.wrap(node.by, _COND)
                return f"step({value}, {by}, {node.ladder.past_end!r})", _ATOM
            case Step():
                value = self.wrap(node.operand, _ADD)
                steps = node.by
                if isinstance(steps, Unary) and steps.op == "-":
                    return f"{value} - {self.operand(steps.operand, _ADD + 1)}", _ADD
                return f"{value} + {self.operand(steps, _ADD + 1)}", _ADD
            case Call() if node.func not in FUNCTIONS and self.mode == "python":
                return self.row(node), _ATOM
            case Call():
                args = [self.wrap(arg, _COND) for arg in node.args]
                if self.mode == "python" and node.func == "clamp":
                    return f"min(max({args[0]}, {args[1]}), {args[2]})", _ATOM
                return f"{node.func}({', '.join(args)})", _ATOM
            case Attr(obj=Call(nullable_key=True) as lookup) if self.mode == "python":
                row, (key,) = self.lookup_of(lookup.func), lookup.args
                field = node.name
                return self.guard(
                    key, lambda k: f"{row(lookup.func, k)}.{field}"
                ), _ATOM
            case Attr():
                return f"{self.wrap(node.obj, _ATOM)}.{node.name}", _ATOM
            case Index(nullable_key=True) if self.mode == "python":
                mapping = self.wrap(node.obj, _ATOM)
                return self.guard(node.index, lambda k: f"{mapping}[{k}]"), _ATOM
            case Index():
                index = self.wrap(node.index, _COND)
                return f"{self.wrap(node.obj, _ATOM)}[{index}]", _ATOM
        raise AssertionError(node)

    def string(self, node: StrLit) -> str:
        if self.mode == "python":
            return self.label_text(node, None) if node.is_label else repr(node.value)
        value = node.value.replace("`", "'") if self.mode == "math" else node.value
        return f'"{value}"'

    def label_text(self, lit: StrLit, other: Node | None) -> str:
        """Python text for a label: via `label` (needs the enum) or `choice`."""
        if lit.enum is not None and self.label is not None:
            return self.label(lit.enum, lit.value)
        if lit.param is not None:
            return self.choice(lit.param, lit.value)
        if not lit.is_label and isinstance(other, Name):  # an unchecked tree
            return self.choice(other.name, lit.value)
        raise ValueError(f"no label emitter for {lit.enum} label {lit.value!r}")

    def divide(self, node: Binary) -> tuple[str, int]:
        left, right = self.wrap(node.left, _MUL), self.operand(node.right, _UNARY)
        if self.mode == "math":
            opening, closing = ("⌊", "⌋") if self.rounding == "down" else ("⌈", "⌉")
            return f"{opening}{left} ÷ {right}{closing}", _ATOM
        if self.rounding == "down":
            return f"{left} // {right}", _MUL
        return f"-(-{self.wrap(node.left, _ATOM)} // {right})", _UNARY

    def compare(self, node: Binary) -> str:
        if self.mode != "python":
            left, right = self.wrap(node.left, _ADD), self.wrap(node.right, _ADD)
            return f"{left} {self.sym(node.op)} {right}"
        identity = "is" if node.op == "==" else "is not"
        a, b = node.left, node.right
        if isinstance(a, NullLit):  # `null == x` reads better as `x is None`
            a, b = b, a
        if isinstance(b, NullLit):
            return f"{self.wrap(a, _ADD)} {identity} None"
        (a_text, a_label), (b_text, b_label) = self.side(a, b), self.side(b, a)
        op = identity if a_label or b_label else node.op
        return f"{a_text} {op} {b_text}"

    def side(self, side: Node, other: Node) -> tuple[str, bool]:
        """A compared side's Python text, and whether it is a choice label."""
        if (
            isinstance(side, StrLit)
            and not isinstance(other, StrLit)
            and (side.is_label or isinstance(other, Name))
        ):
            return self.label_text(side, other), True
        return self.wrap(side, _ADD), False

    def coalesce(self, node: Binary) -> str:
        """`a ?? b`, evaluating `a` once (in a walrus temp unless it is plain)."""
        if isinstance(node.left, _PLAIN):
            value = self.wrap(node.left, _ATOM)
            return (
                f"({value} if {value} is not None else {self.wrap(node.right, _COND)})"
            )
        temp = self.temp()
        value = self.wrap(node.left, _COND)
        default = self.wrap(node.right, _COND)
        return f"({temp} if ({temp} := {value}) is not None else {default})"

    def temp(self) -> str:
        while True:
            self.temps += 1
            if (name := f"_t{self.temps}") not in self.taken:
                return name

    def guard(self, key: Node, body: Callable[[str], str]) -> str:
        """`body(key)`, or None if the key is None; the key is evaluated once."""
        if isinstance(key, _PLAIN):
            text = self.wrap(key, _ATOM)
            return f"({body(text)} if {text} is not None else None)"
        temp = self.temp()
        value = self.wrap(key, _COND)
        return f"({body(temp)} if ({temp} := {value}) is not None else None)"

    def row(self, node: Call) -> str:
        lookup = self.lookup_of(node.func)
        (arg,) = node.args
        if isinstance(arg, StrLit):
            return lookup(node.func, self.label_text(arg, None))
        return lookup(node.func, self.wrap(arg, _COND))

    def lookup_of(self, table: str) -> Callable[[str, str], str]:
        if self.lookup is None:
            raise ValueError(f"no lookup emitter for table {table!r}")
        return self.lookup


def to_python(
    node: Node,
    *,
    name: Callable[[str], str],
    choice: Callable[[str, str], str] = _no_choice,
    rounding: Rounding,
    lookup: Callable[[str, str], str] | None = None,
    label: Callable[[str, str], str] | None = None,
) -> str:
    """A Python expression for a checked formula, with minimal parentheses.

    name(param) names a parameter (a mapping parameter too: it is indexed as
    `name(param)[key]`); choice(param, label) and label(enum, label) name an
    enum member (label is preferred when the enum is known; choice gets a
    choice parameter of the label's enum or, for a key of a mapping without
    one, the mapping parameter); lookup(table, key) gives a primary expression
    for a table's row, to which `.field` is appended. `a ?? b`, and a lookup or
    index whose key may be null, assign walrus temporaries _t1, _t2, ...:
    place the expression in a function body.
    """
    taken = frozenset(name(n) for n in names_used(node))
    emitter = _Emitter("python", rounding, name, choice, lookup, label, taken)
    return emitter.emit(node)[0]


def to_math(node: Node, *, rounding: Rounding) -> str:
    """Human-readable math text for docs (never contains a backtick)."""
    return _Emitter("math", rounding).emit(node)[0]


def to_source(node: Node) -> str:
    """Canonical formula source text: parse(to_source(node)) == node."""
    return _Emitter("source").emit(node)[0]
