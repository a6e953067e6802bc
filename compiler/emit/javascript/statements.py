"""JavaScript statements: the lines of a body of the core's statements (a procedure's or a transition's)."""

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
    Method,
    Part,
    Present,
    Read,
    Record,
    Recorded,
    Refuse,
    Return,
    Run,
    Schedule,
    Set,
    Stmt,
    While,
    Written,
)
from ...front.model import (
    Column,
    EnumType,
)
from ...lang import expr
from .kit import (
    js,
    js_string,
    local,
    member,
    record_literal,
)
from .names import (
    RNG,
    jsattr,
    jsname,
)

Code = Callable[[expr.Node], str]
# A timeline's run (its handlers to come, its events): a name no rule's can be
RUN = "$run"


Made = tuple[expr.Checked, ...] | Make | Part


def made_text(
    record: Record | None,
    shape: str | None,
    values: Made,
    code: Code,
    indent: str,
    keys: EnumType | None = None,
    column: Column | None = None,
) -> str:
    """An item a statement makes: a frozen record of ``record`` (its object's
    ``shape``) from its parts, a frozen object of a value for each member of
    ``keys``, one value, or a number or a frozen array of numbers."""
    if isinstance(values, tuple):
        codes = [code(v.node) for v in values]
        return codes[0] if len(codes) == 1 else f"Object.freeze([{', '.join(codes)}])"

    def part(value: Part) -> str:
        if isinstance(value, Recorded):  # a timeline's events (a frozen copy)
            return f"{RUN}.events"
        if isinstance(value, Read):  # a field of a record; "": the record itself
            name = jsname(value.name)
            return f"{name}.{jsname(value.field)}" if value.field else name
        if isinstance(value, Label):
            return member(value.enum, value.label)
        if isinstance(value, Written):
            return js(value.value)
        return code(value.node)

    if not isinstance(values, Make):
        found = part(values)
        if column is None or keys is not None:
            return found
        return held(column, values, found)
    if keys is not None:
        inner = "    " + indent
        items = "".join(
            f"{inner}[{member(keys, m.label)}]: {part(v)},\n"
            for m, v in zip(keys.members, values.values, strict=True)
        )
        # labels are keys: an object without a prototype, as $.mapping answers
        return f"Object.freeze({{\n{inner}__proto__: null,\n{items}  {indent}}})"
    assert record is not None and shape is not None
    pairs = [
        (c.name, held(c, v, part(v)))
        for c, v in zip(record.fields, values.values, strict=True)
    ]
    # the template indents a line's first line only: the rest by hand
    text = record_literal(shape, pairs, "  " + indent)
    if record.methods:  # each bound to this call's values
        bound = ", ".join(f"{jsname(m.name)}: {_bound(m)}" for m in record.methods)
        text = text[:-1] + f", {{ {bound} }})"
    return text


def _bound(method: Method) -> str:
    """A record's method as a closure over the call's checked values."""
    args = [local(p) for _, p in method.args]
    at = len(args) if method.rng_at is None else method.rng_at
    given = ", ".join([*args[:at], RNG, *args[at:]])
    ok = f"${jsname(method.name)}Ok"
    refuse = f"new $errors.RuleInputError({js_string(method.refuse)})"
    return (
        f"({RNG}) => {{ if (!{ok}) throw {refuse}; "
        f"return {jsname(method.function)}({given}); }}"
    )


def held(column: Column, value: Part, code: str) -> str:
    """A value as a record's field holds it: a list (any iterable) as a frozen
    array of its own (a list the expression writes out is new; another is
    copied)."""
    if column.type != "list" or not isinstance(value, expr.Checked):
        return code
    node = value.node
    fresh = isinstance(node, expr.ListLit) or (
        isinstance(node, expr.Binary) and node.concat
    )
    return f"Object.freeze({code if fresh else f'[...{code}]'})"


