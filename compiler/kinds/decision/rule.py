"""decision: a rule decided by cases, first match wins.

A decision answers a record (``result`` and ``fields``), a single ``value``, or a
``mapping`` from the members of an enum to values. Each case has a ``when``
condition and either the answer (``then``: literals of the slot's type, or
expressions of the formula language, which may read the system's tables, e.g.
``cover(level).cover_ac``) or ``refuse``: the input is outside the rule, and the
text says why. The last case must be ``when: "true"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ... import expr
from ...emit.math_text import let_view
from ...emit.python_code import ODDS, ROLLING, odds_view, python_syntax, with_rng
from ...expr_math import to_latex
from ...expr_odds import bind_lets
from ...expr_words import to_words, value_words
from ...kinds.decision import lists
from ...kinds.decision.ending import TooLarge, never_ends
from ...kinds.decision.model import (
    TURNS,
    DecisionCase,
    DecisionRule,
    FollowUp,
    Repeat,
    Slot,
    StateValue,
)
from ...kinds.decision.repeat import RepeatBuilder
from ...kinds.decision.repeat_docs import repeat_docs, repeat_nodes
from ...kinds.decision.turns import Target, followed, loop_lines, relevant
from ...kinds.decision.turns import odds_code as turns_odds
from ...kinds.formula.model import Let
from ...kinds.table.model import TableRule
from ...literals import code, docstring, md, md_cell, py
from ...model import EnumType, Param, System
from ...naming import private_constant
from ...runtime.dice import Dice
from ...scope import param_spec, slot_field
from ...viewkit import (
    Reads,
    View,
    all_enums,
    api,
    args_doc,
    enum_imports,
    enum_view,
    inputs,
    local_name,
    param_imports,
    param_view,
    signature,
    where_doc,
)

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder

_EXPR_TYPES: dict[str, expr.ValueType] = {
    "int": "int",
    "bool": "bool",
    "text": "text",
    "choice": "choice",
    "dice": "dice",
}
_PY_TYPES = {"int": "int", "bool": "bool", "text": "str"}
_SLOT_TYPES = {**_PY_TYPES, "dice": "Dice"}
# A dice slot's value written as notation (2d6, 1d4+1, 3): a literal, not an expression.
_DICE_TEXT = re.compile(r"[0-9]*d[0-9]+([x*][0-9]+)?([+-][0-9]+)?|[0-9]+", re.ASCII)


class _Builder:
    """Builds one decision rule (kept in an object: many small steps share state)."""

    def __init__(
        self, b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]
    ) -> None:
        self.b, self.src, self.path, self.raw = b, src, path, raw
        self.specs: dict[str, expr.Param] = {}
        self.params: list[Param] = []
        self.tables = b.expression_scope()[0]
        self.owned: list[EnumType] = []
        self.given: expr.Node | None = None  # the condition of the case being built

    def err(
        self, path: Path, message: str, hint: str | None = None, *, key: bool = False
    ) -> None:
        self.b.err(self.src, path, message, hint, key=key)

    def parameters(self) -> None:
        self.b.param_order(self.src, self.path, self.raw["parameters"])
        for index, p in enumerate(self.raw["parameters"]):
            param = self.b.param(
                self.src, (*self.path, "parameters", index), p, self.specs
            )
            if param is not None:
                self.params.append(param)
                self.specs[param.name] = param_spec(param)
            else:
                self.b.failed.add(p["name"])  # uses of it are not reported again

    def slot_type(
        self, path: Path, raw: dict[str, Any], what: str = "a list field"
    ) -> tuple[Any, EnumType | None]:
        kind = raw["type"]
        for key, message, hint in lists.declaration_problems(raw, what):
            self.err((*path, key), message, hint, key=key != "type")
        if kind != "choice":
            if "enum" in raw or "members" in raw:
                self.err(path, f"only a choice has an enum, not {kind}")
            return kind, None
        if "enum" not in raw:
            self.err(path, "a choice needs 'enum' (with 'members' to define it here)")
            return kind, None
        if "members" in raw:
            enum = self.b.enum(self.src, path, raw["enum"], raw["members"], False)
            self.owned.append(enum)
            return kind, enum
        return kind, self.b.find_enum(self.src, (*path, "enum"), raw["enum"])

    def slots(self) -> tuple[Any, list[Slot], EnumType | None]:
        """The answer's shape and slots: record fields, one value, or mapping keys."""
        raw = self.raw
        shapes = [s for s in ("fields", "value", "mapping") if s in raw]
        if len(shapes) != 1:
            self.err(
                self.path,
                "a decision answers exactly one of 'fields' (with 'result'), 'value' or 'mapping'",
            )
            return None, [], None
        shape = shapes[0]
        if shape != "fields" and "result" in raw:
            self.err(
                (*self.path, "result"),
                f"'result' names the class of a decision's fields; this one answers {shape!r}",
                "remove 'result', or answer with 'fields'",
                key=True,
            )
        if shape == "fields":
            if "result" not in raw:
                self.err(
                    self.path, "a decision with fields needs 'result', its class name"
                )
            else:
                self.b.claim(
                    self.src, (*self.path, "result"), raw["result"], "result class"
                )
            slots = []
            for index, f in enumerate(raw["fields"]):
                fpath = (*self.path, "fields", index)
                kind, enum = self.slot_type(fpath, f)
                self.b.local_name(self.src, (*fpath, "name"), f["name"], "field name")
                slots.append(
                    Slot(
                        f["name"],
                        f["title"],
                        kind,
                        f.get("nullable", False),
                        enum,
                        f.get("null_label", "—"),
                        f.get("description"),
                        None,
                        f.get("items") if kind == "list" else None,
                    )
                )
            return shape, slots, None
        if shape == "value":
            v = raw["value"]
            kind, enum = self.slot_type((*self.path, "value"), v)
            return (
                shape,
                [
                    Slot(
                        "value",
                        v.get("title", "Answer"),
                        kind,
                        v.get("nullable", False),
                        enum,
                        v.get("null_label", "—"),
                        v.get("description"),
                        None,
                    )
                ],
                None,
            )
        m = raw["mapping"]
        key = self.b.find_enum(self.src, (*self.path, "mapping", "key"), m["key"])
        kind, enum = self.slot_type((*self.path, "mapping", "value"), m["value"])
        if key is None:
            return shape, [], None
        nullable = m["value"].get("nullable", False)
        return (
            shape,
            [
                Slot(
                    member.label, member.label, kind, nullable, enum, "—", None, member
                )
                for member in key.members
            ],
            key,
        )

    def compile(
        self, path: Path, text: str, given: expr.Node | None = None
    ) -> expr.Checked | None:
        return self.b.compile_expression(
            self.src,
            path,
            text,
            self.specs,
            "expression",
            given=given,
            skip_failed=True,
        )[1]

    def value(self, path: Path, value: Any, slot: Slot) -> tuple[str, Any]:
        """A slot's value: a literal of its type, or (a string) an expression."""
        if value is None:
            if not slot.nullable:
                self.err(path, f"{slot.name!r} cannot be null")
            return ("literal", None)
        if slot.type == "list":
            return self.list_value(path, value, slot)
        if slot.type == "text" and isinstance(value, str):
            return ("literal", value)
        if slot.type == "choice" and slot.enum is None:
            return ("literal", None)  # its enum failed to build: already reported
        if slot.type == "dice" and (
            (
                isinstance(value, int | dict)
                and not isinstance(value, bool)
                and (not isinstance(value, dict) or "dice" in value)
            )
            or (isinstance(value, str) and _DICE_TEXT.fullmatch(value))
        ):
            raw_dice = value["dice"] if isinstance(value, dict) else value
            unit = value.get("unit") if isinstance(value, dict) else None
            dice = self.b.dice(self.src, path, raw_dice, unit)
            return ("literal", dice)
        if slot.type == "choice" and isinstance(value, str) and slot.enum is not None:
            labels = {m.label: m for m in slot.enum.members}
            if value in labels:
                return ("member", labels[value])
        if isinstance(value, dict):
            value = value.get("expr", "")
        if not isinstance(value, str):
            expected = {"int": int, "bool": bool}.get(slot.type)
            if type(value) is not expected:
                self.err(path, f"{slot.name!r} holds {slot.type} values, not {value!r}")
            return ("literal", value)
        checked = self.compile(path, value, self.given)
        if checked is not None and slot.enum is not None and checked.type == "text":
            checked = as_choice(checked, slot.enum) or checked
        if checked is not None and (problem := expr.fits(checked, slot_field(slot))):
            self.err(path, f"{slot.name!r}: the expression {problem}")
        return ("expr", checked)

    def list_value(self, path: Path, value: Any, slot: Slot) -> tuple[str, Any]:
        """A list field's value: an expression of a list of its elements' type."""
        if not isinstance(value, str):
            self.err(path, *lists.literal_problem(slot, value))
            return ("literal", None)
        checked = self.compile(path, value, self.given)
        if checked is not None and slot.items is not None:  # else already reported
            problem = lists.value_problem(checked, slot)
            if problem is not None:
                self.err(path, *problem)
        return ("expr", checked)

    def cases(
        self, shape: str, slots: list[Slot], defaults: dict[str, Any]
    ) -> list[DecisionCase]:
        cases = []
        for index, case in enumerate(self.raw["cases"]):
            cpath = (*self.path, "cases", index)
            when = self.compile(
                (*cpath, "when"),
                str(case["when"]).lower()
                if isinstance(case["when"], bool)
                else str(case["when"]),
            )
            if when is not None and (when.type != "bool" or when.nullable):
                shown = when.type + ("?" if when.nullable else "")
                self.err((*cpath, "when"), f"a condition must be a bool, not {shown}")
            if ("then" in case) == ("refuse" in case):
                self.err(cpath, "a case needs exactly one of 'then' and 'refuse'")
                continue
            # A case's answer is computed only where its condition holds.
            self.given = when.node if when is not None else None
            values = (
                None
                if "refuse" in case
                else self.case_values(cpath, shape, slots, defaults, case["then"])
            )
            self.given = None
            cases.append(
                DecisionCase(
                    _when_text(case["when"]),
                    when,
                    values,
                    case.get("refuse"),
                    self.b.loc(self.src, cpath),
                )
            )
        policy = self.raw.get("hit_policy", "first")
        if policy == "first" and cases and cases[-1].when_text != "true":
            self.err(
                (*self.path, "cases", len(self.raw["cases"]) - 1, "when"),
                'the last case must be when: "true", so every call has an answer',
            )
        return cases

    def methods(self, shape: str) -> list[FollowUp]:
        """Follow-up methods of the answer, bound to this call's arguments."""
        found = []
        names = {p.name for p in self.params}
        seen: dict[str, int] = {}
        for index, m in enumerate(self.raw.get("methods", [])):
            mpath = (*self.path, "methods", index)
            if shape != "fields":
                self.err(
                    mpath, "only a decision answering fields (a record) has methods"
                )
                continue
            if m["name"] in seen:
                at = (*self.path, "methods", seen[m["name"]], "name")
                first = self.b.first_at(self.src, self.src, at, (*mpath, "name"))
                self.err((*mpath, "name"), f"duplicate method {m['name']!r} ({first})")
                continue
            seen[m["name"]] = index
            # a member of the answer's class in both languages, checked as one
            self.b.local_name(self.src, (*mpath, "name"), m["name"], "method name")
            for target, source in m["args"].items():
                if source not in names:
                    self.err(
                        (*mpath, "args", target),
                        f"{source!r} is not a parameter of this rule",
                        "parameters: " + ", ".join(sorted(names)),
                    )
            only_if = (
                self.compile((*mpath, "only_if"), m["only_if"])
                if "only_if" in m
                else None
            )
            if only_if is not None and (only_if.type != "bool" or only_if.nullable):
                self.err((*mpath, "only_if"), "only_if must be a bool")
            found.append(
                FollowUp(
                    m["name"],
                    m["rule"],
                    tuple(m["args"].items()),
                    only_if,
                    m.get("refuse", ""),
                    m["description"],
                    self.b.loc(self.src, mpath),
                )
            )
        return found

    def case_values(
        self,
        cpath: Path,
        shape: str,
        slots: list[Slot],
        defaults: dict[str, Any],
        then: Any,
    ) -> tuple[tuple[str, Any], ...]:
        if shape == "value":
            return (("value", self.value((*cpath, "then"), then, slots[0])),)
        if not isinstance(then, dict):
            self.err(
                (*cpath, "then"),
                "give the answer as a mapping of "
                + ("fields" if shape == "fields" else "keys")
                + " to values",
            )
            return ()
        values: dict[str, Any] = dict(defaults)
        names = {s.name: s for s in slots}
        for name, value in then.items():
            if name not in names:
                what = "field" if shape == "fields" else "key"
                self.err(
                    (*cpath, "then", name),
                    f"no {what} {name!r}",
                    f"{what}s: " + ", ".join(names),
                    key=True,
                )
                continue
            values[name] = self.value((*cpath, "then", name), value, names[name])
        for s in slots:
            if s.name not in values:
                self.err(
                    (*cpath, "then"),
                    f"this case gives no {s.name!r}, and it has no default",
                    f"add '{s.name}:' to the case"
                    + (", or a default to the field" if shape == "fields" else ""),
                    key=True,
                )
        return tuple((s.name, values.get(s.name)) for s in slots)


