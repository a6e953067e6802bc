"""Formula emission as math: LaTeX for the reference pages (KaTeX on the site, GitHub's math).

One emitter per target, as ``emit.expr`` is for Python: this one writes the
checked tree of a formula as LaTeX that a reader of a rulebook can follow.
Parameters are set in italic words (``climb_bonus`` is *climb bonus*), labels
and text as upright text, a division as the system rounds it (⌊a ÷ b⌋ or
⌈a ÷ b⌉), and a choice between values as cases (display) or "if ... else"
(inline). The text never holds a character that would end a Markdown table
cell or start raw HTML (``|``, ``<``, ``>``, a backtick), nor a dollar sign, so it
can sit between ``$`` signs in a table cell or in a ```` ```math ```` block.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as slot

from ...common.visible import one_line
from ...lang.dice import pool_of
from ...lang.memo import (
    Seen,
    remembered,
)
from ...lang.naming import class_words, words_of
from ...lang.nodes import (
    FUNCTIONS,
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
    walk,
)
from .dice_words import option_words

__all__ = ["display_parts", "label_words", "latex_text", "to_latex"]


_COND, _COALESCE, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _UNARY, _ATOM = range(10)
_PREC = {"??": _COALESCE, "or": _OR, "and": _AND, "+": _ADD, "-": _ADD, "*": _MUL}
_OPS = {
    "+": "+",
    "-": "-",
    "*": r"\times",
    "==": "=",
    "is": "=",
    "!=": r"\neq",
    "is not": r"\neq",
    "<": r"\lt",
    "<=": r"\leq",
    ">": r"\gt",
    ">=": r"\geq",
    "in": r"\in",
    "not in": r"\notin",
}
# Characters that LaTeX text mode, Markdown tables or HTML would read as markup.
_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    # an empty group after it, so that no HTML character reference starts here
    # (the site's Markdown leaves ``&lt;`` in inline math for the browser to read)
    "&": r"\&{}",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "`": "'",
}


def latex_text(text: str) -> str:
    """``text`` safe inside ``\\text{...}``: on one line, every character that acts
    or hides written as its escape (``compiler/common/visible.py``), every special
    character escaped."""
    escaped = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in one_line(text))
    # an empty group between two dashes or quotes: no ligature (``--`` is not a dash)
    return _LIGATURE.sub(r"\1{}", escaped)


_LIGATURE = re.compile(r"([-'])(?=[-'])")


# A label written as an identifier (``side_a``): a reader reads it in words.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")


def label_words(label: str) -> str:
    """A label as a reader says it: one written as an identifier in words
    (``side_a``: "side a"), any other as it is written (not escaped)."""
    return words_of(label) if _IDENTIFIER.fullmatch(label) else label


# The die of dice written in notation: ``4d6kh3``'s ``4d6``, ``d10!``'s ``d10``.
_DIE = re.compile(r"\d*d(?:\d+|F(?:\.[12])?|%)")


def _written_die(written: str) -> str:
    """The count and die of dice written in notation, without their options."""
    found = _DIE.match(written)
    return found.group(0) if found else written


def _breaking(text: str) -> str:
    """Words in a formula, a line break allowed between any two (a formula too
    wide for its page is set as text that wraps, and a ``\\text`` never breaks);
    ``text``'s own spaces at its ends kept."""
    words = [latex_text(word) for word in text.split()]
    words[0] = (" " if text.startswith(" ") else "") + words[0]
    words[-1] += " " if text.endswith(" ") else ""
    return r"\allowbreak ".join(
        rf"\text{{{' ' if i else ''}{word}}}" for i, word in enumerate(words)
    )


def _name(name: str) -> str:
    return rf"\textit{{{latex_text(words_of(name))}}}"


def _field(table: str, field: str, key: str) -> str:
    return rf"\text{{{latex_text(words_of(field))}}}{_brackets(key)}"


_TALL = (r"\dfrac", r"\begin{cases}")


def _brackets(text: str) -> str:
    """``(text)``: sized to a tall content (a fraction, cases), else plain, so
    that a long formula in a line of text can break after its operators."""
    return rf"\left({text}\right)" if any(t in text for t in _TALL) else f"({text})"


