"""decision: a record-returning rule decided by cases, first match wins.

Each case has a ``when`` condition and the result's fields, each a literal or an
expression of the formula language (which may read other tables of the system,
e.g. ``cover(level).cover_ac``). The last case must be ``when: "true"``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .. import expr
from ..literals import code, docstring, md_cell, py
from ..model import Column, DecisionCase, DecisionRule, Param, System, TableRule
from ..naming import private_constant
from ..views import View, column_type, param_imports, param_view, signature, where_doc

if TYPE_CHECKING:
    from ..diagnostics import Path
    from ..loader import SourceFile
    from ..semantics import SystemBuilder

_EXPR_TYPES = {"int": "int", "bool": "bool", "text": "text"}


def tables_of(b: SystemBuilder) -> dict[str, expr.Table]:
    """Every table of the system, as formulas may read it: name(key).field."""
    found = {}
    for rule in b.built.values():
        if not isinstance(rule, TableRule):
            continue
        fields = {}
        for index, col in enumerate(rule.columns):
            if col.type == "dice":
                continue
            values = [row.cells[index] for row in rule.rows]
            ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
            fields[col.name] = expr.Field(
                _EXPR_TYPES[col.type],  # type: ignore[arg-type]
                col.nullable,
                min(ints) if col.type == "int" and ints else None,
                max(ints) if col.type == "int" and ints else None,
            )
        found[rule.function] = expr.Table(
            rule.function,
            rule.enum.name,
            tuple(m.label for m in rule.enum.members),
            fields,
        )
    return found


def _spec(param: Param) -> expr.Param:
    return expr.Param(
        param.name,
        param.type,
        param.min,
        param.max,
        tuple(m.label for m in param.enum.members) if param.enum else (),
        enum=param.enum.name if param.enum else None,
    )


def _slot(col: Column) -> expr.Field:
    return expr.Field(_EXPR_TYPES[col.type], col.nullable)  # type: ignore[arg-type]


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> DecisionRule | None:
    b.claim(src, (*path, "function"), raw["function"], "function")
    b.claim(src, (*path, "result"), raw["result"], "result class")
    params: list[Param] = []
    specs: dict[str, expr.Param] = {}
    for index, p in enumerate(raw["parameters"]):
        param = b.param(src, (*path, "parameters", index), p, specs)
        if param is not None:
            params.append(param)
            specs[param.name] = _spec(param)
    fields = b.columns(src, path, raw["fields"], "fields")
    for index, col in enumerate(fields):
        if col.type == "dice":
            b.err(
                src,
                (*path, "fields", index, "type"),
                "a decision's fields are int, bool or text",
            )
    tables = tables_of(b)
    defaults = {
        f["name"]: _value(
            b, src, (*path, "fields", i, "default"), f["default"], col, specs, tables
        )
        for i, (f, col) in enumerate(zip(raw["fields"], fields, strict=True))
        if "default" in f
    }
    cases = []
    for index, case in enumerate(raw["cases"]):
        cpath = (*path, "cases", index)
        when = _compile(b, src, (*cpath, "when"), str(case["when"]), specs, tables)
        if when is not None and (when.type != "bool" or when.nullable):
            shown = when.type + ("?" if when.nullable else "")
            b.err(src, (*cpath, "when"), f"a condition must be a bool, not {shown}")
        values: dict[str, Any] = dict(defaults)
        names = {c.name: c for c in fields}
        for name, value in case["then"].items():
            if name not in names:
                b.err(
                    src,
                    (*cpath, "then", name),
                    f"{raw['result']} has no field {name!r}",
                    "fields: " + ", ".join(names),
                    key=True,
                )
                continue
            values[name] = _value(
                b, src, (*cpath, "then", name), value, names[name], specs, tables
            )
        for col in fields:
            if col.name not in values:
                b.err(
                    src,
                    (*cpath, "then"),
                    f"this case gives no {col.name!r}, and the field has no default",
                    f"add '{col.name}:' to the case, or a default to the field",
                    key=True,
                )
        cases.append(
            DecisionCase(
                str(case["when"]),
                when,
                tuple((c.name, values.get(c.name)) for c in fields),
                b.loc(src, cpath),
            )
        )
    if raw["cases"] and str(raw["cases"][-1]["when"]).strip() != "true":
        b.err(
            src,
            (*path, "cases", len(raw["cases"]) - 1, "when"),
            'the last case must be when: "true", so every call has an answer',
        )
    examples = b.examples(
        src, path, raw, {p["name"] for p in raw["parameters"]}, roll_columns=set()
    )
    return DecisionRule(
        **common,
        examples=examples,
        function=raw["function"],
        result=raw["result"],
        params=tuple(params),
        fields=tuple(fields),
        cases=tuple(cases),
    )


def _compile(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    text: str,
    specs: dict[str, expr.Param],
    tables: dict[str, expr.Table],
) -> expr.Checked | None:
    try:
        return expr.compile_formula(text, specs, tables=tables)
    except expr.ExprError as exc:
        from ..semantics import caret

        if text[exc.start : exc.end] in b.failed:
            return None  # it names a rule that failed: already reported
        b.err(
            src,
            path,
            f"expression: {exc.message}",
            (exc.hint + "\n" if exc.hint else "")
            + caret(text, exc.start, exc.end).lstrip("\n"),
        )
        return None


def _value(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    value: Any,
    col: Column,
    specs: dict[str, expr.Param],
    tables: dict[str, expr.Table],
) -> Any:
    """A field's value: a literal of its type, or (a string) an expression."""
    if value is None:
        if not col.nullable:
            b.err(src, path, f"{col.name!r} cannot be null")
        return ("literal", None)
    if col.type == "text" and isinstance(value, str):
        return ("literal", value)
    if isinstance(value, dict):
        value = value.get("expr", "")
    if not isinstance(value, str):
        expected = {"int": int, "bool": bool}.get(col.type)
        if type(value) is not expected:
            b.err(src, path, f"{col.name!r} holds {col.type} values, not {value!r}")
        return ("literal", value)
    checked = _compile(b, src, path, value, specs, tables)
    if checked is not None and (problem := expr.fits(checked, _slot(col))):
        b.err(src, path, f"{col.name!r}: the expression {problem}")
    return ("expr", checked)


