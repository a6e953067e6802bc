"""Base printer: a plain core expression (``core.plain``) as a target's code; each target overrides what it spells its own way.

A target's printer (``emit.python.printer``, ``emit.javascript.printer``, the tests'
Lua) is a subclass that sets its tables (``OPS``: each operator's spelling
and precedence; ``HELPERS``: how each of the runtime's helpers is called;
``TEMPS``: the names of values bound once; ``TRUE``, ``FALSE``, ``NULL``) and
overrides the forms it writes otherwise. Each form's method answers its text
and its precedence (``ATOM`` binds tightest); ``wrap`` brackets an operand
that binds looser than its place needs.

A helper's template reads its arguments as ``{a}``, ``{b}``, ``{c}`` (each
bracketed as a conditional's branch would be), ``{A}``, ``{B}`` (bracketed
as the object of a field read), ``{args}`` (all, by commas), ``{enum}`` (the
set the helper reads, a ladder's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from ..core import plain as p
from ..lang.nodes import Interval
from ..runtime.dice_terms import (
    AnyOf,
    Condition,
    Face,
    Pool,
)


def pool_options(
    pool: Pool,
    compare: Callable[[str, int], str],
    listed: Callable[[tuple[Face, ...]], str],
) -> list[tuple[str, str]]:
    """The options ``pool`` sets, as the runtimes' ``Pool`` takes them by name
    (in Python's spelling: ``True``), each with its code: ``compare(op,
    value)`` writes a comparison, ``listed(faces)`` a die's faces."""
    found: list[tuple[str, str]] = []
    if pool.fudge:
        found.append(("fudge", "True"))
    if pool.reroll is not None:
        found.append(("reroll", compare(*_one(pool.reroll))))
    if pool.reroll_once:
        found.append(("reroll_once", "True"))
    if pool.explode is not None:
        found.append(("explode", f'"{pool.explode}"'))
    if pool.explode_at is not None:
        found.append(("explode_at", compare(*_one(pool.explode_at))))
    if pool.keep is not None:
        found += [("keep", f'"{pool.keep}"'), ("keep_count", str(pool.keep_count))]
    if pool.target is not None:
        found.append(("target", compare(*_one(pool.target))))
    if pool.multiplier != 1:
        found.append(("multiplier", str(pool.multiplier)))
    if pool.listed is not None:  # (a die's symbols are names: no quote in them)
        found.append(("listed", listed(pool.listed)))
    return found


def _one(condition: Condition) -> tuple[str, int]:
    """A pool's condition as one comparison (several are not in formulas)."""
    if isinstance(condition, AnyOf):
        raise ValueError(f"several conditions in a formula's pool: {condition}")
    return condition.op, condition.value


def _no_choice(param: str, label: str) -> str:
    raise ValueError(f"no choice emitter for {param} == {label!r}")


@dataclass(frozen=True, slots=True)
class Names:
    """How a target names what an expression reads: a parameter's or local's
    checked value, a record's field, a label of a set (or of a choice
    parameter's set), a table's row by its key's code, another rule's
    function; and the range of an int parameter."""

    name: Callable[[str], str] = str
    field: Callable[[str], str] = str
    label: Callable[[str, str], str] | None = None
    choice: Callable[[str, str], str] = _no_choice
    lookup: Callable[[str, str], str] | None = None
    function: Callable[[str], str] = str
    bounds: Callable[[str], Interval] = lambda _: Interval(None, None)


_LETTERS = "abc"


