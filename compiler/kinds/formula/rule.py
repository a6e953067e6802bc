"""Formula: typed parameters and one checked expression; its views."""

from __future__ import annotations

import re
from collections.abc import Callable

from ... import expr
from ...expr_dice import pool_python
from ...expr_math import display_parts
from ...expr_odds import Syntax, odds_code
from ...expr_types import Binary, walk
from ...kinds.formula.model import FormulaRule, Let
from ...kinds.table.model import TableRule
from ...literals import code, docstring, md
from ...model import System
from ...naming import odds_function, private_constant
from ...viewkit import (
    Reads,
    View,
    all_enums,
    api,
    args_doc,
    enums_names,
    inputs,
    param_imports,
    param_view,
    signature,
    where_doc,
)


def python_view(system: System, rule: FormulaRule) -> View:
    params = [param_view(p, rule.qualified_id) for p in rule.params]
    enums = {p.name: p.enum for p in rule.params if p.enum is not None}

    def choice_text(param: str, label: str) -> str:
        enum = enums[param]
        return f"{enum.name}.{enum.member(label).name}"

    rows = {
        t.function: private_constant(t.id, "rows")
        for t in system.rules
        if isinstance(t, TableRule)
    }
    by_name = {e.name: e for e in all_enums(system)}
    rolls = any(expr.dice_in(n) is not None for n in rule_nodes(rule))
    temps: set[str] = set()

    def python(node: expr.Node) -> str:
        code = expr.to_python(
            node,
            name=lambda n: n,
            choice=choice_text,
            rounding=system.rounding,
            lookup=lambda table, key: f"{rows[table]}[{key}]",
            label=lambda enum, label: f"{enum}.{by_name[enum].member(label).name}",
            avoid=frozenset(temps),
        )
        temps.update(_TEMP.findall(code))
        return code

    lets = [f"{let.name} = {python(let.checked.node)}" for let in rule.lets]
    body = python(rule.checked.node)
    plain = signature(params, rule.params)
    return {
        "id": rule.qualified_id,
        "function": rule.function,
        "params": params,
        "signature": with_rng(plain, rolls),
        "rolls": rolls,
        "lets": lets,
        "odds": _odds_view(rule, python, plain) if rolls else None,
        "enums": [
            view["enum"]
            for view, param in zip(params, rule.params, strict=True)
            if "enum" in view and param.owns_enum
        ],
        "body": body,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}{args_doc(rule.params)}\n\n"
            f"{where_doc(rule)} Raises RuleInputError for arguments outside the rule.",
            "    ",
        ),
        "imports": param_imports(rule.params)
        + (
            [("rulebook._support", "step")]
            if expr.uses_steps(rule.checked.node)
            else []
        )
        + (ROLLING + ODDS if rolls else []),
        "exports": [
            rule.function,
            *([odds_function(rule.function)] if rolls else []),
            *enums_names(rule),
        ],
    }


def _odds_view(
    rule: FormulaRule, python: Callable[[expr.Node], str], plain: str
) -> View:
    """The odds function of a formula that rolls: its exact chances."""
    lets = [(let.name, let.checked.node) for let in rule.lets]
    body = odds_code(rule.checked.node, python_syntax(python), lets=lets)
    return odds_view(rule.function, plain, f"_odds.answer({body})")


def python_syntax(python: Callable[[expr.Node], str]) -> Syntax:
    """How Python code writes odds (``python``: a node's code)."""
    return Syntax(
        emit=python,
        function=lambda names, body: f"lambda {', '.join(names)}: {body}",
        call=lambda name, args: f"_odds.{name}({', '.join(args)})",
        choose=lambda test, then, other: f"({then} if {test} else {other})",
        is_null=lambda name: f"{name} is None",
        pool=pool_python,
        boolean=repr,
        items=lambda codes: f"({', '.join(codes)},)",
    )


def odds_view(function: str, plain: str, body: str, what: str = "") -> View:
    """An odds function: its name, parameters (``plain``: the rule's, less the
    rng), body and docstring (``what``: which part of the answer it is of)."""
    return {
        "function": odds_function(function),
        "signature": plain,
        "body": body,
        "doc": docstring(
            f"The exact odds of {function}(){what}: each answer it can give, "
            "with its chance.\n\nTakes the same arguments, less the rng; "
            "raises RuleInputError as it does.",
            "    ",
        ),
    }


def docs_view(system: System, rule: FormulaRule, common: View) -> View:
    interval = rule.checked.interval
    reads = Reads(system)
    args = ", ".join(
        f"{p.name}: {p.enum.name if p.enum else p.type}"
        + (f" = {p.default!r}" if p.has_default else "")
        for p in rule.params
    )
    node = rule.checked.node
    rolls = any(expr.dice_in(n) is not None for n in rule_nodes(rule))
    rng = (", rng" if args else "rng") if rolls else ""
    math, where = display_parts(node, rounding=system.rounding, field=reads.latex)
    nodes = rule_nodes(rule)
    return common | {
        "math": math,
        "where": where,
        "lets": [let_view(system, let, reads) for let in rule.lets],
        "unit": md(rule.unit) if rule.unit else None,
        "range": _range_text(interval.lo, interval.hi) if interval else "",
        "unbounded": md(rule.unbounded_because) if rule.unbounded_because else None,
        "inputs": inputs(rule.params),
        "reads": reads.links(nodes, rule.id),
        "rounding": _ROUNDING[system.rounding]
        if any(isinstance(n, Binary) and n.op == "//" for t in nodes for n in walk(t))
        else None,
        "api": api(
            common,
            f"Call: {code(f'{rule.function}({args}{rng}) -> int')}.",
            params=rule.params,
        ),
    }


def let_view(system: System, let: Let, reads: Reads) -> View:
    """A name the formula binds, as its page shows it: ``name = value``."""
    value, where = display_parts(
        let.checked.node, rounding=system.rounding, field=reads.latex
    )
    name = display_parts(expr.Name(let.name, 0, 0), rounding=system.rounding)[0]
    return {
        "math": f"{name} = {value}",
        "where": where,
        "description": md(let.description) if let.description else None,
    }


def with_rng(signed: str, rolls: bool) -> str:
    """The rng after the positional parameters, before the keyword-only ones."""
    if not rolls:
        return signed
    parts = [p for p in signed.split(", ") if p]
    at = parts.index("*") if "*" in parts else len(parts)
    return ", ".join([*parts[:at], "rng: RNG", *parts[at:]])


ROLLING = [
    ("rulebook.dice", "RNG"),
    ("rulebook.dice", "check_rng"),
    ("rulebook", "dice_rolls"),
    ("rulebook", "dice_terms"),
]
_TEMP = re.compile(r"\b_t[0-9]+\b")


def rule_nodes(rule: FormulaRule) -> list[expr.Node]:
    """The expressions of a formula, in order: its lets' values, then its own."""
    return [*(let.checked.node for let in rule.lets), rule.checked.node]


ODDS = [("rulebook", "_odds"), ("rulebook.odds", "Chances")]
_ROUNDING = {
    "down": "A division rounds down (⌊ ⌋).",
    "up": "A division rounds up (⌈ ⌉).",
}


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is None and hi is None:
        return "any whole number"
    if lo is None:
        return f"at most {hi}"
    if hi is None:
        return f"at least {lo}"
    return f"from {lo} to {hi}"
