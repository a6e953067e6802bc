"""Python statements: the lines of a body of the core's statements (a procedure's or a transition's)."""

from __future__ import annotations

from collections.abc import Callable

from ...core.ir import (
    Append,
    Apply,
    Each,
    Emit,
    If,
    Label,
    Lookup,
    Make,
    Part,
    Present,
    Read,
    Record,
    Recorded,
    Refuse,
    Return,
    Run,
    Schedule,
    Stmt,
    While,
    Written,
)
from ...front.model import (
    Column,
    EnumType,
)
from ...lang import expr
from ...lang.py_names import (
    pyattr,
    pyname,
)
from ..literals import py
from ..viewkit import (
    local_name,
)

Code = Callable[[expr.Node], str]
# A timeline's run (its handlers to come, its events): a name no rule's can be
RUN = "_run"


Made = tuple[expr.Checked, ...] | Make | Part


def made_text(
    record: Record | None,
    values: Made,
    code: Code,
    keys: EnumType | None = None,
    column: Column | None = None,
) -> str:
    """An item a statement makes: a record of ``record`` from its parts, a
    dict of a value for each member of ``keys``, one value (of ``column``'s
    type: a list as a tuple), or a number or a tuple of numbers."""
    if isinstance(values, tuple):
        codes = [code(v.node) for v in values]
        return codes[0] if len(codes) == 1 else f"({', '.join(codes)})"

    def part(value: Part) -> str:
        if isinstance(value, Recorded):  # a timeline's events (its runtime's)
            return f"{RUN}.events"
        if isinstance(value, Read):  # a field of a record; "": the record itself
            name = pyname(value.name)
            return f"{name}.{pyattr(value.field)}" if value.field else name
        if isinstance(value, Label):
            return f"{pyname(value.enum.name)}.{value.enum.member(value.label).name}"
        if isinstance(value, Written):
            return py(value.value)
        return code(value.node)

    if not isinstance(values, Make):
        found = part(values)
        return found if column is None or keys is not None else held(column, found)
    if keys is not None:
        pairs = zip(keys.members, values.values, strict=True)
        enum = pyname(keys.name)
        return "{" + "".join(f"{enum}.{m.name}: {part(v)}, " for m, v in pairs) + "}"
    assert record is not None
    args = [
        f"{pyattr(c.name)}={held(c, part(v))}"
        for index, (c, v) in enumerate(zip(record.fields, values.values, strict=True))
        if index < record.optional_from or not _null(v)
    ]
    for method in record.methods:  # the values its methods need, unseen
        args += [
            f"{name}={name if p is None else local_name(p)}"
            for name, p in method.hidden()
        ]
    return f"{pyname(record.name)}({', '.join(args)})"


def _null(part: Part) -> bool:
    """Whether the part is null as written (a field it fills may be left out)."""
    return isinstance(part, Written) and part.value is None


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
    target: Callable[[str], str] = pyname,
    returned: Callable[[Made], str] | None = None,
) -> list[str]:
    """The lines of ``body`` (``code``: an expression's code, ``made``: an
    item's, ``answer``: the list ``Emit`` adds to, ``target``: what a ``Set``
    or ``Lookup`` of a name assigns, ``returned``: what a ``Return`` answers,
    where it is no item)."""
    lines: list[str] = []
    answered = returned or made

    def test(value: expr.Checked | Present) -> str:
        if isinstance(value, Present):
            return " and ".join(f"{pyname(n)} is not None" for n in value.names)
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
                lines.append(f"{indent}return {answered(stmt.value)}")
            elif isinstance(stmt, Schedule):
                given = [code(stmt.at.node), pyname(stmt.handler)]
                given += [code(a.node) for a in stmt.args]
                lines.append(f"{indent}{RUN}.at({', '.join(given)})")
            elif isinstance(stmt, Run):
                given = [code(stmt.at.node), *(code(a.node) for a in stmt.args)]
                lines.append(f"{indent}{pyname(stmt.handler)}({', '.join(given)})")
            elif isinstance(stmt, Apply):
                values = ", ".join(code(a.node) for a in stmt.args)
                state = pyname(stmt.state)
                method = pyattr(stmt.transition, "mutable")
                call = f"{state}.{method}({values})"
                if len(stmt.fields) == 1 and not stmt.fields[0][1]:
                    lines.append(f"{indent}{target(stmt.fields[0][0])} = {call}")
                    continue
                answer_name = f"_{stmt.state}_answer"
                lines.append(f"{indent}{answer_name} = {call}")
                for name, field in stmt.fields:
                    lines.append(
                        f"{indent}{target(name)} = {answer_name}.{pyattr(field)}"
                    )
            elif isinstance(stmt, Append):
                lines.append(
                    f"{indent}{pyname(stmt.name)}.append({code(stmt.value.node)})"
                )
            elif isinstance(stmt, Each):
                named = ", ".join(f"{pyname(k)}={code(v.node)}" for k, v in stmt.args)
                lines.append(f"{indent}for _item in {pyname(stmt.function)}({named}):")
                for name, field in stmt.fields:
                    lines.append(f"{indent}    {target(name)} = _item.{pyattr(field)}")
                statements(stmt.body, indent + "    ")
            elif isinstance(stmt, Refuse):
                lines.append(f"{indent}raise RuleInputError({py(stmt.message)})")
            elif isinstance(stmt, Lookup):
                key = code(stmt.key.node)
                lines.append(f"{indent}{target(stmt.name)} = {stmt.entries}[{key}]")
            else:
                lines.append(f"{indent}{target(stmt.name)} = {code(stmt.value.node)}")

    statements(body, "")
    return lines
