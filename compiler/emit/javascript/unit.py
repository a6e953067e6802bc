"""JavaScript emitter: a lowered rule's part of its system's module and types."""

from __future__ import annotations

from ...core.ir import (
    Const,
    Enum,
    Function,
    Mapping,
    New,
    Procedure,
    RangeTable,
    Record,
    RollOn,
    State,
    Table,
    TextSet,
    Timeline,
    Type,
    Unit,
    Value,
    expressions_of,
)
from ...core.program import calling
from ...front.model import System
from ...lang import expr
from ...lang.naming import (
    odds_function,
    private_constant,
)
from ...odds.plan import plan
from ..odds import run_code
from ..value_code import js_record_spec
from ..viewkit import (
    allowed,
)
from . import (
    state as state_javascript,
)
from . import (
    timeline as timeline_javascript,
)
from .code import (
    ODDS_DOC,
    js_syntax,
)
from .code import js_text as _text
from .kit import (
    View,
    args_doc,
    doc,
    enum_view,
    expression,
    js,
    js_string,
    member,
    param_view,
    record_literal,
    record_view,
    signature,
    ts_column_type,
    with_rng,
)
from .names import jsname
from .procedure import procedure_view

TEMPLATES = ("core/unit.js.j2", "core/unit.d.ts.j2")

_PRIM = {
    "int": "number",
    "bool": "boolean",
    "text": "string",
    "dice": "$dice.Dice",
    "range": "readonly [number, number]",
    "faces": "readonly number[]",
    "symbol_faces": "readonly (readonly string[])[]",
}


def view(system: System, unit: Unit, tables: dict[str, str]) -> View:
    """What ``core/unit.js.j2`` and ``core/unit.d.ts.j2`` print, and the
    runtime modules its code needs (``tables``: each table's rows constant, by
    the function that reads it)."""
    records = {
        d.name: record_view(d.name, d.fields, _record_doc(d))
        | {
            "methods": [
                {
                    "name": jsname(m.name),
                    "returns": jsname(m.returns),
                    "doc": doc(_text(m.doc), "  "),
                }
                for m in d.methods
            ]
        }
        for d in unit.decls
        if isinstance(d, Record)
    }
    shapes = {name: record["shape"] for name, record in records.items()}
    shapes |= {d.name: private_constant(d.name, "fields") for d in unit.extern}
    decls: list[View] = []
    for decl in unit.decls:
        if isinstance(decl, TextSet):
            decls.append(
                {
                    "is": "TextSet",
                    "name": jsname(decl.name),
                    "texts": " | ".join(js_string(t) for t in decl.texts),
                    "doc": doc(_text(decl.doc)),
                }
            )
        elif isinstance(decl, Enum):
            decls.append({"is": "Enum", "enum": enum_view(decl.enum, _text(decl.doc))})
        elif isinstance(decl, Record):
            spec = js_record_spec(decl.name, decl.fields) if decl.checked else None
            decls.append(
                {"is": "Record", "record": records[decl.name] | {"spec": spec}}
            )
        elif isinstance(decl, Table):
            decls.append(_table(decl, shapes))
        elif isinstance(decl, RollOn):
            decls.append(_roll_on(decl))
        elif isinstance(decl, Function):
            counted = decl.name in calling(system)
            decls.append(_function(system, decl, tables) | {"counted": counted})
        elif isinstance(decl, RangeTable):
            decls.append(_range_table(system, decl, shapes))
        elif isinstance(decl, Procedure):
            view = procedure_view(system, unit, decl, tables, shapes)
            decls.append(view | {"counted": decl.name in calling(system)})
        elif isinstance(decl, State):
            decls.append(
                state_javascript.state_view(system, unit, decl, tables, shapes)
            )
        elif isinstance(decl, Timeline):
            view = timeline_javascript.timeline_view(system, unit, decl, tables, shapes)
            decls.append(view | {"counted": False})  # it calls no rule expression
        else:
            decls.append(_const(decl, shapes))
    runtime = [m for d in decls for m in d.get("runtime", ())]
    if _uses_values(unit):
        runtime.append("_values.js")
    return {
        "decls": decls,
        "runtime": list(dict.fromkeys(runtime)),
    }


def _uses_values(unit: Unit) -> bool:
    """Whether the unit's code calls the runtime's ``_values.js``: a record
    type's spec, a parameter's, or an expression's helper."""
    for decl in unit.decls:
        if isinstance(decl, Record) and decl.checked:
            return True
        params = getattr(decl, "params", ())
        if isinstance(decl, State):
            params = (*params, *(p for t in decl.transitions for p in t.params))
            if any(f.held is not None and f.held.type == "state" for f in decl.fields):
                return True  # a state it holds is handed out as a copy
        if any(p.spec is not None for p in params):
            return True
        if any(expr.uses_values(c.node, "javascript") for c in expressions_of(decl)):
            return True
    return False


def _record_doc(decl: Record) -> str:
    return _text(decl.doc)


def _const(decl: Const, shapes: dict[str, str]) -> View:
    what = "dice" if decl.type == "dice" else "value"
    return {
        "is": "Const",
        "name": jsname(decl.name),
        "type": _type(decl.type),
        "value": _value(decl.value, shapes, ""),
        "doc": doc(_text(decl.doc)),
        "aliases": [
            {"name": jsname(a), "doc": doc(f"The same {what} as {jsname(decl.name)}.")}
            for a in decl.aliases
        ],
    }


