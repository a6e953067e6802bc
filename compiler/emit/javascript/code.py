"""JavaScript code of the core: the syntax of odds of expressions, and docs in JavaScript's markup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...core.docs import refs
from ...core.ir import (
    Label,
    Written,
)
from ...front.model import System
from ...lang.expr import (
    Call,
    Node,
)
from ...odds.fields import (
    fields_odds_name,
    record_fields,
)
from ..odds import Syntax
from .dice import pool_js
from .kit import (
    js,
    js_string,
    member,
)
from .names import jsname


def js_syntax(emit: Callable[[Node], str], system: System) -> Syntax:
    """How JavaScript writes the odds of an expression (``$odds`` calls)."""

    def record(call: Call, fields: tuple[str, ...]) -> str:
        places = record_fields(system, call.func)
        name = fields_odds_name(call.func, [places.index(f) for f in fields])
        return "_" + emit(replace(call, func=name, rolls=False))

    def literal(part: object) -> str:
        if isinstance(part, Label):
            return member(part.enum, part.label)
        assert isinstance(part, Written)
        return js(part.value)

    return Syntax(
        emit=emit,
        function=lambda names, body: f"({', '.join(names)}) => {body}",
        call=lambda name, args: f"$odds.{name}({', '.join(args)})",
        choose=lambda test, then, other: f"(({test}) ? {then} : {other})",
        pool=pool_js,
        boolean=lambda value: "true" if value else "false",
        items=lambda codes: f"[{', '.join(codes)}]",
        text=js_string,
        nothing="null",
        record=record,
        literal=literal,
    )


ODDS_DOC = (
    "each answer it can give with its chance, a Map from answer to Fraction, "
    "answers ascending; its `tail` is the chance an explosion cut off at the "
    "depth leaves unknown.\n\nTakes the same arguments, less the rng; "
    "throws RuleInputError as it does."
)


def js_text(text: str) -> str:
    """A core doc in JavaScript's markup (inline code in single backticks, a
    function by its camelCase name)."""
    return refs(text.replace("``", "`"), lambda function: f"`{jsname(function)}`")
