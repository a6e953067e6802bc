"""JavaScript printer: a plain core expression as JavaScript (the base printer's overrides).

Integers are numbers: an operation whose range (worked out from its operands',
see ``lang.nodes``) may pass Number.MAX_SAFE_INTEGER is checked at run time by
the runtime's ``exact`` (or ``add``, which also joins texts), and so is one
that could give JavaScript's negative zero; a division is the runtime's floor
(or ceiling) division. Labels are strings, compared with ``===``.
"""

from __future__ import annotations

from typing import ClassVar

from ...common.visible import utf16_escape
from ...core import plain as p
from ...lang.naming import private_constant
from ...lang.nodes import (
    IV_ARITH,
    Interval,
    iv_abs,
    iv_hull,
    iv_max,
    iv_min,
    iv_neg,
)
from ...runtime._messages import MESSAGES
from ...runtime.dice_terms import Pool
from ..printer import (
    Names,
    Printer,
)
from .dice import roll_js
from .names import jsattr

__all__ = [
    "MAX_SAFE",
    "JavaScriptPrinter",
    "safe_literal",
    "string_literal",
    "with_messages",
]

MAX_SAFE = 2**53 - 1
_SAFE = Interval(-MAX_SAFE, MAX_SAFE)
_ANY = Interval(None, None)
_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def string_literal(text: str) -> str:
    """``text`` as a JavaScript (and TypeScript) string literal, every character
    Python's ``repr`` escapes (what ``str.isprintable`` says is not printable:
    controls, bidirectional and other format characters, separators but the
    space, surrogates, unassigned code points) written as an escape, as the
    Python module's literal writes it: no character from the rules reaches the
    source raw that could change how it reads (a U+202E reorders the text
    around it on screen)."""
    out = ['"']
    for ch in text:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ch.isprintable():
            out.append(ch)
        else:  # past U+FFFF a surrogate pair: the same text in JSON as in JavaScript
            out.append(utf16_escape(ch))
    return "".join(out) + '"'


_NO_MESSAGES = "export const MESSAGES = Object.freeze({});"


def with_messages(text: str) -> str:
    """The JavaScript runtime's ``_messages.js`` with the runtimes' one table
    of messages (``runtime._messages``) written in."""
    assert _NO_MESSAGES in text, "the runtime's _messages.js has its table's place"
    rows = "".join(f"\n  {k}: {string_literal(m)}," for k, m in MESSAGES.items())
    return text.replace(
        _NO_MESSAGES, f"export const MESSAGES = Object.freeze({{{rows}\n}});"
    )


def safe_literal(value: int) -> str:
    """An integer of the rules as JavaScript text; ValueError past its exact range."""
    if not -MAX_SAFE <= value <= MAX_SAFE:
        raise ValueError(
            f"the figure {value} is past Number.MAX_SAFE_INTEGER, so JavaScript "
            "cannot hold it exactly"
        )
    return str(value)


