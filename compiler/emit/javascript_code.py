"""JavaScript code of the core's expressions: the syntax their odds are written in."""

from __future__ import annotations

from collections.abc import Callable

from ..expr import Node
from ..expr_dice import pool_js
from ..expr_odds import Syntax
from ..js_naming import camel


def js_syntax(emit: Callable[[Node], str]) -> Syntax:
    """How JavaScript writes the odds of an expression (``$odds`` calls)."""
    return Syntax(
        emit=emit,
        function=lambda names, body: f"({', '.join(names)}) => {body}",
        call=lambda name, args: f"$odds.{name}({', '.join(args)})",
        choose=lambda test, then, other: f"({test} ? {then} : {other})",
        is_null=lambda name: f"{name} === null",
        pool=pool_js,
        boolean=lambda value: "true" if value else "false",
        local=camel,
    )


ODDS_DOC = (
    "each answer it can give with its chance, a Map from answer to Fraction, "
    "answers ascending; its `tail` is the chance an explosion cut off at the "
    "depth leaves unknown.\n\nTakes the same arguments, less the rng; "
    "throws RuleInputError as it does."
)
