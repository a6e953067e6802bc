"""Facts in JavaScript: the record interface and the one frozen constant."""

from __future__ import annotations

from ...js_kit import View, doc, js, record_literal, record_view, where
from ...kinds.facts.model import FactsRule
from ...model import System


def js_view(system: System, rule: FactsRule) -> View:
    record = record_view(
        rule.class_name,
        rule.fields,
        f"The facts of rule `{rule.qualified_id}`. {where(rule)}",
    )
    values = [(c.name, js(v)) for c, v in zip(rule.fields, rule.values, strict=True)]
    return {
        "record": record,
        "constant": rule.constant,
        "value": record_literal(record["shape"], values, ""),
        "doc": doc(f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)}"),
    }
