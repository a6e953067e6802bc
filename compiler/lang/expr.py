"""Formula expressions: parse and type-check (the source text in lang.source, the targets' code in emit).

Values are int, bool, text and choice, each possibly nullable (null, `??`,
`== null`, `is null`), and lists of one of them (`[a, b]`, `x in [a, b]`,
`len`, `sum`, `any`, `all`; `a + b` joins two lists; `[]` is the empty list,
its elements' type that of the list it meets); `table(key).field`
reads a field of a table rule's row, and `mapping[key]` a mapping parameter's
value. A key that may be null gives null. A test that a name is not null narrows it where the test holds.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import cast

from . import lists
from .dice import AFTER_SIDES as DICE_AFTER_SIDES
from .dice import (
    DICE_FUNCTIONS,
    check_dice,
    check_dice_call,
    notation_error,
    options_error,
)
from .dice import TOKEN as DICE_TOKEN
from .evaluate import evaluate
from .exact import (
    ExactError,
    exact_item,
)
from .lists import check_concat
from .memo import (
    Seen,
    remembered,
)
from .nodes import (
    COMPARE_OPS,
    DICE_PARTS,
    FUNCTIONS,
    IV_ARITH,
    LIST_FUNCTIONS,
    NULL_TESTS,
    ROUNDING_FUNCTIONS,
    WORD_OPS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Checked,
    Comp,
    Cond,
    Construct,
    Context,
    Dice,
    DieFaces,
    Field,
    Function,
    Index,
    Interval,
    IntLit,
    ItemType,
    Ladder,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    Param,
    RecordType,
    Rounding,
    Step,
    StrLit,
    Table,
    Unary,
    ValueType,
    choice_name,
    describe,
    fits,
    iv_abs,
    iv_hull,
    iv_max,
    iv_min,
    iv_mul,
    iv_neg,
    iv_rounded,
    names_used,
    rules_called,
    same_choice,
    tables_used,
    uses_steps,
    uses_values,
    walk,
)
from .records import (
    arranged,
    construct,
    of_slot,
    read_field,
    transition,
)
from .source import to_source

__all__ = [
    "ARITH_OPS",
    "COMPARE_OPS",
    "DICE_PARTS",
    "FUNCTIONS",
    "KEYWORDS",
    "WORD_OPS",
    "Attr",
    "Binary",
    "BoolLit",
    "Call",
    "Checked",
    "Comp",
    "Cond",
    "Construct",
    "Dice",
    "DieFaces",
    "ExprError",
    "Field",
    "Function",
    "Index",
    "IntLit",
    "Interval",
    "Ladder",
    "ListLit",
    "Method",
    "Name",
    "Node",
    "NullLit",
    "Param",
    "RecordType",
    "Rounding",
    "Step",
    "StrLit",
    "Table",
    "Unary",
    "ValueType",
    "check",
    "compile_formula",
    "describe",
    "dice_in",
    "evaluate",
    "fits",
    "names_used",
    "parse",
    "rechecked",
    "rolled_text",
    "rules_called",
    "rules_called_in",
    "tables_used",
    "to_source",
    "uses_steps",
    "uses_values",
]

KEYWORDS = frozenset(
    {"if", "else", "and", "or", "not", "true", "false", "null", "in", "is"}
)
ARITH_OPS = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide"}
_NO_TABLES: Mapping[str, Table] = MappingProxyType({})
_NO_FUNCTIONS: Mapping[str, Function] = MappingProxyType({})
_NO_LADDERS: Mapping[str, Ladder] = MappingProxyType({})
_NO_OTHERS: Mapping[str, str] = MappingProxyType({})
_NO_RECORDS: Mapping[str, RecordType] = MappingProxyType({})
_NO_DIES: Mapping[str, DieFaces] = MappingProxyType({})


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
    rf"(?P<space>\s+)|{DICE_TOKEN}|(?P<int>[0-9]\w*)|(?P<name>[A-Za-z_]\w*)"
    r'|(?P<str>"[^"\n]*")|(?P<op>//|==|!=|<=|>=|\?\?|[-+*/(),<>.\[\]=])',
    re.ASCII,
)
_DECIMAL = re.compile(r"\.[0-9]+", re.ASCII)
_AFTER_SIDES = re.compile(DICE_AFTER_SIDES, re.ASCII)
_COUNTED = re.compile(r"[0-9]+d", re.ASCII)
_CHAR_HINTS = {
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
    sides: list[bool] = []  # for each '(' open: whether it is d(sides)'s
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.lastgroup is None:
            raise _bad_char(text, pos)
        kind, word, end = match.lastgroup, match.group(), match.end()
        if kind == "int" and _COUNTED.fullmatch(word) and text[end : end + 1] == "(":
            # 2d(sides): a count, then the d of d(sides)
            tokens.append(_Token("int", word[:-1], pos, end - 1))
            kind, word, pos = "name", "d", end - 1
        if word == "(":
            last = tokens[-1] if tokens else None
            sides.append(
                last is not None
                and last.kind == "name"
                and last.text == "d"
                and last.end == pos
            )
        elif word == ")" and sides and sides.pop():
            options = _AFTER_SIDES.match(text, end)
            if options is not None:  # d(sides)!!kh1: the options of the pool
                tokens.append(_Token(")", word, pos, end))
                tokens.append(
                    _Token("dice_options", options.group(), end, options.end())
                )
                pos = options.end()
                continue
        if kind == "int" and not word.isdigit():
            raise ExprError(
                f"invalid number '{word}'", pos, end, "names start with a letter"
            )
        if kind == "int" and (fraction := _DECIMAL.match(text, end)):
            message = f"decimal numbers are not allowed: '{text[pos : fraction.end()]}'"
            hint = "formulas use whole numbers; divide with '//', or round(a / b)"
            raise ExprError(message, pos, fraction.end(), hint)
        if kind == "int" and len(word) > 1 and word[0] == "0":
            message = f"leading zeros are not allowed: '{word}'"
            raise ExprError(message, pos, end, f"write {int(word)}")
        if kind == "op" or word in KEYWORDS:
            kind = word
        if kind == "=" and not _names_argument(tokens):
            raise ExprError("unexpected '='", pos, end, _CHAR_HINTS["="])
        if kind != "space":
            tokens.append(_Token(kind, word, pos, end))
        pos = end
    return [*tokens, _Token("eof", "", len(text), len(text))]


def _names_argument(tokens: list[_Token]) -> bool:
    """Whether an ``=`` after ``tokens`` gives an argument by name: it follows
    a name that follows ``(`` or ``,`` (``X(a, b=2)``); anywhere else it is
    one ``=`` too few."""
    return (
        len(tokens) >= 2 and tokens[-1].kind == "name" and tokens[-2].kind in ("(", ",")
    )


def _bad_char(text: str, pos: int) -> ExprError:
    char, end = text[pos], pos + 1
    if char == '"':
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        return ExprError("unterminated string literal", pos, end, _CHAR_HINTS[char])
    message = f"unexpected {char!r}"
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
            hint = self.spaced_options(tok) or hint
            message = f"unexpected {_describe(tok)} after the end of the expression"
            raise ExprError(message, tok.start, tok.end, hint)
        return node

    def spaced_options(self, tok: _Token) -> str | None:
        """The hint where ``tok`` is a pool's options written after a space
        (``4d6 kh3``): the pool as the notation writes it, or None."""
        before = self.tokens[self.pos - 1]
        if before.kind != "dice" or tok.kind not in ("name", "dice"):
            return None
        joined = before.text + tok.text
        if notation_error(joined, dynamic_count=False) is not None:
            return None
        return f"write the options right after the sides: {joined}"

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
        op = self.compare_op()
        if op is None:
            return left
        right = self.null_after(op) if op in ("is", "is not") else self.additive()
        again = self.peek()
        if self.compare_op() is not None:
            hint = "combine two comparisons with 'and', e.g. a < b and b < c"
            message = "comparisons cannot be chained"
            raise ExprError(message, again.start, again.end, hint)
        return Binary(op, left, right, left.start, right.end)

    def compare_op(self) -> str | None:
        """Take a comparison operator (`<`, `in`, `not in`, `is not`...), if next."""
        tok = self.peek()
        if tok.kind in COMPARE_OPS or tok.kind in ("in", "is"):
            self.next()
            return tok.kind + " not" * (tok.kind == "is" and self.accept("not"))
        if tok.kind == "not" and self.tokens[self.pos + 1].kind == "in":
            self.pos += 2
            return "not in"
        return None

    def null_after(self, op: str) -> Node:
        """The `null` of `x is null`: 'is' compares with null only."""
        tok = self.next()
        if tok.kind != "null":
            message = f"'{op}' compares with null only, found {_describe(tok)}"
            hint = "use == or != to compare values: 'is' is only for 'is null'"
            raise ExprError(message, tok.start, tok.end, hint)
        return NullLit(tok.start, tok.end)

    def additive(self) -> Node:
        return self.binary(("+", "-"), self.term)

    def term(self) -> Node:
        return self.binary(("*", "//", "/"), self.unary)

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
            if self.peek().kind == "(":  # a state's transition: x.take(3)
                args, names, close = self.arguments(tok.text)
                node = Method(node, tok.text, args, node.start, close.end, names)
                continue
            node = Attr(node, tok.text, node.start, tok.end)

    def primary(self) -> Node:
        tok = self.next()
        if tok.kind == "int":
            count = IntLit(int(tok.text), tok.start, tok.end)
            after = self.peek()
            if self.adjacent(tok, "name") and after.text == "d":
                self.next()
                if self.adjacent(after, "("):  # 2d(sides)
                    return self.dice_sides(count, tok.start)
                self.pos -= 1
            return count
        if tok.kind == "str":
            return StrLit(tok.text[1:-1], tok.start, tok.end)
        if tok.kind in ("true", "false"):
            return BoolLit(tok.kind == "true", tok.start, tok.end)
        if tok.kind == "null":
            return NullLit(tok.start, tok.end)
        if tok.kind == "dice":
            return self.dice(tok.text, tok.start, tok.end, None)
        if tok.kind == "name" and tok.text == "d" and self.adjacent(tok, "("):
            return self.dice_sides(None, tok.start)
        if tok.kind == "name" and self.peek().kind == "(":
            return self.call(tok)
        if tok.kind == "name":
            return Name(tok.text, tok.start, tok.end)
        if tok.kind == "(":
            inner = self.ternary()
            close = self.expect(")", f"to close '(' at offset {tok.start}")
            return self.counted(inner, tok, close)
        if tok.kind == "[":
            return self.list_lit(tok)
        message = f"expected a number, name or '(' but found {_describe(tok)}"
        raise ExprError(message, tok.start, tok.end)

    def counted(self, inner: Node, opening: _Token, close: _Token) -> Node:
        """``(inner)``, or dice that many: ``(n)d6``, ``(n)d(sides)``."""
        after, start = self.peek(), opening.start
        if self.adjacent(close, "dice") and after.text.startswith("d"):
            self.next()
            return self.dice(after.text, after.start, after.end, inner, start)
        if self.adjacent(close, "name") and after.text == "d":
            self.next()
            if self.adjacent(after, "("):
                return self.dice_sides(inner, start)
            self.pos -= 1
        return replace(inner, start=start, end=close.end)

    def adjacent(self, before: _Token, kind: str) -> bool:
        """Whether the next token is of ``kind`` and follows ``before`` with no space."""
        tok = self.peek()
        return tok.kind == kind and tok.start == before.end

    def dice(
        self, text: str, start: int, end: int, count: Node | None, first: int = -1
    ) -> Dice:
        """Dice in notation (``4d6dl1``), their count maybe from ``(count)``."""
        problem = notation_error(text, count is not None)
        if problem is not None:
            at = start + min(problem.offset, len(text) - 1)
            message = (
                f"bad dice notation '{text}': {problem.message.split(': ', 1)[-1]}"
            )
            raise ExprError(message, at, at + 1, problem.hint)
        return Dice(text, count, None, start if first < 0 else first, end)

    def dice_sides(self, count: Node | None, start: int) -> Dice:
        """``d(sides)`` (the ``d`` taken), its count maybe from ``(count)``,
        then the pool's options as notation writes them after its sides
        (``d(sides)!!kh1``, ``(n)d(sides)>=5``)."""
        opening = self.next()
        sides = self.ternary()
        close = self.expect(")", f"to close '(' at offset {opening.start}")
        if not self.adjacent(close, "dice_options"):
            return Dice("", count, sides, start, close.end)
        options = self.next()
        shown = self.text[start : close.end]
        problem = options_error(options.text, count is not None, shown)
        if problem is not None:
            at = options.start + problem.offset
            raise ExprError(problem.message, at, at + 1, problem.hint)
        return Dice(options.text, count, sides, start, options.end)

    def list_lit(self, opening: _Token) -> Node:
        """`[a, b, c]` (the `[` taken); a trailing comma is allowed. Or a
        comprehension: `[body for name in items]`, `[... if test]`."""
        items: list[Node] = []
        while self.peek().kind != "]":
            items.append(self.ternary())
            if len(items) == 1 and self.peek().text == "for":
                return self.comprehension(opening, items[0])
            if not self.accept(","):
                break
        close = self.expect("]", f"to close the list at offset {opening.start}")
        return ListLit(tuple(items), opening.start, close.end)

    def comprehension(self, opening: _Token, body: Node) -> Comp:
        """`for name in items` and an `if test`, after a comprehension's body."""
        self.next()  # the 'for'
        name = self.next()
        if name.kind != "name":
            message = (
                f"expected the name of each item after 'for', found {_describe(name)}"
            )
            raise ExprError(message, name.start, name.end, "e.g. [x * 2 for x in xs]")
        self.expect("in", "after the name of each item")
        items = self.coalesce()
        test = self.coalesce() if self.accept("if") else None
        close = self.expect("]", f"to close the list at offset {opening.start}")
        return Comp(body, name.text, items, test, opening.start, close.end)

    def arguments(self, func: str) -> tuple[tuple[Node, ...], tuple[str, ...], _Token]:
        """A call's arguments (its `(` next): those given by position, then
        those given by name (`b=2`), their names, and the `)`."""
        self.next()  # the '('
        args: list[Node] = []
        names: list[str] = []
        while self.peek().kind != ")":
            tok = self.peek()
            named = tok.kind == "name" and self.tokens[self.pos + 1].kind == "="
            if named:
                self.pos += 2
                if tok.text in names:
                    message = f"argument '{tok.text}' is given twice"
                    raise ExprError(message, tok.start, tok.end)
                names.append(tok.text)
            elif names:
                message = "an argument by position after one given by name"
                hint = f"give the arguments by position first: {func}(a, b=2)"
                raise ExprError(message, tok.start, tok.end, hint)
            args.append(self.ternary())
            if not self.accept(","):
                break
        close = self.expect(")", f"to close the arguments of '{func}'")
        return tuple(args), tuple(names), close

    def call(self, name: _Token) -> Node:
        """A built-in call (arity checked here) or a table lookup (by check)."""
        func = name.text
        args_given, names, close = self.arguments(func)
        args = list(args_given)
        if names and (func in FUNCTIONS or func in DICE_FUNCTIONS):
            message = f"{func}() takes its arguments by position"
            raise ExprError(message, name.start, close.end, f"write {func}(a, b)")
        if names:  # another rule's, a record's or a state's: checked by check()
            return Call(func, args_given, name.start, close.end, names=names)
        least, most = FUNCTIONS.get(func, DICE_FUNCTIONS.get(func, (0, None)))
        if func in ("min", "max") and len(args) == 1 and _is_list(args[0]):
            least = 1  # the least or greatest element of one list
        if func == "rolls" and len(args) == 1 and isinstance(args[0], Dice):
            return replace(args[0], results=True, start=name.start, end=close.end)
        if len(args) < least or (most is not None and len(args) > most):
            want = f"exactly {least}" if least == most else f"at least {least}"
            message = f"{func}() takes {want} arguments, got {len(args)}"
            hint = f"or one list: {func}([a, b])" if func in ("min", "max") else None
            raise ExprError(message, name.start, close.end, hint)
        return Call(func, tuple(args), name.start, close.end)


def _quotient_hint(node: Binary) -> str:
    """How to write ``a / b`` so that it gives a whole number."""
    text = to_source(node)
    return (
        f"round it: floor({text}), ceil({text}) or round({text}) (half up); "
        "or '//' (rounded by the system's rounding rule)"
    )


def _is_list(node: Node) -> bool:
    """Whether ``node`` may be a list: ``[a, b]``, ``rolls(...)``, ``sorted(...)``,
    a comprehension, a name, a field or a call (a list a rule binds with
    ``let``, a record's list, a rule's answer: the checker reads its type), or
    ``a + b`` of such (two lists joined)."""
    if isinstance(node, Binary) and node.op == "+":
        return _is_list(node.left) or _is_list(node.right)
    return isinstance(node, ListLit | Dice | Name | Comp | Attr | Index | Cond) or (
        isinstance(node, Call) and node.func not in ("min", "max")
    )


def parse(text: str) -> Node:
    """Parse formula source text into an AST; raises ExprError."""
    return _Parser(text).parse()


# --- type and interval checking ---


def _either_list(a: Checked, b: Checked, node: Node) -> Checked:
    """A list that is ``a`` or ``b``, one of them empty: the other's type
    (none where both are empty), its length from 0."""
    typed = b if a.item is None else a
    length = iv_hull(a.length or Interval(0, None), b.length or Interval(0, None))
    return replace(typed, node=node, nullable=False, length=length)


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
        *,
        exact: bool = False,
        others: Mapping[str, str] = _NO_OTHERS,
        records: Mapping[str, RecordType] = _NO_RECORDS,
        dies: Mapping[str, DieFaces] = _NO_DIES,
    ) -> None:
        self.params, self.tables, self.functions = params, tables, functions
        self.ladders, self.records = ladders, records
        self.others = others  # rules of other shapes, by function: why not called
        # the dice of the rules' own a d(...) may name (a parameter's name wins)
        self.dies = {n: d for n, d in dies.items() if n not in params}
        self.exact = exact  # every whole number as a call can give it (expr_exact)
        self.narrowed: frozenset[str] = frozenset()  # names known not null here
        # what each test proves not null, worked out once (_proved)
        self.proved: Seen[tuple[frozenset[str], frozenset[str]]] = {}
        self.owners: dict[str | tuple[str, ...] | None, str] = {}
        for param in params.values():  # a choice parameter of each enum
            if param.type == "choice" and param.bound is None:
                self.owners.setdefault(param.enum, param.name)
                self.owners.setdefault(param.choices, param.name)
        self.owners.pop(None, None)

    def checked(self, node: Node, given: Node | None) -> Checked:
        """The whole formula checked, ``given`` known to hold."""
        self.check_namespace(node)
        if given is not None:
            self.narrowed = _not_null(given, True)
        return self.visit(node)

    def check_namespace(self, root: Node) -> None:
        """Parameters and tables share one namespace (a call of a function of
        the language calls it, whatever table has its name)."""
        clashes = [
            (name, f"parameter '{name}' has the name of a table")
            for name in self.params
            if name in self.tables
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

    def fail(
        self, message: str, start: int, end: int, hint: str | None = None
    ) -> ExprError:
        """The located error of a part of the formula."""
        return ExprError(message, start, end, hint)

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
        item = self.visit_node(node)
        if not self.exact:
            return item
        try:
            return exact_item(item, self.params)
        except ExactError as error:
            raise ExprError(error.message, error.start, error.end, error.hint) from None

    def visit_node(self, node: Node) -> Checked:
        match node:
            case IntLit() | BoolLit() | NullLit() | StrLit():
                return self.literal(node)
            case Name():
                return self.name(node)
            case Unary():
                return self.unary(node)
            case Binary():
                return self.binary(node)
            case Cond():
                return self.cond(node)
            case Dice():
                return check_dice(node, self.visit, ExprError, self.dies)
            case Call():
                return self.any_call(node)
            case Method():
                return transition(self, node)
            case Attr():
                return self.attr(node)
            case Index():
                return self.index(node)
            case ListLit():
                return self.list_lit(node, None)
            case Comp():
                return lists.comprehension(self, node)
        raise AssertionError(node)

    def literal(self, node: IntLit | BoolLit | NullLit | StrLit) -> Checked:
        """A number, a flag, null or a text, as written."""
        match node:
            case IntLit():
                return Checked(node, "int", Interval(node.value, node.value))
            case BoolLit():
                return Checked(node, "bool", None)
            case NullLit():
                return Checked(node, "null", None, nullable=True)
        # a text value; labels are resolved by compare()
        text = replace(node, enum=None, param=None, text=True)
        return Checked(text, "text", None)

    def unary(self, node: Unary) -> Checked:
        """``-x`` or ``not x``."""
        item = self.visit(node.operand)
        if node.op == "-":
            self.need([item], "int", f"cannot negate {describe(item)}")
            return Checked(replace(node, operand=item.node), "int", iv_neg(_iv(item)))
        message = f"'not' needs a bool operand, got {describe(item)}"
        self.need([item], "bool", message)
        return Checked(replace(node, operand=item.node), "bool", None)

    def binary(self, node: Binary) -> Checked:
        """An operator between two operands, by the operator."""
        if node.op == "??":
            return self.coalesce(node)
        if node.op == "/":
            message = (
                "'/' divides exactly: only floor(), ceil() or round() take its quotient"
            )
            raise ExprError(message, node.start, node.end, _quotient_hint(node))
        if node.op in ARITH_OPS:
            return self.arith(node)
        if node.op in ("in", "not in"):
            return self.membership(node)
        if node.op in COMPARE_OPS or node.op in WORD_OPS:
            return self.compare(node)
        # and, or: the right side knows what the left gives
        left = self.visit(node.left)
        proved = _not_null(left.node, node.op == "and", self.proved)
        with self.narrowing(proved):
            right = self.visit(node.right)
        got = f"got {describe(left)} and {describe(right)}"
        self.need([left, right], "bool", f"'{node.op}' needs bool operands, {got}")
        return Checked(replace(node, left=left.node, right=right.node), "bool", None)

    def any_call(self, node: Call) -> Checked:
        """A call: of a list function, a dice function, the language's own, a
        rule's, or a record's constructor."""
        if lists.takes(node):
            return lists.check_call(self, node)
        if node.func in DICE_FUNCTIONS:
            return check_dice_call(node, self.visit, ExprError)
        if node.func in FUNCTIONS:
            return self.call(node)
        if node.func in self.functions:
            return self.rule_call(node)
        if node.func in self.records:
            return construct(self, node, self.records[node.func])
        raise self.bad_call(node)

    @contextmanager
    def narrowing(self, names: frozenset[str]) -> Iterator[None]:
        """Check a part of the formula knowing these names are not null."""
        saved = self.narrowed
        self.narrowed = saved | names
        try:
            yield
        finally:
            self.narrowed = saved

    def name(self, node: Name) -> Checked:
        param = self.params.get(node.name)
        if param is None and node.name in self.tables:
            message = f"'{node.name}' is a table, not a value"
            hint = f"look up a field of a row: {self.example(node.name)}"
            raise ExprError(message, node.start, node.end, hint)
        if param is None and node.name in self.dies:
            message = f"'{node.name}' is a die, not a value"
            hint = (
                f"roll it: d({node.name}), (n)d({node.name}), rolls((n)d({node.name}))"
            )
            raise ExprError(message, node.start, node.end, hint)
        if param is None:
            hint = _suggest(node.name, sorted(self.params), "known parameters")
            raise ExprError(f"unknown name '{node.name}'", node.start, node.end, hint)
        if param.bound is not None:  # a name the rule binds: its value's type
            nullable = param.bound.nullable and node.name not in self.narrowed
            bound = (param.bound.exact if self.exact else None) or param.bound
            return replace(bound, node=node, nullable=nullable, exact=None)
        if param.type == "mapping":
            use = self.index_example(param)
            message = f"'{node.name}' is a mapping, not a value: use {use}"
            hint = f"valid keys: {', '.join(param.key_labels)}"
            raise ExprError(message, node.start, node.end, hint)
        nullable = param.nullable and node.name not in self.narrowed
        if param.slot is not None:  # text, a list, a record or a state
            return of_slot(node, replace(param.slot, nullable=nullable), False)
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
        if node.op == "+" and "list" in (left.type, right.type):
            return check_concat(node, left, right, ExprError)
        if node.op == "+" and "text" in (left.type, right.type):
            return self.join(node, left, right)
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

    def join(self, node: Binary, left: Checked, right: Checked) -> Checked:
        """`"a" + b`: two texts joined; nothing is converted to text implicitly."""
        for side in (left, right):
            if side.type in ("int", "choice"):
                message = (
                    f"cannot join {describe(left)} and {describe(right)}: "
                    f"'{to_source(side.node)}' is {describe(side)}, not text"
                )
                hint = f"convert it with text({to_source(side.node)})"
                raise ExprError(message, *_span(side.node), hint)
        got = f"{describe(left)} and {describe(right)}"
        self.need([left, right], "text", f"cannot join {got}: '+' joins two texts")
        rebuilt = replace(node, left=left.node, right=right.node)
        return Checked(rebuilt, "text", None)

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
        equality = node.op in NULL_TESTS
        if "list" in (left.type, right.type):
            message = f"cannot compare {describe(left)} and {describe(right)}"
            use = "test whether a value is one of a list's with 'in': x in [a, b]"
            raise ExprError(f"{message} with '{node.op}'", *_span(node), use)
        for side, other, lit_first in ((left, right, False), (right, left, True)):
            if isinstance(other.node, StrLit) and side.type == "choice":
                ladder = self.ordered(node, side, side)
                resolved = self.label(node, side, other.node)
                pair = (resolved, side.node) if lit_first else (side.node, resolved)
                rebuilt = replace(node, left=pair[0], right=pair[1], ladder=ladder)
                return replace(result, node=rebuilt)
        if equality and "null" in (left.type, right.type):
            for side in (left, right):
                if not side.nullable:
                    message = f"'{to_source(side.node)}' is never null"
                    why = "only a value that may be null can be compared with null"
                    raise ExprError(message, *_span(side.node), why)
            return result
        if left.type == right.type == "choice":
            if not same_choice(left.enum, left.choices, right.enum, right.choices):
                mine = choice_name(left.enum, left.choices)
                theirs = choice_name(right.enum, right.choices)
                message = f"cannot compare a choice of {mine} with one of {theirs}"
                raise ExprError(message, node.start, node.end)
            ladder = self.ordered(node, left, right)
            rebuilt = replace(node, left=left.node, right=right.node, ladder=ladder)
            return replace(result, node=rebuilt)
        types = f"{describe(left)} and {describe(right)}"
        message = f"cannot compare {types} with '{node.op}'"
        if not equality:
            self.need([left, right], "int", message)
        elif left.type != right.type or left.record != right.record:
            hint = self.choice_hint(left) or self.choice_hint(right)
            raise ExprError(message, node.start, node.end, hint)
        if left.type in ("record", "state"):  # field by field
            deep = replace(node, left=left.node, right=right.node, deep=True)
            return replace(result, node=deep)
        return result

    def label(self, node: Binary, choice: Checked, lit: StrLit) -> StrLit:
        """Check `choice == "LABEL"` (either order, or an ordering of an ordered
        enum's labels); the label gets its enum."""
        return self.resolve(choice, lit)

    def ordered(self, node: Binary, left: Checked, right: Checked) -> Ladder | None:
        """The ordered enum two choices of it are ordered along (`level >= "half"`),
        or None for == and !=; an error for any other choice or a null."""
        if node.op in ("==", "!="):
            return None
        ladder = self.ladders.get(left.enum or "")
        if ladder is None:
            message = f"a choice needs == or != to compare, not '{node.op}'"
            hint = "only the labels of an ordered enum (ordered: true) have an order"
            raise ExprError(message, node.start, node.end, hint)
        for side in (left, right):
            if side.nullable:
                message = f"cannot order '{to_source(side.node)}': it may be null"
                raise ExprError(message, *_span(side.node), _null_hint(side))
        return ladder

    def resolve(self, choice: Checked, lit: StrLit) -> StrLit:
        """A label of the choice (or of a list of choices): it gets its enum."""
        if lit.value not in choice.choices:
            message = f"unknown choice '{lit.value}' for '{to_source(choice.node)}'"
            hint = _suggest(lit.value, choice.choices, "valid choices")
            raise ExprError(message, lit.start, lit.end, hint)
        owner = choice.node.name if isinstance(choice.node, Name) else None
        owner = owner or self.owner(choice.enum, choice.choices)
        return replace(lit, enum=choice.enum, param=owner, text=False)

    def list_lit(self, node: ListLit, choice: Checked | None) -> Checked:
        """`[a, b]`: elements of one type, never null; labels of `choice`, if any."""
        if not node.items:  # its elements' type comes from where it goes
            return Checked(node, "list", None, item=None, length=Interval(0, 0))
        items = [
            Checked(
                self.resolve(choice, item),
                "choice",
                None,
                False,
                choice.enum,
                choice.choices,
            )
            if choice is not None and isinstance(item, StrLit)
            else self.visit(item)
            for item in node.items
        ]
        first = items[0]
        for item in items:
            self.element(first, item)
        rebuilt = replace(node, items=tuple(item.node for item in items))
        interval = None
        if first.type == "int":
            interval = _iv(first)
            for item in items:
                interval = iv_hull(interval, _iv(item))
        item_type = cast(ItemType, first.type)  # element() allowed only these
        length = Interval(len(items), len(items))
        return Checked(
            rebuilt,
            "list",
            interval,
            False,
            first.enum,
            first.choices,
            item=item_type,
            length=length,
            record=first.record,
        )

    def element(self, first: Checked, item: Checked) -> None:
        """An element of a list whose first element is `first`."""
        span = _span(item.node)
        if item.type == "null":
            hint = "leave it out: the elements of a list are never null"
            raise ExprError("a list cannot hold null", *span, hint)
        if item.type not in ("int", "bool", "text", "choice", "record"):
            hint = "a list holds ints, bools, texts, choices or records"
            raise ExprError(f"a list cannot hold {describe(item)}", *span, hint)
        if item.nullable:
            message = (
                f"'{to_source(item.node)}' may be null: a list's elements never are"
            )
            raise ExprError(message, *span, _null_hint(item))
        if item.type != first.type:
            message = (
                f"the elements of a list have one type: this is {describe(item)}, "
                f"the first is {describe(first)}"
            )
            hint = "a list holds one type: nothing is converted implicitly"
            if "text" in (item.type, first.type):
                hint += "; text(x) makes text of an int or a choice"
            raise ExprError(message, *span, hint)
        if item.type == "choice" and not same_choice(
            first.enum, first.choices, item.enum, item.choices
        ):
            mine = choice_name(first.enum, first.choices)
            theirs = choice_name(item.enum, item.choices)
            message = f"a list of choices of {mine} cannot hold a choice of {theirs}"
            raise ExprError(message, *span)
        if item.record != first.record:
            message = f"a list of {first.record} cannot hold a {item.record}"
            raise ExprError(message, *span, "a list holds records of one type")

    def against(self, node: Node, choice: Checked | None) -> Checked:
        """A list a choice is looked for in: its text literals are labels."""
        if choice is not None and isinstance(node, ListLit):
            return self.list_lit(node, choice)
        if choice is not None and isinstance(node, Cond):
            return self.cond(node, choice)
        return self.visit(node)

    def membership(self, node: Binary) -> Checked:
        """`x in [a, b]`, `x not in [a, b]`: the list's elements are of x's type."""
        if isinstance(node.left, StrLit):  # `"LABEL" in choices`: the list first
            right = self.visit(node.right)
            left = Checked(node.left, "text", None)
            if right.type == "list" and right.item == "choice":
                chosen = replace(right, type="choice")
                left = replace(chosen, node=self.resolve(chosen, node.left))
        else:
            left = self.visit(node.left)
            right = self.against(node.right, left if left.type == "choice" else None)
        if right.type != "list":
            message = f"'{node.op}' needs a list on its right, got {describe(right)}"
            hint = "write the values in brackets, e.g. x in [1, 2]"
            raise ExprError(message, *_span(node.right), hint)
        if right.item is None:
            message = "nothing is ever in an empty list: this is always false"
            hint = "give the list its elements, or leave the test out"
            raise ExprError(message, *_span(node), hint)
        if left.type == "null":
            message = "null is never in a list"
            hint = "test for null with 'is null' or 'is not null'"
            raise ExprError(message, *_span(node.left), hint)
        kinds = (left.type, right.item)
        mismatch = left.type != right.item or (
            left.type == "choice"
            and not same_choice(left.enum, left.choices, right.enum, right.choices)
        )
        if mismatch:
            mine = describe(left)
            if left.type == "choice":
                mine = f"a choice of {choice_name(left.enum, left.choices)}"
            theirs = describe(right)
            if right.item == "choice":
                theirs = f"list of choices of {choice_name(right.enum, right.choices)}"
            message = f"cannot look for {mine} in a {theirs}"
            convert = None
            if "text" in kinds and ("int" in kinds or "choice" in kinds):
                convert = "nothing is converted implicitly: text(x) makes text of x"
            raise ExprError(message, *_span(node), convert)
        rebuilt = replace(node, left=left.node, right=right.node)
        return Checked(rebuilt, "bool", None)

    def owner(self, enum: str | None, choices: tuple[str, ...]) -> str | None:
        """A choice parameter of that enum (for the `choice` emitter callback)."""
        return self.owners.get(enum) or self.owners.get(choices)

    def unify(self, a: Checked, b: Checked, node: Node, what: str) -> Checked:
        """The type of a value that is either a or b (branches, sides of ??)."""
        if a.type == "null" or b.type == "null":
            value = b if a.type == "null" else a
            if value.type == "list":
                hint = "a list is never null: give both a list"
                raise ExprError(f"{what} are a list and null", *_span(node), hint)
            return replace(value, node=node, nullable=True)
        if a.type == b.type == "list" and None in (a.item, b.item):
            return _either_list(a, b, node)
        if a.type != b.type or a.item != b.item or a.record != b.record:
            message = f"{what} have different types: {describe(a)} and {describe(b)}"
            raise ExprError(message, node.start, node.end)
        if "choice" in (a.type, a.item) and not same_choice(
            a.enum, a.choices, b.enum, b.choices
        ):
            mine, theirs = (
                choice_name(a.enum, a.choices),
                choice_name(b.enum, b.choices),
            )
            message = f"{what} are choices of different enums: {mine} and {theirs}"
            raise ExprError(message, node.start, node.end)
        ints = "int" in (a.type, a.item)
        interval = iv_hull(_iv(a), _iv(b)) if ints else None
        nullable, enum = a.nullable or b.nullable, a.enum or b.enum
        length = None
        if a.length is not None and b.length is not None:
            length = iv_hull(a.length, b.length)
        return Checked(
            node,
            a.type,
            interval,
            nullable,
            enum,
            a.choices or b.choices,
            item=a.item,
            length=length,
            record=a.record,
        )

    def cond(self, node: Cond, choice: Checked | None = None) -> Checked:
        """`a if c else b`; a branch knows what names c's outcome proves not null."""
        test = self.visit(node.test)
        message = f"the condition of 'if' must be bool, got {describe(test)}"
        self.need([test], "bool", message)
        with self.narrowing(_not_null(test.node, True, self.proved)):
            body = self.against(node.body, choice)
        with self.narrowing(_not_null(test.node, False, self.proved)):
            orelse = self.against(node.orelse, choice)
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
        if node.func == "roll":
            return self.roll(node)
        if node.func in ROUNDING_FUNCTIONS:
            return self.rounded(node)
        if node.func in LIST_FUNCTIONS or len(node.args) == 1:
            return self.one_arg(node)
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

    def rounded(self, node: Call) -> Checked:
        """floor, ceil or round: of the exact quotient ``a / b`` written as the
        one argument, or of a whole number (itself)."""
        (arg,) = node.args
        if not (isinstance(arg, Binary) and arg.op == "/"):
            item = self.visit(arg)
            message = f"{node.func}() needs an int, got {describe(item)}"
            self.need([item], "int", message)
            return Checked(replace(node, args=(item.node,)), "int", _iv(item))
        left, right = self.visit(arg.left), self.visit(arg.right)
        message = f"cannot divide {describe(left)} and {describe(right)}"
        self.need([left, right], "int", message)
        divisor = _iv(right)
        if divisor.contains(0):
            message = "division by zero possible: divisor may be 0"
            hint = f"the divisor ranges over {divisor}; e.g. use max(divisor, 1)"
            raise ExprError(message, arg.right.start, arg.right.end, hint)
        quotient = replace(arg, left=left.node, right=right.node)
        interval = iv_rounded(node.func, _iv(left), divisor)
        return Checked(replace(node, args=(quotient,)), "int", interval)

    def one_arg(self, node: Call) -> Checked:
        """abs(x), text(x), and the functions of a list: len, sum, any, all, min, max."""
        func, arg = node.func, self.visit(node.args[0])
        rebuilt = replace(node, args=(arg.node,))
        if func == "abs":
            self.need([arg], "int", f"abs() needs an int, got {describe(arg)}")
            return Checked(rebuilt, "int", iv_abs(_iv(arg)))
        if func == "text":
            return self.text(rebuilt, arg)
        want, gives = LIST_FUNCTIONS.get(func, ("int", "int"))
        if func in ("min", "max") and arg.type != "list":  # a name that is no list
            message = f"{func}() takes at least 2 arguments, got 1"
            raise ExprError(
                message, node.start, node.end, f"or one list: {func}([a, b])"
            )
        if arg.type != "list":
            message = f"{func}() needs a list, got {describe(arg)}"
            hint = f"write the values in brackets: {func}([a, b])"
            raise ExprError(message, *_span(arg.node), hint)
        if arg.item is None:  # the empty list: no element to give
            return self.empty_list(func, rebuilt, arg)
        if want is not None and arg.item != want:
            message = f"{func}() needs a list of {want}, got {describe(arg)}"
            raise ExprError(message, *_span(arg.node))
        length = arg.length or Interval(None, None)
        if func == "len":
            return Checked(rebuilt, "int", length)
        if func == "sum":
            return Checked(rebuilt, "int", iv_mul(length, _iv(arg)))
        if gives == "bool":
            return Checked(rebuilt, "bool", None)
        # min or max of a list (the runtime refuses one that may be empty)
        return Checked(
            replace(rebuilt, checks=lists.refuses_empty(arg)), "int", _iv(arg)
        )

    def empty_list(self, func: str, node: Call, arg: Checked) -> Checked:
        """A function of the empty list: len and sum 0, any false, all true;
        min and max have no element to give."""
        if func in ("min", "max"):
            message = f"{func}() of an empty list has no value"
            hint = f"give the list an element, or give {func}() two values"
            raise ExprError(message, *_span(arg.node), hint)
        if func in ("len", "sum"):
            return Checked(node, "int", Interval(0, 0))
        return Checked(node, "bool", None)

    def text(self, node: Call, arg: Checked) -> Checked:
        """text(x): an int's digits, or a choice's label."""
        if arg.type == "text":
            message = f"'{to_source(arg.node)}' is already text"
            raise ExprError(message, *_span(arg.node), "remove the text()")
        if arg.type not in ("int", "choice"):
            message = f"text() needs an int or a choice, got {describe(arg)}"
            hint = 'for a bool, choose the text: "yes" if flag else "no"'
            raise ExprError(message, *_span(arg.node), hint)
        if arg.nullable:
            message = f"text() needs a value, but '{to_source(arg.node)}' may be null"
            raise ExprError(message, *_span(arg.node), _null_hint(arg))
        return Checked(node, "text", None)

    def rule_call(self, node: Call, *, record: bool = False) -> Checked:
        """`formula(a, b)`: another rule of the system, with its arguments
        checked; ``record``: a rule answering a record, whose field is read."""
        function = self.functions[node.func]
        if (
            function.fields is not None
            and function.result.type != "record"
            and not record
        ):
            message = f"{node.func}() answers a record: read a field of it"
            field = next(iter(function.fields), "FIELD")
            hint = f"e.g. {to_source(node)}.{field}"
            raise ExprError(message, node.start, node.end, hint)
        params = function.params
        given = node.args
        if node.names:  # by name: put in the parameters' order
            found = arranged(
                self, node, [p.name for p in params], frozenset(), f"{node.func}()"
            )
            given = tuple(arg for arg in found if arg is not None)
        if len(given) != len(params):
            names = ", ".join(p.name for p in params)
            message = (
                f"{node.func}() takes {len(params)} argument"
                f"{'s' if len(params) != 1 else ''} ({names}), got {len(node.args)}"
            )
            raise ExprError(message, node.start, node.end)
        args = [
            self.argument(
                arg, param, f"argument '{param.name}' of {node.func}()", function.rule
            )
            for arg, param in zip(given, params, strict=True)
        ]
        keywords = tuple(p.name for p in params if p.keyword_only)
        rng_at = next(
            (i for i, p in enumerate(params) if p.keyword_only or p.has_default),
            len(params),
        )
        rebuilt = replace(
            node,
            args=tuple(args),
            names=(),
            rule=True,
            rolls=function.rolls,
            odds=function.odds,
            keywords=keywords,
            rng_at=rng_at,
        )
        return of_slot(rebuilt, function.result, False)

    def argument(self, arg: Node, param: Param, what: str, rule: str) -> Node:
        """An argument of a call of a rule (or of a state's constructor or
        transition), checked against ``param``: the argument's checked tree."""
        if param.type == "choice" and param.nullable and isinstance(arg, NullLit):
            return arg  # no choice: the callee takes null
        if param.type == "choice":
            key, null_key = self.key(arg, what, param.enum, param.choices, None)
            if null_key and not param.nullable:
                item = self.visit(arg)
                raise ExprError(f"{what} may be null", *_span(arg), _null_hint(item))
            return key
        item = self.visit(arg)
        if param.slot is not None:  # text, a list, a record or a state
            if (
                isinstance(arg, ListLit)
                and param.slot.type == "list"
                and item.item == "choice"
            ):
                item = self.list_lit(arg, replace(item, type="choice"))
            problem = fits(item, param.slot)
            if problem is not None:
                raise ExprError(f"{what}: the value {problem}", *_span(arg))
            return item.node
        message = f"{what} is {param.type}, got {describe(item)}"
        self.need([item], param.type, message)
        if param.type == "int":
            iv, allowed = _iv(item), Interval(param.min, param.max)
            low = param.min is not None and (iv.lo is None or iv.lo < param.min)
            high = param.max is not None and (iv.hi is None or iv.hi > param.max)
            if low or high:
                message = f"{what} may be {iv}, but {rule} allows only {allowed}"
                hint = (
                    "bound it with clamp(x, lo, hi), or give the parameter min and max"
                )
                raise ExprError(message, *_span(arg), hint)
        return item.node

    def bound(self, name: str) -> bool:
        """Whether ``name`` is a name of the rule's already (a parameter, a
        name bound, a table)."""
        return name in self.params or name in self.tables

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
        if func in self.others:
            message = f"'{func}' {self.others[func]}: an expression calls a rule answering one value, or a record (a field read of it)"
            hint = "read the rule's answer in the code that calls it, or give a rule of one of those shapes"
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
        function = (
            self.functions.get(call.func)
            if isinstance(call, Call) and call.func not in self.params
            else None
        )
        if (
            function is not None
            and function.fields is not None
            and function.result.type != "record"
        ):
            assert isinstance(call, Call)
            answered = self.rule_call(call, record=True)
            slot = function.fields.get(node.name)
            if slot is None:
                message = f"unknown field '{node.name}' of {call.func}()"
                hint = _suggest(node.name, function.fields, "fields")
                raise ExprError(message, node.end - len(node.name), node.end, hint)
            return of_slot(replace(node, obj=answered.node), slot, False)
        if not isinstance(call, Call) or call.func not in self.tables:
            item = self.visit(call)
            if item.type == "dice":
                return self.dice_part(node, item)
            if item.type in ("record", "state"):
                return read_field(self, node, item)

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
        return of_slot(replace(node, obj=lookup), slot, null_key)

    def roll(self, node: Call) -> Checked:
        """`roll(d)`: a roll of a dice value, with the caller's rng (a whole
        number within the dice's least and greatest totals)."""
        arg = self.visit(node.args[0])
        if arg.type != "dice":
            message = f"roll() needs a dice value, got {describe(arg)}"
            hint = "dice written out roll as they are: 2d6 + 1"
            raise ExprError(message, *_span(arg.node), hint)
        if arg.nullable:
            message = f"roll() needs dice, but '{to_source(arg.node)}' may be null"
            raise ExprError(message, *_span(arg.node), _null_hint(arg))
        parts = {name: (lo, hi) for name, lo, hi in arg.parts}
        lo, hi = parts.get("min", (None, None))[0], parts.get("max", (None, None))[1]
        rebuilt = replace(node, args=(arg.node,), rolls=True)
        return Checked(rebuilt, "int", Interval(lo, hi))

    def dice_part(self, node: Attr, item: Checked) -> Checked:
        """`dice.min`: an integer part of a dice value; `dice.unit` its unit
        (text, null where it has none)."""
        if node.name == "unit":
            return Checked(replace(node, obj=item.node, part=True), "text", None, True)
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
        return Checked(replace(node, obj=item.node, part=True), "int", Interval(lo, hi))

    def index(self, node: Index) -> Checked:
        """`mapping[key]`: the value of a mapping parameter for a key; or
        `items[0]`: an item of a list by its position."""
        obj = node.obj
        param = self.params.get(obj.name) if isinstance(obj, Name) else None
        if param is None or param.type != "mapping":
            row = isinstance(obj, Call) and obj.func in self.tables
            if param is not None or not (isinstance(obj, Name) or row):
                item = self.visit(obj)
                if item.type == "list":
                    return lists.item_at(self, node, item)
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
        return of_slot(rebuilt, param.value, null_key)

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
            return replace(arg, enum=enum, param=owner, text=False), False
        item = self.visit(arg)
        if item.type == "choice" and same_choice(item.enum, item.choices, enum, labels):
            return item.node, item.nullable
        got = describe(item)
        if item.type == "choice":
            got = f"a choice of {choice_name(item.enum, item.choices)}"
        message = f"{what} needs a {kind} key, got {got}"
        hint = f"pass a {kind} choice or one of its labels: {', '.join(labels)}"
        raise ExprError(message, *_span(arg), hint)


def _null_hint(item: Checked) -> str:
    name = to_source(item.node)
    hint = f"'{name}' may be null: give a default with ??"
    if isinstance(item.node, Name):
        hint += f", or test it first: ... if {name} is not null else ..."
    return hint


def _not_null(
    test: Node,
    outcome: bool,
    seen: Seen[tuple[frozenset[str], frozenset[str]]] | None = None,
) -> frozenset[str]:
    """The names a bool test proves not null when it gives `outcome` (``seen``:
    what is known of the tests worked out before, by their identity)."""
    when_true, when_false = _proved(test, {} if seen is None else seen)
    return when_true if outcome else when_false


def _proved(
    test: Node, seen: Seen[tuple[frozenset[str], frozenset[str]]]
) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``test`` proves not null when it holds, and when it does not:
    each part of it worked out once, whatever it is nested in."""
    return remembered(seen, test, lambda node: _proving(node, seen))


def _proving(
    test: Node, seen: Seen[tuple[frozenset[str], frozenset[str]]]
) -> tuple[frozenset[str], frozenset[str]]:
    none: frozenset[str] = frozenset()
    match test:
        case (
            Binary(op=op, left=Name() as name, right=NullLit())
            | Binary(op=op, left=NullLit(), right=Name() as name)
        ) if op in NULL_TESTS:
            names = frozenset({name.name})
            is_null = NULL_TESTS[op]  # the test holds when the name is null
            return (none if is_null else names), (names if is_null else none)
        case Unary(op="not"):
            when_true, when_false = _proved(test.operand, seen)
            return when_false, when_true
        case Binary(op="and" | "or"):
            left_true, left_false = _proved(test.left, seen)
            right_true, right_false = _proved(test.right, seen)
            if (
                test.op == "and"
            ):  # false: the left was, or it held and the right was not
                return left_true | right_true, left_false & (left_true | right_false)
            # true: the left held, or it did not and the right did
            return left_true & (left_false | right_true), left_false | right_false
    return none, none


def check(
    node: Node,
    params: Mapping[str, Param],
    *,
    tables: Mapping[str, Table] = _NO_TABLES,
    functions: Mapping[str, Function] = _NO_FUNCTIONS,
    ladders: Mapping[str, Ladder] = _NO_LADDERS,
    given: Node | None = None,
    exact: bool = False,
    others: Mapping[str, str] = _NO_OTHERS,
    records: Mapping[str, RecordType] = _NO_RECORDS,
    dies: Mapping[str, DieFaces] = _NO_DIES,
) -> Checked:
    """Type-check a parsed formula and compute its integer range.

    ``given`` is a condition known to hold where the formula is evaluated (a
    decision case's ``when``): the names it proves not null are not null here.
    ``exact``: every whole number it works out is also proved within
    ``MAX_EXACT`` as a call can give it (``expr_exact``), that range kept in
    the result's ``exact``.

    The returned node equals `node` but has its choice labels resolved: emit
    Python from it, not from the parsed tree.
    """
    context = Context(node, params, tables, functions, ladders, given, records, dies)
    args = (params, tables, functions, ladders)
    found = _Checker(*args, others=others, records=records, dies=dies).checked(
        node, given
    )
    if not exact:
        return replace(found, context=context)
    bounded = _Checker(*args, exact=True, others=others, records=records, dies=dies)
    return replace(found, exact=bounded.checked(node, given), context=context)


def rechecked(
    item: Checked, ranges: Mapping[str, Interval]
) -> tuple[Checked, ExprError | None]:
    """``item`` checked again as ``check(..., exact=True)`` checks it, its int
    names (parameters, or names bound to an int) within ``ranges`` instead:
    the exact result and None, or, where some part may pass ``MAX_EXACT``,
    the result as plain checking gives it (its ranges as they are, past the
    limit or without a bound) and that error. ``item`` must come from
    ``check``."""
    context = item.context
    assert context is not None, "rechecked() takes what check() answers"
    params = dict(context.params)
    for name, iv in ranges.items():
        param = params.get(name)
        if param is None:
            continue
        if param.bound is not None and param.bound.type == "int":
            bound = replace(param.bound, interval=iv, exact=None)
            params[name] = replace(param, bound=bound)
        elif param.bound is None and param.type == "int":
            params[name] = replace(param, min=iv.lo, max=iv.hi)
    args = (params, context.tables, context.functions, context.ladders)
    records, dies = context.records, context.dies
    try:
        found = _Checker(*args, exact=True, records=records, dies=dies).checked(
            context.node, context.given
        )
    except ExprError as error:
        return _Checker(*args, records=records, dies=dies).checked(
            context.node, context.given
        ), error
    return found, None


def dice_in(node: Node) -> Dice | Call | None:
    """The first dice the expression rolls (a dice term, or a call of a rule
    that rolls), or None when it rolls none."""
    return next(
        (
            sub
            for sub in walk(node)
            if isinstance(sub, Dice) or (isinstance(sub, Call) and sub.rolls)
        ),
        None,
    )


def rolled_text(node: Dice | Call) -> str:
    """What ``dice_in`` found, for a message: its source, and for a call of a
    rule that rolls, that the rule rolls."""
    text = f"'{to_source(node)}'"
    return f"{text} ({node.func}() rolls dice)" if isinstance(node, Call) else text


def rules_called_in(text: str, names: Iterable[str]) -> frozenset[str]:
    """The names among ``names`` that formula text calls (raises ExprError): a
    call of a function of the expression language (``max(a, b)``) calls that
    function, whatever rule has its name."""
    known = set(names) - FUNCTIONS.keys() - DICE_FUNCTIONS.keys()
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
    given: Node | None = None,
    exact: bool = False,
    others: Mapping[str, str] = _NO_OTHERS,
    records: Mapping[str, RecordType] = _NO_RECORDS,
    dies: Mapping[str, DieFaces] = _NO_DIES,
) -> Checked:
    """Parse and check formula source text; raises ExprError. ``others``:
    the functions of the system's rules an expression cannot call, each with
    why (said where one is called); ``dies``: the dice of the rules' own a
    ``d(name)`` may roll."""
    _check_size(text)
    return check(
        parse(text),
        params,
        tables=tables,
        functions=functions,
        ladders=ladders,
        given=given,
        exact=exact,
        others=others,
        records=records,
        dies=dies,
    )


# Limits that keep every stage (parser, checker, emitters, int-to-text) far from
# Python's recursion limit and its 4300-digit conversion limit.
MAX_OPERATORS = 100
MAX_NESTING = 20
MAX_DIGITS = 15
_OPERATORS = frozenset(
    {*ARITH_OPS, *COMPARE_OPS, "/", "??", "and", "or", "not", "if", ".", "in", "is"}
)


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
