"""JavaScript timelines: a timeline's function, its handlers as inner functions run in time order."""

from __future__ import annotations

from ...core.exprs import local_params
from ...core.ir import (
    Stmt,
    Timeline,
    Unit,
)
from ...front.model import System
from ...runtime._support import LIMIT_NOTE
from ..viewkit import (
    allowed,
)
from .code import js_text as _text
from .kit import (
    View,
    args_doc,
    doc,
    expression,
    param_view,
    signature,
    with_rng,
)
from .names import jsname
from .statements import (
    RUN,
    made_text,
    statement_lines,
)


def timeline_view(
    system: System,
    unit: Unit,
    decl: Timeline,
    tables: dict[str, str],
    shapes: dict[str, str],
) -> View:
    """A timeline: its parameters' checks; its shared names and states; each
    handler, an inner function of the time and its values; then its start,
    the run, and its end."""
    function = jsname(decl.name)
    params = [param_view(system, p, decl.rule_id) for p in decl.params]
    known = [*decl.params, *local_params(decl.names)]

    def code(node: object) -> str:
        return expression(system, node, known, tables)

    event, result = unit.record(decl.event), unit.record(decl.result)
    lines = ["$dice.checkRng(rng);", f"const {RUN} = new $timeline.Timeline();"]
    for local, start in decl.shared:
        lines.append(f"let {jsname(local.name)} = {code(start.node)};")
    lines += [
        f"const {jsname(name)} = new {jsname(cls)}();" for name, cls in decl.states
    ]
    own = {p.name for p in decl.params} | {local.name for local, _ in decl.shared}
    own |= {name for name, _ in decl.states}

    def body(stmts: tuple[Stmt, ...], declared: set[str], outer: str = "") -> list[str]:
        return statement_lines(
            stmts,
            code,
            lambda values, indent: made_text(
                event, shapes[decl.event], values, code, outer + indent
            ),
            RUN,
            declared,
            returned=lambda values, indent: made_text(
                result, shapes[decl.result], values, code, outer + indent
            ),
        )

    for handler in decl.handlers:
        args = [jsname(decl.clock), *(jsname(p.name) for p in handler.params)]
        lines.append(f"function {jsname(handler.name)}({', '.join(args)}) {{")
        declared = own | {decl.clock} | {p.name for p in handler.params}
        lines += [f"  {line}" for line in body(handler.body, declared, "  ")]
        lines.append("}")
    lines += body(decl.start, set(own))
    lines.append(f"{RUN}.run();")
    lines += body(decl.after, set(own))
    answered = f" {_text(decl.answer_doc)}" if decl.answer_doc else ""
    limits = "".join(
        f", and for {jsname(p.name)} above {p.limit}: {LIMIT_NOTE}"
        for p in decl.params
        if p.limit is not None
    )
    return {
        "is": "Procedure",
        "enums": [p["enum"] for p in params if p["enum"] is not None],
        "function": function,
        "signature": signature(with_rng(params, decl.params), function),
        "runtime": ["dice_rolls.js", "dice_terms.js", "_timeline.js"],
        "params": params,
        "returns": jsname(decl.result),
        "lines": lines,
        "private": None,
        "odds": None,
        "doc": doc(
            f"{_text(decl.doc)}\n\n{args_doc(decl.params, allowed)}\n\n"
            f"{_text(decl.origin)}{answered} Throws RuleInputError "
            f"for arguments outside the rule{limits}, and for a run of more "
            "events than the runtime's limit."
        ),
    }
