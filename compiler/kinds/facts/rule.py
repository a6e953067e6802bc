"""facts: a rule that is a handful of typed facts, exported as one constant record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.facts.model import FactsRule
from ...literals import code, docstring, md_cell, py
from ...model import System
from ...viewkit import View, api, cell_md, column_type, where_doc

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> FactsRule | None:
    b.claim(src, (*path, "constant"), raw["constant"], "constant")
    b.claim(src, (*path, "class"), raw["class"], "class")
    columns = b.columns(
        src, path, [{k: v for k, v in f.items() if k != "value"} for f in raw["facts"]]
    )
    values = tuple(
        b.cell(src, (*path, "facts", index, "value"), fact["value"], col)
        for index, (fact, col) in enumerate(zip(raw["facts"], columns, strict=True))
    )
    examples = b.examples(src, path, raw, set(), roll_columns=set())
    return FactsRule(
        **common,
        examples=examples,
        constant=raw["constant"],
        class_name=raw["class"],
        fields=tuple(columns),
        values=values,
    )


def python_view(system: System, rule: FactsRule) -> View:
    return {
        "id": rule.qualified_id,
        "class_name": rule.class_name,
        "class_doc": docstring(
            f"The facts of rule ``{rule.qualified_id}``. {where_doc(rule)}", "    "
        ),
        "fields": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in rule.fields
        ],
        "constant": rule.constant,
        "value": f"{rule.class_name}("
        + ", ".join(
            f"{c.name}={py(v)}" for c, v in zip(rule.fields, rule.values, strict=True)
        )
        + ")",
        "doc": docstring(f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)}"),
        "imports": [
            ("rulebook.json", "Record"),
            ("typing", "ClassVar"),
            ("typing", "Final"),
            *(
                [("rulebook.dice", "Dice")]
                if any(c.type == "dice" for c in rule.fields)
                else []
            ),
        ],
        "exports": [rule.constant, rule.class_name],
    }


def docs_view(system: System, rule: FactsRule, common: View) -> View:
    return common | {
        "rows": [
            [md_cell(c.title), cell_md(c, v), md_cell(c.description or "")]
            for c, v in zip(rule.fields, rule.values, strict=True)
        ],
        "api": api(
            common,
            f"Value: {code(f'{rule.constant}: {rule.class_name}')}.",
            fields=[
                {
                    "name": code(c.name),
                    "title": md_cell(c.title),
                    "type": code(column_type(c)),
                    "description": md_cell(c.description or ""),
                }
                for c in rule.fields
            ],
            fields_title="Its fields",
        ),
    }