def as_choice(checked: expr.Checked, enum: EnumType) -> expr.Checked | None:
    """A text expression whose every possible answer is a label of ``enum``,
    read as a choice of it (``"half" if two_handed else "covered"``); else None."""
    labels = {m.label for m in enum.members}

    def convert(node: expr.Node) -> expr.Node | None:
        if isinstance(node, expr.StrLit):
            return replace(node, enum=enum.name) if node.value in labels else None
        if isinstance(node, expr.Cond):
            body, orelse = convert(node.body), convert(node.orelse)
            return (
                None
                if body is None or orelse is None
                else replace(node, body=body, orelse=orelse)
            )
        return None

    node = convert(checked.node)
    if node is None:
        return None
    return replace(
        checked,
        node=node,
        type="choice",
        enum=enum.name,
        choices=tuple(m.label for m in enum.members),
    )


def _when_text(when: Any) -> str:
    return str(when).lower() if isinstance(when, bool) else str(when).strip()


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> DecisionRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    d = _Builder(b, src, path, raw)
    d.parameters()
    lets, d.specs = b.lets(src, path, raw.get("let", []), d.specs)
    repeat = None
    if "repeat" in raw:
        turns = RepeatBuilder(b, src, path, raw, d.specs, d.slot_type)
        repeat, d.specs = turns.build()
        if not turns.ok:
            return None
    shape, slots, key_enum = d.slots()
    if shape is None or lets is None:  # no answer to check the cases against
        return None
    defaults = {
        f["name"]: d.value((*path, "fields", i, "default"), f["default"], slot)
        for i, (f, slot) in enumerate(zip(raw.get("fields", []), slots, strict=False))
        if "default" in f
    }
    reported = len(b.errors)
    cases = d.cases(shape, slots, defaults)
    methods = d.methods(shape)
    if raw.get("hit_policy") == "collect" and methods:
        b.err(
            src,
            (*path, "methods"),
            "a decision that collects answers a list: its answers have no methods",
            key=True,
        )
    if raw.get("hit_policy") == "unique":
        _prove_unique(b, src, path, d.params, cases, lets)
    if len(b.errors) == reported:  # else an expression that reads one failed
        b.unused_lets(src, path, raw, lets, nodes_of(cases, methods))
    turn_lets = repeat.lets if repeat is not None else ()
    odds = _odds_slot(b, src, path, raw, slots, lets + turn_lets)
    if repeat is not None:
        _prove_ending(b, src, path, d.params, repeat)
        if odds is not None and not _odds_chain(b, src, path, raw, cases, odds, repeat):
            odds = None
    examples = b.examples(
        src, path, raw, {p["name"] for p in raw["parameters"]}, roll_columns=set()
    )
    built = DecisionRule(
        **common,
        examples=examples,
        function=raw["function"],
        shape=shape,
        result=raw.get("result"),
        params=tuple(d.params),
        slots=tuple(slots),
        key_enum=key_enum,
        owned_enums=tuple(d.owned),
        cases=tuple(cases),
        methods=tuple(methods),
        hit_policy=raw.get("hit_policy", "first"),
        lets=lets,
        odds=odds,
        repeat=repeat,
    )
    if repeat is not None and odds is not None and _unbounded(b, src, path, raw, built):
        built = replace(built, odds=None)
    return built


