"""JavaScript procedures: a procedure's function, its private function of cases and turns, and its odds function."""

from __future__ import annotations

from collections.abc import Callable

from ...core.exprs import local_params
from ...core.ir import (
    Bind,
    Procedure,
    Unit,
)
from ...front.model import (
    Column,
    System,
)
from ...odds.fields import fields_odds_name
from ...odds.procedure import column
from ...runtime._support import LIMIT_NOTE
from ..procedure_odds import odds_body
from ..turns_code import (
    Target,
    loop_lines,
)
from ..viewkit import (
    allowed,
)
from .code import (
    ODDS_DOC,
    js_syntax,
)
from .code import js_text as _text
from .kit import (
    View,
    args_doc,
    doc,
    expression,
    js_string,
    local,
    param_view,
    signature,
    ts_column_type,
    with_rng,
)
from .names import jsname
from .statements import (
    Made,
    made_text,
    statement_lines,
)


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
        return made_text(
            record,
            shape,
            values,
            code,
            indent,
            decl.keys,
            decl.item if isinstance(decl.item, Column) else None,
        )

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
    odds, privates = _procedure_odds(system, unit, decl, params, code)
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
        + (["odds.js"] if odds is not None or privates else [])
        + (["_chain.js"] if turns is not None else []),
        "params": params,
        "returns": item if answer is None else f"Array<{item}>",
        "lines": lines,
        "private": private,
        "odds": odds,
        "field_odds": privates,
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
) -> tuple[View | None, list[View]]:
    """The odds function of a procedure (the chances of the parts of its
    answer its odds are of: one, each, or together) and the private
    functions of the chances of the parts other rules' odds read."""
    syntax = js_syntax(code, system)

    def chances(fields: tuple[str, ...]) -> str:
        return odds_body(
            unit,
            decl,
            syntax,
            lambda counter: _target(code, counter),
            lambda value: made_text(None, None, value, code, ""),
            lambda args: f"$chain.absorbed({', '.join(args)})",
            fields,
        )

    names = (
        [c.name for c in unit.record(decl.item).fields]
        if isinstance(decl.item, str)
        else []
    )
    privates = [
        {
            "function": "_" + jsname(fields_odds_name(decl.name, at)),
            "signature": signature(
                params, "_" + jsname(fields_odds_name(decl.name, at))
            ),
            "body": chances(tuple(names[i] for i in at)),
        }
        for at in decl.field_odds
    ]
    if decl.odds is None:
        return None, privates
    fields = decl.odds_of
    columns = [column(unit, decl, f) for f in fields]
    labels = [
        f"$.labelsOf({jsname(c.enum)})" if c.enum is not None else "null"
        for c in columns
    ]
    body = chances(fields)
    if decl.joint:
        body = f"$odds.joint({body}, [{', '.join(labels)}])"
        returns = (
            f"$odds.Chances<readonly [{', '.join(ts_column_type(c) for c in columns)}]>"
        )
    elif len(fields) > 1:
        names_js = ", ".join(
            f"[{js_string(jsname(f))}, {js_string(f)}]" for f in fields
        )
        body = f"$odds.byField({body}, [{names_js}], [{', '.join(labels)}])"
        shape = "; ".join(
            f"{jsname(f)}: $odds.Chances<{ts_column_type(c)}>"
            for f, c in zip(fields, columns, strict=True)
        )
        returns = f"$odds.OddsByField<{{ {shape} }}>"
    else:
        # labels answer in their set's order, as Python's do
        order = f", {labels[0]}" if columns[0].enum is not None else ""
        body = f"$odds.chances({body}{order})"
        returns = f"$odds.Chances<{ts_column_type(columns[0])}>"
    function = jsname(decl.odds_function)
    what = ""
    if isinstance(decl.item, str):
        shown = [f"`{jsname(f)}`" for f in fields]
        what = "'s " + (
            shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        )
    return {
        "function": function,
        "signature": signature(params, function),
        "body": body,
        "returns": returns,
        "doc": doc(f"The exact odds of `{jsname(decl.name)}()`{what}: {ODDS_DOC}"),
    }, privates


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
