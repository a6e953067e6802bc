"""A decision in JavaScript: its parameters' checks, then its cases in order."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ...emit.javascript_code import ODDS_DOC, js_syntax
from ...expr_odds import bind_lets
from ...js_kit import (
    View,
    args_doc,
    doc,
    enum_view,
    expression,
    js,
    js_string,
    local,
    member,
    param_view,
    record_literal,
    record_view,
    signature,
    where,
)
from ...js_naming import camel
from ...kinds.decision import lists
from ...kinds.decision.model import TURNS, DecisionCase, DecisionRule, FollowUp, Slot
from ...kinds.decision.rule import odds_reads
from ...kinds.decision.turns import Target, loop_lines
from ...kinds.decision.turns import odds_code as turns_odds
from ...kinds.table.rule import table_rows
from ...model import System
from ...naming import odds_function
from ...viewkit import allowed

_TS = {"int": "number", "bool": "boolean", "text": "string", "dice": "$dice.Dice"}


def slot_ts(slot: Slot) -> str:
    if slot.type == "list":
        return lists.ts_type(slot)
    base = slot.enum.name if slot.enum is not None else _TS[slot.type]
    return f"{base} | null" if slot.nullable else base


def _returns_one(rule: DecisionRule) -> str:
    if rule.shape == "fields":
        return str(rule.result)
    if rule.shape == "value":
        return slot_ts(rule.slots[0])
    assert rule.key_enum is not None
    return f"Readonly<Record<{rule.key_enum.name}, {slot_ts(rule.slots[0])}>>"


def js_view(system: System, rule: DecisionRule) -> View | None:
    function = camel(rule.function)
    params = [param_view(system, p, rule.qualified_id) for p in rule.params]
    tables = table_rows(system)

    def emit(value: tuple[str, Any]) -> str:
        kind, item = value
        if kind == "literal":
            return js(item)
        if kind == "member":
            return member(rule.slot_enum(item), item.label)
        return expression(system, item.node, rule.params, tables)

    record = None
    if rule.shape == "fields":
        assert rule.result is not None
        columns = [
            SimpleNamespace(
                name=s.name, title=s.title, description=s.description, ts=slot_ts(s)
            )
            for s in rule.slots
        ]
        record = record_view(
            rule.result, columns, f"What `{function}` answers. {where(rule)}"
        )
    methods = [_method_view(system, rule, m, emit) for m in rule.methods]
    answer = _answerer(rule, record, methods, emit)
    cases = []
    for case in rule.cases:
        last = case.when_text == "true" or case.when is None
        cases.append(
            {
                "test": None if last else emit(("expr", case.when)),
                "answer": answer(case, "  " if last else "    "),
            }
        )
    owned = [p["enum"] for p in params if p["enum"] is not None] + [
        enum_view(e, f"The answers of rule `{rule.qualified_id}`")
        for e in rule.owned_enums
    ]
    one = _returns_one(rule)
    rng = {"name": "rng", "keyword_only": False, "optional": False, "default": None}
    # the rng after the positional parameters, before any options (as a formula's)
    signed = signature(
        [*params, rng | {"ts": "$dice.RNG"}] if rule.rolls else params, function
    )
    private = _private_view(system, rule, function, tables)
    odds = None
    if rule.odds is not None and private is not None:
        odds = _odds_view(system, rule, params, private["call"] or "", tables, emit)
    return {
        # the rules its follow-ups call: it waits for them to have JavaScript
        "needs": [f"{system.id}.{m.rule}" for m in rule.methods],
        "function": function,
        "params": params,
        "signature": signed,
        "rolls": rule.rolls,
        "runtime": (["dice_rolls.js", "dice_terms.js", "odds.js"] if rule.rolls else [])
        + (["_chain.js"] if rule.repeat is not None else []),
        "private": private,
        "odds": odds,
        "enums": owned,
        "record": record,
        "methods": methods,
        "cases": cases,
        "collect": rule.hit_policy == "collect",
        "returns": f"{one}[]" if rule.hit_policy == "collect" else one,
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{args_doc(rule.params, allowed)}\n\n"
            f"{where(rule)} Throws RuleInputError for arguments outside the rule."
        ),
    }


def _private_view(
    system: System, rule: DecisionRule, function: str, tables: dict[str, str]
) -> View | None:
    """A decision with lets: the function binds them (in order, after checking
    its arguments) and calls a private one holding its cases."""
    if rule.repeat is not None:
        args = [local(p) for p in rule.params] + [camel(v.name) for v in rule.state]
        args.append(TURNS)
        name = f"_{function}"
        call = f"{name}({', '.join(args)})"
        target = _js_target(system, rule, tables)
        return {
            "function": name,
            "lets": loop_lines(rule, target, call),
            "params": ", ".join(args),
            "call": None,
        }
    if not rule.lets:
        return None
    args = [local(p) for p in rule.params] + [camel(let.name) for let in rule.lets]
    name = f"_{function}"
    return {
        "function": name,
        "lets": [
            f"const {camel(let.name)} = "
            f"{expression(system, let.checked.node, rule.params, tables)};"
            for let in rule.lets
        ],
        "params": ", ".join(args),
        "call": f"{name}({', '.join(args)})",
    }


def _odds_view(
    system: System,
    rule: DecisionRule,
    params: list[View],
    call: str,
    tables: dict[str, str],
    emit: Callable[[tuple[str, Any]], str],
) -> View:
    """The odds function of a decision that rolls: the chances of its value or
    of the field ``odds`` names, each let followed into the cases (the private
    function's answer for each set of values the names take)."""
    syntax = js_syntax(lambda node: expression(system, node, rule.params, tables))
    read = "" if rule.shape == "value" else f".{camel(str(rule.odds))}"
    lets = [(let.name, let.checked.node) for let in rule.lets]
    if rule.repeat is not None:
        body = turns_odds(
            rule,
            syntax,
            _js_target(system, rule, tables),
            emit,
            lambda args: f"$chain.absorbed({', '.join(args)})",
        )
    else:
        reads = odds_reads(rule)
        body = bind_lets(lets, syntax, syntax.call("const", [call + read]), reads)
    slot = next(s for s in rule.slots if s.name == rule.odds)
    # labels answer in their enum's order, as Python's do
    order = f", $.labelsOf({slot.enum.name})" if slot.enum is not None else ""
    function = camel(odds_function(rule.function))
    what = "" if rule.shape == "value" else f"'s `{camel(slot.name)}`"
    return {
        "function": function,
        "signature": signature(params, function),
        "body": f"$odds.answer({body}{order})",
        "key": slot_ts(slot),
        "doc": doc(f"The exact odds of `{camel(rule.function)}()`{what}: {ODDS_DOC}"),
    }


def _js_target(system: System, rule: DecisionRule, tables: dict[str, str]) -> Target:
    """How JavaScript writes a repeating decision's loop."""
    return Target(
        emit=lambda node: expression(system, node, rule.params, tables),
        name=camel,
        start="let ",
        declared=lambda v: camel(v.name),
        held=lambda v, code: f"Object.freeze({code})" if v.type == "list" else code,
        bind="const ",
        end=";",
        loop=lambda test: f"while (!({test})) {{",
        close="}",
        stop=lambda most: f"if ({TURNS} === {most}) break;",
        count=f"{TURNS} = $chain.nextTurn({TURNS});",
        assign=lambda names, values: f"[{', '.join(names)}] = [{', '.join(values)}];",
        tuple=lambda items: f"[{', '.join(items)}]",
        nothing="null",
    )


def _answerer(
    rule: DecisionRule,
    record: View | None,
    methods: list[View],
    emit: Callable[[tuple[str, Any]], str],
) -> Callable[[DecisionCase, str], str]:
    """The statement that answers a case (or refuses the input)."""

    def value(case: DecisionCase, indent: str) -> str:
        values = dict(case.values or ())
        if rule.shape == "value":
            return emit(values["value"])
        if rule.shape == "mapping":
            assert rule.key_enum is not None
            inner = indent + "  "
            items = "".join(
                f"{inner}[{member(rule.key_enum, name)}]: {emit(v)},\n"
                for name, v in values.items()
            )
            # labels are keys: an object without a prototype, as $.mapping answers
            return f"Object.freeze({{\n{inner}__proto__: null,\n{items}{indent}}})"
        assert record is not None
        text = record_literal(
            record["shape"],
            [(s.name, _field(s, values[s.name], emit)) for s in rule.slots],
            indent,
        )
        if methods:
            bound = ", ".join(f"{m['name']}: {m['bound']}" for m in methods)
            text = text[:-1] + f", {{ {bound} }})"
        return text

    def answer(case: DecisionCase, indent: str) -> str:
        if case.refuse is not None:
            return f"throw new $errors.RuleInputError({js_string(case.refuse)});"
        if rule.hit_policy == "collect":
            return f"found.push({value(case, indent)});"
        return f"return {value(case, indent)};"

    return answer


def _field(
    slot: Slot, value: tuple[str, Any], emit: Callable[[tuple[str, Any]], str]
) -> str:
    """A record field's value in a case (a list: a frozen array of its own)."""
    code = emit(value)
    kind, item = value
    if slot.type == "list" and kind == "expr":
        return lists.js_value(item.node, code)
    return code


def _method_view(
    system: System,
    rule: DecisionRule,
    method: FollowUp,
    emit: Callable[[tuple[str, Any]], str],
) -> View:
    """A follow-up: a method of the answer that calls a rule that rolls dice
    with this call's (checked) arguments, when ``only_if`` held for them."""
    rolls = dict(system.rolls)[method.rule]
    given = dict(method.args)
    params = {p.name: p for p in rule.params}
    args = "".join(f"{local(params[given[p]])}, " for p in rolls.params)
    ok = f"${camel(method.name)}Ok"
    refuse = method.refuse or f"{method.name} does not apply to this answer"
    name = camel(method.name)
    return {
        "name": name,
        "ok": ok,
        "ok_value": "true"
        if method.only_if is None
        else emit(("expr", method.only_if)),
        "bound": (
            f"(rng) => {{ if (!{ok}) throw new $errors.RuleInputError({js_string(refuse)}); "
            f"return {camel(rolls.function)}({args}rng); }}"
        ),
        "returns": rolls.returns,
        "doc": doc(f"{method.description} Calls `{camel(rolls.function)}`.", "  "),
    }