def _unbounded(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    rule: DecisionRule,
) -> bool:
    """Whether the odds would follow a number of the state without both bounds
    (its chain is not finite: max_turns only cuts it), or a list of the state
    without max_turns (it may grow without end), so there are no exact odds to
    give; where the rule asks for them with ``odds``, a located error."""
    assert rule.repeat is not None
    bounded = rule.repeat.max_turns is not None
    state, _ = relevant(rule)
    loose = next(
        (
            v
            for v in state
            if (v.type == "int" and (v.min is None or v.max is None))
            or (v.type == "list" and not bounded)
        ),
        None,
    )
    if loose is None:
        return False
    if "odds" in raw:
        what = "a number of the state without a min and a max"
        hint = f"give {loose.name!r} a min and a max"
        if loose.type == "list":
            what = "a list of the state, and the turns have no max_turns"
            hint = "give repeat a max_turns"
        b.err(
            src,
            (*path, "odds"),
            f"the odds of {rule.odds!r} follow {loose.name!r}, {what}: "
            "its chain of chances has no end",
            f"{hint}, or remove 'odds'",
            key=True,
        )
    return True


def odds_reads(rule: DecisionRule) -> list[expr.Node]:
    """The expressions the odds field's value follows from: which case holds,
    and the field's value in each. (Grouping rolls by what these read is
    exact: another field's value is worked out for one roll of each group, a
    roll the rule can make, and never read.)"""
    found = [c.when.node for c in rule.cases if c.when is not None]
    for case in rule.cases:
        kind, item = dict(case.values or ()).get(str(rule.odds), (None, None))
        found += [item.node] if kind == "expr" and item else []
    return found


