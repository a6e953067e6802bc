"""Decision lowering: a decision's cases as a core procedure, each case a test that ends it with an answer or a refusal.

Its names (``let``) are bound before the cases; one that rolls has the exact
odds of its value, or of the field ``odds`` names. One that collects adds
each answer whose test holds to the list it answers; one whose cases are
proved unique says so on its page. One that repeats takes its turns (the
core's ``Turns``) before the cases, which read the state as it ended and the
count of turns. Follow-up methods are methods of the answer's record.
"""

from __future__ import annotations

from typing import Any

from ...core.docs import ref
from ...core.ir import (
    Bind,
    Carried,
    Emit,
    Enum,
    If,
    Label,
    Make,
    Method,
    Part,
    Procedure,
    Record,
    Refuse,
    Renew,
    Return,
    Stmt,
    Turns,
    Unit,
    Written,
)
from ...core.viewkit import where_doc
from ...front.model import (
    Column,
    System,
)
from ...lang.nodes import Checked
from ...odds.fields import requested
from .model import TURNS, DecisionCase, DecisionRule, FollowUp, Repeat, Slot


def lower(system: System, rule: DecisionRule) -> Unit:
    """The answer's sets of labels and record, and the procedure: each case
    in order a test leading to its answer (or refusal), the last the answer
    where none held."""
    where = where_doc(rule)
    decls: list[Any] = [
        Enum(e, f"The answers of rule ``{rule.qualified_id}``")
        for e in rule.owned_enums
    ]
    keys = rule.key_enum if rule.shape == "mapping" else None
    item: str | Column
    extern: tuple[Record, ...] = ()
    if rule.shape == "fields":
        assert rule.result is not None
        item = rule.result
        record = Record(
            rule.result,
            f"What {ref(rule.function)} answers. {where}",
            tuple(_column(s) for s in rule.slots),
            tuple(_method(system, rule, m) for m in rule.methods),
        )
        if rule.owns_result:
            decls.append(record)
        else:  # a record type another rule declares
            extern = (record,)
    else:  # one value, or one for each key: the same column
        item = _column(rule.slots[0])
    collects = rule.hit_policy == "collect"
    body: list[Stmt] = []
    for case in rule.cases:
        end = _end(rule, case, collects)
        if case.when is None or case.when_text == "true":
            body.append(end)
            if not collects:
                break
        else:
            body.append(If(case.when, (end,)))
    decls.append(
        Procedure(
            name=rule.function,
            params=rule.params,
            locals=(),
            body=tuple(body),
            answer="found" if collects else None,
            item=item,
            doc=f"{rule.title}.\n\n{rule.summary}",
            origin=where,
            rule_id=rule.qualified_id,
            answer_doc="",
            keys=keys,
            binds=tuple(
                Bind(let.name, let.checked, let.description) for let in rule.lets
            ),
            guards=tuple(
                (g.before, _guard(rule, g.case, collects)) for g in rule.guards
            ),
            odds=rule.odds,
            depth=rule.depth_checked,
            odds_name=rule.odds_name,
            odds_fields=rule.odds_of,
            joint=rule.joint,
            field_odds=tuple(requested(system, rule.function)) if rule.rolls else (),
            exclusive=rule.hit_policy == "unique",
            turns=turns_of(rule.repeat) if rule.repeat is not None else None,
        )
    )
    # the rules its methods call: its JavaScript waits for theirs
    needs = tuple(f"{system.id}.{m.rule}" for m in rule.methods)
    return Unit(tuple(decls), rule.function, needs=needs, extern=extern)


def _method(system: System, rule: DecisionRule, method: FollowUp) -> Method:
    """A follow-up: a method of the answer calling a rule that rolls, with
    this call's values."""
    rolls = dict(system.rolls)[method.rule]  # the kind's finish checked it has one
    given = dict(method.args)
    params = {p.name: p for p in rule.params}
    return Method(
        name=method.name,
        function=rolls.function,
        returns=rolls.returns,
        args=tuple((name, params[given[name]]) for name in rolls.params),
        only_if=method.only_if,
        refuse=method.refuse or f"{method.name} does not apply to this answer",
        doc=f"{method.description} Calls {ref(rolls.function)}.",
        rng_at=rolls.rng_at,
    )


def turns_of(repeat: Repeat) -> Turns:
    """A decision's repeated turn: its state, its names, its new values as
    kept and as written, and its ending, the cases reading ``turns``."""
    return Turns(
        state=tuple(
            Carried(
                v.name,
                v.type,
                v.start,
                v.min,
                v.max,
                v.enum,
                v.items,
                v.description,
                v.record,
            )
            for v in repeat.state
        ),
        binds=tuple(
            Bind(let.name, let.checked, let.description) for let in repeat.lets
        ),
        sets=tuple(Renew(s.name, s.clamped, s.checked) for s in repeat.sets),
        until=repeat.until,
        most=repeat.max_turns,
        counter=TURNS,
    )


def _column(slot: Slot) -> Column:
    """A part of the answer as a column of the core."""
    return Column(
        slot.name,
        "choice" if slot.enum is not None and slot.type != "list" else slot.type,
        slot.nullable,
        slot.null_label,
        slot.signed,
        slot.unit,
        slot.title,
        slot.description,
        slot.enum.name if slot.enum is not None else None,
        slot.items,
        slot.record,
        slot.lo,
        slot.hi,
        slot.min_items,
        slot.max_items,
    )


def _end(
    rule: DecisionRule, case: DecisionCase, collects: bool
) -> Return | Emit | Refuse:
    """What a case does where its test holds: answers (or, where the decision
    collects, adds its answer to the list), or refuses the call."""
    if case.refuse is not None:
        return Refuse(case.refuse)
    values = dict(case.values or ())
    parts = tuple(_part(s, values[s.name]) for s in rule.slots)
    made = parts[0] if rule.shape == "value" else Make(parts)
    return Emit(made) if collects else Return(made)


def _guard(rule: DecisionRule, case: DecisionCase, collects: bool) -> If:
    """A guard among the names: its test, ending the call where it holds."""
    assert case.when is not None  # (a guard's condition built, or it was left out)
    return If(case.when, (_end(rule, case, collects),))


def _part(slot: Slot, value: tuple[str, Any]) -> Part:
    """A value of a case: as the rules write it, a label of the slot's set,
    or an expression."""
    kind, item = value
    if kind == "literal":
        return Written(item)
    if kind == "member":
        assert slot.enum is not None
        return Label(slot.enum, item.label)
    assert isinstance(item, Checked)
    return item
