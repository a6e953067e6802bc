"""Python procedures: a procedure's function, its private function of cases and turns, and its odds function."""

from __future__ import annotations

from collections.abc import Callable

from ...core.exprs import local_params
from ...core.ir import (
    Bind,
    Carried,
    Function,
    Procedure,
    Refuse,
    Timeline,
    Unit,
    statements_of,
)
from ...core.viewkit import (
    Import,
    View,
)
from ...front.model import (
    Column,
    Param,
    System,
)
from ...lang import expr
from ...lang.py_names import (
    pyattr,
    pyname,
)
from ...odds.fields import fields_odds_name
from ...odds.procedure import column
from ...runtime._support import LIMIT_NOTE
from ..literals import (
    docstring,
    py,
)
from ..procedure_odds import odds_body
from ..turns_code import (
    Target,
    loop_lines,
)
from ..value_code import (
    carried_column,
    py_held,
)
from ..viewkit import (
    args_doc,
    column_type,
    local_name,
    param_view,
    signature,
)
from .code import (
    ODDS,
    code_of,
    odds_view,
    python_syntax,
)
from .statements import (
    Made,
    made_text,
    statement_lines,
)


def item_type(procedure: Procedure) -> str:
    """The type of one item of a procedure's answer (of its answer, where it
    answers one item)."""
    if isinstance(procedure.item, str):
        return pyname(procedure.item)
    if isinstance(procedure.item, Column):
        one = column_type(procedure.item)
        keys = procedure.keys
        return one if keys is None else f"dict[{pyname(keys.name)}, {one}]"
    return (
        "int"
        if procedure.item == 1
        else f"tuple[{', '.join(['int'] * procedure.item)}]"
    )


def answer_type(procedure: Procedure) -> str:
    """The type a procedure answers."""
    item = item_type(procedure)
    return item if procedure.answer is None else f"list[{item}]"


def refusals(procedure: Procedure | Function | Timeline) -> str:
    """What a generated function refuses: arguments outside the rule, and any
    past the runtime's limits."""
    limits = "".join(
        f", and for {pyname(p.name)} above {p.limit}: {LIMIT_NOTE}"
        for p in procedure.params
        if p.limit is not None
    )
    return f"Raises RuleInputError for arguments outside the rule{limits}."


def owned_enum(param: Param) -> bool:
    """Whether the parameter's set of labels is its rule's own (printed with
    the function that takes it)."""
    return param.type == "choice" and param.enum is not None and param.owns_enum


def procedure_imports(decl: Procedure) -> set[Import]:
    """What a procedure's statements need of the runtime, besides its
    parameters' checks and its rng."""
    needs: set[Import] = (
        set(ODDS) if decl.odds is not None or decl.field_odds else set()
    )
    if len(decl.odds_of) > 1 and not decl.joint:
        needs.add(("rulebook.odds", "OddsByField"))
    if decl.turns is not None:
        needs.add(("rulebook", "_chain"))
        if any(b.checked.type == "list" for b in decl.turns.binds):
            needs.add(("collections.abc", "Sequence"))
    if (decl.odds is not None or decl.field_odds) and any(
        b.checked.type == "list" for b in decl.binds
    ):
        needs.add(("collections.abc", "Sequence"))
    guards = tuple(g for _, g in decl.guards)
    if any(isinstance(s, Refuse) for s in statements_of(guards + decl.body)):
        needs.add(("rulebook.errors", "RuleInputError"))
    if any(expr.uses_steps(c.node) for c in decl.expressions):
        needs.add(("rulebook._support", "step"))
    if isinstance(decl.item, Column) and decl.item.type == "dice":
        needs.add(("rulebook.dice", "Dice"))
    return needs


def procedure_view(
    system: System, unit: Unit, decl: Procedure, tables: dict[str, str]
) -> View:
    """A procedure: its parameters' checks, its bound names, then its
    statements in order. One with odds holds its statements in a private
    function of the checked arguments and the names, which its odds function
    calls for each set of values the names take."""
    params = [param_view(p, decl.rule_id) for p in decl.params]
    python = code_of(system, [*decl.params, *local_params(decl.locals)], tables)
    rolls = decl.rolls
    record = unit.record(decl.item) if isinstance(decl.item, str) else None

    def made(values: Made) -> str:
        return made_text(
            record,
            values,
            python,
            decl.keys,
            decl.item if isinstance(decl.item, Column) else None,
        )

    lines = ["check_rng(rng)"] if rolls else []
    for step in decl.prelude():  # the names, and the guards among them
        if isinstance(step, Bind):
            lines.append(f"{pyname(step.name)} = {python(step.checked.node)}")
        else:
            lines += statement_lines((step,), python, made, None)
    private = odds = None
    body_lines = lines
    turns = decl.turns
    if decl.odds is not None or turns is not None:
        args = [(local_name(p), _checked_type(p)) for p in decl.params]
        args += [(pyname(b.name), _bound_type(b.checked)) for b in decl.binds]
        if turns is not None:  # the state as it ended, and the turns taken
            args += [(pyname(v.name), _carried_type(v)) for v in turns.state]
            args.append((pyname(turns.counter), "int"))
        name = f"_{decl.name}"
        call = f"{name}({', '.join(n for n, _ in args)})"
        if turns is not None:
            lines += loop_lines(turns, _target(python, turns.counter), call)
        else:
            lines.append(f"return {call}")
        body_lines = []
        private = {
            "function": name,
            "signature": ", ".join(f"{n}: {t}" for n, t in args),
            "lines": body_lines,
        }
    odds, privates = _procedure_odds(system, unit, decl, python)
    for m in record.methods if record is not None else ():  # whether each applies
        ok = "True" if m.only_if is None else python(m.only_if.node)
        body_lines.append(f"_{m.name}_ok = {ok}")
    answer_list = pyname(decl.answer) if decl.answer is not None else None
    if answer_list is not None:
        body_lines.append(f"{answer_list}: list[{item_type(decl)}] = []")
    body_lines += statement_lines(decl.body, python, made, answer_list)
    if answer_list is not None:
        body_lines.append(f"return {answer_list}")
    answer = f" {decl.answer_doc}" if decl.answer_doc else ""
    return {
        "is": "Procedure",
        "enums": [
            view["enum"]
            for view, param in zip(params, decl.params, strict=True)
            if owned_enum(param)
        ],
        "function": pyname(decl.name),
        "signature": signature(params, decl.params, rolls),
        "params": params,
        "returns": answer_type(decl),
        "lines": lines,
        "private": private,
        "odds": odds,
        "field_odds": privates,
        "doc": docstring(
            f"{decl.doc}{args_doc(decl.params)}\n\n{decl.origin}{answer} "
            + refusals(decl),
            "    ",
        ),
    }