def nodes_of(
    cases: Sequence[DecisionCase], methods: Sequence[FollowUp]
) -> list[expr.Node]:
    """The expressions of a decision's cases and methods, in order."""
    found = []
    for case in cases:
        found += [case.when] if case.when is not None else []
        found += [v for _, (k, v) in case.values or () if k == "expr" and v]
    found += [m.only_if for m in methods if m.only_if is not None]
    return [c.node for c in found]


_ODDS_TYPES = ("int", "bool", "choice")


def _odds_slot(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    slots: list[Slot],
    lets: tuple[Let, ...],
) -> str | None:
    """The slot a rolling decision's odds function answers the chances of: its
    one value, or the field ``odds`` names; None for a decision with none."""
    rolls = any(expr.dice_in(let.checked.node) is not None for let in lets)
    collect = raw.get("hit_policy") == "collect"
    if "odds" not in raw:
        value = slots[0] if "value" in raw and slots else None
        fits = value is not None and value.type in _ODDS_TYPES and not value.nullable
        return "value" if rolls and fits and not collect else None
    at = (*path, "odds")
    if "fields" not in raw:
        b.err(
            src,
            at,
            "'odds' names a field of the answer: this decision has no fields",
            "remove 'odds' (a decision answering one value has odds of it)",
            key=True,
        )
        return None
    if collect:
        b.err(
            src,
            at,
            "a decision that collects answers a list: it has no odds",
            "remove 'odds'",
            key=True,
        )
        return None
    if not rolls:
        b.err(
            src,
            at,
            "this decision rolls no dice: it has no odds",
            "roll the dice in a let, or remove 'odds'",
            key=True,
        )
        return None
    names = {s.name: s for s in slots}
    slot = names.get(raw["odds"])
    if slot is None:
        b.err(src, at, f"no field {raw['odds']!r}", "fields: " + ", ".join(names))
        return None
    if slot.type not in _ODDS_TYPES or slot.nullable:
        shown = f"a list of {slot.items}" if slot.type == "list" else slot.type
        shown += " that may be null" if slot.nullable else ""
        b.err(
            src,
            at,
            f"field {slot.name!r} is {shown}: its odds are not worked out",
            "name a number, a flag or a label that is never null",
        )
        return None
    return slot.name


def _prove_ending(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    params: list[Param],
    repeat: Repeat,
) -> None:
    """A repeating decision without ``max_turns`` must be proved to end: over
    the state the ending reads, directly or through the turn (a value read by
    neither, such as a list the turn only grows, has no part in it)."""
    if repeat.max_turns is not None:
        return
    at = (*path, "repeat")
    state, needed = followed(repeat, [repeat.until.node])
    hint = "give repeat a max_turns, or make the ending reachable from every state"
    endless = next((v for v in state if not v.finite), None)
    if endless is not None:
        index = [v.name for v in repeat.state].index(endless.name)
        b.err(src, (*at, "state", index, "name"), *_endless(endless))
        return
    names = {v.name for v in state}
    repeat = replace(
        repeat,
        state=tuple(state),
        lets=tuple(let for let in repeat.lets if let.name in needed),
        sets=tuple(s for s in repeat.sets if s.name in names),
    )
    nodes = [v.start.node for v in state] + [let.checked.node for let in repeat.lets]
    nodes += [s.clamped.node for s in repeat.sets] + [repeat.until.node]
    inputs = _inputs(params)
    if inputs is None or any(expr.rules_called(n) for n in nodes):
        why = (
            "its parameters take too many values to try each"
            if inputs is None
            else "it calls another rule"
        )
        b.err(src, at, f"the turns cannot be proved to end: {why}", hint)
        return
    try:
        problem = never_ends(
            params, inputs, state, repeat, b.rounding, _table_values(b)
        )
    except TooLarge:
        problem = "there are too many states and rolls to search (a limit of the tool)"
        b.err(src, at, f"the turns cannot be proved to end: {problem}", hint)
        return
    if problem is not None:
        b.err(src, at, f"the turns may never end: {problem}", hint)


