"""decision: a rule decided by cases, first match wins.

A decision answers a record (``result`` and ``fields``), a single ``value``, or a
``mapping`` from the members of an enum to values. Each case has a ``when``
condition and either the answer (``then``: literals of the slot's type, or
expressions of the formula language, which may read the system's tables, e.g.
``cover(level).cover_ac``) or ``refuse``: the input is outside the rule, and the
text says why. The last case must be ``when: "true"``, except in a unique
decision, whose cases ``cover`` proves to answer every call once (there a last
``when: "true"`` is the fallback).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...common.limits import MAX_PROOF_WORK
from ...core.viewkit import rng_at
from ...front.declared import as_choice
from ...front.model import (
    EnumType,
    Param,
    Rolls,
)
from ...front.scope import (
    param_spec,
    slot_field,
)
from ...kinds.decision import lists, odds
from ...kinds.decision.cover import inputs_of, prove_cover, table_values
from ...kinds.decision.ending import TooLarge, never_ends
from ...kinds.decision.guards import build_guards
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
from ...kinds.decision.turns import followed
from ...lang import expr

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

_EXPR_TYPES: dict[str, expr.ValueType] = {
    "int": "int",
    "bool": "bool",
    "text": "text",
    "choice": "choice",
    "dice": "dice",
}
# A dice slot's value written as notation (2d6, 1d4+1, 3): a literal, not an expression.
_DICE_TEXT = re.compile(r"[0-9]*d[0-9]+([x*][0-9]+)?([+-][0-9]+)?|[0-9]+", re.ASCII)


class _Builder:
    """Builds one decision rule (kept in an object: many small steps share state)."""

    def __init__(
        self,
        b: SystemBuilder,
        src: SourceFile,
        path: Path,
        raw: dict[str, Any],
        written: Mapping[str, Path],
    ) -> None:
        self.b, self.src, self.path, self.raw = b, src, path, raw
        self.written = written  # where a name the decision claims is written
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
    ) -> tuple[Any, EnumType | None, str | None]:
        """A slot's type: its kind, the set of labels it (or its items) are
        of, and the record type (or state class) it (or its items) are of."""
        kind = raw["type"]
        for key, message, hint in lists.declaration_problems(raw, what):
            self.err((*path, key), message, hint, key=key != "type")
        value = raw.get("items", kind) if kind == "list" else kind
        record = self.record(path, raw, value)
        for key in lists.bound_problems(raw, value):
            self.err((*path, key), *lists.BOUNDS, key=True)
        if value != "choice":
            if "enum" in raw or "members" in raw:
                self.err(path, f"only a choice has an enum, not {kind}")
            return kind, None, record
        if "enum" not in raw:
            self.err(path, "a choice needs 'enum' (with 'members' to define it here)")
            return kind, None, record
        if "members" in raw:
            enum = self.b.enum(self.src, path, raw["enum"], raw["members"], False)
            self.owned.append(enum)
            return kind, enum, record
        return kind, self.b.find_enum(self.src, (*path, "enum"), raw["enum"]), record

    def record(self, path: Path, raw: dict[str, Any], value: str) -> str | None:
        """The record type (or state class) a slot (or its items) are of."""
        key = "state" if value == "state" else "record"
        if value not in ("record", "state"):
            for extra in ("record", "state"):
                if extra in raw:
                    self.err(
                        (*path, extra), f"only a {extra} has a class here", key=True
                    )
            return None
        if key not in raw:
            self.err(path, f"a {value} needs '{key}', its class", f"{key}: ClassName")
            return None
        found = self.b.record_type(
            self.src, (*path, key), raw[key], state=value == "state"
        )
        return None if found is None else found.name

    def slots(self) -> tuple[Any, list[Slot], EnumType | None]:
        """The answer's shape and slots: record fields, one value, or mapping keys."""
        raw = self.raw
        shapes = [s for s in ("fields", "value", "mapping") if s in raw]
        declares = raw.get("result") in {**self.b.typed, **self.b.record_types()}
        if not shapes and declares:  # a record type the rules declare
            slots = self.declared_slots()
            return ("fields" if slots else None), slots, None
        if len(shapes) != 1:
            hint = None
            if not shapes and "result" in raw:
                hint = f"or declare a record type {raw['result']} (kind: record)"
            self.err(
                self.path,
                "a decision answers exactly one of 'fields' (with 'result'), 'value' or 'mapping'",
                hint,
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
                at = self.written.get("result", (*self.path, "result"))
                self.b.claim(self.src, at, raw["result"], "result class")
            slots = []
            for index, f in enumerate(raw["fields"]):
                fpath = (*self.path, "fields", index)
                kind, enum, record = self.slot_type(fpath, f)
                self.b.local_name(self.src, (*fpath, "name"), f["name"], "field name")
                slots.append(_slot(f, f["title"], kind, enum, record))
            return shape, slots, None
        if shape == "value":
            v = raw["value"]
            kind, enum, record = self.slot_type(
                (*self.path, "value"), v, "a list answer"
            )
            slot = _slot(
                v | {"name": "value"}, v.get("title", "Answer"), kind, enum, record
            )
            return (shape, [slot], None)
        m = raw["mapping"]
        key = self.b.find_enum(self.src, (*self.path, "mapping", "key"), m["key"])
        kind, enum, _ = self.slot_type((*self.path, "mapping", "value"), m["value"])
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

    def declared_slots(self) -> list[Slot]:
        """The fields of the record type ``result`` names, declared by
        another rule (a record's, or a decision's answering fields)."""
        at = (*self.path, "result")
        kind = self.b.record_type(self.src, at, self.raw["result"])
        if kind is None:
            return []
        if "methods" in self.raw:
            self.err(
                (*self.path, "methods"),
                f"the record type {kind.name} is declared by another rule: "
                "methods belong to a decision's own record",
                "give the decision its own fields (and result class) for methods",
            )
        return record_slots(self.b.built[kind.rule])

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
            built = self.case(cpath, case, shape, slots, defaults)
            if built is not None:
                cases.append(built)
        policy = self.raw.get("hit_policy", "first")
        if policy == "first" and cases and cases[-1].when_text != "true":
            self.err(
                (*self.path, "cases", len(self.raw["cases"]) - 1, "when"),
                'the last case must be when: "true", so every call has an answer',
            )
        return cases

    def case(
        self,
        cpath: Path,
        case: dict[str, Any],
        shape: str,
        slots: list[Slot],
        defaults: dict[str, Any],
    ) -> DecisionCase | None:
        """One case (or a guard of the lets): its condition, and its answer or
        refusal; None where it has both or neither (reported)."""
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
            return None
        # A case's answer is computed only where its condition holds.
        self.given = when.node if when is not None else None
        values = (
            None
            if "refuse" in case
            else self.case_values(cpath, shape, slots, defaults, case["then"])
        )
        self.given = None
        return DecisionCase(
            _when_text(case["when"]),
            when,
            values,
            case.get("refuse"),
            self.b.loc(self.src, cpath),
            tuple(case["then"]) if isinstance(case.get("then"), dict) else (),
        )

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
        # (a value left out, reported above, stands as none: nothing reads it)
        return tuple((s.name, values.get(s.name, ("literal", None))) for s in slots)


def _slot(
    raw: dict[str, Any],
    title: str,
    kind: Any,
    enum: EnumType | None,
    record: str | None,
) -> Slot:
    """A slot of the answer, declared by ``raw``."""
    return Slot(
        raw["name"],
        title,
        kind,
        raw.get("nullable", False),
        enum,
        raw.get("null_label", "—"),
        raw.get("description"),
        None,
        raw.get("items") if kind == "list" else None,
        record,
        raw.get("min"),
        raw.get("max"),
        raw.get("min_items", 0),
        raw.get("max_items"),
        raw.get("unit"),
        raw.get("signed", False) is True,
    )


def record_slots(rule: Any) -> list[Slot]:
    """The fields of the record type a rule declares (a record's, or a
    decision's answering fields), as slots of an answer."""
    if isinstance(rule, DecisionRule):
        return list(rule.slots)
    from ...kinds.record.model import RecordRule

    assert isinstance(rule, RecordRule)
    return [
        Slot(
            c.name,
            c.title,
            c.type,  # type: ignore[arg-type]  # a record's fields are slots' types
            c.nullable,
            f.enum,
            c.null_label,
            c.description,
            None,
            c.items,
            c.record,
            c.lo,
            c.hi,
            c.min_items,
            c.max_items,
            c.unit,
            c.signed,
        )
        for f in rule.fields
        for c in (f.column,)
    ]


def _when_text(when: Any) -> str:
    return str(when).lower() if isinstance(when, bool) else str(when).strip()


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
    written: Mapping[str, Path] | None = None,
) -> DecisionRule | None:
    """The decision ``raw`` says; ``written``: where the names it claims
    (``function``, ``odds_function``, ``result``) are written, when not at
    their keys (a front end that writes the decision for another kind)."""
    written = written or {}
    b.claim(
        src, written.get("function", (*path, "function")), raw["function"], "function"
    )
    d = _Builder(b, src, path, raw, written)
    d.parameters()
    scopes: dict[int, tuple[int, dict[str, expr.Param]]] = {}
    lets, d.specs = b.lets(src, path, raw.get("let", []), d.specs, scopes)
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
    guards = build_guards(d, scopes, lets, (shape, slots, defaults))
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
        ended = {v.name for v in repeat.state} | {TURNS} if repeat else set()
        prove_cover(b, src, path, d.params, cases, lets, frozenset(ended))
    if len(b.errors) == reported:  # else an expression that reads one failed
        guarded = [g.case for g in guards]
        b.unused_lets(src, path, raw, lets, nodes_of([*guarded, *cases], methods))
    turn_lets = repeat.lets if repeat is not None else ()
    odds_of, joint = odds.fields(b, src, path, raw, slots, lets + turn_lets)
    nodes = [let.checked.node for let in lets + turn_lets]
    at = (*path, "odds") if "odds" in raw else path
    if odds_of and not b.odds_follow(src, at, nodes, "decision"):
        odds_of, joint = (), False
    if repeat is not None:
        _prove_ending(b, src, path, d.params, repeat)
        if odds_of and not odds.chain(b, src, path, raw, cases, odds_of, repeat):
            odds_of = ()
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
        odds=odds_of[0] if odds_of else None,
        odds_fields=odds_of,
        joint=joint,
        guards=guards,
        repeat=repeat,
        owns_result="fields" in raw,
    )
    if repeat is not None and odds_of and odds.unbounded(b, src, path, raw, built):
        built = replace(built, odds=None, odds_fields=(), joint=False)
    if built.odds is not None:
        built = odds.options(b, src, path, raw, d, built, written)
    elif options := [k for k in ("odds_function", "depth", "odds_chart") if k in raw]:
        key = options[0]
        b.err(
            src,
            (*path, key),
            f"this decision has no odds: '{key}' says nothing",
            f"remove '{key}'",
            key=True,
        )
    return built


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
    inputs = inputs_of(params)
    counts = any(TURNS in expr.names_used(n) for n in nodes)
    if inputs is None or counts or any(expr.rules_called(n) for n in nodes):
        why = (
            "its parameters take too many values to try each"
            if inputs is None
            else f"the turn reads '{TURNS}', which grows without end"
            if counts
            else "it calls another rule"
        )
        b.err(src, at, f"the turns cannot be proved to end: {why}", hint)
        return
    allowance = b.allowance("turn proofs", MAX_PROOF_WORK)
    try:
        problem = never_ends(
            params, inputs, state, repeat, b.rounding, table_values(b), allowance
        )
    except TooLarge:
        problem = (
            "there are too many states and rolls to search: the proofs of a "
            f"system's turns take at most {MAX_PROOF_WORK:,} steps (a limit of rulesc)"
        )
        b.err(src, path, f"the turns cannot be proved to end: {problem}", hint)
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
    if value.type != "int":
        return (
            f"state value {value.name!r} is a {value.type} the ending reads, directly "
            "or through the turn: its values are too many to follow, and the turns "
            "cannot be proved to end",
            "give repeat a max_turns",
        )
    side = "min" if value.min is None else "max"
    return (
        f"state value {value.name!r} has no {side}: the turns cannot be proved to end",
        "give it min and max, or give repeat a max_turns",
    )


def rolls(rule: DecisionRule) -> Rolls | None:
    """A decision that rolls dice and answers a record: a follow-up method of
    another decision may call it (its parameters in order, then the rng)."""
    if not rule.rolls or rule.shape != "fields" or rule.result is None:
        return None
    return Rolls(
        rule.function,
        tuple(p.name for p in rule.params),
        rule.result,
        rng_at(rule.params),
    )


def finish(b: SystemBuilder, rules: Sequence[Any]) -> None:
    """Check follow-up methods once every rule is built (they may refer forward):
    each calls a rule that rolls dice, with an argument for each of its parameters."""
    from ...common.diagnostics import Diagnostic

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
