"""A formula in JavaScript: its parameters' checks and one expression (and, for
a formula that rolls, its odds function)."""

from __future__ import annotations

from collections.abc import Callable

from ...expr import Node, dice_in
from ...expr_dice import pool_js
from ...expr_odds import Syntax, odds_code
from ...js_kit import View, args_doc, doc, expression, param_view, signature, where
from ...js_naming import camel
from ...kinds.formula.model import FormulaRule
from ...kinds.formula.rule import rule_nodes
from ...kinds.table.model import TableRule
from ...model import System
from ...naming import odds_function, private_constant
from ...viewkit import allowed


def table_rows(system: System) -> dict[str, str]:
    """Each table's rows constant (a Map by label), by the table's function name."""
    return {
        t.function: private_constant(t.id, "rows")
        for t in system.rules
        if isinstance(t, TableRule)
    }


def js_view(system: System, rule: FormulaRule) -> View:
    function = camel(rule.function)
    params = [param_view(system, p, rule.qualified_id) for p in rule.params]
    tables = table_rows(system)
    body = expression(system, rule.checked.node, rule.params, tables)
    lets = [
        f"const {camel(let.name)} = "
        f"{expression(system, let.checked.node, rule.params, tables)};"
        for let in rule.lets
    ]
    rolls = any(dice_in(node) is not None for node in rule_nodes(rule))
    rng = {"name": "rng", "keyword_only": False, "optional": False, "default": None}
    # the rng after the positional parameters, before any options (as a pool's)
    signed = signature(
        [*params, rng | {"ts": "$dice.RNG"}] if rolls else params, function
    )
    return {
        "function": function,
        "params": params,
        "signature": signed,
        "rolls": rolls,
        "odds": _odds_view(system, rule, params) if rolls else None,
        "runtime": ["dice_rolls.js", "dice_terms.js", "odds.js"] if rolls else [],
        "enums": [p["enum"] for p in params if p["enum"] is not None],
        "lets": lets,
        "body": body,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{args_doc(rule.params, allowed)}\n\n"
            f"{where(rule)} Throws RuleInputError for arguments outside the rule."
        ),
    }


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


def _odds_view(system: System, rule: FormulaRule, params: list[View]) -> View:
    """The odds function of a formula that rolls: its exact chances."""
    tables = table_rows(system)
    syntax = js_syntax(lambda node: expression(system, node, rule.params, tables))
    lets = [(let.name, let.checked.node) for let in rule.lets]
    function = camel(odds_function(rule.function))
    return {
        "function": function,
        "signature": signature(params, function),
        "body": f"$odds.answer({odds_code(rule.checked.node, syntax, lets=lets)})",
        "doc": doc(f"The exact odds of `{camel(rule.function)}()`: {ODDS_DOC}"),
    }
