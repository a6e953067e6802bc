"""A throwaway kind that lowers to the core, registered at run time by tests/test_one_core.py.

``series``: a fixed list of whole numbers read by position (1 first), as the
``sequence`` kind beside it, but with no template and no view of its own: its
lowering makes it a function of the core (its answer an expression choosing
the value by position), which every emitter prints, JavaScript included.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any, Literal

from rulesc.core.ir import Function, Unit
from rulesc.core.viewkit import where_doc
from rulesc.front.model import (
    Param,
    RuleBase,
    System,
)
from rulesc.front.scope import param_spec
from rulesc.kinds import calls
from rulesc.lang import expr


@dataclass(frozen=True, slots=True)
class SeriesRule(RuleBase):
    function: str
    values: tuple[int, ...]
    kind: Literal["series"] = "series"


def build(
    b: Any, src: Any, path: Any, raw: dict[str, Any], common: dict[str, Any]
) -> SeriesRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    examples = b.examples(src, path, raw, {"position"}, roll_columns=set())
    return SeriesRule(
        **common,
        examples=examples,
        function=raw["function"],
        values=tuple(raw["values"]),
    )


def _position(rule: SeriesRule) -> Param:
    """The one parameter: a position from 1 to the number of values."""
    return Param(
        "position",
        "int",
        1,
        len(rule.values),
        None,
        False,
        "The position, 1 first.",
        None,
    )


def params(rule: SeriesRule) -> dict[str, Param]:
    return {"position": _position(rule)}


def lower(system: System, rule: SeriesRule) -> Unit:
    """``values[position - 1]``, written as the core's expression: the last
    value, unless the position is an earlier one's."""
    position = _position(rule)
    answer: expr.Node = expr.IntLit(rule.values[-1], 0, 0)
    for index in range(len(rule.values) - 1, 0, -1):
        test = expr.Binary(
            "==", expr.Name("position", 0, 0), expr.IntLit(index, 0, 0), 0, 0
        )
        answer = expr.Cond(
            expr.IntLit(rule.values[index - 1], 0, 0), test, answer, 0, 0
        )
    checked = expr.check(answer, {"position": param_spec(position)})
    function = Function(
        name=rule.function,
        params=(position,),
        binds=(),
        answer=checked,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        unit=None,
        unbounded_because=None,
        rule_id=rule.qualified_id,
    )
    return Unit((function,), rule.function)


def data_view(system: System, rule: SeriesRule, refs: Any) -> dict[str, Any]:
    """Its part of rules.json (the schema of it is data.schema.json beside this)."""
    return {"function": rule.function, "values": list(rule.values)}


KIND = calls.make_kind(
    name="series",
    folder=FsPath(__file__).resolve().parent,
    text="a series",
    build=build,
    lower=lower,
    data_view=data_view,
    params=params,
)