class Printer:
    """The base printer: infix operators by ``OPS``, helpers by ``HELPERS``,
    calls as ``f(a, b)``, reads as ``x.f`` and ``x[i]``, lists as ``[a, b]``."""

    COND, COALESCE, OR, AND, NOT, EQ, REL, ADD, MUL, UNARY, ATOM = range(11)
    OPS: ClassVar[dict[str, tuple[str, int]]] = {
        "or": ("or", OR),
        "and": ("and", AND),
        "==": ("==", EQ),
        "!=": ("!=", EQ),
        "<": ("<", REL),
        "<=": ("<=", REL),
        ">": (">", REL),
        ">=": (">=", REL),
        "+": ("+", ADD),
        "-": ("-", ADD),
        "*": ("*", MUL),
    }
    HELPERS: ClassVar[dict[str, str]] = {}
    TEMPS: ClassVar[dict[str, str]] = {}
    TRUE, FALSE, NULL = "true", "false", "null"
    RNG = "rng"  # the caller's, passed on to a rule that rolls

    def __init__(self, names: Names) -> None:
        self.names = names
        self.emitted: dict[int, tuple[p.Plain, tuple[str, int]]] = {}

    def print(self, node: p.Plain) -> str:
        return self.emit(node)[0]

    def emit(self, node: p.Plain) -> tuple[str, int]:
        """The node's code and its precedence, each node's worked out once."""
        found = self.emitted.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        code: tuple[str, int] = getattr(self, "form_" + type(node).__name__)(node)
        self.emitted[id(node)] = (node, code)
        return code

    def wrap(self, node: p.Plain, prec: int) -> str:
        text, own = self.emit(node)
        return f"({text})" if own < prec else text

    def joined(self, nodes: tuple[p.Plain, ...]) -> str:
        return ", ".join(self.wrap(n, self.COND) for n in nodes)

    # -- leaves

    def form_Lit(self, node: p.Lit) -> tuple[str, int]:
        value = node.value
        if value is None:
            return self.NULL, self.ATOM
        if isinstance(value, bool):
            return (self.TRUE if value else self.FALSE), self.ATOM
        if isinstance(value, int):
            return self.number(value), self.ATOM
        return self.text(value), self.ATOM

    def number(self, value: int) -> str:
        return str(value)

    def text(self, value: str) -> str:
        return repr(value)

    def form_Label(self, node: p.Label) -> tuple[str, int]:
        if node.enum is not None and self.names.label is not None:
            return self.names.label(node.enum, node.value), self.ATOM
        if node.param is not None:
            return self.names.choice(node.param, node.value), self.ATOM
        if node.enum is not None:
            raise ValueError(f"no label emitter for {node.enum} label {node.value!r}")
        return self.text(node.value), self.ATOM  # no set known: as a text

    def form_Var(self, node: p.Var) -> tuple[str, int]:
        return self.names.name(node.name), self.ATOM

    def form_Temp(self, node: p.Temp) -> tuple[str, int]:
        return self.TEMPS[node.hint], self.ATOM

    # -- operators

    def form_Op(self, node: p.Op) -> tuple[str, int]:
        op, prec = self.OPS[node.op]
        left = self.wrap(node.left, prec)
        right = self.wrap(node.right, prec + 1)
        if node.op == "or":  # `a or (b and c)`: brackets that help readers
            left, right = (
                self.bracket_and(node.left, left),
                self.bracket_and(node.right, right),
            )
        return f"{left} {op} {right}", prec

    @staticmethod
    def bracket_and(node: p.Plain, text: str) -> str:
        is_and = isinstance(node, p.Op) and node.op == "and"
        return f"({text})" if is_and else text

    def form_Neg(self, node: p.Neg) -> tuple[str, int]:
        return "-" + self.wrap(node.operand, self.UNARY + 1), self.UNARY

    def form_Not(self, node: p.Not) -> tuple[str, int]:
        return "not " + self.wrap(node.operand, self.NOT), self.NOT

    # -- calls and reads

    def form_Helper(self, node: p.Helper) -> tuple[str, int]:
        values = {"args": self.joined(node.args), "enum": node.enum or ""}
        for letter, arg in zip(_LETTERS, node.args, strict=False):
            values[letter] = self.wrap(arg, self.COND)
            values[letter.upper()] = self.wrap(arg, self.ATOM)
        return self.HELPERS[node.name].format(**values), self.ATOM

    def form_RuleCall(self, node: p.RuleCall) -> tuple[str, int]:
        """Another rule's function: its positional arguments (the caller's rng
        among them where it rolls), then those it takes by name."""
        args = [self.wrap(arg, self.COND) for arg in node.args]
        at = len(args) - len(node.keywords)
        rng = [self.RNG] if node.rolls else []
        named = self.keywords(list(zip(node.keywords, args[at:], strict=True)))
        given = [*args[: node.rng_at], *rng, *args[node.rng_at : at], *named]
        return f"{self.names.function(node.func)}({', '.join(given)})", self.ATOM

    def keywords(self, pairs: list[tuple[str, str]]) -> list[str]:
        """Arguments given by name (each name, and its argument's code)."""
        return [f"{k}={v}" for k, v in pairs]

    def form_Row(self, node: p.Row) -> tuple[str, int]:
        if self.names.lookup is None:
            raise ValueError(f"no lookup emitter for table {node.table!r}")
        key = self.wrap(node.key, self.COND)
        return self.names.lookup(node.table, key), self.ATOM

    def form_Field(self, node: p.Field) -> tuple[str, int]:
        name = node.name  # a part of dice, as the runtime names it
        if node.of == "state":
            name = self.state_field(node.name)
        elif node.of == "record":
            name = self.names.field(node.name)
        return f"{self.wrap(node.obj, self.ATOM)}.{name}", self.ATOM

    def state_field(self, name: str) -> str:
        """A state's field or property, as its class names it."""
        return self.names.field(name)

    def form_Index(self, node: p.Index) -> tuple[str, int]:
        index = self.wrap(node.index, self.COND)
        return f"{self.wrap(node.obj, self.ATOM)}[{index}]", self.ATOM

    def form_List(self, node: p.List) -> tuple[str, int]:
        items = ", ".join(
            self.spread(item) if spread else self.wrap(item, self.COND)
            for spread, item in zip(node.spread, node.items, strict=True)
        )
        return f"[{items}]", self.ATOM

    def spread(self, node: p.Plain) -> str:
        return "*" + self.wrap(node, self.ADD)

    def form_Roll(self, node: p.Roll) -> tuple[str, int]:
        """A roll of the pool (the caller's rng): its count and sides as the
        pool has them, or from their expressions."""
        pool = node.pool
        sides = (
            str(pool.sides) if node.sides is None else self.wrap(node.sides, self.COND)
        )
        count = str(pool.count) if node.count is None else self.print(node.count)
        return self.roll(pool, node.results, count, sides), self.ATOM

    def roll(self, pool: Pool, results: bool, count: str, sides: str) -> str:
        """The code that rolls ``pool`` of ``count`` dice of ``sides`` (their code)."""
        raise NotImplementedError(f"{type(self).__name__} rolls no dice")
