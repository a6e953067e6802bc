"""JavaScript procedures: a procedure's function, its private function of cases and turns, and its odds function."""

from __future__ import annotations

from collections.abc import Callable

from ..core.exprs import local_params
from ..core.ir import (
    Bind,
    Procedure,
    Unit,
)
from ..js_kit import (
    View,
    args_doc,
    doc,
    expression,
    local,
    param_view,
    signature,
    ts_column_type,
    with_rng,
)
from ..js_naming import jsname
from ..model import Column, System
from ..runtime._support import LIMIT_NOTE
from ..viewkit import allowed
from .javascript_code import ODDS_DOC, js_syntax
from .javascript_code import js_text as _text
from .javascript_statements import Made, made_text, statement_lines
from .procedure_odds import odds_body
from .turns_code import Target, loop_lines


def procedure_view(
    system: System,
    unit: Unit,
    decl: Procedure,
    tables: dict[str, str],
    shapes: dict[str, str],
) -> View:
    """A procedure: its parameters' checks, then its statements in order (a
    local is declared where it is first set, or before the statements where
    that is within a branch or a loop)."""
    function = jsname(decl.name)
    params = [param_view(system, p, decl.rule_id) for p in decl.params]
    own = {p.name for p in decl.params}
    answer = jsname(decl.answer) if decl.answer is not None else None
    rolls = decl.rolls
    lines = ["$dice.checkRng(rng);"] if rolls else []
    known = [*decl.params, *local_params(decl.locals)]

    def code(node: object) -> str:
        return expression(system, node, known, tables)

    record = unit.record(decl.item) if isinstance(decl.item, str) else None
    shape = shapes[decl.item] if isinstance(decl.item, str) else None

    def made(values: Made, indent: str) -> str:
        return made_text(record, shape, values, code, indent, decl.keys)

    for step in decl.prelude():  # the names, and the guards among them
        if isinstance(step, Bind):
            lines.append(f"const {jsname(step.name)} = {code(step.checked.node)};")
            own.add(step.name)
        else:
            lines += statement_lines((step,), code, made, None, own)
    private = odds = None
    body_lines = lines
    turns = decl.turns
    if decl.odds is not None or turns is not None:
        args = [local(p) for p in decl.params] + [jsname(b.name) for b in decl.binds]
        if turns is not None:  # the state as it ended, and the turns taken
            args += [jsname(v.name) for v in turns.state] + [jsname(turns.counter)]
            own |= {v.name for v in turns.state} | {turns.counter}
        name = f"_{function}"
        call = f"{name}({', '.join(args)})"
        if turns is not None:
            lines += loop_lines(turns, _target(code, turns.counter), call)
        else:
            lines.append(f"return {call};")
        body_lines = []
        private = {"function": name, "params": ", ".join(args), "lines": body_lines}
    if decl.odds is not None:
        odds = _procedure_odds(system, unit, decl, params, code, call)
    for m in record.methods if record is not None else ():  # whether each applies
        ok = "true" if m.only_if is None else code(m.only_if.node)
        body_lines.append(f"const ${jsname(m.name)}Ok = {ok};")
    if answer is not None:
        body_lines.append(f"const {answer} = [];")
    body_lines += statement_lines(decl.body, code, made, answer, own)
    if answer is not None:
        body_lines.append(f"return {answer};")
    if isinstance(decl.item, str):
        item = jsname(decl.item)
    elif isinstance(decl.item, Column):
        item = ts_column_type(decl.item)
        if decl.keys is not None:
            item = f"Readonly<Record<{jsname(decl.keys.name)}, {item}>>"
    else:
        item = (
            "number"
            if decl.item == 1
            else f"readonly [{', '.join(['number'] * decl.item)}]"
        )
    limits = "".join(
        f", and for {jsname(p.name)} above {p.limit}: {LIMIT_NOTE}"
        for p in decl.params
        if p.limit is not None
    )
    if any(
        f"$.{op}(" in line for line in lines for op in ("add", "sub", "mul", "exact")
    ):
        limits += ", and where a figure would pass Number.MAX_SAFE_INTEGER"
    answered = f" {_text(decl.answer_doc)}" if decl.answer_doc else ""
    return {
        "is": "Procedure",
        "enums": [p["enum"] for p in params if p["enum"] is not None],
        "function": function,
        "signature": signature(
            with_rng(params, decl.params) if rolls else params, function
        ),
        "runtime": (["dice_rolls.js", "dice_terms.js"] if rolls else [])
        + (["odds.js"] if odds is not None else [])
        + (["_chain.js"] if turns is not None else []),
        "params": params,
        "returns": item if answer is None else f"Array<{item}>",
        "lines": lines,
        "private": private,
        "odds": odds,
        "doc": doc(
            f"{_text(decl.doc)}\n\n{args_doc(decl.params, allowed)}\n\n"
            f"{_text(decl.origin)}{answered} Throws RuleInputError "
            f"for arguments outside the rule{limits}."
        ),
    }


def _procedure_odds(
    system: System,
    unit: Unit,
    decl: Procedure,
    params: list[View],
    code: Callable[[object], str],
    call: str,
) -> View:
    """The odds function of a procedure: each bound name followed, in order,
    into the private function, whose answer's part ``odds`` it reads."""
    column = unit.odds_part(decl)[1]
    read = f".{jsname(column.name)}" if isinstance(decl.item, str) else ""
    syntax = js_syntax(code)
    body = odds_body(
        unit,
        decl,
        syntax,
        lambda counter: _target(code, counter),
        lambda value: made_text(None, None, value, code, ""),
        lambda args: f"$chain.absorbed({', '.join(args)})",
        call + read,
    )
    # labels answer in their set's order, as Python's do
    order = f", $.labelsOf({jsname(column.enum)})" if column.enum is not None else ""
    function = jsname(decl.odds_function)
    what = f"'s `{jsname(column.name)}`" if isinstance(decl.item, str) else ""
    return {
        "function": function,
        "signature": signature(params, function),
        "body": f"$odds.answer({body}{order})",
        "key": ts_column_type(column),
        "doc": doc(f"The exact odds of `{jsname(decl.name)}()`{what}: {ODDS_DOC}"),
    }


def _target(code: Callable[[object], str], counter: str) -> Target:
    """How JavaScript writes a procedure's turns."""
    turns = jsname(counter)
    return Target(
        emit=code,
        name=jsname,
        start="let ",
        declared=lambda v: jsname(v.name),
        held=lambda v, value: f"Object.freeze({value})" if v.type == "list" else value,
        bind="const ",
        end=";",
        loop=lambda test: f"while (!({test})) {{",
        close="}",
        stop=lambda most: f"if ({turns} === {most}) break;",
        count=lambda name: f"{name} = $chain.nextTurn({name});",
        assign=lambda names, values: f"[{', '.join(names)}] = [{', '.join(values)}];",
        tuple=lambda items: f"[{', '.join(items)}]",
        nothing="null",
    )
