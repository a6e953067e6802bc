"""A roll against cover in JavaScript: the location roll, then the check of a half-exposed one."""

from __future__ import annotations

from ...js_kit import View, doc, js, js_string, where
from ...js_naming import camel
from ...kinds.covered_roll.model import CoveredRollRule
from ...model import System
from ...naming import private_constant


def js_view(system: System, rule: CoveredRollRule) -> View:
    table, values = rule.table, rule.value_enum
    assert table.rolls is not None
    keys = table.enum.name
    function = camel(rule.function)
    fields = [
        ("location", "location", keys, "The location the roll hit."),
        (
            "strikesCover",
            "strikes_cover",
            "boolean",
            "Whether the shot strikes the cover instead of the target.",
        ),
        ("roll", "roll", "number", "The location roll."),
        (
            "check",
            "check",
            "number | null",
            "The check roll for a half-exposed location, or null.",
        ),
    ]
    return {
        "needs": [table.qualified_id],
        "result": rule.result,
        "shape": private_constant(rule.result, "fields"),
        "pairs": ", ".join(
            f"[{js_string(a)}, {js_string(b)}]" for a, b, _, _ in fields
        ),
        "fields": [{"js": a, "ts": t, "doc": doc(d, "  ")} for a, _, t, d in fields],
        "result_doc": doc(f"What `{function}` answers. {where(rule)}"),
        "key_enum": keys,
        "value_enum": values.name,
        "function": function,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Throws RuleInputError "
            "unless exposure maps every location to an exposure."
        ),
        "roll_dice": f"{table.rolls.function.upper()}_DICE",
        "by_roll": private_constant(table.id, "by_roll"),
        "covered": f"{values.name}.{rule.covered.name}",
        "half": f"{values.name}.{rule.half.name}",
        "check_name": f"{rule.function.upper()}_CHECK",
        "check": js(rule.check),
        "low": js(rule.strikes_from),
        "high": js(rule.strikes_to),
    }
