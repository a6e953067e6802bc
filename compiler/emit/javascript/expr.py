"""Formula emission for JavaScript: a checked expression as a JavaScript expression.

Integers are numbers: an operation whose range (worked out from its operands',
see ``expr_types``) may pass Number.MAX_SAFE_INTEGER is checked at run time by
the runtime's ``exact`` (or ``add``, which also joins texts), and so is one
that could give JavaScript's negative zero; ``//`` is the runtime's floor (or
ceiling) division. Choices are label strings, compared with ``===``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as slot

from ...common.visible import utf16_escape
from ...lang.dice import (
    dice_js,
    pool_of,
    tally_js,
)
from ...lang.lists import (
    concat_parts,
    keyed,
)
from ...lang.memo import (
    Seen,
    remembered,
)
from ...lang.naming import private_constant
from ...lang.nodes import (
    COMPARE_OPS,
    IV_ARITH,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
    Index,
    Interval,
    IntLit,
    ListLit,
    Method,
    Name,
    Node,
    NullLit,
    Rounding,
    Step,
    StrLit,
    Unary,
    iv_abs,
    iv_hull,
    iv_max,
    iv_min,
    iv_neg,
)
from .names import jsattr

__all__ = ["MAX_SAFE", "to_javascript"]

MAX_SAFE = 2**53 - 1
_SAFE = Interval(-MAX_SAFE, MAX_SAFE)
_ANY = Interval(None, None)

_COND, _COALESCE, _OR, _AND, _EQ, _REL, _ADD, _MUL, _UNARY, _ATOM = range(10)
_OPS = {
    "or": ("||", _OR),
    "and": ("&&", _AND),
    "==": ("===", _EQ),
    "!=": ("!==", _EQ),
    "is": ("===", _EQ),
    "is not": ("!==", _EQ),
    "<": ("<", _REL),
    "<=": ("<=", _REL),
    ">": (">", _REL),
    ">=": (">=", _REL),
}


def _no_lookup(table: str, key: str) -> str:
    raise ValueError(f"no lookup emitter for table {table!r}")


def _no_label(enum: str, label: str) -> str:
    raise ValueError(f"no label emitter for {enum} label {label!r}")


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


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


def safe_literal(value: int) -> str:
    """An integer of the rules as JavaScript text; ValueError past its exact range."""
    if not -MAX_SAFE <= value <= MAX_SAFE:
        raise ValueError(
            f"the figure {value} is past Number.MAX_SAFE_INTEGER, so JavaScript "
            "cannot hold it exactly"
        )
    return str(value)


@dataclass(slots=True)
class _Emitter:
    rounding: Rounding
    name: Callable[[str], str]
    field: Callable[[str], str]
    bounds: Callable[[str], Interval]
    lookup: Callable[[str, str], str]
    label: Callable[[str, str], str]
    choice: Callable[[str, str], str]
    function: Callable[[str], str]
    emitted: Seen[tuple[str, int]] = slot(default_factory=dict)
    ranges: Seen[Interval] = slot(default_factory=dict)

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def emit(self, node: Node) -> tuple[str, int]:
        """The node's code and its precedence, each node's worked out once."""
        return remembered(self.emitted, node, self.code)

    def code(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return safe_literal(node.value), _ATOM
            case BoolLit():
                return ("true" if node.value else "false"), _ATOM
            case NullLit():
                return "null", _ATOM
            case StrLit():
                return self.string(node), _ATOM
            case Name():
                return self.name(node.name), _ATOM
            case Unary(op="-"):
                return self.negate(node)
            case Unary():
                return "!" + self.wrap(node.operand, _UNARY), _UNARY
            case Binary(op="??"):
                left = self.wrap(node.left, _EQ)
                right = self.wrap(node.right, _EQ)
                return f"({left} ?? {right})", _ATOM
            case Binary(op="in" | "not in"):
                items = self.wrap(node.right, _ATOM)
                test = f"{items}.includes({self.wrap(node.left, _COND)})"
                return (test, _ATOM) if node.op == "in" else (f"!{test}", _UNARY)
            case Binary() if node.op in _OPS:
                return self.operator(node)
            case Binary(concat=True):  # any iterables, as an array
                parts = (
                    "..." * spread + self.wrap(part, _COND)
                    for spread, part in concat_parts(node)
                )
                return f"[{', '.join(parts)}]", _ATOM
            case Binary(op="//"):
                helper = "floorDiv" if self.rounding == "down" else "ceilDiv"
                left, right = self.wrap(node.left, _COND), self.wrap(node.right, _COND)
                return f"$.{helper}({left}, {right})", _ATOM
            case Binary():
                return self.arith(node)
            case Cond():
                test = self.wrap(node.test, _OR)
                body = self.wrap(node.body, _COND)
                return f"{test} ? {body} : {self.wrap(node.orelse, _COND)}", _COND
            case Dice():
                return self.dice(node), _ATOM
            case Call(func="sorted") if keyed(node):
                items = self.wrap(node.args[0], _COND)
                return f"$values.sortedBy({items}, {self.key(node)})", _ATOM
            case Call(func="sorted"):
                items = self.wrap(node.args[0], _COND)
                return f"[...{items}].sort((a, b) => a - b)", _ATOM
            case Call(func="max" | "min") if node.checks or keyed(node):
                helper = "most" if node.func == "max" else "least"
                given = [self.wrap(node.args[0], _COND)]
                given += [self.key(node)] if keyed(node) else []
                return f"$values.{helper}({', '.join(given)})", _ATOM
            case Call(func="reversed"):
                return f"[...{self.wrap(node.args[0], _COND)}].reverse()", _ATOM
            case Construct():
                return self.construct(node), _ATOM
            case Method():
                return self.method(node), _ATOM
            case Comp():
                return self.comprehension(node), _ATOM
            case Call(func="count"):
                return self.count(node), _ATOM
            case Call(func="tally"):
                faces, symbol = (self.wrap(arg, _COND) for arg in node.args)
                return tally_js(faces, symbol), _ATOM
            case Call(func="roll"):
                return f"{self.wrap(node.args[0], _ATOM)}.roll(rng)", _ATOM
            case Call(rule=True):
                args = [self.wrap(arg, _COND) for arg in node.args]
                at = len(args) - len(node.keywords)
                rng = ["rng"] if node.rolls else []  # the caller's
                named = ", ".join(
                    f"{self.field(k)}: {v}"
                    for k, v in zip(node.keywords, args[at:], strict=True)
                )
                options = [f"{{ {named} }}"] if named else []
                function = self.function(node.func)
                given = [*args[: node.rng_at], *rng, *args[node.rng_at : at], *options]
                return f"{function}({', '.join(given)})", _ATOM
            case Step():
                value, by = self.wrap(node.operand, _COND), self.wrap(node.by, _COND)
                past = json.dumps(node.ladder.past_end)
                return f"$.step({node.ladder.enum}, {value}, {by}, {past})", _ATOM
            case Call(
                func="min"
                | "max"
                | "clamp"
                | "abs"
                | "len"
                | "sum"
                | "any"
                | "all"
                | "text"
            ):
                return self.builtin(node), _ATOM
            case Call():
                return self.row(node), _ATOM
            case Attr(obj=Call(nullable_key=True) as lookup):
                (key,) = lookup.args
                field = self.field(node.name)
                key_text = self.wrap(key, _COND)
                row = self.lookup(lookup.func, "$k")
                return f"$.unlessNull({key_text}, ($k) => {row}.{field})", _ATOM
            case Attr(state=True):  # a field or property of a state
                return (
                    f"{self.wrap(node.obj, _ATOM)}.{jsattr(node.name, 'mutable')}",
                    _ATOM,
                )
            case Attr(part=True):  # a part of a dice value
                return f"{self.wrap(node.obj, _ATOM)}.{node.name}", _ATOM
            case Attr():
                return f"{self.wrap(node.obj, _ATOM)}.{self.field(node.name)}", _ATOM
            case Index(item=True, safe=True):
                held, place = self.wrap(node.obj, _ATOM), self.wrap(node.index, _COND)
                return f"{held}.at({place})", _ATOM
            case Index(item=True):
                held, place = self.wrap(node.obj, _COND), self.wrap(node.index, _COND)
                return f"$values.item({held}, {place})", _ATOM
            case Index(nullable_key=True):
                mapping = self.wrap(node.obj, _ATOM)
                key_text = self.wrap(node.index, _COND)
                return f"$.unlessNull({key_text}, ($k) => {mapping}[$k])", _ATOM
            case Index():
                index = self.wrap(node.index, _COND)
                return f"{self.wrap(node.obj, _ATOM)}[{index}]", _ATOM
            case ListLit():
                items = ", ".join(self.wrap(item, _COND) for item in node.items)
                return f"[{items}]", _ATOM
        raise AssertionError(node)

    def key(self, node: Call) -> str:
        """How ``sorted``, ``max`` or ``min`` of records reads each: its field."""
        return f"($r) => $r.{self.field(keyed(node) or '')}"

    def construct(self, node: Construct) -> str:
        """A new record (a frozen object of its shape, a list a frozen array
        of its own), or a new state from its arguments (``new``)."""
        if node.state:
            args = ", ".join(self.wrap(arg, _COND) for arg in node.args)
            return f"new {self.function(node.record)}({args})"
        items = []
        for name, arg, held in zip(
            node.fields, node.args, node.held or [False] * len(node.args), strict=True
        ):
            code = self.wrap(arg, _COND)
            if held:
                code = f"Object.freeze([...{code}])"
            items.append(f"{self.field(name)}: {code}")
        shape = private_constant(node.record, "fields")
        return f"$json.record({shape}, {{ {', '.join(items)} }})"

    def method(self, node: Method) -> str:
        """A state after a transition: a changed copy (the state is a value)."""
        args = [self.wrap(a, _COND) for a in node.args]
        positional = [
            a for p, a in zip(node.params, args, strict=True) if p not in node.keywords
        ]
        named = [
            f"{self.field(p)}: {a}"
            for p, a in zip(node.params, args, strict=True)
            if p in node.keywords
        ]
        given = [*positional, *([f"{{ {', '.join(named)} }}"] if named else [])]
        call = f"$s.{jsattr(node.name, 'mutable')}({', '.join(given)})"
        return f"$values.changed({self.wrap(node.obj, _COND)}, ($s) => {call})"

    def comprehension(self, node: Comp) -> str:
        """``items.flatMap``: each item's test, then its body, in order."""
        name = self.name(node.name)
        body = self.wrap(node.body, _COND)
        value = f"[{body}]"
        if node.test is not None:
            value = f"{self.wrap(node.test, _OR)} ? [{body}] : []"
        return f"{self.wrap(node.items, _ATOM)}.flatMap(({name}) => {value})"

    def string(self, node: StrLit) -> str:
        if node.enum is not None:
            return self.label(node.enum, node.value)
        if node.param is not None:
            return self.choice(node.param, node.value)
        return string_literal(node.value)

    def negate(self, node: Unary) -> tuple[str, int]:
        if isinstance(node.operand, IntLit):
            return "-" + safe_literal(node.operand.value), _UNARY
        # `0 - x`, never JavaScript's -0 (negating a safe integer stays safe)
        return f"0 - {self.wrap(node.operand, _MUL)}", _ADD

    def operator(self, node: Binary) -> tuple[str, int]:
        op, prec = _OPS[node.op]
        if node.deep:  # two records or states: field by field
            left, right = self.wrap(node.left, _COND), self.wrap(node.right, _COND)
            test = f"$values.equal({left}, {right})"
            return (test, _ATOM) if node.op in ("==", "is") else (f"!{test}", _UNARY)
        if node.ladder is not None:  # two labels of an ordered enum, by rank
            kind = node.ladder.enum
            a, b = (
                f"$.rank({kind}, {self.wrap(side, _COND)})"
                for side in (node.left, node.right)
            )
            return f"{a} {op} {b}", prec
        left = self.wrap(node.left, prec)
        right = self.wrap(node.right, prec + 1)
        if node.op == "or":  # `a || (b && c)`: brackets that help readers
            if isinstance(node.left, Binary) and node.left.op == "and":
                left = f"({left})"
            if isinstance(node.right, Binary) and node.right.op == "and":
                right = f"({right})"
        # `null === x` reads better as `x === null`
        if node.op in (*COMPARE_OPS, "is", "is not") and isinstance(node.left, NullLit):
            left, right = right, left
        return f"{left} {op} {right}", prec

    def arith(self, node: Binary) -> tuple[str, int]:
        """`+`, `-`, `*`: plain when the result is surely a safe integer (and
        never -0), else through the runtime's checks."""
        a, b = self.interval(node.left), self.interval(node.right)
        result = IV_ARITH[node.op](a, b)
        if node.op == "+" and not _within(result):
            # may be a join of texts, or past the safe range: the runtime knows
            return (
                f"$.add({self.wrap(node.left, _COND)}, {self.wrap(node.right, _COND)})",
                _ATOM,
            )
        prec = _MUL if node.op == "*" else _ADD
        left = self.wrap(node.left, prec)
        right = self.wrap(node.right, prec + 1)
        negative_zero = node.op == "*" and not (_nonnegative(a) and _nonnegative(b))
        if _within(result) and not negative_zero:
            return f"{left} {node.op} {right}", prec
        return f"$.exact({left} {node.op} {right})", _ATOM

    def interval(self, node: Node) -> Interval:
        """A sound range of an integer node's values (unbounded when unknown)."""
        return remembered(self.ranges, node, self.range_of)

    def range_of(self, node: Node) -> Interval:
        match node:
            case IntLit():
                return Interval(node.value, node.value)
            case Name():
                return self.bounds(node.name)
            case Unary(op="-"):
                return iv_neg(self.interval(node.operand))
            case Binary(op="+" | "-" | "*" | "//"):
                return IV_ARITH[node.op](
                    self.interval(node.left), self.interval(node.right)
                )
            case Cond():
                return iv_hull(self.interval(node.body), self.interval(node.orelse))
            case Call(func="abs"):
                return iv_abs(self.interval(node.args[0]))
            case Call(func="min" | "max" | "clamp") if len(node.args) > 1:
                ivs = [self.interval(arg) for arg in node.args]
                if node.func == "min":
                    return iv_min(ivs)
                if node.func == "max":
                    return iv_max(ivs)
                return iv_min([iv_max(ivs[:2]), ivs[2]])
        return _ANY

    def builtin(self, node: Call) -> str:
        args = [self.wrap(arg, _COND) for arg in node.args]
        match node.func:
            case "clamp":
                return f"Math.min(Math.max({args[0]}, {args[1]}), {args[2]})"
            case "min" | "max" if len(args) == 1:
                return f"Math.{node.func}(...{self.wrap(node.args[0], _ATOM)})"
            case "min" | "max" | "abs":
                return f"Math.{node.func}({', '.join(args)})"
            case "len":
                return f"{self.wrap(node.args[0], _ATOM)}.length"
            case "sum":
                return f"$.sum({args[0]})"
            case "any":
                return f"{self.wrap(node.args[0], _ATOM)}.includes(true)"
            case "all":
                return f"!{self.wrap(node.args[0], _ATOM)}.includes(false)"
        return f"String({args[0]})"  # text(): an int's digits, a choice's label

    def dice(self, node: Dice) -> str:
        """A roll of the pool (the caller's ``rng``), as ``expr_emit``'s."""
        pool = pool_of(node)
        sides = str(pool.sides) if node.sides is None else self.wrap(node.sides, _COND)
        if node.count is None:
            return dice_js(node, str(pool.count), sides, "rng")
        count = self.wrap(node.count, _COND)
        empty = "[]" if node.results else "0"
        rolled = dice_js(node, "$c", sides, "rng")
        return f"(($c) => ($c === 0 ? {empty} : {rolled}))({count})"

    def count(self, node: Call) -> str:
        """``count(list, value)``, ``count(list, low, high)`` (arguments once each)."""
        args = ", ".join(self.wrap(arg, _COND) for arg in node.args)
        if len(node.args) == 2:
            return f"(($l, $v) => $l.filter(($x) => $x === $v).length)({args})"
        return (
            f"(($l, $a, $b) => $l.filter(($x) => $a <= $x && $x <= $b).length)({args})"
        )

    def row(self, node: Call) -> str:
        (arg,) = node.args
        return self.lookup(node.func, self.wrap(arg, _COND))


def _within(iv: Interval) -> bool:
    return (
        iv.lo is not None
        and iv.hi is not None
        and _SAFE.contains(iv.lo)
        and _SAFE.contains(iv.hi)
    )


def _nonnegative(iv: Interval) -> bool:
    return iv.lo is not None and iv.lo >= 0


def to_javascript(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str],
    field: Callable[[str], str],
    bounds: Callable[[str], Interval],
    lookup: Callable[[str, str], str] = _no_lookup,
    label: Callable[[str, str], str] = _no_label,
    choice: Callable[[str, str], str] = _no_choice,
    function: Callable[[str], str] = str,
) -> str:
    """A JavaScript expression for a checked formula.

    ``name(param)`` names a parameter's checked value; ``field(name)`` a row's
    field; ``bounds(param)`` the range of an int parameter (within the safe
    integers: the runtime refuses any other); ``lookup(table, key)`` a row of a
    table by a key expression; ``label(enum, label)`` and ``choice(param,
    label)`` a label (as ``expr_emit.to_python`` has them); ``function(name)``
    another rule's function.
    """
    emitter = _Emitter(rounding, name, field, bounds, lookup, label, choice, function)
    return emitter.emit(node)[0]