def _endless(value: StateValue) -> tuple[str, str]:
    """Why a value the ending reads keeps the turns from being proved to end,
    and the hint."""
    if value.type == "list":
        return (
            f"state value {value.name!r} is a list the ending reads, directly or "
            "through the turn: it may grow without end, and the turns cannot be "
            "proved to end",
            "give repeat a max_turns",
        )
    side = "min" if value.min is None else "max"
    return (
        f"state value {value.name!r} has no {side}: the turns cannot be proved to end",
        "give it min and max, or give repeat a max_turns",
    )


def _odds_chain(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    cases: list[DecisionCase],
    odds: str,
    repeat: Repeat,
) -> bool:
    """The odds of a repeating decision are an absorbing chain's: a field read
    with the count of turns needs max_turns (else the chain has no end)."""
    if repeat.max_turns is not None:
        return True
    reads: set[str] = set()
    for case in cases:
        if case.when is not None:
            reads |= expr.names_used(case.when.node)
        kind, item = dict(case.values or ()).get(odds, ("literal", None))
        if kind == "expr" and item is not None:
            reads |= expr.names_used(item.node)
    if TURNS not in reads:
        return True
    b.err(
        src,
        (*path, "odds") if "odds" in raw else (*path, "repeat"),
        f"the odds of {odds!r} read '{TURNS}', which has no end without max_turns",
        "give repeat a max_turns (the odds then follow every turn up to it)",
        key="odds" in raw,
    )
    return False


def finish(b: SystemBuilder, rules: Sequence[Any]) -> None:
    """Check follow-up methods once every rule is built (they may refer forward):
    each calls a rule that rolls dice, with an argument for each of its parameters."""
    from ...diagnostics import Diagnostic

    by_id = {r.id: r for r in rules}
    for rule in rules:
        if not isinstance(rule, DecisionRule):
            continue
        for method in rule.methods:
            target = by_id.get(method.rule)
            where = (method.loc.file, method.loc.line, method.loc.col)
            rolls = b.kinds[target.kind].rolls(target) if target is not None else None
            if rolls is None:
                rolling = sorted(r.id for r in rules if b.kinds[r.kind].rolls(r))
                b.errors.append(
                    Diagnostic(
                        *where,
                        f"method {method.name!r}: {method.rule!r} is not a rule of "
                        "this system with a function that rolls dice",
                        "rules that roll: " + (", ".join(rolling) or "none"),
                    )
                )
            elif {a for a, _ in method.args} != set(rolls.params):
                b.errors.append(
                    Diagnostic(
                        *where,
                        f"method {method.name!r}: {method.rule!r} takes exactly: "
                        + (", ".join(rolls.params) or "no arguments"),
                        "give args: {"
                        + ", ".join(f"{n}: <a parameter>" for n in rolls.params)
                        + "}",
                    )
                )


# -- views ----------------------------------------------------------------------


def slot_type(slot: Slot) -> str:
    if slot.type == "list":
        return lists.python_type(slot)
    base = slot.enum.name if slot.enum is not None else _SLOT_TYPES[slot.type]
    return f"{base} | None" if slot.nullable else base


def _returns(rule: DecisionRule) -> str:
    one = _returns_one(rule)
    return f"list[{one}]" if rule.hit_policy == "collect" else one


def _returns_one(rule: DecisionRule) -> str:
    if rule.shape == "fields":
        return str(rule.result)
    if rule.shape == "value":
        return slot_type(rule.slots[0])
    assert rule.key_enum is not None
    return f"dict[{rule.key_enum.name}, {slot_type(rule.slots[0])}]"


def _emitter(system: System, rule: DecisionRule) -> Callable[[tuple[str, Any]], str]:
    rows = {
        t.function: private_constant(t.id, "rows")
        for t in system.rules
        if isinstance(t, TableRule)
    }
    enums = {e.name: e for e in all_enums(system)}
    counter: Iterator[int] = iter(range(1, 10_000))

    def emit(value: tuple[str, Any]) -> str:
        kind, item = value
        if kind == "literal":
            return py(item)
        if kind == "member":
            return f"{rule.slot_enum(item).name}.{item.name}"
        names = {p.name: local_name(p) for p in rule.params}
        text = expr.to_python(
            item if kind == "node" else item.node,
            name=lambda n: names.get(n, n),
            rounding=system.rounding,
            lookup=lambda table, key: f"{rows[table]}[{key}]",
            label=lambda enum, label: f"{enum}.{enums[enum].member(label).name}",
        )
        renames: dict[str, str] = {}

        def rename(match: re.Match[str]) -> str:
            if match.group() not in renames:
                renames[match.group()] = f"_t{next(counter)}"
            return renames[match.group()]

        return re.sub(r"\b_t\d+\b", rename, text)

    return emit


def _hidden(rule: DecisionRule) -> list[tuple[str, str, str]]:
    """The answer's hidden fields for its methods: (field, type, value in the body)."""
    params = {p.name: p for p in rule.params}
    found = []
    for method in rule.methods:
        for _, source in method.args:
            p = params[source]
            if p.type == "mapping" and p.enum and p.value_enum:
                kind = f"dict[{p.enum.name}, {p.value_enum.name}]"
            else:
                kind = p.enum.name if p.enum else p.type
            found.append((f"_{method.name}_{source}", kind, local_name(p)))
        found.append((f"_{method.name}_ok", "bool", f"_{method.name}_ok"))
    return found


def _answer(
    rule: DecisionRule, case: DecisionCase, emit: Callable[[tuple[str, Any]], str]
) -> str:
    text = _answer_one(rule, case, emit)
    if rule.hit_policy == "collect" and text.startswith("return "):
        return f"found.append({text.removeprefix('return ')})"
    return text


