"""Python emitter: a lowered rule's part of its system's module."""

from __future__ import annotations

from ...common.limits import MAX_EXACT
from ...core.docs import refs
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
from ...core.viewkit import (
    Import,
    View,
)
from ...front.model import (
    EnumType,
    Param,
    System,
)
from ...lang import expr
from ...lang.naming import (
    odds_function,
    private_constant,
)
from ...lang.py_names import (
    pyattr,
    pyname,
)
from ...odds.plan import plan
from ..literals import (
    docstring,
    py,
)
from ..odds import run_code
from ..value_code import py_record_spec
from ..viewkit import (
    args_doc,
    column_type,
    enum_imports,
    enum_view,
    label_type,
    param_imports,
    param_view,
    signature,
)
from . import (
    state as state_python,
)
from . import (
    timeline as timeline_python,
)
from .code import (
    ODDS,
    ROLLING,
    code_of,
    odds_view,
    python_syntax,
)
from .procedure import (
    owned_enum,
    procedure_imports,
    procedure_view,
)

TEMPLATE = "core/unit.py.j2"

_PRIM = {
    "int": "int",
    "bool": "bool",
    "text": "str",
    "dice": "Dice",
    "range": "tuple[int, int]",
    "faces": "tuple[int, ...]",
    "symbol_faces": "tuple[tuple[str, ...], ...]",
}


def type_name(t: Type) -> str:
    """A core type as a Python annotation."""
    return _PRIM[t] if isinstance(t, str) else pyname(t.name)


def value_text(value: Value) -> str:
    """A value as a Python expression (a record by its constructor)."""
    if isinstance(value, New):
        args = ", ".join(f"{pyattr(c.name)}={value_text(v)}" for c, v in value.fields)
        return f"{pyname(value.record)}({args})"
    return py(value)


def member_text(enum: EnumType, label: str) -> str:
    """The member of a generated enum with ``label``, as Python writes it."""
    return f"{pyname(enum.name)}.{enum.member(label).name}"


def view(system: System, unit: Unit, tables: dict[str, str]) -> View:
    """What ``core/unit.py.j2`` prints: each declaration, the module's imports
    it needs and the names it exports (``tables``: each table's rows constant,
    by the function that reads it)."""
    items: list[View] = []
    imports: set[Import] = set()
    exports: list[str] = []
    for decl in unit.decls:
        if isinstance(decl, TextSet):
            items.append(
                {
                    "is": "TextSet",
                    "name": pyname(decl.name),
                    "texts": ", ".join(py(t) for t in decl.texts),
                    "doc": docstring(text(decl.doc)),
                }
            )
            imports |= {("typing", "Literal"), ("typing", "TypeAlias")}
            exports.append(pyname(decl.name))
        elif isinstance(decl, Enum):
            items.append({"is": "Enum", "enum": enum_view(decl.enum, decl.doc)})
            imports |= set(enum_imports(decl.enum))
            exports.append(pyname(decl.enum.name))
        elif isinstance(decl, Record) and decl.light and _light(decl):
            items.append(_record(decl) | {"is": "LightRecord"})
            imports |= {
                ("typing", "NamedTuple"),
                ("rulebook.json", "JSON"),
                ("rulebook.json", "record"),
            }
            if any(c.type == "dice" for c in decl.fields):
                imports.add(("rulebook.dice", "Dice"))
            exports.append(pyname(decl.name))
        elif isinstance(decl, Record):
            items.append(_record(decl))
            imports |= {("rulebook.json", "Record"), ("typing", "ClassVar")}
            if decl.checked:  # its spec, to check it as an argument
                imports |= {("rulebook", "_values"), ("typing", "Final")}
            if decl.methods:
                imports |= {
                    ("rulebook.dice", "RNG"),
                    ("rulebook.errors", "RuleInputError"),
                }
            if any(c.type == "dice" for c in decl.fields):
                imports.add(("rulebook.dice", "Dice"))
            exports.append(pyname(decl.name))
        elif isinstance(decl, Table):
            items.append(_table(decl))
            imports |= {("rulebook._support", "folded"), ("typing", "Final")}
            exports.append(pyname(decl.name))
        elif isinstance(decl, Function):
            item, needs, names = _function(system, decl, tables)
            items.append(item | {"counted": decl.name in calling(system)})
            imports |= needs
            exports += names
        elif isinstance(decl, Procedure):
            view = procedure_view(system, unit, decl, tables)
            items.append(view | {"counted": decl.name in calling(system)})
            imports |= set(param_imports(decl.params)) | procedure_imports(decl)
            if decl.rolls:
                imports |= set(ROLLING)
            exports.append(pyname(decl.name))
            if decl.odds is not None:
                exports.append(pyname(decl.odds_function))
            exports += [
                pyname(p.enum.name) for p in decl.params if p.enum and owned_enum(p)
            ]
        elif isinstance(decl, RangeTable):
            items.append(_range_table(decl))
            imports |= {("typing", "Final"), ("rulebook._support", "bad_int")}
            if decl.mapping is not None:
                imports.add(("collections.abc", "Mapping"))
            if any(c.type == "dice" for c in decl.columns):
                imports.add(("rulebook.dice", "Dice"))
            exports.append(pyname(decl.name))
        elif isinstance(decl, State):
            view = state_python.state_view(system, unit, decl, tables)
            items.append(view)
            imports |= set(view["imports"])
            exports.append(pyname(decl.name))
        elif isinstance(decl, Timeline):
            view = timeline_python.timeline_view(system, unit, decl, tables)
            items.append(view | {"counted": False})  # it calls no rule expression
            imports |= set(param_imports(decl.params))
            imports |= timeline_python.timeline_imports(decl)
            exports.append(pyname(decl.name))
            exports += [
                pyname(p.enum.name) for p in decl.params if p.enum and owned_enum(p)
            ]
        elif isinstance(decl, RollOn):
            items.append(_roll_on(decl))
            imports |= {("rulebook.dice", "Dice"), ("rulebook.dice", "RNG")}
            exports += [pyname(decl.name), pyname(decl.dice_name)]
        else:
            items.append(_const(decl))
            imports.add(("typing", "Final"))
            if decl.type == "dice":
                imports.add(("rulebook.dice", "Dice"))
            exports += [pyname(decl.name), *map(pyname, decl.aliases)]
    if any(item.get("counted") or item.get("odds") for item in items):
        imports.add(("rulebook._support", "runtime_call"))
    if any(
        expr.uses_values(c.node, "python")
        for decl in unit.decls
        for c in expressions_of(decl)
    ):
        imports.add(("rulebook", "_values"))
    return {
        "decls": items,
        "imports": sorted(imports),
        "exports": exports,
        "template": TEMPLATE,
    }