class JavaScriptPrinter(Printer):
    """JavaScript: ``===``, ``&&``, ``?:``, ``??``; the runtime's helpers under
    ``$``, ``$values``, ``$dice_rolls``; arithmetic checked where its range
    may leave the safe integers."""

    OPS: ClassVar[dict[str, tuple[str, int]]] = {
        **Printer.OPS,
        "or": ("||", Printer.OR),
        "and": ("&&", Printer.AND),
        "==": ("===", Printer.EQ),
        "!=": ("!==", Printer.EQ),
    }
    HELPERS: ClassVar[dict[str, str]] = {
        "abs": "Math.abs({args})",
        "max": "Math.max({args})",
        "min": "Math.min({args})",
        "clamp": "Math.min(Math.max({a}, {b}), {c})",
        "highest": "Math.max(...{A})",
        "lowest": "Math.min(...{A})",
        "most": "$values.most({args})",
        "least": "$values.least({args})",
        "max_by": "$values.most({args})",
        "min_by": "$values.least({args})",
        "len": "{A}.length",
        "sum": "$.sum({a})",
        "any": "{A}.includes(true)",
        "all": "!{A}.includes(false)",
        "text": "String({a})",
        "sorted": "[...{a}].sort((a, b) => a - b)",
        "sorted_by": "$values.sortedBy({args})",
        "reversed": "[...{a}].reverse()",
        "count": "(($l, $v) => $l.filter(($x) => $x === $v).length)({args})",
        "count_within": (
            "(($l, $a, $b) => $l.filter(($x) => $a <= $x && $x <= $b).length)({args})"
        ),
        "tally": "$dice_rolls.tally({a}, {b})",
        "roll": "{A}.roll(rng)",
        "step": "$.step({enum}, {args})",
        "rank": "$.rank({enum}, {a})",
        "equal": "$values.equal({a}, {b})",
        "in": "{B}.includes({a})",
        "item": "$values.item({a}, {b})",
        "at": "{A}.at({b})",
        "floor_div": "$.floorDiv({a}, {b})",
        "ceil_div": "$.ceilDiv({a}, {b})",
        "round_div": "$.roundDiv({a}, {b})",
    }
    TEMPS: ClassVar[dict[str, str]] = {"key": "$k", "count": "$c"}

    def __init__(self, names: Names) -> None:
        super().__init__(names)
        self.ranges: dict[int, tuple[p.Plain, Interval]] = {}

    def number(self, value: int) -> str:
        return safe_literal(value)

    def text(self, value: str) -> str:
        return string_literal(value)

    def form_Neg(self, node: p.Neg) -> tuple[str, int]:
        operand = node.operand
        if isinstance(operand, p.Lit) and type(operand.value) is int:
            return "-" + safe_literal(operand.value), self.UNARY
        # `0 - x`, never JavaScript's -0 (negating a safe integer stays safe)
        return f"0 - {self.wrap(operand, self.MUL)}", self.ADD

    def form_Not(self, node: p.Not) -> tuple[str, int]:
        return "!" + self.wrap(node.operand, self.UNARY), self.UNARY

    def form_If(self, node: p.If) -> tuple[str, int]:
        test = self.wrap(node.test, self.OR)
        then = self.wrap(node.then, self.COND)
        return f"{test} ? {then} : {self.wrap(node.orelse, self.COND)}", self.COND

    def form_Let(self, node: p.Let) -> tuple[str, int]:
        assert isinstance(node.body, p.If)
        value = self.wrap(node.value, self.EQ if node.hint == "default" else self.COND)
        if node.hint == "default":  # `a ?? b`
            return f"({value} ?? {self.wrap(node.body.orelse, self.EQ)})", self.ATOM
        if node.hint == "key":  # null where the key is
            return (
                f"$.unlessNull({value}, ($k) => {self.print(node.body.then)})",
                self.ATOM,
            )
        body = self.print(node.body)
        return f"(({self.TEMPS[node.hint]}) => ({body}))({value})", self.ATOM

    def form_Op(self, node: p.Op) -> tuple[str, int]:
        if node.op not in ("+", "-", "*"):
            return super().form_Op(node)
        # plain when the result is surely a safe integer (and never -0), else
        # through the runtime's checks
        a, b = self.interval(node.left), self.interval(node.right)
        result = IV_ARITH[node.op](a, b)
        if node.op == "+" and not _within(result):
            # may be a join of texts, or past the safe range: the runtime knows
            left, right = (
                self.wrap(node.left, self.COND),
                self.wrap(node.right, self.COND),
            )
            return f"$.add({left}, {right})", self.ATOM
        text, prec = super().form_Op(node)
        negative_zero = node.op == "*" and not (_nonnegative(a) and _nonnegative(b))
        if _within(result) and not negative_zero:
            return text, prec
        return f"$.exact({text})", self.ATOM

    def state_field(self, name: str) -> str:
        return jsattr(name, "mutable")

    def form_Reader(self, node: p.Reader) -> tuple[str, int]:
        return f"($r) => $r.{self.names.field(node.name)}", self.ATOM

    def spread(self, node: p.Plain) -> str:
        return "..." + self.wrap(node, self.COND)

    def keywords(self, pairs: list[tuple[str, str]]) -> list[str]:
        """By name: one object of options."""
        named = ", ".join(f"{self.names.field(k)}: {v}" for k, v in pairs)
        return [f"{{ {named} }}"] if named else []

    def form_New(self, node: p.New) -> tuple[str, int]:
        return (
            f"new {self.names.function(node.record)}({self.joined(node.args)})",
            self.ATOM,
        )

    def form_Record(self, node: p.Record) -> tuple[str, int]:
        """A new record: a frozen object of its shape, a list a frozen array."""
        items = []
        for name, arg, held in zip(node.fields, node.args, node.held, strict=True):
            code = self.wrap(arg, self.COND)
            if held:
                code = f"Object.freeze([...{code}])"
            items.append(f"{self.names.field(name)}: {code}")
        shape = private_constant(node.record, "fields")
        return f"$json.record({shape}, {{ {', '.join(items)} }})", self.ATOM

    def form_Change(self, node: p.Change) -> tuple[str, int]:
        """A state after a transition: a changed copy (the state is a value)."""
        args = [self.wrap(a, self.COND) for a in node.args]
        pairs = list(zip(node.params, args, strict=True))
        named = [f"{self.names.field(k)}: {a}" for k, a in pairs if k in node.keywords]
        given = [a for k, a in pairs if k not in node.keywords]
        given += [f"{{ {', '.join(named)} }}"] if named else []
        call = f"$s.{jsattr(node.name, 'mutable')}({', '.join(given)})"
        obj = self.wrap(node.obj, self.COND)
        return f"$values.changed({obj}, ($s) => {call})", self.ATOM

    def form_Each(self, node: p.Each) -> tuple[str, int]:
        """``items.flatMap``: each item's test, then its body, in order."""
        name = self.names.name(node.name)
        body = self.wrap(node.body, self.COND)
        value = f"[{body}]"
        if node.test is not None:
            value = f"{self.wrap(node.test, self.OR)} ? [{body}] : []"
        return (
            f"{self.wrap(node.items, self.ATOM)}.flatMap(({name}) => {value})",
            self.ATOM,
        )

    def roll(self, pool: Pool, results: bool, count: str, sides: str) -> str:
        return roll_js(pool, results, count, sides, self.RNG)

    # -- the ranges of integers

    def interval(self, node: p.Plain) -> Interval:
        """A sound range of an integer node's values (unbounded when unknown)."""
        found = self.ranges.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        value = self.range_of(node)
        self.ranges[id(node)] = (node, value)
        return value

    def range_of(self, node: p.Plain) -> Interval:
        match node:
            case p.Lit(value=int() as value) if type(value) is int:
                return Interval(value, value)
            case p.Var():
                return self.names.bounds(node.name)
            case p.Neg():
                return iv_neg(self.interval(node.operand))
            case p.Op(op="+" | "-" | "*"):
                return IV_ARITH[node.op](
                    self.interval(node.left), self.interval(node.right)
                )
            case p.Helper(name="floor_div" | "ceil_div" | "round_div"):
                return IV_ARITH["//"](*(self.interval(arg) for arg in node.args))
            case p.If():
                return iv_hull(self.interval(node.then), self.interval(node.orelse))
            case p.Helper(name="abs"):
                return iv_abs(self.interval(node.args[0]))
            case p.Helper(name="min" | "max" | "clamp"):
                ivs = [self.interval(arg) for arg in node.args]
                if node.name == "min":
                    return iv_min(ivs)
                if node.name == "max":
                    return iv_max(ivs)
                return iv_min([iv_max(ivs[:2]), ivs[2]])
        return _ANY


def _within(iv: Interval) -> bool:
    return (
        iv.lo is not None
        and iv.hi is not None
        and _SAFE.contains(iv.lo)
        and _SAFE.contains(iv.hi)
    )


def _nonnegative(iv: Interval) -> bool:
    return iv.lo is not None and iv.lo >= 0