def _answer_one(
    rule: DecisionRule, case: DecisionCase, emit: Callable[[tuple[str, Any]], str]
) -> str:
    if case.refuse is not None:
        return f"raise RuleInputError({py(case.refuse)})"
    values = case.values or ()
    if rule.shape == "value":
        return f"return {emit(values[0][1])}"
    if rule.shape == "mapping":
        assert rule.key_enum is not None
        members = {m.label: m for m in rule.key_enum.members}
        items = ", ".join(
            f"{rule.key_enum.name}.{members[name].name}: {emit(v)}"
            for name, v in values
        )
        return f"return {{{items}}}"
    kinds = {s.name: s.type for s in rule.slots}
    fields = ", ".join(
        [
            f"{name}={lists.python_value(emit(v)) if kinds[name] == 'list' else emit(v)}"
            for name, v in values
        ]
        + [f"{name}={local}" for name, _, local in _hidden(rule)]
    )
    return f"return {rule.result}({fields})"


def python_view(system: System, rule: DecisionRule) -> View:
    params = [param_view(p, rule.qualified_id) for p in rule.params]
    emit = _emitter(system, rule)
    cases = []
    for case in rule.cases:
        last = case.when_text == "true" or case.when is None
        cases.append(
            {
                "test": None if last else emit(("expr", case.when)),
                "answer": _answer(rule, case, emit),
            }
        )
    owned = [
        *(p.enum for p in rule.params if p.enum is not None and p.owns_enum),
        *rule.owned_enums,
    ]
    imports = [
        *param_imports(rule.params),
        *(i for e in rule.owned_enums for i in enum_imports(e)),
    ]
    if rule.shape == "fields":
        imports += [("rulebook.json", "Record"), ("typing", "ClassVar")]
    checked = [c.when for c in rule.cases if c.when is not None] + [
        item for c in rule.cases for _, (kind, item) in c.values or () if kind == "expr"
    ]
    if any(expr.uses_steps(c.node) for c in checked if c is not None):
        imports.append(("rulebook._support", "step"))
    if any(s.type == "dice" for s in rule.slots):
        imports.append(("rulebook.dice", "Dice"))
    if any(c.refuse is not None for c in rule.cases) or rule.methods:
        imports.append(("rulebook.errors", "RuleInputError"))
    if rule.methods:
        imports += [("rulebook.dice", "RNG")]
    plain = signature(params, rule.params)
    private = _private_view(rule, emit)
    if private is not None:
        imports += private["imports"]
    if rule.rolls:
        imports += ROLLING
    odds = None
    if rule.odds is not None and private is not None:
        imports += ODDS
        odds = _odds_view(rule, emit, plain, private["call"] or "")
    return {
        "id": rule.qualified_id,
        "shape": rule.shape,
        "result": rule.result,
        "result_doc": docstring(
            f"What :func:`{rule.function}` answers. {where_doc(rule)}", "    "
        ),
        "fields": [
            {
                "name": s.name,
                "type": slot_type(s),
                "doc": docstring(s.description or s.title, "    "),
            }
            for s in rule.slots
        ],
        "function": rule.function,
        "params": params,
        "signature": with_rng(plain, rule.rolls),
        "rolls": rule.rolls,
        "private": private,
        "odds": odds,
        "returns": _returns(rule),
        "enums": [
            *(
                v["enum"]
                for v, p in zip(params, rule.params, strict=True)
                if "enum" in v and p.owns_enum
            ),
            *(
                enum_view(e, f"The answers of rule ``{rule.qualified_id}``")
                for e in rule.owned_enums
            ),
        ],
        "cases": cases,
        "collect": _returns_one(rule) if rule.hit_policy == "collect" else None,
        "hidden": [{"name": n, "type": t} for n, t, _ in _hidden(rule)],
        "methods": [_method_view(system, rule, m, emit) for m in rule.methods],
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}{args_doc(rule.params)}\n\n"
            f"{where_doc(rule)} Raises RuleInputError for arguments outside the rule.",
            "    ",
        ),
        "imports": imports,
        "exports": [
            rule.function,
            *([odds["function"]] if odds else []),
            *([rule.result] if rule.result else []),
            *(e.name for e in owned),
        ],
    }


def _private_view(
    rule: DecisionRule, emit: Callable[[tuple[str, Any]], str]
) -> View | None:
    """A decision with lets: the function binds them (in order, after checking
    its arguments) and calls a private one holding its cases, which takes the
    checked arguments and the names, typed."""
    if rule.repeat is not None:
        return _repeat_view(rule, emit)
    if not rule.lets:
        return None
    args = [(local_name(p), _checked_type(p)) for p in rule.params]
    args += [(let.name, _let_type(let)) for let in rule.lets]
    name = f"_{rule.function}"
    return {
        "function": name,
        "lets": [f"{let.name} = {emit(('expr', let.checked))}" for let in rule.lets],
        "signature": ", ".join(f"{n}: {t}" for n, t in args),
        "call": f"{name}({', '.join(n for n, _ in args)})",
        "imports": [("collections.abc", "Sequence")]
        if any(let.checked.type == "list" for let in rule.lets)
        else [],
    }


