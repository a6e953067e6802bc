"""Formula emission: Python for the runtime, math text for docs, canonical source."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as slot
from typing import Literal

from ..lang.dice import (
    dice_python,
    dice_source,
    pool_of,
    tally_python,
)
from ..lang.lists import (
    concat_parts,
    keyed,
)
from ..lang.memo import (
    Seen,
    remembered,
)
from ..lang.nodes import (
    COMPARE_OPS,
    FUNCTIONS,
    NULL_TESTS,
    WORD_OPS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Construct,
    Dice,
    Index,
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
    names_used,
)
from ..lang.py_names import (
    RNG,
    pyattr,
    pyname,
)

__all__ = ["to_math", "to_python", "to_source"]

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
_MATH_OPS = {
    "*": "\N{MULTIPLICATION SIGN}",
    "==": "=",
    "!=": "≠",
    "<=": "≤",
    ">=": "≥",
    "in": "∈",
    "not in": "∉",
    "is": "=",
    "is not": "≠",
}
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
    emitted: Seen[tuple[str, int]] = slot(default_factory=dict)

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
        """The node's text and its precedence, each node's worked out once."""
        return remembered(self.emitted, node, self.text)

    def text(self, node: Node) -> tuple[str, int]:
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
            case Binary() if node.op in COMPARE_OPS or node.op in WORD_OPS:
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
            case Binary(concat=True) if self.mode == "python":
                # any sequences (a pool's dice are a tuple in odds), as a list
                parts = (
                    # a spread takes no bare condition: `*(a if t else b)`
                    "*" + self.wrap(part, _ADD) if spread else self.wrap(part, _COND)
                    for spread, part in concat_parts(node)
                )
                return f"[{', '.join(parts)}]", _ATOM
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
            case Dice() if self.mode == "python":
                return self.dice(node), _ATOM
            case Dice():
                return dice_source(node, lambda n: self.wrap(n, _COND)), _ATOM
            case Call(func="count") if self.mode == "python":
                return self.count(node), _ATOM
            case Call() if self.mode == "python" and (node.checks or keyed(node)):
                return self.keyed(node), _ATOM
            case Call(func="reversed") if self.mode == "python":
                return f"list(reversed({self.wrap(node.args[0], _COND)}))", _ATOM
            case Construct() if self.mode == "python":
                return self.construct(node), _ATOM
            case Construct():
                fields = ", ".join(
                    f"{name}={self.wrap(arg, _COND)}"
                    for name, arg in zip(node.fields, node.args, strict=True)
                    if not isinstance(arg, NullLit) or node.state
                )
                return f"{node.record}({fields})", _ATOM
            case Method() if self.mode == "python":
                return self.method(node), _ATOM
            case Method():
                return (
                    f"{self.wrap(node.obj, _ATOM)}.{node.name}({self.given(node.args, node.names)})",
                    _ATOM,
                )
            case Comp():
                return self.comprehension(node), _ATOM
            case Call(func="tally") if self.mode == "python":
                faces, symbol = (self.wrap(arg, _COND) for arg in node.args)
                return tally_python(faces, symbol), _ATOM
            case Call(func="roll") if self.mode == "python":
                return f"{self.wrap(node.args[0], _ATOM)}.roll({RNG})", _ATOM
            case Call(rule=True) if self.mode == "python":
                args = [self.wrap(arg, _COND) for arg in node.args]
                at = len(args) - len(node.keywords)
                rng = [RNG] if node.rolls else []  # the caller's
                named = [
                    f"{pyname(k)}={v}"
                    for k, v in zip(node.keywords, args[at:], strict=True)
                ]
                given = [*args[: node.rng_at], *rng, *args[node.rng_at : at], *named]
                return f"{pyname(node.func)}({', '.join(given)})", _ATOM
            case Call(rule=True):
                args = [self.wrap(arg, _COND) for arg in node.args]
                return f"{node.func}({', '.join(args)})", _ATOM
            case Call() if node.names:  # by name, as written (``source``)
                return f"{node.func}({self.given(node.args, node.names)})", _ATOM
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
            case Call(func="min" | "max" | "clamp") if (
                self.mode == "python" and len(node.args) > 1
            ):
                return self.extreme(node), _COND
            case Call():
                args = [self.wrap(arg, _COND) for arg in node.args]
                if self.mode == "python" and node.func == "text":
                    return f"str({args[0]})", _ATOM  # a choice is a StrEnum
                return f"{node.func}({', '.join(args)})", _ATOM
            case Attr(obj=Call(nullable_key=True) as lookup) if self.mode == "python":
                row, (key,) = self.lookup_of(lookup.func), lookup.args
                field = pyattr(node.name)
                return self.guard(
                    key, lambda k: f"{row(lookup.func, k)}.{field}"
                ), _ATOM
            case Attr(state=True) if self.mode == "python":  # a state's field
                return (
                    f"{self.wrap(node.obj, _ATOM)}.{pyattr(node.name, 'mutable')}",
                    _ATOM,
                )
            case Attr(part=False) if self.mode == "python":  # a record's field
                return f"{self.wrap(node.obj, _ATOM)}.{pyattr(node.name)}", _ATOM
            case Attr():
                return f"{self.wrap(node.obj, _ATOM)}.{node.name}", _ATOM
            case Index(item=True, safe=False) if self.mode == "python":
                held, place = self.wrap(node.obj, _COND), self.wrap(node.index, _COND)
                return f"_values.item({held}, {place})", _ATOM
            case Index(nullable_key=True) if self.mode == "python":
                mapping = self.wrap(node.obj, _ATOM)
                return self.guard(node.index, lambda k: f"{mapping}[{k}]"), _ATOM
            case Index():
                index = self.wrap(node.index, _COND)
                return f"{self.wrap(node.obj, _ATOM)}[{index}]", _ATOM
            case ListLit():
                items = ", ".join(self.wrap(item, _COND) for item in node.items)
                return f"[{items}]", _ATOM
        raise AssertionError(node)

    def given(self, args: tuple[Node, ...], names: tuple[str, ...]) -> str:
        """Arguments as written: by position, then by name (``b=2``)."""
        texts = [self.wrap(arg, _COND) for arg in args]
        at = len(texts) - len(names)
        named = [f"{k}={v}" for k, v in zip(names, texts[at:], strict=True)]
        return ", ".join([*texts[:at], *named])

    def construct(self, node: Construct) -> str:
        """A new record (each field by its Python name, a list as a tuple),
        or a new state from its arguments."""
        parts = []
        for name, arg, held in zip(
            node.fields, node.args, node.held or [False] * len(node.args), strict=True
        ):
            code = self.wrap(arg, _COND)
            if held:
                code = "()" if code == "[]" else f"tuple({code})"
            parts.append(f"{pyname(name) if node.state else pyattr(name)}={code}")
        return f"{pyname(node.record)}({', '.join(parts)})"

    def method(self, node: Method) -> str:
        """A state after a transition: a changed copy (the state is a value)."""
        obj = self.wrap(node.obj, _COND)
        args = ", ".join(
            f"{pyname(p)}={self.wrap(a, _COND)}"
            for p, a in zip(node.params, node.args, strict=True)
        )
        call = f"_s.{pyattr(node.name, 'mutable')}({args})"
        return f"_values.changed({obj}, lambda _s: {call})"

    def keyed(self, node: Call) -> str:
        """``sorted``, ``max``, ``min`` of records by a field (``_r`` each
        record), and the highest or lowest of a list that may be empty (which
        the runtime refuses)."""
        items = self.wrap(node.args[0], _COND)
        field = keyed(node)
        key = [] if field is None else [f"lambda _r: _r.{pyattr(field)}"]
        if node.checks:
            helper = "most" if node.func == "max" else "least"
            return f"_values.{helper}({', '.join([items, *key])})"
        return f"{node.func}({items}, key={key[0]})"

    def comprehension(self, node: Comp) -> str:
        """``[body for x in items if test]``, the items in brackets of their
        own where they bind a temporary (which a comprehension's items cannot)."""
        body, items = self.wrap(node.body, _COND), self.wrap(node.items, _OR)
        name = self.name(node.name)
        test = "" if node.test is None else f" if {self.wrap(node.test, _OR)}"
        if self.mode == "python" and ":=" in items:
            return f"(lambda _i: [{body} for {name} in _i{test}])({items})"
        return f"[{body} for {name} in {items}{test}]"

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
        identity = "is" if NULL_TESTS.get(node.op, True) else "is not"
        a, b = node.left, node.right
        if isinstance(a, NullLit):  # `null == x` reads better as `x is None`
            a, b = b, a
        if isinstance(b, NullLit):
            return f"{self.wrap(a, _ADD)} {identity} None"
        (a_text, a_label), (b_text, b_label) = self.side(a, b), self.side(b, a)
        equality = node.op in ("==", "!=")
        op = identity if equality and (a_label or b_label) else node.op
        return f"{a_text} {op} {b_text}"

    def side(self, side: Node, other: Node) -> tuple[str, bool]:
        """A compared side's Python text, and whether it is a choice label."""
        if (
            isinstance(side, StrLit)
            and not side.text
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

    def extreme(self, node: Call) -> str:
        """min/max of two or more ints, and clamp, as inline conditional expressions.

        A call of the builtin costs more than the comparisons. Every operand is
        evaluated once, left to right as the builtin's arguments are (in a walrus
        temp unless it is a name or a literal); the operands are ints (checked),
        so ``a if a > b else b`` answers ``max(a, b)``.
        """
        if node.func == "clamp":
            value, low, high = node.args
            steps = [(">", low), ("<", high)]
        else:
            op = "<" if node.func == "min" else ">"
            value, *rest = node.args
            steps = [(op, arg) for arg in rest]
        compute, read = self.once(value)
        constant = _is_literal(value)
        for n, (op, arg) in enumerate(steps, 1):
            other, again = self.once(arg)
            if constant and not _is_literal(
                arg
            ):  # the literal on the right, as linters ask
                test = f"{other} {_FLIPPED[op]} {compute}"
            else:
                test = f"{compute} {op} {other}"
            text = f"{read} if {test} else {again}"
            constant = False
            if n == len(steps):
                return text  # (a conditional: wrap brackets it where it must)
            temp = self.temp()
            compute, read = f"({temp} := ({text}))", temp
        raise AssertionError(node)

    def once(self, node: Node) -> tuple[str, str]:
        """(text that computes ``node``, text that reads it again)."""
        if isinstance(node, Name | IntLit) or (
            isinstance(node, Unary) and isinstance(node.operand, IntLit)
        ):
            text = self.wrap(node, _CMP + 1)
            return text, text
        temp = self.temp()
        return f"({temp} := {self.wrap(node, _COND)})", temp

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

    def dice(self, node: Dice) -> str:
        """A roll of the pool (the caller's ``rng``); a count from an expression
        is taken first, and 0 of it rolls nothing."""
        pool = pool_of(node)
        sides = str(pool.sides) if node.sides is None else self.wrap(node.sides, _COND)
        if node.count is None:
            return dice_python(node, str(pool.count), sides, "rng")
        count, temp = self.wrap(node.count, _COND), self.temp()
        rolled = dice_python(node, temp, sides, "rng")
        return f"({rolled} if ({temp} := {count}) else {'[]' if node.results else 0})"

    def count(self, node: Call) -> str:
        """``count(list, value)``: how many equal it; ``count(list, low, high)``:
        how many lie within (the list first, then the values, once each)."""
        items, *values = (self.wrap(arg, _COND) for arg in node.args)
        if len(values) == 1:
            return f"{self.wrap(node.args[0], _ATOM)}.count({values[0]})"
        low, high = self.temp(), self.temp()
        return (
            f"(lambda _l, {low}, {high}: sum({low} <= _x <= {high} for _x in _l))"
            f"({items}, {values[0]}, {values[1]})"
        )

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
    avoid: frozenset[str] = frozenset(),
) -> str:
    """A Python expression for a checked formula, with minimal parentheses.

    name(param) names a parameter (a mapping parameter too: it is indexed as
    `name(param)[key]`); choice(param, label) and label(enum, label) name an
    enum member (label is preferred when the enum is known; choice gets a
    choice parameter of the label's enum or, for a key of a mapping without
    one, the mapping parameter); lookup(table, key) gives a primary expression
    for a table's row, to which `.field` is appended. `a ?? b`, and a lookup or
    index whose key may be null, assign walrus temporaries _t1, _t2, ...:
    place the expression in a function body; ``avoid`` names temporaries the
    function already uses.
    """
    taken = frozenset(name(n) for n in names_used(node)) | avoid
    emitter = _Emitter("python", rounding, name, choice, lookup, label, taken)
    return emitter.emit(node)[0]


def to_math(node: Node, *, rounding: Rounding) -> str:
    """Human-readable math text for docs (never contains a backtick)."""
    return _Emitter("math", rounding).emit(node)[0]


def to_source(node: Node) -> str:
    """Canonical formula source text: parse(to_source(node)) == node."""
    return _Emitter("source").emit(node)[0]


_FLIPPED = {"<": ">", ">": "<"}


def _is_literal(node: Node) -> bool:
    """A whole number written out (``3``, ``-3``): it computes nothing."""
    return isinstance(node, IntLit) or (
        isinstance(node, Unary) and isinstance(node.operand, IntLit)
    )