def _procedure_odds(
    system: System,
    unit: Unit,
    decl: Procedure,
    python: Callable[[expr.Node], str],
) -> tuple[View | None, list[View]]:
    """The odds function of a procedure (the chances of the parts of its
    answer its odds are of: one, each, or together) and the private
    functions of the chances of the parts other rules' odds read."""
    syntax = python_syntax(python, system)
    plain = signature([param_view(p, decl.rule_id) for p in decl.params], decl.params)

    def chances(fields: tuple[str, ...]) -> str:
        return odds_body(
            unit,
            decl,
            syntax,
            lambda counter: _target(python, counter),
            lambda value: made_text(None, value, python),
            lambda args: f"_chain.absorbed({', '.join(args)})",
            fields,
        )

    privates = []
    names = (
        [c.name for c in unit.record(decl.item).fields]
        if isinstance(decl.item, str)
        else []
    )
    for at in decl.field_odds:
        privates.append(
            {
                "function": "_" + pyname(fields_odds_name(decl.name, at)),
                "signature": plain,
                "body": chances(tuple(names[i] for i in at)),
            }
        )
    if decl.odds is None:
        return None, privates
    fields = decl.odds_of
    columns = [column(unit, decl, f) for f in fields]
    body = chances(fields)
    if decl.joint:
        body = f"_odds.joint({body})"
        returns = f"Chances[tuple[{', '.join(column_type(c) for c in columns)}]]"
    elif len(fields) > 1:
        body = f"_odds.by_field({body}, {py(fields)})"
        returns = "OddsByField"
    else:
        body = f"_odds.chances({body})"
        returns = f"Chances[{column_type(columns[0])}]"
    what = ""
    if isinstance(decl.item, str):
        shown = [pyattr(f) for f in fields]
        what = "'s " + (
            shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        )
    view = odds_view(decl.name, plain, body, what, decl.odds_function)
    return view | {"returns": returns}, privates


def _carried_type(value: Carried) -> str:
    """The Python type of a value turns carry."""
    if value.record is not None or value.type == "text" or value.items == "choice":
        return py_held(carried_column(value))
    if value.type == "list":
        item = {"int": "int", "bool": "bool", "text": "str"}[str(value.items)]
        return f"tuple[{item}, ...]"
    if value.enum is not None:
        return pyname(value.enum.name)
    return value.type


def _target(python: Callable[[expr.Node], str], counter: str) -> Target:
    """How Python writes a procedure's turns."""
    counter = pyname(counter)

    def held(value: Carried, code: str) -> str:  # a list as a tuple
        if value.type != "list":
            return code
        return "()" if code == "[]" else f"tuple({code})"

    return Target(
        emit=python,
        name=pyname,
        start="",
        declared=lambda v: (
            f"{pyname(v.name)}: {_carried_type(v)}"
            if v.type == "list"
            else pyname(v.name)
        ),
        held=held,
        bind="",
        end="",
        loop=lambda test: f"while not ({test}):",
        close=None,
        stop=lambda most: f"if {counter} == {most}:\n    break",
        count=lambda counter: f"{counter} = _chain.next_turn({counter})",
        assign=lambda names, values: f"{', '.join(names)} = {', '.join(values)}",
        tuple=lambda items: "(" + ", ".join(items) + ("," * (len(items) == 1)) + ")",
        nothing="None",
    )


def _checked_type(param: Param) -> str:
    """A parameter's type once checked (a choice its member, a mapping a dict)."""
    if param.spec is not None:
        return py_held(param.spec)
    if param.type == "mapping":
        assert param.enum is not None and param.value_enum is not None
        return f"dict[{pyname(param.enum.name)}, {pyname(param.value_enum.name)}]"
    base = pyname(param.enum.name) if param.enum is not None else param.type
    return f"{base} | None" if param.nullable else base


def _bound_type(checked: expr.Checked) -> str:
    """The Python type of a bound name's value (a pool's dice: a sequence, or
    in the odds function the sorted tuple of them)."""
    kinds = {"int": "int", "bool": "bool", "symbols": "tuple[str, ...]"}
    record = pyname(checked.record) if checked.record else None
    if checked.type == "list":
        enum = pyname(checked.enum) if checked.enum else None
        item = kinds.get(str(checked.item)) or enum or record or "str"
        return f"Sequence[{item}]"
    enum = pyname(checked.enum) if checked.enum else None
    base = kinds.get(checked.type) or enum or record or "str"
    return f"{base} | None" if checked.nullable else base
