"""Python printer: a plain core expression as Python (the base printer's overrides).

A value bound once (``Let``: ``a ?? b``, a key that may be null, a count of
dice) is a walrus temporary ``_t1``, ``_t2``... unless it is a name or a
literal; ``min``, ``max`` and ``clamp`` of numbers are conditionals (cheaper
than the builtins' calls); labels are compared by identity (``is``).
"""

from __future__ import annotations

from typing import ClassVar

from ...core import plain as p
from ...lang.py_names import (
    RNG,
    pyattr,
    pyname,
)
from ...runtime.dice_terms import Pool
from ..printer import (
    Names,
    Printer,
)
from .dice import roll_python

__all__ = ["PythonPrinter"]

_FLIPPED = {"<": ">", ">": "<"}
_COMPARED = frozenset({"==", "!=", "<", "<=", ">", ">="})


def _plain(node: p.Plain) -> bool:
    """A name, null or a flag: read again, never bound (`3 is None` warns)."""
    return isinstance(node, p.Var) or (
        isinstance(node, p.Lit) and (node.value is None or isinstance(node.value, bool))
    )


def _literal(node: p.Plain) -> bool:
    """A whole number written out (``3``, ``-3``): it computes nothing."""
    if isinstance(node, p.Neg):
        node = node.operand
    return isinstance(node, p.Lit) and type(node.value) is int