def text(doc: str) -> str:
    """A core doc in Python's markup (a function by ``:func:``)."""
    return refs(doc, lambda function: f":func:`{function}`")


def _record(decl: Record) -> View:
    """A record class: its fields, and any methods that roll, with the values
    its items hold for them unseen."""
    return {
        "is": "Record",
        "name": pyname(decl.name),
        "spec": py_record_spec(decl.name, decl.fields) if decl.checked else None,
        "doc": docstring(text(decl.doc), "    "),
        "fields": [
            {
                "name": pyattr(c.name),
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            | ({"default": "None"} if index >= decl.optional_from else {})
            for index, c in enumerate(decl.fields)
        ],
        "json_keys": _keys(decl),
        "hidden": [
            {"name": name, "type": "bool" if p is None else _held_type(p)}
            for m in decl.methods
            for name, p in m.hidden()
        ],
        "methods": [
            {
                "name": pyattr(m.name),
                "ok": f"self._{m.name}_ok",
                "refuse": py(m.refuse),
                "returns": pyname(m.returns),
                "call": f"{pyname(m.function)}("
                + "".join(
                    f"{pyname(name)}=self._{m.name}_{p.name}, " for name, p in m.args
                )
                + "rng=rng)",
                "doc": docstring(text(m.doc), "        "),
            }
            for m in decl.methods
        ],
    }


def _light(decl: Record) -> bool:
    """Whether a record made often is a named tuple: where it has no method,
    and its fields' names are the rules' (a named tuple's JSON keys are)."""
    return not decl.methods and _keys(decl) is None


def _keys(decl: Record) -> str | None:
    """A record's JSON keys (the rules' names of its fields), where one of
    its fields has another name in Python; else None (its fields' names)."""
    names = [c.name for c in decl.fields]
    if all(pyattr(name) == name for name in names):
        return None
    return ", ".join(py(name) for name in names) + ("," if len(names) == 1 else "")


def _held_type(param: Param) -> str:
    """The type of a parameter's checked value as a record holds it unseen."""
    if param.type == "mapping" and param.enum and param.value_enum:
        return f"dict[{pyname(param.enum.name)}, {pyname(param.value_enum.name)}]"
    return pyname(param.enum.name) if param.enum else param.type


def _const(decl: Const) -> View:
    return {
        "is": "Const",
        "name": pyname(decl.name),
        "type": type_name(decl.type),
        "value": value_text(decl.value),
        "doc": docstring(text(decl.doc)),
        "aliases": [pyname(a) for a in decl.aliases],
    }


def _table(decl: Table) -> View:
    enum = pyname(decl.key.name)
    return {
        "is": "Table",
        "function": pyname(decl.name),
        "param": pyname(decl.param),
        "param_literal": py(pyname(decl.param)),
        "enum": enum,
        "by_label": private_constant(decl.key.name, "by_label"),
        "label_type": label_type(decl.key),
        "record": pyname(decl.answers) + (" | None" if decl.absent else ""),
        "rows_name": decl.rows_name,
        "rows": [
            {
                "member": member_text(decl.key, label),
                "value": _cell(decl, row),
            }
            for label, row in decl.rows
        ],
        "doc": docstring(
            text(decl.doc)
            + (f" Answers None {decl.absent}." if decl.absent else "")
            + " Raises RuleInputError for a label the table does not have.",
            "    ",
        ),
    }


def _cell(table: Table, value: New | str | None) -> str:
    """A table's value: a record, a label of its set, or None."""
    if isinstance(value, str):
        assert table.labels is not None
        return member_text(table.labels, value)
    return "None" if value is None else value_text(value)


def _roll_on(decl: RollOn) -> View:
    return {
        "is": "RollOn",
        "function": pyname(decl.name),
        "enum": pyname(decl.key.name),
        "dice_name": pyname(decl.dice_name),
        "dice": py(decl.dice),
        "entries_name": decl.entries_name,
        "entries": [
            {"roll": roll, "member": member_text(decl.key, label)}
            for roll, label in decl.entries
        ],
        "doc": docstring(decl.doc, "    "),
    }


def _function(
    system: System, decl: Function, tables: dict[str, str]
) -> tuple[View, set[Import], list[str]]:
    """A function: its parameters' checks, its bound names, its answer, and
    (when it rolls) its odds function; with its imports and exports."""
    params = [param_view(p, decl.rule_id) for p in decl.params]
    python = code_of(system, decl.params, tables)
    rolls = decl.rolls
    lets = [f"{pyname(b.name)} = {python(b.checked.node)}" for b in decl.binds]
    body = python(decl.answer.node)
    plain = signature(params, decl.params)
    odds = None
    if rolls:
        binds = [(b.name, b.checked.node) for b in decl.binds]
        found = plan(binds, [decl.answer.node])
        code = run_code(found, python_syntax(python, system))
        odds = odds_view(decl.name, plain, f"_odds.chances({code})")
    owned = [p for p in decl.params if p.enum is not None and p.owns_enum]
    item = {
        "is": "Function",
        "function": pyname(decl.name),
        "params": params,
        "signature": signature(params, decl.params, rolls),
        "rolls": rolls,
        "lets": lets,
        "odds": odds,
        "enums": [
            view["enum"]
            for view, param in zip(params, decl.params, strict=True)
            if "enum" in view and param.owns_enum
        ],
        "body": body,
        "doc": docstring(
            f"{decl.doc}{args_doc(decl.params)}\n\n"
            f"{decl.origin} Raises RuleInputError for arguments outside the rule.",
            "    ",
        ),
    }
    imports = set(param_imports(decl.params))
    if expr.uses_steps(decl.answer.node):
        imports.add(("rulebook._support", "step"))
    if rolls:
        imports |= set(ROLLING + ODDS)
    exports = [
        pyname(decl.name),
        *([pyname(odds_function(decl.name))] if rolls else []),
        *(pyname(p.enum.name) for p in owned if p.enum is not None),
    ]
    return item, imports, exports


def _range_table(decl: RangeTable) -> View:
    """A range table: its rows, lowest first, and the function that reads them."""
    p = decl.param
    name = pyname(p.name)
    if decl.mapping is not None:
        enum = pyname(decl.mapping.name)
        cell = column_type(decl.columns[0])
        answer = f"dict[{enum}, {cell}]"
        stored = f"Mapping[{enum}, {cell}]"
        result = "dict(_value)"
    else:
        assert decl.record is not None
        answer = stored = pyname(decl.record)
        result = "_value"
    most = MAX_EXACT if p.max is None else p.max  # as JavaScript takes it
    test = f"type({name}) is not int or not {p.min} <= {name} <= {most}"
    below = (
        "return None"
        if decl.below == "none"
        else f"raise bad_int({name}, {name!r}, {decl.rows[0].lo}, {py(p.max)})"
    )
    top = "" if p.max is None else p.max
    return {
        "is": "RangeTable",
        "ranges": decl.rows_name,
        "stored": stored,
        "rows": [
            {"lo": span.lo, "hi": py(span.hi), "value": _span_value(span.value)}
            for span in decl.rows
        ],
        "function": pyname(decl.name),
        "param": name,
        "test": test,
        "error": f"bad_int({name}, {name!r}, {p.min}, {py(p.max)})",
        "below": below,
        "result": result,
        "returns": f"{answer} | None" if decl.below == "none" else answer,
        "doc": docstring(
            f"{decl.doc}{args_doc([p])}\n\n{decl.origin} "
            f"Raises RuleInputError for a {name} outside {p.min}..{top}.",
            "    ",
        ),
    }


def _span_value(value: New | Mapping) -> str:
    if isinstance(value, New):
        return value_text(value)
    members = zip(value.key.members, value.values, strict=True)
    enum = pyname(value.key.name)
    return "{" + ", ".join(f"{enum}.{m.name}: {py(v)}" for m, v in members) + "}"