def _python_target(emit: Callable[[tuple[str, Any]], str]) -> Target:
    """How Python writes a repeating decision's loop."""
    return Target(
        emit=lambda node: emit(("node", node)),
        name=str,
        start="",
        declared=lambda v: (
            f"{v.name}: {lists.python_tuple(str(v.items))}"
            if v.type == "list"
            else v.name
        ),
        held=lambda v, code: lists.python_value(code) if v.type == "list" else code,
        bind="",
        end="",
        loop=lambda test: f"while not ({test}):",
        close=None,
        stop=lambda most: f"if {TURNS} == {most}:\n    break",
        count=f"{TURNS} = _chain.next_turn({TURNS})",
        assign=lambda names, values: f"{', '.join(names)} = {', '.join(values)}",
        tuple=lambda items: "(" + ", ".join(items) + ("," * (len(items) == 1)) + ")",
        nothing="None",
    )


def _repeat_view(rule: DecisionRule, emit: Callable[[tuple[str, Any]], str]) -> View:
    """A repeating decision: the function takes its turns, then calls a
    private one holding its cases, which takes the checked arguments, the
    state as it ended and the count of turns."""
    types = {"int": "int", "bool": "bool"}
    args = [(local_name(p), _checked_type(p)) for p in rule.params]
    args += [
        (
            v.name,
            lists.python_tuple(str(v.items))
            if v.type == "list"
            else v.enum.name
            if v.enum is not None
            else types[v.type],
        )
        for v in rule.state
    ]
    args.append((TURNS, "int"))
    name = f"_{rule.function}"
    call = f"{name}({', '.join(n for n, _ in args)})"
    return {
        "function": name,
        "lets": loop_lines(rule, _python_target(emit), call),
        "signature": ", ".join(f"{n}: {t}" for n, t in args),
        "call": None,
        "imports": [("rulebook", "_chain")]
        + (
            [("collections.abc", "Sequence")]
            if rule.repeat is not None
            and any(let.checked.type == "list" for let in rule.repeat.lets)
            else []
        ),
    }


def _checked_type(param: Param) -> str:
    """A parameter's type once checked (a choice its member, a mapping a dict)."""
    if param.type == "mapping":
        assert param.enum is not None and param.value_enum is not None
        return f"dict[{param.enum.name}, {param.value_enum.name}]"
    base = param.enum.name if param.enum is not None else param.type
    return f"{base} | None" if param.nullable else base


def _let_type(let: Let) -> str:
    """The Python type of a let's value (a pool's dice: a list, or in the odds
    function the sorted tuple of them)."""
    checked = let.checked
    kinds = {"int": "int", "bool": "bool"}
    if checked.type == "list":
        item = kinds.get(str(checked.item)) or checked.enum or "str"
        return f"Sequence[{item}]"
    base = kinds.get(checked.type) or checked.enum or "str"
    return f"{base} | None" if checked.nullable else base


def _odds_view(
    rule: DecisionRule,
    emit: Callable[[tuple[str, Any]], str],
    plain: str,
    call: str,
) -> View:
    """The odds function of a decision that rolls: the chances of its value or
    of the field ``odds`` names, each let followed into the cases."""
    syntax = python_syntax(lambda node: emit(("node", node)))
    read = "" if rule.shape == "value" else f".{rule.odds}"
    lets = [(let.name, let.checked.node) for let in rule.lets]
    if rule.repeat is not None:
        body = turns_odds(
            rule,
            syntax,
            _python_target(emit),
            emit,
            lambda args: f"_chain.absorbed({', '.join(args)})",
        )
    else:
        reads = odds_reads(rule)
        body = bind_lets(lets, syntax, syntax.call("const", [call + read]), reads)
    what = "" if rule.shape == "value" else f"'s {rule.odds}"
    view = odds_view(rule.function, plain, f"_odds.answer({body})", what)
    slot = next(s for s in rule.slots if s.name == rule.odds)
    return view | {"key": slot_type(slot)}


def _method_view(
    system: System,
    rule: DecisionRule,
    method: FollowUp,
    emit: Callable[[tuple[str, Any]], str],
) -> View:
    rolls = dict(system.rolls)[method.rule]  # finish checked it has one
    given = dict(method.args)
    args = "".join(f"self._{method.name}_{given[p]}, " for p in rolls.params)
    return {
        "name": method.name,
        "ok": f"_{method.name}_ok",
        "ok_value": "True"
        if method.only_if is None
        else emit(("expr", method.only_if)),
        "returns": rolls.returns,
        "call": f"{rolls.function}({args}rng)",
        "refuse": py(method.refuse or f"{method.name} does not apply to this answer"),
        "doc": docstring(
            f"{method.description} Calls :func:`{rolls.function}`.", "        "
        ),
    }


