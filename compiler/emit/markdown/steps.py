"""Markdown steps: a body of the core's statements as a nested list in words, each test as words and each calculation as math."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core.ir import (
    Emit,
    If,
    Label,
    Lookup,
    Make,
    Part,
    Present,
    Read,
    Recorded,
    Refuse,
    Return,
    Set,
    Stmt,
    While,
    Written,
)
from ...front.model import Column
from ...lang import expr
from ...lang.naming import words_of
from ...lang.nodes import Rounding
from ..literals import (
    md,
    md_cell,
)
from .reads import (
    Reads,
)
from .words import (
    said_label,
    to_words,
    value_words,
)

__all__ = ["Say", "steps"]


def name_words(name: str) -> str:
    """A local name or parameter as a reader says it: italic words."""
    return f"*{md_cell(words_of(name))}*"


@dataclass(frozen=True, slots=True)
class Say:
    """How a page says a body's expressions: a test in words, a value in
    words (or math, for a calculation), a rule called by name (a link)."""

    condition: Callable[[expr.Node], str]
    value: Callable[[expr.Node], str]
    rule: Callable[[str], str]

    def checked(self, checked: expr.Checked) -> str:
        """A checked value: a yes/no worked out by a test as "yes when" the
        test's words, any other as a value."""
        node = checked.node
        if checked.type == "bool" and isinstance(node, expr.Binary | expr.Unary):
            return f"yes when {self.condition(node)}, else no"
        return self.value(node)

    @staticmethod
    def of(rounding: Rounding, reads: Reads) -> Say:
        """The words of a system (its rounding; its tables' titles and links
        to its rules, from ``reads``)."""

        said: dict[str, Any] = {
            "rounding": rounding,
            "field": reads.words,
            "latex_field": reads.latex,
            "call": reads.call_words,
        }
        return Say(
            partial(to_words, **said),
            partial(value_words, **said),
            lambda f: reads.call_words(f, []),
        )


def steps(
    body: tuple[Stmt, ...],
    answer: str | None,
    fields: tuple[Column, ...],
    indent: str,
    say: Say,
) -> list[str]:
    """Statements as the lines of a nested Markdown list (``fields``: those of
    the record the procedure makes, if it makes one), said by ``say``."""

    def part(value: Part) -> str:
        if isinstance(value, Read):
            return f"the {md_cell(words_of(value.field))} of {name_words(value.name)}"
        if isinstance(value, Label):
            return said_label(value.label)
        if isinstance(value, Written):
            shown = value.value
            if isinstance(shown, str):
                return f"“{md(shown)}”"
            if isinstance(shown, bool):
                return "yes" if shown else "no"
            return "none" if shown is None else md_cell(str(shown))
        if isinstance(value, Recorded):
            return "the events recorded"
        return say.checked(value)

    def test(value: expr.Checked | Present) -> str:
        if isinstance(value, Present):
            names = " and ".join(name_words(n) for n in value.names)
            return (
                f"{names} {'holds a value' if len(value.names) == 1 else 'hold values'}"
            )
        return say.condition(value.node)

    def made(values: tuple[expr.Checked, ...] | Make | Part) -> str:
        if not isinstance(values, tuple | Make):
            return part(values)
        if isinstance(values, Make):
            pairs = zip(fields, values.values, strict=True)
            return ", ".join(f"{md(c.title)} {part(v)}" for c, v in pairs)
        shown = ", ".join(say.checked(v) for v in values)
        return shown if len(values) == 1 else f"({shown})"

    lines: list[str] = []
    for stmt in body:
        if isinstance(stmt, While):
            lines.append(
                f"{indent}- While {test(stmt.test)} (at most {stmt.bound} times):"
            )
            lines += steps(stmt.body, answer, fields, indent + "  ", say)
        elif isinstance(stmt, If):
            branches, otherwise = stmt.branches
            for index, (held, then) in enumerate(branches):
                lead = "Otherwise, if" if index else "If"
                lines.append(f"{indent}- {lead} {test(held)}:")
                lines += steps(then, answer, fields, indent + "  ", say)
            if otherwise:
                lines.append(f"{indent}- Otherwise:")
                lines += steps(otherwise, answer, fields, indent + "  ", say)
        elif isinstance(stmt, Emit):
            assert answer is not None
            lines.append(f"{indent}- Add {made(stmt.values)} to {name_words(answer)}.")
        elif isinstance(stmt, Return):
            lines.append(f"{indent}- Answer {made(stmt.value)}.")
        elif isinstance(stmt, Refuse):
            lines.append(f"{indent}- Refuse the call: “{md(stmt.message)}”")
        elif isinstance(stmt, Lookup):
            lines.append(
                f"{indent}- {name_words(stmt.name)} is what {say.rule(stmt.function)} "
                f"gives for {say.value(stmt.key.node)}."
            )
        elif isinstance(stmt, Set):
            lines.append(
                f"{indent}- {name_words(stmt.name)} becomes {say.checked(stmt.value)}."
            )
        else:  # a timeline's page is its lowering's words
            raise AssertionError(stmt)
    return lines
