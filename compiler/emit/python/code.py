"""Python code of the core's expressions: a function body's code, the imports
of one that rolls, and the syntax its odds are written in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ...core.ir import (
    Label,
    Written,
)
from ...core.viewkit import (
    Import,
    View,
)
from ...front.model import (
    Param,
    System,
)
from ...lang import expr
from ...lang.naming import odds_function
from ...lang.py_names import pyname
from ...odds.fields import (
    fields_odds_name,
    record_fields,
)
from ..expr import to_python
from ..literals import (
    docstring,
    py,
)
from ..odds import Syntax
from ..viewkit import (
    all_enums,
    local_name,
)
from .dice import pool_python

ROLLING: list[Import] = [
    ("rulebook.dice", "RNG"),
    ("rulebook.dice", "check_rng"),
    ("rulebook", "dice_rolls"),
    ("rulebook", "dice_terms"),
]
ODDS: list[Import] = [("rulebook", "_odds"), ("rulebook.odds", "Chances")]
_TEMP = re.compile(r"\b_t[0-9]+\b")


def code_of(
    system: System,
    params: Sequence[Param],
    tables: dict[str, str],
    renames: Mapping[str, str] | None = None,
) -> Callable[[expr.Node], str]:
    """A function writing the Python code of each checked expression of one
    function body, in order (temporaries of one never clash with another's):
    ``params`` are its checked parameters, ``tables`` each table's rows
    constant by the table's function name, ``renames`` the code of other names
    it reads."""
    enums = {p.name: p.enum for p in params if p.enum is not None}
    names = {**(renames or {}), **{p.name: local_name(p) for p in params}}
    by_name = {e.name: e for e in all_enums(system)}
    temps: set[str] = set()

    def choice_text(param: str, label: str) -> str:
        enum = enums[param]
        assert enum is not None
        return f"{pyname(enum.name)}.{enum.member(label).name}"

    def label_text(enum: str, label: str) -> str:
        return f"{pyname(enum)}.{by_name[enum].member(label).name}"

    def python(node: expr.Node) -> str:
        code = to_python(
            node,
            name=lambda n: names.get(n) or pyname(n),
            choice=choice_text,
            rounding=system.rounding,
            lookup=lambda table, key: f"{tables[table]}[{key}]",
            label=label_text,
            avoid=frozenset(temps),
        )
        temps.update(_TEMP.findall(code))
        return code

    return python


def python_syntax(python: Callable[[expr.Node], str], system: System) -> Syntax:
    """How Python code writes odds (``python``: a node's code)."""

    def record(call: expr.Call, fields: tuple[str, ...]) -> str:
        places = record_fields(system, call.func)
        name = fields_odds_name(call.func, [places.index(f) for f in fields])
        return "_" + python(replace(call, func=name, rolls=False))

    def literal(part: object) -> str:
        if isinstance(part, Label):
            return f"{pyname(part.enum.name)}.{part.enum.member(part.label).name}"
        assert isinstance(part, Written)
        return py(part.value)

    return Syntax(
        emit=python,
        function=lambda names, body: f"lambda {', '.join(names)}: {body}",
        call=lambda name, args: f"_odds.{name}({', '.join(args)})",
        choose=lambda test, then, other: f"(({then}) if ({test}) else {other})",
        pool=pool_python,
        boolean=repr,
        items=lambda codes: (
            f"({codes[0]},)" if len(codes) == 1 else f"({', '.join(codes)})"
        ),
        text=py,
        nothing="None",
        record=record,
        literal=literal,
    )


def odds_view(
    function: str, plain: str, body: str, what: str = "", name: str | None = None
) -> View:
    """An odds function: its name (``name``, else ``<function>_odds``),
    parameters (``plain``: the rule's, less the rng), body and docstring
    (``what``: which part of the answer it is of)."""
    return {
        "function": pyname(name or odds_function(function)),
        "signature": plain,
        "body": body,
        "doc": docstring(
            f"The exact odds of {pyname(function)}(){what}: each answer it can give, "
            "with its chance.\n\nTakes the same arguments, less the rng; "
            "raises RuleInputError as it does.",
            "    ",
        ),
    }
