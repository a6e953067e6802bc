"""Markdown steps: a body of the core's statements as a nested list, each expression as the rules write it."""

from __future__ import annotations

from .. import expr
from ..core.ir import (
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
from ..literals import code, md
from ..model import Column


def steps(
    body: tuple[Stmt, ...],
    answer: str | None,
    fields: tuple[Column, ...],
    indent: str,
) -> list[str]:
    """Statements as the lines of a nested Markdown list (``fields``: those of
    the record the procedure makes, if it makes one)."""

    def part(value: Part) -> str:
        if isinstance(value, Read):
            return code(f"{value.name}.{value.field}")
        if isinstance(value, Label):
            return code(value.label)
        if isinstance(value, Written):
            shown = value.value
            if isinstance(shown, str):
                return f"“{md(shown)}”"
            if isinstance(shown, bool) or shown is None:
                return code("null" if shown is None else str(shown).lower())
            return code(str(shown))
        if isinstance(value, Recorded):
            return "the events recorded"
        return code(expr.to_source(value.node))

    def test(value: expr.Checked | Present) -> str:
        if isinstance(value, Present):
            names = " and ".join(code(n) for n in value.names)
            return (
                f"{names} {'holds a value' if len(value.names) == 1 else 'hold values'}"
            )
        return code(expr.to_source(value.node))

    def made(values: tuple[expr.Checked, ...] | Make | Part) -> str:
        if not isinstance(values, tuple | Make):
            return part(values)
        if isinstance(values, Make):
            pairs = zip(fields, values.values, strict=True)
            return ", ".join(f"{md(c.name)} {part(v)}" for c, v in pairs)
        shown = ", ".join(expr.to_source(v.node) for v in values)
        return code(shown if len(values) == 1 else f"({shown})")

    lines: list[str] = []
    for stmt in body:
        if isinstance(stmt, While):
            lines.append(
                f"{indent}- While {test(stmt.test)} (at most {stmt.bound} times):"
            )
            lines += steps(stmt.body, answer, fields, indent + "  ")
        elif isinstance(stmt, If):
            branches, otherwise = stmt.branches
            for index, (held, then) in enumerate(branches):
                lead = "Otherwise, if" if index else "If"
                lines.append(f"{indent}- {lead} {test(held)}:")
                lines += steps(then, answer, fields, indent + "  ")
            if otherwise:
                lines.append(f"{indent}- Otherwise:")
                lines += steps(otherwise, answer, fields, indent + "  ")
        elif isinstance(stmt, Emit):
            assert answer is not None
            lines.append(f"{indent}- Add {made(stmt.values)} to {code(answer)}.")
        elif isinstance(stmt, Return):
            lines.append(f"{indent}- Answer {made(stmt.value)}.")
        elif isinstance(stmt, Refuse):
            lines.append(f"{indent}- Refuse the call: “{md(stmt.message)}”")
        elif isinstance(stmt, Lookup):
            key = expr.to_source(stmt.key.node)
            lines.append(
                f"{indent}- {code(stmt.name)} is the entry of "
                f"{code(stmt.function)} for {code(key)}."
            )
        elif isinstance(stmt, Set):
            text = f"{stmt.name} = {expr.to_source(stmt.value.node)}"
            lines.append(f"{indent}- {code(text)}")
        else:  # a timeline's page is its lowering's words
            raise AssertionError(stmt)
    return lines