class PythonPrinter(Printer):
    """Python: ``is None``, ``x if t else y``, ``//``, ``not in``; the
    runtime's helpers under ``_values`` and ``dice_rolls``."""

    REL = Printer.EQ  # Python compares at one level
    OPS: ClassVar[dict[str, tuple[str, int]]] = {
        **Printer.OPS,
        **{op: (op, Printer.EQ) for op in _COMPARED},
        "//": ("//", Printer.MUL),
    }
    HELPERS: ClassVar[dict[str, str]] = {
        "abs": "abs({args})",
        "highest": "max({args})",
        "lowest": "min({args})",
        "most": "_values.most({args})",
        "least": "_values.least({args})",
        "max_by": "max({a}, key={b})",
        "min_by": "min({a}, key={b})",
        "sorted_by": "sorted({a}, key={b})",
        "len": "len({args})",
        "sum": "sum({args})",
        "any": "any({args})",
        "all": "all({args})",
        "text": "str({a})",  # a choice is a StrEnum
        "sorted": "sorted({args})",
        "reversed": "list(reversed({a}))",
        "count": "{A}.count({b})",
        "tally": "dice_rolls.tally({a}, {b})",
        "roll": "{A}.roll(" + RNG + ")",
        "step": "step({args})",
        "item": "_values.item({a}, {b})",
        "at": "{A}[{b}]",
    }
    TRUE, FALSE, NULL = "True", "False", "None"

    def __init__(self, names: Names, taken: frozenset[str]) -> None:
        super().__init__(names)
        self.taken = taken
        self.temps = 0
        self.bound: dict[str, list[str]] = {}

    def temp(self) -> str:
        while True:
            self.temps += 1
            if (name := f"_t{self.temps}") not in self.taken:
                return name

    def operand(self, node: p.Plain, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: `a - (-b)`, `-(-x)`."""
        text, own = self.emit(node)
        return f"({text})" if own < prec or own == self.UNARY else text

    def form_Temp(self, node: p.Temp) -> tuple[str, int]:
        return self.bound[node.hint][-1], self.ATOM

    def form_Neg(self, node: p.Neg) -> tuple[str, int]:
        return "-" + self.operand(node.operand, self.UNARY), self.UNARY

    def form_Not(self, node: p.Not) -> tuple[str, int]:
        found = node.operand
        if isinstance(found, p.Helper) and found.name in ("in", "equal"):
            op = "not in" if found.name == "in" else "!="
            return self.compare(op, *found.args), self.EQ
        return super().form_Not(node)

    def form_Op(self, node: p.Op) -> tuple[str, int]:
        if node.op in _COMPARED:
            return self.compare(node.op, node.left, node.right), self.EQ
        op, prec = self.OPS[node.op]
        left = self.wrap(node.left, prec)
        right = self.operand(node.right, prec + 1)
        if node.op == "or":  # `a or (b and c)`: brackets that help readers
            left = self.bracket_and(node.left, left)
            right = self.bracket_and(node.right, right)
        return f"{left} {op} {right}", prec

    def compare(self, op: str, a: p.Plain, b: p.Plain) -> str:
        a, b = _unranked(a), _unranked(b)  # labels of a ladder compare as they are
        identity = "is not" if op == "!=" else "is"
        if b == p.NULL:
            return f"{self.wrap(a, self.ADD)} {identity} None"
        (a_text, a_label), (b_text, b_label) = self.side(a, b), self.side(b, a)
        if op in ("==", "!=") and (a_label or b_label):
            op = identity
        return f"{a_text} {op} {b_text}"

    def side(self, side: p.Plain, other: p.Plain) -> tuple[str, bool]:
        """A compared side's Python text, and whether it is a choice label."""
        if isinstance(side, p.Label) and not _texty(other):
            if side.enum is not None or side.param is not None:
                return self.print(side), True
            if isinstance(other, p.Var):  # an unchecked tree: the name's choice
                return self.names.choice(other.name, side.value), True
        return self.wrap(side, self.ADD), False

    def form_If(self, node: p.If) -> tuple[str, int]:
        then = self.wrap(node.then, self.COALESCE)
        test = self.wrap(node.test, self.COALESCE)
        return f"{then} if {test} else {self.wrap(node.orelse, self.COND)}", self.COND

    def form_Let(self, node: p.Let) -> tuple[str, int]:
        """The value once: read again where it is plain, else a walrus
        temporary in the test (which runs first)."""
        body = node.body
        assert isinstance(body, p.If)
        if node.hint == "count":  # the roll's sides before its count
            return self.counted(node.value, body), self.ATOM
        if _plain(node.value):
            value = self.wrap(node.value, self.ATOM)
            first = value
        else:
            value = self.temp()
            first = f"({value} := {self.wrap(node.value, self.COND)})"
        self.bound.setdefault(node.hint, []).append(value)
        then, orelse = (
            self.wrap(body.then, self.COND),
            self.wrap(body.orelse, self.COND),
        )
        self.bound[node.hint].pop()
        return f"({then} if {first} is not None else {orelse})", self.ATOM

    def counted(self, value: p.Plain, body: p.If) -> str:
        """A roll of a count of dice from an expression: none of 0."""
        rolled = body.orelse
        assert isinstance(rolled, p.Roll)
        if rolled.sides is not None:
            self.emit(rolled.sides)
        count = self.wrap(value, self.COND)
        temp = self.temp()
        self.bound.setdefault("count", []).append(temp)
        code = self.print(rolled)
        self.bound["count"].pop()
        return f"({code} if ({temp} := {count}) else {self.print(body.then)})"

    def form_Helper(self, node: p.Helper) -> tuple[str, int]:
        name = node.name
        if name in ("in", "equal"):
            return self.compare("in" if name == "in" else "==", *node.args), self.EQ
        if name == "rank":
            return self.emit(node.args[0])
        if name in ("floor_div", "ceil_div", "round_div"):
            return self.divide(node)
        if name in ("max", "min", "clamp"):
            return self.extreme(node), self.COND
        if name == "count_within":
            items, low, high = (self.wrap(arg, self.COND) for arg in node.args)
            a, b = self.temp(), self.temp()
            counted = f"(lambda _l, {a}, {b}: sum({a} <= _x <= {b} for _x in _l))"
            return f"{counted}({items}, {low}, {high})", self.ATOM
        return super().form_Helper(node)

    def divide(self, node: p.Helper) -> tuple[str, int]:
        a, b = node.args
        if node.name == "round_div":  # a half up: (2a + b) // 2b, b computed once
            doubled = f"2 * {self.operand(a, self.UNARY)}"
            if isinstance(b, p.Lit) and type(b.value) is int:
                return f"({doubled} + {b.value}) // {2 * b.value}", self.MUL
            compute, read = self.once(b)
            return f"({doubled} + {compute}) // (2 * {read})", self.MUL
        left, right = self.wrap(a, self.MUL), self.operand(b, self.UNARY)
        if node.name == "floor_div":
            return f"{left} // {right}", self.MUL
        return f"-(-{self.wrap(a, self.ATOM)} // {right})", self.UNARY

    def extreme(self, node: p.Helper) -> str:
        """min/max of two or more ints, and clamp, as inline conditional expressions.

        A call of the builtin costs more than the comparisons. Every operand is
        evaluated once, left to right as the builtin's arguments are (in a walrus
        temp unless it is a name or a literal); the operands are ints (checked),
        so ``a if a > b else b`` answers ``max(a, b)``.
        """
        if node.name == "clamp":
            value, low, high = node.args
            steps = [(">", low), ("<", high)]
        else:
            op = "<" if node.name == "min" else ">"
            value, *rest = node.args
            steps = [(op, arg) for arg in rest]
        compute, read = self.once(value)
        constant = _literal(value)
        text = ""
        for n, (op, arg) in enumerate(steps, 1):
            other, again = self.once(arg)
            if constant and not _literal(
                arg
            ):  # the literal on the right, as linters ask
                test = f"{other} {_FLIPPED[op]} {compute}"
            else:
                test = f"{compute} {op} {other}"
            text = f"{read} if {test} else {again}"
            constant = False
            if n < len(steps):
                temp = self.temp()
                compute, read = f"({temp} := ({text}))", temp
        return text  # (a conditional: wrap brackets it where it must)

    def once(self, node: p.Plain) -> tuple[str, str]:
        """(text that computes ``node``, text that reads it again)."""
        if isinstance(node, p.Var) or _literal(node):
            text = self.wrap(node, self.EQ + 1)
            return text, text
        temp = self.temp()
        return f"({temp} := {self.wrap(node, self.COND)})", temp

    def form_Reader(self, node: p.Reader) -> tuple[str, int]:
        return f"lambda _r: _r.{pyattr(node.name)}", self.COND

    def state_field(self, name: str) -> str:
        return pyattr(name, "mutable")

    def keywords(self, pairs: list[tuple[str, str]]) -> list[str]:
        return [f"{pyname(k)}={v}" for k, v in pairs]

    def form_Record(self, node: p.Record) -> tuple[str, int]:
        """A new record: each field by its Python name, a list as a tuple."""
        parts = []
        for name, arg, held in zip(node.fields, node.args, node.held, strict=True):
            code = self.wrap(arg, self.COND)
            if held:
                code = "()" if code == "[]" else f"tuple({code})"
            parts.append(f"{pyattr(name)}={code}")
        return f"{pyname(node.record)}({', '.join(parts)})", self.ATOM

    def form_New(self, node: p.New) -> tuple[str, int]:
        parts = [
            f"{pyname(name)}={self.wrap(arg, self.COND)}"
            for name, arg in zip(node.params, node.args, strict=True)
        ]
        return f"{pyname(node.record)}({', '.join(parts)})", self.ATOM

    def form_Change(self, node: p.Change) -> tuple[str, int]:
        """A state after a transition: a changed copy (the state is a value)."""
        obj = self.wrap(node.obj, self.COND)
        args = ", ".join(
            f"{pyname(k)}={self.wrap(a, self.COND)}"
            for k, a in zip(node.params, node.args, strict=True)
        )
        call = f"_s.{pyattr(node.name, 'mutable')}({args})"
        return f"_values.changed({obj}, lambda _s: {call})", self.ATOM

    def form_Each(self, node: p.Each) -> tuple[str, int]:
        """``[body for x in items if test]``, the items in brackets of their
        own where they bind a temporary (which a comprehension's items cannot)."""
        body, items = self.wrap(node.body, self.COND), self.wrap(node.items, self.OR)
        name = self.names.name(node.name)
        test = "" if node.test is None else f" if {self.wrap(node.test, self.OR)}"
        if ":=" in items:
            return f"(lambda _i: [{body} for {name} in _i{test}])({items})", self.ATOM
        return f"[{body} for {name} in {items}{test}]", self.ATOM

    def roll(self, pool: Pool, results: bool, count: str, sides: str) -> str:
        return roll_python(pool, results, count, sides, self.RNG)


def _unranked(node: p.Plain) -> p.Plain:
    if isinstance(node, p.Helper) and node.name == "rank":
        return node.args[0]
    return node


def _texty(node: p.Plain) -> bool:
    return isinstance(node, p.Label) or (
        isinstance(node, p.Lit) and isinstance(node.value, str)
    )