def docs_view(system: System, rule: DecisionRule, common: View) -> View:
    reads = Reads(system)

    def show(value: tuple[str, Any] | None, slot: Slot) -> str:
        if value is None:
            return " "
        kind, item = value
        if kind == "literal":
            if item is None:
                return md_cell(slot.null_label)
            if isinstance(item, bool):
                return "yes" if item else "no"
            if isinstance(item, Dice) and item.unit:
                return md_cell(f"{item} {item.unit}")
            return md_cell(str(item))
        if kind == "member":
            return md_cell(item.label)
        node, rounding = item.node, system.rounding
        if item.type == "int":
            return "$" + to_latex(node, rounding=rounding, field=reads.latex) + "$"
        if item.type == "bool":
            return to_words(
                node, rounding=rounding, field=reads.words, latex_field=reads.latex
            )
        return value_words(
            node, rounding=rounding, field=reads.words, latex_field=reads.latex
        )

    def when(case: DecisionCase) -> str:
        if case.when is None or case.when_text == "true":
            return "otherwise"
        return to_words(
            case.when.node,
            rounding=system.rounding,
            field=reads.words,
            latex_field=reads.latex,
        )

    def answer(case: DecisionCase, slot: Slot) -> str:
        if case.refuse is not None:
            return "refused: " + md_cell(case.refuse)
        return show(dict(case.values or ()).get(slot.name), slot)

    args = with_rng(
        signature([param_view(p, rule.qualified_id) for p in rule.params], rule.params),
        rule.rolls,
    )
    wide = len(rule.slots) > 6
    if wide:  # one row per slot, one column per case
        headers = [
            md_cell("Key" if rule.shape == "mapping" else "Answer"),
            *(when(c) for c in rule.cases),
        ]
        rows = [
            [md_cell(s.title), *(answer(c, s) for c in rule.cases)] for s in rule.slots
        ]
    else:
        headers = ["When", *(md_cell(s.title) for s in rule.slots)]
        rows = [[when(c), *(answer(c, s) for s in rule.slots)] for c in rule.cases]
    nodes = [c.when.node for c in rule.cases if c.when is not None] + [
        item.node
        for c in rule.cases
        for _, (kind, item) in c.values or ()
        if kind == "expr"
    ]
    nodes = [let.checked.node for let in rule.lets] + nodes
    repeat = None
    if rule.repeat is not None:
        repeat = repeat_docs(system, rule, reads)
        nodes = repeat_nodes(rule) + nodes
    return common | {
        "repeat": repeat,
        "lets": [let_view(system, let, reads) for let in rule.lets],
        "headers": headers,
        "rows": rows,
        "policy": _policy_text(rule.hit_policy, wide),
        "inputs": inputs(rule.params),
        "reads": reads.links(nodes, rule.id),
        "calls_rolling": reads.rolled(nodes),
        "meanings": [
            f"**{md(s.title)}**: {md(s.description)}"
            for s in rule.slots
            if s.description and rule.shape != "mapping"
        ],
        "api": api(
            common,
            f"Call: {code(f'{rule.function}({args}) -> {_returns(rule)}')}.",
            params=rule.params,
            fields=[
                {
                    "name": code(s.name),
                    "title": md_cell(s.title),
                    "type": code(slot_type(s)),
                    "description": md_cell(s.description or ""),
                }
                for s in rule.slots
                if rule.shape == "fields"
            ],
        ),
    }


def _policy_text(policy: str, wide: bool) -> str:
    """How the cases table is read, for its hit policy and its shape."""
    if policy == "collect":
        return (
            "Each column is a case; every case whose condition holds adds its "
            "answer, from left to right, to the list:"
            if wide
            else "Every row whose condition holds adds its answer to the list, in this order:"
        )
    if policy == "unique":
        return (
            "Each column is a case; at most one condition holds, and that case gives the answer:"
            if wide
            else "At most one row's condition holds, and that row gives the answer:"
        )
    return (
        "Each column is a case, tried from left to right; the first whose "
        "condition holds gives the answer:"
        if wide
        else "The first row whose condition holds gives the answer:"
    )


# Unique cases are proved not to overlap by trying every input, up to this many.
MAX_INPUTS = 20_000


def _inputs(params: list[Param]) -> list[list[Any]] | None:
    """Every value of each parameter, or None where one has too many to try."""
    values: list[list[Any]] = []
    count = 1
    for p in params:
        if p.type == "choice" and p.enum is not None:
            these: list[Any] = [m.label for m in p.enum.members]
            these += [None] if p.nullable else []
        elif p.type == "bool":
            these = [False, True]
        elif p.type == "int" and p.min is not None and p.max is not None:
            these = list(range(p.min, p.max + 1)) if p.max - p.min < MAX_INPUTS else []
        else:
            return None
        count *= max(len(these), 1)
        if not these or count > MAX_INPUTS:
            return None
        values.append(these)
    return values


def _table_values(b: SystemBuilder) -> dict[str, dict[str, dict[str, object]]]:
    found: dict[str, dict[str, dict[str, object]]] = {}
    for rule in b.built.values():
        if isinstance(rule, TableRule):
            found[rule.function] = {
                row.key.label: {
                    c.name: v for c, v in zip(rule.columns, row.cells, strict=True)
                }
                for row in rule.rows
            }
    return found


def _prove_unique(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    params: list[Param],
    cases: list[DecisionCase],
    lets: tuple[Let, ...],
) -> None:
    """Where the inputs are finite, no two cases of a unique decision may both match
    (not tried where a let rolls dice)."""
    import itertools

    values = _inputs(params)
    if any(expr.dice_in(let.checked.node) for let in lets):
        return
    tested = [(i, c) for i, c in enumerate(cases) if c.when is not None]
    if values is None or any(
        expr.rules_called(c.when.node) for _, c in tested if c.when
    ):
        return  # not finite, or calls a rule the build cannot run yet
    tables = _table_values(b)
    names = [p.name for p in params]
    reported: set[tuple[int, int]] = set()
    for combo in itertools.product(*values):
        env = dict(zip(names, combo, strict=True))
        for let in lets:
            env[let.name] = expr.evaluate(
                let.checked.node, env, rounding=b.rounding, tables=tables
            )
        shown = ", ".join(f"{k}={v!r}" for k, v in env.items() if k in names)
        matched = [
            i
            for i, c in tested
            if c.when is not None
            and expr.evaluate(c.when.node, env, rounding=b.rounding, tables=tables)
        ]
        for first, second in itertools.pairwise(matched[:2]):
            if (first, second) in reported:
                continue
            reported.add((first, second))
            b.err(
                src,
                (*path, "cases", second, "when"),
                f"cases {first + 1} and {second + 1} both match {shown or 'every call'}",
                "a unique decision lets at most one case match: narrow the conditions",
            )