def _sized(text: str, floor: bool) -> str:
    """``text`` rounded down (⌊ ⌋) or up (⌈ ⌉)."""
    opening, closing = (r"\lfloor", r"\rfloor") if floor else (r"\lceil", r"\rceil")
    if any(t in text for t in _TALL):
        return rf"\left{opening} {text} \right{closing}"
    return rf"{opening} {text} {closing}"


@dataclass(slots=True)
class _Math:
    rounding: Rounding
    display: bool
    name: Callable[[str], str]
    field: Callable[[str, str, str], str]
    # display: the parts of a division that hold a choice, set apart by name
    # (a tall floor around cases is one KaTeX cannot draw): (name, LaTeX)
    where: list[tuple[str, str]] = slot(default_factory=list)
    emitted: Seen[tuple[str, int]] = slot(default_factory=dict)

    def part(self, node: Node, role: str) -> str:
        """A side of a division, set apart by name when it holds a choice."""
        if not any(isinstance(sub, Cond) for sub in walk(node)):
            return self.emit(node)[0]
        taken = sum(1 for n, _ in self.where if n.startswith(role))
        name = rf"\textit{{{role}}}" + (f"_{taken + 1}" if taken else "")
        self.where.append((name, self.emit(node)[0]))
        return name

    def quotient(self, node: Binary) -> str:
        """``a / b``: a fraction in display (as wide as the wider of the two),
        ``a ÷ b`` inline."""
        if self.display:
            top = self.part(node.left, "numerator")
            bottom = self.part(node.right, "divisor")
            return rf"\dfrac{{{top}}}{{{bottom}}}"
        left, right = self.wrap(node.left, _MUL), self.operand(node.right, _MUL)
        return f"{left} \\div {right}"

    def wrap(self, node: Node, prec: int) -> str:
        text, own = self.emit(node)
        return _brackets(text) if own < prec else text

    def operand(self, node: Node, prec: int) -> str:
        """Like wrap, but also brackets a leading minus: ``a - (-b)``."""
        text, own = self.emit(node)
        return _brackets(text) if own < prec or own == _UNARY else text

    def emit(self, node: Node) -> tuple[str, int]:
        """The node's LaTeX and its precedence, each node's worked out once."""
        return remembered(self.emitted, node, self.latex)

    def latex(self, node: Node) -> tuple[str, int]:
        match node:
            case IntLit():
                return str(node.value), _ATOM
            case BoolLit():
                return (r"\text{yes}" if node.value else r"\text{no}"), _ATOM
            case NullLit():
                return r"\text{none}", _ATOM
            case StrLit():
                return rf"\text{{{latex_text(label_words(node.value))}}}", _ATOM
            case Name():
                return self.name(node.name), _ATOM
            case Unary(op="-"):
                return "-" + self.operand(node.operand, _UNARY), _UNARY
            case Unary():
                return r"\text{not }" + self.wrap(node.operand, _NOT), _NOT
            case Binary(op="//"):
                return _sized(self.quotient(node), self.rounding == "down"), _ATOM
            case Binary(op="/"):  # exact: the argument of floor, ceil or round
                return self.quotient(node), _MUL
            case Binary(op="??"):
                left = self.wrap(node.left, _COALESCE + 1)
                right = self.wrap(node.right, _COALESCE + 1)
                gap = self.gap
                return (
                    rf"{left} {gap}\text{{ (or }} {right} {gap}\text{{ if none)}}",
                    _COALESCE,
                )
            case Binary(concat=True):  # two lists, one after the other
                left, right = (
                    self.wrap(node.left, _ADD),
                    self.wrap(node.right, _ADD + 1),
                )
                return rf"{left} {self.gap}\text{{ then }} {right}", _ADD
            case Binary(op="and" | "or"):
                prec = _PREC[node.op]
                left, right = self.wrap(node.left, prec), self.wrap(node.right, prec)
                return rf"{left} {self.gap}\text{{ {node.op} }} {right}", prec
            case Binary() if node.op in _PREC:
                prec = _PREC[node.op]
                left = self.wrap(node.left, prec)
                right = self.operand(node.right, prec + 1)
                return f"{left} {_OPS[node.op]} {right}", prec
            case Binary():  # a comparison
                left, right = self.wrap(node.left, _ADD), self.wrap(node.right, _ADD)
                return f"{left} {_OPS[node.op]} {right}", _CMP
            case Cond() if self.display:
                return self.cases(node), _ATOM
            case Cond():
                body = self.wrap(node.body, _COALESCE)
                test = self.wrap(node.test, _COALESCE)
                orelse = self.wrap(node.orelse, _COND)
                gap = self.gap
                return (
                    rf"{body} {gap}\text{{ if }} {test}{gap}\text{{, else }} {orelse}",
                    _COND,
                )
        return self.reads(node)

    def reads(self, node: Node) -> tuple[str, int]:
        """Calls, reads of fields and items, new values, steps and lists."""
        match node:
            case Call(func="clamp", rule=False, args=(value, low, high)):
                gap = self.gap
                inner = r"\max" + _brackets(
                    f"{self.wrap(value, _COND)}, {gap}{self.wrap(low, _COND)}"
                )
                outer = f"{inner}, {gap}{self.wrap(high, _COND)}"
                return rf"\min{_brackets(outer)}", _ATOM
            case Call(func="floor" | "ceil", rule=False, args=(value,)):
                return _sized(self.emit(value)[0], node.func == "floor"), _ATOM
            case Call(func="round", rule=False, args=(value,)):
                return rf"\operatorname{{round}}{_brackets(self.emit(value)[0])}", _ATOM
            case Call(func="abs", rule=False, args=(value,)):
                return rf"\left\lvert {self.wrap(value, _COND)} \right\rvert", _ATOM
            case Call(func="text", rule=False, args=(value,)):
                return self.emit(value)
            case Call(func="min" | "max", rule=False):
                return rf"\{node.func}{_brackets(self.args(node))}", _ATOM
            case Dice():
                return self.dice(node), _ATOM
            case Call(func="count", rule=False, args=(listed, *faces)):
                return self.count(listed, faces), _ATOM
            case Call(func="sorted", rule=False, args=(listed, *by)):
                order = rf"{self.gap}\text{{, lowest first}}"
                if by:
                    order = (
                        rf" {self.gap}\text{{ by }}{self.wrap(by[0], _COND)}" + order
                    )
                return rf"{self.wrap(listed, _COND)}{order}", _COND
            case Call(func="reversed", rule=False, args=(listed,)):
                return (
                    rf"{self.wrap(listed, _COND)}{self.gap}\text{{, last first}}",
                    _COND,
                )
            case Call(func="len" | "sum" | "any" | "all", rule=False):
                word = {"len": "count", "sum": "sum", "any": "any", "all": "all"}
                return (
                    rf"\operatorname{{{word[node.func]}}}{_brackets(self.args(node))}",
                    _ATOM,
                )
            case Call():  # another rule's function, or a table's row
                return (
                    rf"\text{{{latex_text(words_of(node.func))}}}{_brackets(self.args(node))}",
                    _ATOM,
                )
            case Attr(obj=Call(rule=False, args=(key,)) as lookup) if (
                lookup.func not in FUNCTIONS
            ):
                return self.field(lookup.func, node.name, self.wrap(key, _COND)), _ATOM
            case Attr():  # "the damage of x", not x.damage
                obj = self.wrap(node.obj, _ATOM)
                said = latex_text(words_of(node.name))
                return rf"\text{{the {said} of }}{obj}", _ATOM
            case Index(item=True):  # an item of a list, by its position
                obj, index = self.wrap(node.obj, _ATOM), self.wrap(node.index, _COND)
                return rf"{obj}\left[{index}\right]", _ATOM
            case Index():
                obj, index = self.wrap(node.obj, _ATOM), self.wrap(node.index, _COND)
                return obj + _brackets(index), _ATOM
            case Construct():
                parts = [
                    rf"\text{{{latex_text(words_of(name))}}} = {self.wrap(arg, _COND)}"
                    for name, arg in zip(node.fields, node.args, strict=True)
                    if node.state or not isinstance(arg, NullLit)
                ]
                made = rf"\text{{a {latex_text(class_words(node.record))}: }}"
                return made + _brackets(f", {self.gap}".join(parts)), _ATOM
            case Method():
                obj = self.wrap(node.obj, _ATOM)
                args = f", {self.gap}".join(self.wrap(a, _COND) for a in node.args)
                name = rf"\text{{ after {latex_text(words_of(node.name))} }}"
                return rf"{obj}{self.gap}{name}{_brackets(args)}", _COND
            case Comp():
                return self.comprehension(node), _ATOM
            case Step():
                start = self.wrap(node.operand, _ADD)
                steps = node.by
                if isinstance(steps, Unary) and steps.op == "-":
                    return f"{start} - {self.operand(steps.operand, _ADD + 1)}", _ADD
                return f"{start} + {self.operand(steps, _ADD + 1)}", _ADD
            case ListLit():
                items = ", ".join(self.wrap(item, _COND) for item in node.items)
                return rf"\{{{items}\}}", _ATOM
        raise AssertionError(node)

    def comprehension(self, node: Comp) -> str:
        """``[body for e in items if test]`` as a list of the body for each
        item, where the test holds."""
        gap = self.gap
        text = (
            rf"{self.wrap(node.body, _COND)} {gap}\text{{ for each }} "
            rf"{self.name(node.name)} {gap}\text{{ in }} {self.wrap(node.items, _OR)}"
        )
        if node.test is not None:
            text += rf" {gap}\text{{ where }} {self.wrap(node.test, _OR)}"
        return rf"\left[{text}\right]"

    def dice(self, node: Dice) -> str:
        """Dice as a reader reads them: the count and the die (a count or sides
        from an expression in brackets), then what the options do, in words."""
        text = "" if node.count is None else _brackets(self.wrap(node.count, _COND))
        if node.die is not None:  # a die of the rules' own, by its name
            die = latex_text(words_of(node.die.name))
            text += r"\text{d}" + _brackets(rf"\text{{{die}}}")
        elif node.sides is not None:
            text += r"\text{d}" + _brackets(self.wrap(node.sides, _COND))
        else:
            text += rf"\text{{{latex_text(_written_die(node.written))}}}"
        said = option_words(pool_of(node), node.sides is None and node.die is None)
        if said:
            text += _breaking(f" ({'; '.join(said)})")
        return _breaking("the dice rolled: ") + text if node.results else text

    @property
    def gap(self) -> str:
        """Where a line of text may break inside a formula (KaTeX and MathJax
        break inline math only there and after operators); nothing on its own line."""
        return "" if self.display else r"\allowbreak "

    def args(self, node: Call) -> str:
        return f", {self.gap}".join(self.wrap(arg, _COND) for arg in node.args)

    def count(self, items: Node, faces: list[Node]) -> str:
        """``count(list, v)``, ``count(list, lo, hi)``: how many of the list's
        numbers are that one, or from one to the other."""
        gap = self.gap
        said = rf"\text{{how many of }}{self.wrap(items, _COND)} {gap}\text{{ are }}"
        if len(faces) == 1:
            return said + self.wrap(faces[0], _COND)
        low, high = (self.wrap(face, _COND) for face in faces)
        return rf"{said}\text{{from }}{low} {gap}\text{{ to }}{high}"

    def cases(self, node: Cond) -> str:
        """``a if t else b if u else c`` as one cases block, a row per value."""
        rows: list[str] = []
        current: Node = node
        while isinstance(current, Cond):
            body = self.wrap(current.body, _COALESCE)
            rows.append(rf"{body} & \text{{if }} {self.wrap(current.test, _COALESCE)}")
            current = current.orelse
        rows.append(rf"{self.wrap(current, _COND)} & \text{{otherwise}}")
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"


def to_latex(
    node: Node,
    *,
    rounding: Rounding,
    display: bool = False,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
) -> str:
    """LaTeX for a checked formula, with minimal brackets.

    ``display`` sets a choice between values as a cases block (for a formula
    on its own line); inline, it reads "a if t, else b". ``name(param)`` sets a
    parameter (italic words by default); ``field(table, field, key)`` a field
    of a table's row, given the key's LaTeX.
    """
    return _Math(rounding, display, name, field).emit(node)[0]


def display_parts(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
) -> tuple[str, list[str]]:
    """A formula on its own line, and the definitions it refers to by name
    (``divisor = ...``: the side of a division that is a choice between values,
    set apart so that the formula stays narrow)."""
    math = _Math(rounding, True, name, field)
    main = math.emit(node)[0]
    return main, [f"{n} = {tex}" for n, tex in math.where]
