"""A throwaway kind, registered at run time by tests/test_kind_plugins.py.

``sequence``: a fixed list of whole numbers read by position (1 first). Nothing
of it is in compiler/ or schema/: the registry entry is added by the test. Like
every kind, it lowers its rules to the core (a function of one checked
parameter answering one expression), which every target prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any, Literal

from rulesc.core.ir import Function, Unit
from rulesc.front.model import (
    Param,
    RuleBase,
    System,
)
from rulesc.front.scope import param_spec
from rulesc.kinds import calls
from rulesc.lang.expr import Checked

POSITION = "position"


@dataclass(frozen=True, slots=True)
class SequenceRule(RuleBase):
    function: str
    values: tuple[int, ...]
    param: Param
    checked: Checked
    kind: Literal["sequence"] = "sequence"


def build(
    b: Any, src: Any, path: Any, raw: dict[str, Any], common: dict[str, Any]
) -> SequenceRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    values = raw["values"]
    if len(set(values)) != len(values):
        b.err(src, (*path, "values"), "a value is repeated", "list each value once")
        return None
    examples = b.examples(src, path, raw, {POSITION}, roll_columns=set())
    param = Param(
        name=POSITION,
        type="int",
        min=1,
        max=len(values),
        default=None,
        has_default=False,
        description="The position of the value, 1 first.",
        enum=None,
    )
    # the list's item at the position: the values are whole numbers (the
    # schema says so), written back as numbers
    text = f"[{', '.join(str(int(v)) for v in values)}][{POSITION} - 1]"
    _, checked = b.compile_expression(
        src, (*path, "values"), text, {POSITION: param_spec(param)}, "sequence"
    )
    if checked is None:
        return None
    return SequenceRule(
        **common,
        examples=examples,
        function=raw["function"],
        values=tuple(values),
        param=param,
        checked=checked,
    )


def lower(system: System, rule: SequenceRule) -> Unit:
    """The sequence as a function of the position, answering its value."""
    function = Function(
        name=rule.function,
        params=(rule.param,),
        binds=(),
        answer=rule.checked,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=f"Rule ``{rule.qualified_id}`` ({rule.loc}).",
        unit=None,
        unbounded_because=None,
        rule_id=rule.qualified_id,
    )
    return Unit((function,), rule.function)


def data_view(system: System, rule: SequenceRule, refs: Any) -> dict[str, Any]:
    """Its part of rules.json (the schema of it is data.schema.json beside this)."""
    return {"function": rule.function, "values": list(rule.values)}


KIND = calls.make_kind(
    name="sequence",
    folder=FsPath(__file__).resolve().parent,
    text="a sequence",
    build=build,
    lower=lower,
    params=lambda rule: {POSITION: rule.param},
    data_view=data_view,
)
