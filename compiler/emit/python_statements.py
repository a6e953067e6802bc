"""Python statements: the lines of a body of the core's statements (a procedure's or a transition's)."""

from __future__ import annotations

from collections.abc import Callable

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
    Record,
    Refuse,
    Return,
    Stmt,
    While,
    Written,
)
from ..literals import py
from ..model import Column, EnumType
from ..viewkit import local_name

Code = Callable[[expr.Node], str]


Made = tuple[expr.Checked, ...] | Make | Part


def made_text(
    record: Record | None,
    values: Made,
    code: Code,
    keys: EnumType | None = None,
) -> str:
    """An item a statement makes: a record of ``record`` from its parts, a
    dict of a value for each member of ``keys``, one value, or a number or a
    tuple of numbers."""
    if isinstance(values, tuple):
        codes = [code(v.node) for v in values]
        return codes[0] if len(codes) == 1 else f"({', '.join(codes)})"

    def part(value: Part) -> str:
        if isinstance(value, Read):
            return f"{value.name}.{value.field}"
        if isinstance(value, Label):
            return f"{value.enum.name}.{value.enum.member(value.label).name}"
        if isinstance(value, Written):
            return py(value.value)
        return code(value.node)

    if not isinstance(values, Make):
        return part(values)
    if keys is not None:
        pairs = zip(keys.members, values.values, strict=True)
        return (
            "{" + "".join(f"{keys.name}.{m.name}: {part(v)}, " for m, v in pairs) + "}"
        )
    assert record is not None
    args = [
        f"{c.name}={held(c, part(v))}"
        for c, v in zip(record.fields, values.values, strict=True)
    ]
    for method in record.methods:  # the values its methods need, unseen
        args += [
            f"{name}={name if p is None else local_name(p)}"
            for name, p in method.hidden()
        ]
    return f"{record.name}({', '.join(args)})"


def held(column: Column, code: str) -> str:
    """A value as a record's field holds it: a list (any sequence: a pool's
    dice are a tuple in odds) as a tuple (the empty list as the empty one)."""
    if column.type != "list":
        return code
    return "()" if code == "[]" else f"tuple({code})"


def statement_lines(
    body: tuple[Stmt, ...],
    code: Code,
    made: Callable[[Made], str],
    answer: str | None,
    target: Callable[[str], str] = lambda name: name,
) -> list[str]:
    """The lines of ``body`` (``code``: an expression's code, ``made``: an
    item's, ``answer``: the list ``Emit`` adds to, ``target``: what a ``Set``
    or ``Lookup`` of a name assigns)."""
    lines: list[str] = []

    def test(value: expr.Checked | Present) -> str:
        if isinstance(value, Present):
            return " and ".join(f"{n} is not None" for n in value.names)
        return code(value.node)

    def statements(body: tuple[Stmt, ...], indent: str) -> None:
        for stmt in body:
            if isinstance(stmt, While):
                lines.append(f"{indent}while {code(stmt.test.node)}:")
                statements(stmt.body, indent + "    ")
            elif isinstance(stmt, If):
                branches, otherwise = stmt.branches
                for index, (held, then) in enumerate(branches):
                    keyword = "elif" if index else "if"
                    lines.append(f"{indent}{keyword} {test(held)}:")
                    statements(then, indent + "    ")
                if otherwise:
                    lines.append(f"{indent}else:")
                    statements(otherwise, indent + "    ")
            elif isinstance(stmt, Emit):
                lines.append(f"{indent}{answer}.append({made(stmt.values)})")
            elif isinstance(stmt, Return):
                lines.append(f"{indent}return {made(stmt.value)}")
            elif isinstance(stmt, Refuse):
                lines.append(f"{indent}raise RuleInputError({py(stmt.message)})")
            elif isinstance(stmt, Lookup):
                key = code(stmt.key.node)
                lines.append(f"{indent}{target(stmt.name)} = {stmt.entries}[{key}]")
            else:
                lines.append(f"{indent}{target(stmt.name)} = {code(stmt.value.node)}")

    statements(body, "")
    return lines
