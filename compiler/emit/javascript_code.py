"""JavaScript code of the core: the syntax of odds of expressions, and docs in JavaScript's markup."""

from __future__ import annotations

from collections.abc import Callable

from ..core.docs import refs
from ..expr import Node
from ..expr_dice import pool_js
from ..expr_odds import Syntax
from ..js_naming import jsname


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
        local=jsname,
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
