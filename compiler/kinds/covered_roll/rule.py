"""covered_roll: roll a location on a table, then see whether cover takes the hit.

The location comes from a table's ``rolls``; a mapping of every location to its
exposure (as a decision rule answers it) says whether the location is covered
(the cover is struck), half exposed (a check roll decides), or exposed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ...core.docs import ref
from ...core.exprs import checked, notation
from ...core.ir import (
    Const,
    DiceShown,
    If,
    Local,
    Lookup,
    Make,
    Procedure,
    Prose,
    Record,
    Return,
    Set,
    Unit,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    Param,
    Rolls,
    System,
)
from ...kinds.covered_roll.model import CoveredRollRule
from ...kinds.decision.model import DecisionRule
from ...kinds.table.model import TableRule
from ...kinds.table.rule import roll_on
from ...lang.expr import Checked

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


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
        exposure_function=exposure.function,
        exposure_title=exposure.title,
        value_enum=value_enum,
        covered=members["covered"],
        half=members["half"],
        check=dice,
        strikes_from=low,
        strikes_to=high,
    )


def params(rule: CoveredRollRule) -> dict[str, Param]:
    """Its function's parameter: the exposure of every location."""
    exposure = Param(
        "exposure",
        "mapping",
        None,
        None,
        None,
        False,
        f"The exposure of every {rule.table.key_title.lower()}, as "
        f"\N{LEFT DOUBLE QUOTATION MARK}{rule.exposure_title}"
        "\N{RIGHT DOUBLE QUOTATION MARK} answers it.",
        rule.table.enum,
        owns_enum=False,
        value_enum=rule.value_enum,
    )
    return {"exposure": exposure}


def lower(system: System, rule: CoveredRollRule) -> Unit:
    """The check's dice as a constant, the answer as a record, and the roll as
    a procedure: the location from the table's roll, then by its exposure the
    cover, a check, or the target."""
    table = rule.table
    assert table.rolls is not None
    where = where_doc(rule)
    (exposure,) = params(rule).values()
    location_roll = roll_on(table)
    names = (
        Local("roll", table.rolls.dice.min, table.rolls.dice.max),
        Local("location", None, None, table.enum),
        Local("check", rule.check.min, rule.check.max),
    )

    def c(text: str, *texts: str) -> Checked:
        return checked(text, (exposure,), names, texts)

    def answer(strikes: str, check: str) -> Return:
        return Return(Make((c("location"), c(strikes), c("roll"), c(check))))

    low, high = rule.strikes_from, rule.strikes_to
    strikes = (
        f"check == {low}" if low == high else f"check >= {low} and check <= {high}"
    )
    body = (
        Set("roll", c(notation(table.rolls.dice))),
        Lookup("location", location_roll.name, location_roll.entries_name, c("roll")),
        If(
            c("exposure[location] == {0}", rule.covered.label),
            (answer("true", "null"),),
        ),
        If(
            c("exposure[location] == {0}", rule.half.label),
            (Set("check", c(notation(rule.check))), answer(strikes, "check")),
        ),
        answer("false", "null"),
    )
    key = table.key_title.lower()
    fields = (
        _field(
            "location",
            "choice",
            key.capitalize(),
            f"The {key} the roll hit.",
            enum=table.enum.name,
        ),
        _field(
            "strikes_cover",
            "bool",
            "Strikes cover",
            "Whether the shot strikes the cover instead of the target.",
        ),
        _field("roll", "int", "Roll", f"The {key} roll."),
        _field(
            "check",
            "int",
            "Check",
            f"The check roll where the {key}'s "
            f"exposure is {rule.half.label}; empty where none is rolled.",
            nullable=True,
        ),
    )
    fn = ref(rule.function)
    decls = (
        Const(
            f"{rule.function.upper()}_CHECK",
            "dice",
            rule.check,
            f"The check {fn} rolls where the {key}'s exposure is "
            f"{rule.half.label}. {where}",
        ),
        Record(rule.result, f"What {fn} answers. {where}", fields),
        Procedure(
            name=rule.function,
            params=(exposure,),
            locals=names,
            body=body,
            answer=None,
            item=rule.result,
            doc=f"{rule.title}.\n\n{rule.summary}",
            origin=where,
            rule_id=rule.qualified_id,
            answer_doc="",
        ),
    )
    said = (
        f"Roll ``{table.rolls.dice}`` on {ref(table.function)} for the "
        f"{table.key_title.lower()}. If the exposure says it is "
        f"``{rule.covered.label}``, the shot strikes the cover; if "
        f"``{rule.half.label}``, roll ``{rule.check}``: on {low}-{high} it "
        "strikes the cover, otherwise the target."
    )
    page = (Prose(said), DiceShown("", (table.rolls.dice, rule.check)))
    return Unit(decls, rule.function, page, needs=(table.qualified_id,))


def _field(
    name: str,
    type_: Literal["int", "bool", "choice"],
    title: str,
    description: str,
    *,
    enum: str | None = None,
    nullable: bool = False,
) -> Column:
    return Column(name, type_, nullable, "-", False, None, title, description, enum)


def rolls(rule: CoveredRollRule) -> Rolls:
    return Rolls(rule.function, ("exposure",), rule.result)
