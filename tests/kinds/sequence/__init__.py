"""A throwaway kind, registered at run time by tests/test_kind_plugins.py.

``sequence``: a fixed list of whole numbers read by position (1 first). Nothing
of it is in compiler/ or schema/: the registry entry is added by the test.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any, Literal

from rulesc.core.viewkit import (
    api,
    where_doc,
)
from rulesc.emit.literals import (
    code,
    docstring,
)
from rulesc.front.model import (
    RuleBase,
    System,
)
from rulesc.kinds import calls


@dataclass(frozen=True, slots=True)
class SequenceRule(RuleBase):
    function: str
    values: tuple[int, ...]
    kind: Literal["sequence"] = "sequence"


def build(
    b: Any, src: Any, path: Any, raw: dict[str, Any], common: dict[str, Any]
) -> SequenceRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    if len(set(raw["values"])) != len(raw["values"]):
        b.err(src, (*path, "values"), "a value is repeated", "list each value once")
        return None
    examples = b.examples(src, path, raw, {"position"}, roll_columns=set())
    return SequenceRule(
        **common,
        examples=examples,
        function=raw["function"],
        values=tuple(raw["values"]),
    )


def python_view(system: System, rule: SequenceRule) -> dict[str, Any]:
    return {
        "function": rule.function,
        "numbers": repr(rule.values),
        "count": len(rule.values),
        "doc": docstring(f"{rule.title}.\n\n{where_doc(rule)}", "    "),
        "imports": [("rulebook._support", "bad_int")],
        "exports": [rule.function],
    }


def docs_view(
    system: System, rule: SequenceRule, common: dict[str, Any]
) -> dict[str, Any]:
    return common | {
        "numbers": ", ".join(str(v) for v in rule.values),
        "api": api(common, f"Call: {code(f'{rule.function}(position) -> int')}."),
    }


def data_view(system: System, rule: SequenceRule, refs: Any) -> dict[str, Any]:
    """Its part of rules.json (the schema of it is data.schema.json beside this)."""
    return {"function": rule.function, "values": list(rule.values)}


KIND = calls.make_kind(
    name="sequence",
    folder=FsPath(__file__).resolve().parent,
    text="a sequence",
    build=build,
    python_view=python_view,
    docs_view=docs_view,
    data_view=data_view,
)
