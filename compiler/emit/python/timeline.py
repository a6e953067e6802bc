"""Python timelines: a timeline's function, its handlers as nested functions run in time order."""

from __future__ import annotations

from ...core.exprs import local_params
from ...core.ir import (
    Apply,
    Each,
    Local,
    Lookup,
    Set,
    Stmt,
    Timeline,
    Unit,
    statements_of,
)
from ...core.viewkit import (
    Import,
    View,
)
from ...front.model import System
from ...lang.py_names import (
    RNG,
    pyname,
)
from ..literals import docstring
from ..viewkit import (
    args_doc,
    param_view,
    signature,
)
from .code import (
    ROLLING,
    code_of,
)
from .procedure import (
    owned_enum,
    refusals,
)
from .statements import (
    RUN,
    made_text,
    statement_lines,
)

IMPORTS: list[Import] = [*ROLLING, ("rulebook._timeline", "Timeline")]


def local_type(local: Local) -> str:
    """The Python type of a local of a timeline."""
    if local.record is not None:
        base = pyname(local.record)
    elif local.type == "list":
        assert local.enum is not None
        return f"list[{pyname(local.enum.name)}]"
    elif local.type == "dice":
        base = "Dice"
    elif local.enum is not None:
        base = pyname(local.enum.name)
    else:
        base = local.type
    return f"{base} | None" if local.nullable else base


def timeline_imports(decl: Timeline) -> set[Import]:
    """What a timeline's code needs of the runtime, besides its parameters'
    checks."""
    needs = set(IMPORTS)
    if any(local.type == "dice" for local in decl.names):
        needs.add(("rulebook.dice", "Dice"))
    return needs


def timeline_view(
    system: System, unit: Unit, decl: Timeline, tables: dict[str, str]
) -> View:
    """A timeline: its parameters' checks; its shared names and states; each
    handler, a nested function of the time and its values; then its start,
    the run, and its end."""
    params = [param_view(p, decl.rule_id) for p in decl.params]
    python = code_of(system, [*decl.params, *local_params(decl.names)], tables)
    event, result = unit.record(decl.event), unit.record(decl.result)
    lines = [
        f"check_rng({RNG})",
        f"{RUN}: Timeline[{pyname(decl.event)}] = Timeline()",
    ]
    for local, start in decl.shared:
        lines.append(
            f"{pyname(local.name)}: {local_type(local)} = {python(start.node)}"
        )
    lines += [f"{pyname(name)} = {pyname(cls)}()" for name, cls in decl.states]
    shared = {local.name for local, _ in decl.shared}

    def body(stmts: tuple[Stmt, ...]) -> list[str]:
        return statement_lines(
            stmts,
            python,
            lambda values: made_text(event, values, python),
            RUN,
            returned=lambda values: made_text(result, values, python),
        )

    for handler in decl.handlers:
        args = [f"{pyname(decl.clock)}: int"]
        args += [f"{pyname(p.name)}: {local_type(p)}" for p in handler.params]
        lines += ["", f"def {pyname(handler.name)}({', '.join(args)}) -> None:"]
        assigned = sorted(pyname(n) for n in _assigned(handler.body) & shared)
        inner = [f"nonlocal {', '.join(assigned)}"] if assigned else []
        inner += body(handler.body)
        lines += [f"    {line}" for line in inner]
    lines.append("")
    lines += body(decl.start)
    lines.append(f"{RUN}.run()")
    lines += body(decl.after)
    answer = f" {decl.answer_doc}" if decl.answer_doc else ""
    return {
        "is": "Procedure",
        "enums": [
            view["enum"]
            for view, param in zip(params, decl.params, strict=True)
            if owned_enum(param)
        ],
        "function": pyname(decl.name),
        "signature": signature(params, decl.params, True),
        "params": params,
        "returns": pyname(decl.result),
        "lines": lines,
        "private": None,
        "odds": None,
        "doc": docstring(
            f"{decl.doc}{args_doc(decl.params)}\n\n{decl.origin}{answer} "
            + refusals(decl),
            "    ",
        ),
    }


def _assigned(body: tuple[Stmt, ...]) -> set[str]:
    """The names ``body`` assigns (a list it adds to is not assigned)."""
    found: set[str] = set()
    for stmt in statements_of(body):
        if isinstance(stmt, Set | Lookup):
            found.add(stmt.name)
        elif isinstance(stmt, Apply | Each):
            found |= {name for name, _ in stmt.fields}
    return found
