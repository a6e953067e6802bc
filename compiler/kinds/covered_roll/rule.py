"""covered_roll: roll a location on a table, then see whether cover takes the hit.

The location comes from a table's ``rolls``; a mapping of every location to its
exposure (as a decision rule answers it) says whether the location is covered
(the cover is struck), half exposed (a check roll decides), or exposed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kinds.covered_roll.model import CoveredRollRule
from ...kinds.decision.model import DecisionRule
from ...kinds.table.model import TableRule
from ...literals import code, docstring, py
from ...model import Rolls, System
from ...naming import private_constant
from ...viewkit import View, api, dice_stats, mapping_annotation, rule_link, where_doc

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
) -> CoveredRollRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "result"), raw["result"], "result class")
    table = b.reference(src, (*path, "table"), raw["table"], TableRule, "a table rule")
    exposure = b.reference(
        src, (*path, "exposure"), raw["exposure"], DecisionRule, "a decision rule"
    )
    check = raw["half_check"]
    dice = b.dice(src, (*path, "half_check", "dice"), check["dice"], None)
    low, high = check["strikes_cover"]
    if dice is not None and not dice.min <= low <= high <= dice.max:
        b.err(
            src,
            (*path, "half_check", "strikes_cover"),
            f"{low}-{high} is not a range of results of {dice}",
        )
    examples = b.examples(src, path, raw, {"exposure"}, roll_columns=set())
    if table is None or exposure is None or dice is None:
        return None
    if table.rolls is None:
        b.err(
            src,
            (*path, "table"),
            f"table {table.id!r} is not rolled on",
            "give it 'rolls'",
        )
        return None
    if (
        exposure.shape != "mapping"
        or exposure.key_enum != table.enum
        or exposure.slots[0].enum is None
    ):
        b.err(
            src,
            (*path, "exposure"),
            f"{exposure.id!r} must answer a mapping from {table.enum.name} to a choice",
        )
        return None
    value_enum = exposure.slots[0].enum
    members = {}
    for key in ("covered", "half"):
        found = [m for m in value_enum.members if m.label == raw[key]]
        if not found:
            b.err(
                src, (*path, key), f"{raw[key]!r} is not a label of {value_enum.name}"
            )
            return None
        members[key] = found[0]
    return CoveredRollRule(
        **common,
        examples=examples,
        function=raw["function"],
        result=raw["result"],
        table=table,
        value_enum=value_enum,
        covered=members["covered"],
        half=members["half"],
        check=dice,
        strikes_from=low,
        strikes_to=high,
    )


def python_view(system: System, rule: CoveredRollRule) -> View:
    table, values = rule.table, rule.value_enum
    assert table.rolls is not None
    keys = table.enum.name
    return {
        "id": rule.qualified_id,
        "result": rule.result,
        "result_doc": docstring(
            f"What :func:`{rule.function}` answers. {where_doc(rule)}", "    "
        ),
        "key_enum": keys,
        "function": rule.function,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Raises RuleInputError "
            "unless exposure maps every location to an exposure.",
            "    ",
        ),
        "coerce": (
            f"mapping({keys}, {private_constant(keys, 'by_label')}, {values.name}, "
            f"{private_constant(values.name, 'by_label')}, exposure, 'exposure')"
        ),
        "value_enum": values.name,
        "annotation": mapping_annotation(table.enum, values),
        "roll_dice": f"{table.rolls.function.upper()}_DICE",
        "by_roll": private_constant(table.id, "by_roll"),
        "covered": f"{values.name}.{rule.covered.name}",
        "half": f"{values.name}.{rule.half.name}",
        "check_name": f"{rule.function.upper()}_CHECK",
        "check": py(rule.check),
        "low": rule.strikes_from,
        "high": rule.strikes_to,
        "imports": [
            ("rulebook.json", "Record"),
            ("typing", "ClassVar"),
            ("typing", "Final"),
            ("rulebook._support", "LabelMapping"),
            ("rulebook._support", "mapping"),
            ("rulebook.dice", "Dice"),
            ("rulebook.dice", "RNG"),
        ],
        "exports": [rule.function, rule.result, f"{rule.function.upper()}_CHECK"],
    }


def docs_view(system: System, rule: CoveredRollRule, common: View) -> View:
    assert rule.table.rolls is not None
    return common | {
        "api": api(
            common,
            "Call: " + code(f"{rule.function}(exposure, rng) -> {rule.result}") + ".",
        ),
        "roll": code(str(rule.table.rolls.dice)),
        "table": rule_link(rule.table),
        "covered": code(rule.covered.label),
        "half": code(rule.half.label),
        "check": code(str(rule.check)),
        "strikes": f"{rule.strikes_from}-{rule.strikes_to}",
        "dice": [dice_stats(rule.table.rolls.dice), dice_stats(rule.check)],
    }


def rolls(rule: CoveredRollRule) -> Rolls:
    return Rolls(rule.function, ("exposure",), rule.result)