def python_view(system: System, rule: DecisionRule) -> View:
    params = [param_view(p, rule.qualified_id) for p in rule.params]
    rows = {t.function: private_constant(t.id, "rows") for t in _tables(system)}
    enums = {e.name: e for e in _enums(system)}
    counter = iter(range(1, 10_000))

    def emit(value: Any) -> str:
        kind, item = value
        if kind == "literal":
            return py(item)
        text = expr.to_python(
            item.node,
            name=lambda n: n,
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

    cases = []
    for case in rule.cases:
        last = case.when_text.strip() == "true" or case.when is None
        test = None if last else emit(("expr", case.when))
        fields = ", ".join(f"{name}={emit(value)}" for name, value in case.values)
        cases.append({"test": test, "value": f"{rule.result}({fields})"})
    return {
        "template": "decision.py.j2",
        "id": rule.qualified_id,
        "result": rule.result,
        "result_doc": docstring(
            f"What :func:`{rule.function}` answers. {where_doc(rule)}", "    "
        ),
        "fields": [
            {
                "name": c.name,
                "type": column_type(c),
                "doc": docstring(c.description or c.title, "    "),
            }
            for c in rule.fields
        ],
        "function": rule.function,
        "params": params,
        "signature": signature(params, rule.params),
        "enums": [
            v["enum"]
            for v, p in zip(params, rule.params, strict=True)
            if "enum" in v and p.owns_enum
        ],
        "cases": cases,
        "doc": docstring(
            f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)} Raises RuleInputError for arguments outside the rule.",
            "    ",
        ),
        "imports": [("dataclasses", "dataclass"), *param_imports(rule.params)],
        "exports": [
            rule.function,
            rule.result,
            *(p.enum.name for p in rule.params if p.enum and p.owns_enum),
        ],
    }


def _tables(system: System) -> list[TableRule]:
    return [r for r in system.rules if isinstance(r, TableRule)]


def _enums(system: System) -> list[Any]:
    from ..views import all_enums

    return all_enums(system)


def docs_view(system: System, rule: DecisionRule, common: View) -> View:
    def show(value: Any, col: Column) -> str:
        kind, item = value
        if kind == "literal":
            if item is None:
                return md_cell(col.null_label)
            if isinstance(item, bool):
                return "yes" if item else "no"
            return md_cell(str(item))
        return code(expr.to_math(item.node, rounding=system.rounding), in_table=True)

    args = signature(
        [param_view(p, rule.qualified_id) for p in rule.params], rule.params
    )
    return common | {
        "signature": code(f"{rule.function}({args}) -> {rule.result}"),
        "headers": ["When", *(md_cell(c.title) for c in rule.fields)],
        "rows": [
            [
                "otherwise"
                if case.when is None or case.when_text.strip() == "true"
                else code(
                    expr.to_math(case.when.node, rounding=system.rounding),
                    in_table=True,
                ),
                *(
                    show(v, c)
                    for (_, v), c in zip(case.values, rule.fields, strict=True)
                ),
            ]
            for case in rule.cases
        ],
        "fields": [
            {
                "name": code(c.name),
                "title": md_cell(c.title),
                "type": code(column_type(c)),
                "description": md_cell(c.description or ""),
            }
            for c in rule.fields
        ],
        "params": [
            {
                "name": code(p.name),
                "type": code(p.enum.name if p.enum else p.type),
                "allowed": md_cell(
                    ", ".join(m.label for m in p.enum.members) if p.enum else p.type
                ),
                "description": md_cell(p.description),
            }
            for p in rule.params
        ],
    }