def _table(decl: Table, shapes: dict[str, str]) -> View:
    return {
        "is": "Table",
        "function": jsname(decl.name),
        "param": jsname(decl.param),
        "enum": jsname(decl.key.name),
        "record": jsname(decl.answers) + (" | null" if decl.absent else ""),
        "rows_name": decl.rows_name,
        "rows": [
            {"key": member(decl.key, label), "value": _cell(decl, row)}
            for label, row in decl.rows
        ],
        "doc": doc(
            _text(decl.doc)
            + (f" Answers null {decl.absent}." if decl.absent else "")
            + " Throws RuleInputError for a label the table does not have."
        ),
    }


def _cell(table: Table, value: New | str | None) -> str:
    """A table's value: a record, a label of its set, or null."""
    if isinstance(value, str):
        assert table.labels is not None
        return member(table.labels, value)
    return "null" if value is None else _value(value, {}, "  ")


def _roll_on(decl: RollOn) -> View:
    return {
        "is": "RollOn",
        "function": jsname(decl.name),
        "enum": jsname(decl.key.name),
        "dice_name": jsname(decl.dice_name),
        "dice": js(decl.dice),
        "entries_name": decl.entries_name,
        "entries": [
            {"roll": js(roll), "member": member(decl.key, label)}
            for roll, label in decl.entries
        ],
        "doc": doc(_text(decl.doc)),
    }


def _value(value: Value, shapes: dict[str, str], indent: str) -> str:
    if isinstance(value, New):  # a record's shape, wherever the record is declared
        shape = shapes.get(value.record) or private_constant(value.record, "fields")
        return record_literal(shape, [(c.name, js(v)) for c, v in value.fields], indent)
    return js(value)


def _type(t: Type) -> str:
    return jsname(t.name) if not isinstance(t, str) else _PRIM[t]


def _function(system: System, decl: Function, tables: dict[str, str]) -> View:
    """A function: its parameters' checks, its bound names, its answer, and
    (when it rolls) its odds function."""
    function = jsname(decl.name)
    params = [param_view(system, p, decl.rule_id) for p in decl.params]

    def code(node: object) -> str:
        return expression(system, node, decl.params, tables)

    lets = [f"const {jsname(b.name)} = {code(b.checked.node)};" for b in decl.binds]
    body = code(decl.answer.node)
    rolls = decl.rolls
    signed = signature(with_rng(params, decl.params) if rolls else params, function)
    odds = None
    if rolls:
        binds = [(b.name, b.checked.node) for b in decl.binds]
        odds_name = jsname(odds_function(decl.name))
        found = plan(binds, [decl.answer.node])
        answer = run_code(found, js_syntax(code, system))
        odds = {
            "function": odds_name,
            "signature": signature(params, odds_name),
            "body": f"$odds.chances({answer})",
            "doc": doc(f"The exact odds of `{function}()`: {ODDS_DOC}"),
        }
    return {
        "is": "Function",
        "function": function,
        "params": params,
        "signature": signed,
        "rolls": rolls,
        "odds": odds,
        "runtime": ["dice_rolls.js", "dice_terms.js", "odds.js"] if rolls else [],
        "enums": [p["enum"] for p in params if p["enum"] is not None],
        "lets": lets,
        "body": body,
        "doc": doc(
            f"{_text(decl.doc)}\n\n{args_doc(decl.params, allowed)}\n\n"
            f"{_text(decl.origin)} Throws RuleInputError for arguments outside the rule."
        ),
    }


def _range_table(system: System, decl: RangeTable, shapes: dict[str, str]) -> View:
    """A range table: its rows, lowest first, and the function that reads them."""
    if decl.mapping is not None:
        enum = jsname(decl.mapping.name)
        answer = f"Readonly<Record<{enum}, {ts_column_type(decl.columns[0])}>>"
    else:
        assert decl.record is not None
        answer = jsname(decl.record)
    p = decl.param
    param = param_view(system, p, decl.rule_id)
    name = param["name"]
    below = (
        "return null;"
        if decl.below == "none"
        else f"throw $.badInt({name}, {js_string(name)}, {js(decl.rows[0].lo)}, {js(p.max)});"
    )
    top = "" if p.max is None else str(p.max)
    return {
        "is": "RangeTable",
        "ranges": decl.rows_name,
        "rows": [
            {
                "lo": js(span.lo),
                "hi": js(span.hi),
                "value": _span_value(span.value, shapes),
            }
            for span in decl.rows
        ],
        "function": jsname(decl.name),
        "param": param,
        "below": below,
        "returns": f"{answer} | null" if decl.below == "none" else answer,
        "doc": doc(
            f"{_text(decl.doc)}\n\n{args_doc([p], allowed)}\n\n"
            f"{_text(decl.origin)} Throws RuleInputError for a {name} outside "
            f"{p.min}..{top}."
        ),
    }


def _span_value(value: New | Mapping, shapes: dict[str, str]) -> str:
    if isinstance(value, New):
        return _value(value, shapes, "  ")
    members = zip(value.key.members, value.values, strict=True)
    return (
        "Object.freeze({ __proto__: null, "  # labels are keys: no prototype
        + ", ".join(f"[{member(value.key, m.label)}]: {js(v)}" for m, v in members)
        + " })"
    )