def statement_lines(
    body: tuple[Stmt, ...],
    code: Code,
    made: Callable[[Made, str], str],
    answer: str | None,
    declared: set[str],
    target: Callable[[str], str | None] = lambda name: None,
    returned: Callable[[Made, str], str] | None = None,
) -> list[str]:
    """The lines of ``body`` (``code``: an expression's code, ``made``: an
    item's at an indent, ``answer``: the array ``Emit`` adds to). A local is
    declared where it is first set (``declared``: the names already are);
    ``target`` gives what a ``Set`` of a name assigns where it is not a local."""
    lines: list[str] = []
    answered = returned or made
    # a local first set within a block is declared before the body, so that
    # every block after it sees the one name
    hoisted = [
        n for n in _first_set_within(body) if n not in declared and target(n) is None
    ]
    if hoisted:
        lines.append(f"let {', '.join(jsname(n) for n in hoisted)};")
        declared.update(hoisted)

    def assign(name: str, value: str, indent: str) -> None:
        other = target(name)
        if other is not None:
            lines.append(f"{indent}{other} = {value};")
            return
        keyword = "" if name in declared else "let "
        declared.add(name)
        lines.append(f"{indent}{keyword}{jsname(name)} = {value};")

    def test(value: expr.Checked | Present) -> str:
        if isinstance(value, Present):
            return " && ".join(f"{jsname(n)} !== null" for n in value.names)
        return code(value.node)

    def statements(body: tuple[Stmt, ...], indent: str) -> None:
        for stmt in body:
            if isinstance(stmt, While):
                lines.append(f"{indent}while ({code(stmt.test.node)}) {{")
                statements(stmt.body, indent + "  ")
                lines.append(f"{indent}}}")
            elif isinstance(stmt, If):
                branches, otherwise = stmt.branches
                for index, (held, then) in enumerate(branches):
                    keyword = "} else if" if index else "if"
                    lines.append(f"{indent}{keyword} ({test(held)}) {{")
                    statements(then, indent + "  ")
                if otherwise:
                    lines.append(f"{indent}}} else {{")
                    statements(otherwise, indent + "  ")
                lines.append(f"{indent}}}")
            elif isinstance(stmt, Emit):
                lines.append(f"{indent}{answer}.push({made(stmt.values, indent)});")
            elif isinstance(stmt, Return):
                lines.append(f"{indent}return {answered(stmt.value, indent)};")
            elif isinstance(stmt, Schedule):
                given = [code(stmt.at.node), jsname(stmt.handler)]
                given += [code(a.node) for a in stmt.args]
                lines.append(f"{indent}{RUN}.at({', '.join(given)});")
            elif isinstance(stmt, Run):
                given = [code(stmt.at.node), *(code(a.node) for a in stmt.args)]
                lines.append(f"{indent}{jsname(stmt.handler)}({', '.join(given)});")
            elif isinstance(stmt, Apply):
                values = ", ".join(code(a.node) for a in stmt.args)
                method = jsattr(stmt.transition, "mutable")
                call = f"{jsname(stmt.state)}.{method}({values})"
                if len(stmt.fields) == 1 and not stmt.fields[0][1]:
                    assign(stmt.fields[0][0], call, indent)
                    continue
                answer_name = f"${jsname(stmt.state)}Answer"
                lines.append(f"{indent}const {answer_name} = {call};")
                for name, field in stmt.fields:
                    assign(name, f"{answer_name}.{jsname(field)}", indent)
            elif isinstance(stmt, Append):
                lines.append(
                    f"{indent}{jsname(stmt.name)}.push({code(stmt.value.node)});"
                )
            elif isinstance(stmt, Each):
                args = ", ".join(code(v.node) for _, v in stmt.args)
                lines.append(
                    f"{indent}for (const $item of {jsname(stmt.function)}({args})) {{"
                )
                for name, field in stmt.fields:
                    assign(name, f"$item.{jsname(field)}", indent + "  ")
                statements(stmt.body, indent + "  ")
                lines.append(f"{indent}}}")
            elif isinstance(stmt, Refuse):
                error = f"new $errors.RuleInputError({js_string(stmt.message)})"
                lines.append(f"{indent}throw {error};")
            elif isinstance(stmt, Lookup):
                key = code(stmt.key.node)
                assign(stmt.name, f"{stmt.entries}.get({key})", indent)
            else:
                assign(stmt.name, code(stmt.value.node), indent)

    statements(body, "")
    return lines


def _first_set_within(body: tuple[Stmt, ...]) -> list[str]:
    """The names ``body`` sets whose first setting is within a loop or branch."""
    top: set[str] = set()
    within: list[str] = []

    def walk(stmts: tuple[Stmt, ...], nested: bool) -> None:
        for stmt in stmts:
            if isinstance(stmt, While | Each):
                walk(stmt.body, True)
                if isinstance(stmt, Each):
                    within.extend(n for n, _ in stmt.fields if n not in within)
            elif isinstance(stmt, If):
                walk(stmt.then, True)
                walk(stmt.otherwise, True)
            elif isinstance(stmt, Set | Lookup | Apply):
                names = (
                    [stmt.name]
                    if isinstance(stmt, Set | Lookup)
                    else [n for n, _ in stmt.fields]
                )
                for name in names:
                    if name in top or name in within:
                        continue
                    (within.append if nested else top.add)(name)

    walk(body, False)
    return within
