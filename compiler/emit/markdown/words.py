"""Condition emission in words: a decision's "when" as a rulebook would say it.

The third emitter of the expression language, beside ``emit.expr`` (Python) and
``expr_math`` (LaTeX): comparisons, and/or/not, labels and "is one of" become
Markdown words (``mode == "side_a" and not flag`` reads *mode* is "side
a" and *flag* is no). A "not" is said by the words it negates (is not,
is at least, is none of, is no; and/or swap), a group inside another by "both"
or "either", a yes/no value as "is yes" or "is no", a field of a table's row by
its title and key, another rule's answer by its title. Arithmetic inside a
condition is left to the math emitter, set inline between ``$`` signs.
Parameters are set in italic words, labels in words (one written as an
identifier, ``side_a``, reads "side a"); every piece of rules text is
Markdown-escaped, so the result is safe in a table cell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...lang.lists import concat_parts
from ...lang.naming import words_of
from ...lang.nodes import (
    FUNCTIONS,
    Attr,
    Binary,
    BoolLit,
    Call,
    Cond,
    Index,
    IntLit,
    ListLit,
    Name,
    Node,
    NullLit,
    Rounding,
    StrLit,
    Unary,
)
from ..literals import md_cell
from .math import (
    label_words,
    to_latex,
)

__all__ = ["label_words", "said_label", "to_words", "value_words"]

_COMPARE = {
    "==": "is",
    "is": "is",
    "!=": "is not",
    "is not": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}
# Each comparison's negation: what "not" of it says.
_NEGATED = {
    "==": "!=",
    "!=": "==",
    "is": "is not",
    "is not": "is",
    "<": ">=",
    ">=": "<",
    ">": "<=",
    "<=": ">",
}


def said_label(label: str) -> str:
    """A label or text in running words, Markdown-escaped: in words, and
    between quotation marks where it is more than one word."""
    text = label_words(label)
    return f"“{md_cell(text)}”" if " " in text.strip() else md_cell(text)


def _name(name: str) -> str:
    return f"*{md_cell(words_of(name))}*"


def _field(table: str, field: str, key: str) -> str:
    return f"{md_cell(words_of(field))} for {key}"


def _call(func: str, args: list[str]) -> str:
    return f"{md_cell(words_of(func))} for {_one_of(args, 'and')}"


def _one_of(items: list[str], joiner: str) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def _group(op: str, items: list[str]) -> str:
    """A group of conditions inside another: "both a and b", "any of a, b or c"."""
    if len(items) == 2:
        return f"{'both' if op == 'and' else 'either'} {items[0]} {op} {items[1]}"
    return f"{'all' if op == 'and' else 'any'} of {_one_of(items, op)}"


@dataclass(slots=True)
class _Words:
    rounding: Rounding
    name: Callable[[str], str]
    field: Callable[[str, str, str], str]
    latex_field: Callable[[str, str, str], str] | None
    call: Callable[[str, list[str]], str]

    def said(self, node: Node, negated: bool = False) -> str:
        """A condition (or, ``negated``, its negation) in words."""
        op, items = self.emit(node, negated)
        return f" {op} ".join(items) if op else items[0]

    def emit(self, node: Node, negated: bool) -> tuple[str | None, list[str]]:
        """A condition's words: the "and"/"or" that joins its parts (None for
        one condition) and its parts, each in words."""
        match node:
            case BoolLit():
                return None, ["always" if node.value != negated else "never"]
            case Binary(op="and" | "or"):
                op = node.op
                if negated:  # not (a and b) is (not a) or (not b)
                    op = "or" if op == "and" else "and"
                items = []
                for side in (node.left, node.right):
                    inner, parts = self.emit(side, negated)
                    if inner is None or inner == op:
                        items += parts
                    else:
                        items.append(_group(inner, parts))
                return op, items
            case Unary(op="not"):
                return self.emit(node.operand, not negated)
            case Binary(op="in" | "not in", right=ListLit() as items):
                values = _one_of([self.value(i) for i in items.items], "or")
                none = (node.op == "in") == negated
                said = f"is none of {values}" if none else f"is {values}"
                return None, [f"{self.value(node.left)} {said}"]
            case Binary(op="in" | "not in"):  # an item of a list value
                has = (node.op == "in") != negated
                said = "includes" if has else "does not include"
                return None, [
                    f"{self.value(node.right)} {said} {self.value(node.left)}"
                ]
            case (
                Binary(left=NullLit(), right=other)
                | Binary(right=NullLit(), left=other)
            ) if node.op in ("==", "!=", "is", "is not"):
                given = (node.op in ("!=", "is not")) != negated
                said = "is given" if given else "is not given"
                return None, [f"{self.value(other)} {said}"]
            case Binary() if node.op in _COMPARE:
                op = _NEGATED[node.op] if negated else node.op
                left, right = self.value(node.left), self.value(node.right)
                return None, [f"{left} {_COMPARE[op]} {right}"]
        return None, [f"{self.value(node)} is {'no' if negated else 'yes'}"]

    def value(self, node: Node) -> str:
        """A compared value in words, or as inline math when it is a calculation."""
        match node:
            case Name():
                return self.name(node.name)
            case StrLit():
                return said_label(node.value)
            case IntLit():
                return str(node.value)
            case BoolLit():
                return "yes" if node.value else "no"
            case NullLit():
                return "none"
            case Attr(obj=Call(rule=False, args=(key,)) as lookup) if (
                lookup.func not in FUNCTIONS
            ):
                return self.field(lookup.func, node.name, self.value(key))
            case Attr():
                return f"the {md_cell(words_of(node.name))} of {self.value(node.obj)}"
            case Index(obj=Name() as mapping):
                return f"{self.name(mapping.name)} for {self.value(node.index)}"
            case Call() if node.rule or node.func not in FUNCTIONS:
                return self.call(node.func, [self.value(a) for a in node.args])
            case Binary(concat=True):  # lists one after the other, [x] as x
                return ", then ".join(self.value(p) for _, p in concat_parts(node))
        if self.latex_field is None:
            return "$" + to_latex(node, rounding=self.rounding) + "$"
        return (
            "$" + to_latex(node, rounding=self.rounding, field=self.latex_field) + "$"
        )


def to_words(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
    latex_field: Callable[[str, str, str], str] | None = None,
    call: Callable[[str, list[str]], str] = _call,
) -> str:
    """Markdown words for a checked condition (safe in a table cell).

    ``name(param)`` says a parameter (italic words by default); ``field(table,
    field, key)`` a field of a table's row, given the key in words;
    ``latex_field`` the same for the math of a calculation in the condition;
    ``call(function, args)`` another rule's answer for its arguments in words.
    """
    return _Words(rounding, name, field, latex_field, call).said(node)


def value_words(
    node: Node,
    *,
    rounding: Rounding,
    name: Callable[[str], str] = _name,
    field: Callable[[str, str, str], str] = _field,
    latex_field: Callable[[str, str, str], str] | None = None,
    call: Callable[[str, list[str]], str] = _call,
) -> str:
    """Markdown words for a value that is a label, a text or yes/no: a choice
    between values reads "a if t; b if u; otherwise c"."""
    words = _Words(rounding, name, field, latex_field, call)
    parts: list[str] = []
    current = node
    while isinstance(current, Cond):
        parts.append(f"{words.value(current.body)} if {words.said(current.test)}")
        current = current.orelse
    if not parts:
        return words.value(current)
    return "; ".join([*parts, f"otherwise {words.value(current)}"])
