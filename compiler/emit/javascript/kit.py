"""JavaScript view kit: the pieces the JavaScript emitter's views are made of.

Literals of the rules' figures, TypeScript types, doc comments, label sets,
records and argument checks, following the conventions of the JavaScript
runtime (compiler/runtime_js/): camelCase names (``js_naming``), labels as
strings, Python's keyword-only parameters in a trailing options object,
``null`` for ``None``, integers as numbers within Number.MAX_SAFE_INTEGER.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ...common.visible import (
    SPACES,
    fold,
    visible,
)
from ...core.checks import (
    Check,
    argument_checks,
)
from ...core.viewkit import rng_at
from ...front.model import (
    Column,
    EnumType,
    Param,
    RuleBase,
    System,
)
from ...lang.naming import private_constant
from ...lang.nodes import Interval
from ...runtime.dice import Dice
from ..odds import PLACEHOLDER
from .expr import (
    MAX_SAFE,
    safe_literal,
    string_literal,
)
from .names import (
    RNG,
    jsname,
)

View = dict[str, Any]

OPTIONS = "$options"  # the options parameter: `$` is in no Python name


class JsFigureError(ValueError):
    """A figure of the rules that JavaScript cannot hold exactly."""


def js(value: object) -> str:
    """A figure of the rules (a cell, a default) as a JavaScript literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return safe_literal(value)
        except ValueError as exc:
            raise JsFigureError(str(exc)) from None
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, Dice):
        figures = ", ".join(
            js(v) for v in (value.count, value.sides, value.modifier, value.multiplier)
        )
        return f"new $dice.Dice({figures}, {js(value.unit)})"
    if isinstance(value, tuple):
        return f"Object.freeze([{', '.join(js(v) for v in value)}])"
    raise TypeError(f"no JavaScript literal for {value!r}")


def js_string(text: str) -> str:
    """A string from the rules as a JavaScript (and TypeScript) string literal
    (``emit.javascript.expr.string_literal``: no unprintable character raw)."""
    return string_literal(text)


def doc(text: str, indent: str = "") -> str:
    """A JSDoc comment of ``text`` (paragraphs kept, lines wrapped at 80), every
    character that acts on text or hides in it written as its escape
    (``compiler/common/visible.py``: ``\\u202e``, as the Python module's docstring)."""
    text = text.replace("*/", "*\\/").replace("``", "`")
    width = max(40, 80 - len(indent) - 3)
    lines: list[str] = []
    for paragraph in text.strip(SPACES).split("\n\n"):
        if lines:
            lines.append("")
        lines += textwrap.wrap(
            visible(fold(paragraph)),
            width,
            break_long_words=False,
            break_on_hyphens=False,
        ) or [""]
    if len(lines) == 1 and len(lines[0]) + len(indent) + 7 <= 80:
        return f"/** {lines[0]} */"
    body = "\n".join(f"{indent} *{' ' + line if line else ''}" for line in lines)
    return f"/**\n{body}\n{indent} */"


def where(rule: RuleBase) -> str:
    return f"Rule `{rule.qualified_id}` ({rule.loc})."


def ts_column_type(col: Column) -> str:
    """A field's TypeScript type."""
    if col.type in ("record", "state") or col.items in ("choice", "record"):
        from ..value_code import ts_held

        return ts_held(col)
    enum = jsname(col.enum) if col.enum else None
    if col.type == "list":  # a frozen array of the elements
        item = (
            enum
            or {"int": "number", "bool": "boolean", "text": "string"}[str(col.items)]
        )
        return f"readonly {item}[]"
    base = (
        enum
        or {
            "int": "number",
            "text": "string",
            "bool": "boolean",
            "dice": "$dice.Dice",
            "range": "readonly [number, number]",
        }[col.type]
    )
    return f"{base} | null" if col.nullable else base


def enum_view(enum: EnumType, what: str) -> View:
    """A set of labels: the frozen object (and, for a ladder, its compare)."""
    return {
        "name": jsname(enum.name),
        "ordered": enum.ordered,
        "doc": doc(f"{what} ({enum.loc})."),
        "members": [
            {"name": m.name, "literal": js_string(m.label)} for m in enum.members
        ],
        "union": " | ".join(js_string(m.label) for m in enum.members),
    }


def member(enum: EnumType, label: str) -> str:
    """The JavaScript reference to a label of a set: ``Size.LARGE``."""
    return f"{jsname(enum.name)}.{enum.member(label).name}"


def record_view(name: str, columns: Sequence[Any], what: str) -> View:
    """A record type: its interface's fields and the shape its objects carry.

    ``columns`` are anything with ``name``, ``description`` and ``title``
    (table columns, a decision's slots); ``type`` is given by each item's
    ``ts`` when present, else as a column's.
    """
    fields = []
    for c in columns:
        fields.append(
            {
                "js": jsname(c.name),
                "py": c.name,
                "json_key": js_string(c.name),
                "ts": getattr(c, "ts", None) or ts_column_type(c),
                "doc": doc(c.description or c.title, "  "),
            }
        )
    return {
        "name": jsname(name),
        "shape": private_constant(name, "fields"),
        "doc": doc(what),
        "fields": fields,
        "pairs": ", ".join(
            f"[{js_string(f['js'])}, {js_string(f['py'])}]" for f in fields
        ),
        "methods": [],  # a record's methods (name, returns, doc), if it has any
    }


def record_literal(shape: str, values: Sequence[tuple[str, str]], indent: str) -> str:
    """``$json.record(SHAPE, { field: value, ... })``, one field a line."""
    inner = indent + "  "
    items = "".join(f"{inner}{jsname(name)}: {value},\n" for name, value in values)
    return f"$json.record({shape}, {{\n{items}{indent}}})"


# -- parameters ----------------------------------------------------------------------


def _bounds(param: Param) -> Interval:
    lo = param.min if param.min is not None else -MAX_SAFE
    hi = (
        param.max
        if param.max is not None
        else param.limit
        if param.limit is not None
        else MAX_SAFE
    )
    return Interval(lo, hi)


def param_bounds(params: Sequence[Param]) -> dict[str, Interval]:
    """Each int parameter's range as a call can give it (within the safe integers)."""
    return {p.name: _bounds(p) for p in params if p.type == "int"}


def local(param: Param) -> str:
    """The name of a parameter's checked value in a generated function body."""
    name = jsname(param.name)
    return f"{name}$" if param.type == "mapping" or param.spec is not None else name


def param_view(system: System, param: Param, rule_id: str) -> View:
    """A parameter: its name, TypeScript type, default and the lines that check it."""
    name = jsname(param.name)
    view: View = {
        "name": name,
        "py": param.name,
        "keyword_only": param.keyword_only,
        "optional": param.has_default or param.default_call is not None,
        "default": None,
        "enum": None,
    }
    if param.spec is not None:  # a text, a list, a record or a state
        from ..value_code import (
            js_spec,
            ts_given,
        )

        if param.has_default:
            view["default"] = js(param.default)
        ts = ts_given(param.spec)
        if param.has_default and param.default is None:
            ts += " | null"
        check = f"{js_spec(param.spec)}({name}, {js_string(name)})"
        return view | {"ts": ts, "lines": [f"const {name}$ = {check};"]}
    if param.type == "mapping":
        assert param.enum is not None and param.value_enum is not None
        keys, values = param.enum, param.value_enum
        keys_js, values_js = jsname(keys.name), jsname(values.name)
        coerce = f"$.mapping({keys_js}, {values_js}, {name}, {js_string(name)})"
        value = coerce
        if param.default_call is not None:
            function, args = param.default_call
            value = (
                f"{name} === null ? {call_of(system, function, dict(args))} : {coerce}"
            )
            view["default"] = "null"
        # a value for every key, as the run time checks (labels as the rules spell them)
        ts = (
            f"Readonly<Record<{keys_js}, {values_js}>>"
            f" | ReadonlyMap<{keys_js}, {values_js}>"
        )
        return view | {
            "ts": ts + (" | null" if param.default_call is not None else ""),
            "lines": [f"const {name}$ = {value};"],
        }
    if param.type == "choice":
        assert param.enum is not None
        if param.owns_enum:
            view["enum"] = enum_view(
                param.enum,
                f"The choices of parameter `{name}` of rule `{rule_id}`",
            )
        enum = jsname(param.enum.name)
        if param.has_default:
            view["default"] = (
                "null"
                if param.default is None
                else member(param.enum, str(param.default))
            )
        return view | {
            # the labels as the rules spell them (run time also takes other cases)
            "ts": enum + (" | null" if param.nullable else ""),
            "lines": [check_line(check) for check in argument_checks(param)],
        }
    if param.has_default:
        view["default"] = js(param.default)
    lines = [check_line(check) for check in argument_checks(param)]
    if param.type == "bool":
        return view | {"ts": "boolean", "lines": lines}
    if param.one_of:
        return view | {"ts": " | ".join(map(str, param.one_of)), "lines": lines}
    return view | {"ts": "number", "lines": lines}


def check_line(check: Check) -> str:
    """The JavaScript line that makes a check of an argument (a label's:
    ``$.choice`` reads it, as its set has it)."""
    name = jsname(check.name)
    given = f"{name}, {js_string(name)}"
    if check.what == "label":
        coerce = f"{name} = $.choice({jsname(check.enum or '')}, {given});"
        return f"if ({name} !== null) {coerce}" if check.nullable else coerce
    if check.what == "flag":
        return f'if (typeof {name} !== "boolean") throw $.badBool({given});'
    if check.what == "limit":
        limits = f"{js(check.lo)}, {js(check.hi)}"
        return f"if ({name} > {js(check.hi)}) throw $.pastLimit({given}, {limits});"
    if check.what == "one_of":
        listed = f"[{', '.join(map(str, check.values))}]"
        return f"if (!{listed}.includes({name})) throw $.notOneOf({given}, {listed});"
    test = f"!$.isInt({name})"
    if check.lo is not None:
        test += f" || {name} < {js(check.lo)}"
    if check.hi is not None:
        test += f" || {name} > {js(check.hi)}"
    return f"if ({test}) throw $.badInt({given}, {js(check.lo)}, {js(check.hi)});"


RNG_VIEW: View = {
    "name": RNG,
    "keyword_only": False,
    "optional": False,
    "default": None,
    "ts": "$dice.RNG",
}
"""The rng, as a parameter of a function that rolls."""


def with_rng(views: Sequence[View], params: Sequence[Param]) -> list[View]:
    """The parameters of a function that rolls: the rng where both languages
    take it (``viewkit.rng_at``: after the positional ones without a default)."""
    at = rng_at(params)
    return [*views[:at], RNG_VIEW, *views[at:]]


def signature(views: Sequence[View], fn: str) -> View:
    """A function's parameters in JavaScript and TypeScript: positional ones
    in order, the keyword-only ones in a trailing options object."""
    positional = [v for v in views if not v["keyword_only"]]
    options = [v for v in views if v["keyword_only"]]
    js_parts = [
        v["name"] + (f" = {v['default']}" if v["default"] is not None else "")
        for v in positional
    ]
    ts_parts = [f"{v['name']}{'?' * v['optional']}: {v['ts']}" for v in positional]
    lines = []
    if options:
        js_parts.append(f"{OPTIONS} = undefined")
        fields = "; ".join(
            f"readonly {v['name']}{'?' * v['optional']}: {v['ts']}" for v in options
        )
        required = any(not v["optional"] for v in options)
        ts_parts.append(f"options{'' if required else '?'}: {{ {fields} }}")
        names = ", ".join(js_string(v["name"]) for v in options)
        unpacked = ", ".join(
            v["name"] + (f" = {v['default']}" if v["default"] is not None else "")
            for v in options
        )
        lines.append(
            f"let {{ {unpacked} }} = $.options({OPTIONS}, [{names}], {js_string(fn)});"
        )
    return {"js": ", ".join(js_parts), "ts": ", ".join(ts_parts), "unpack": lines}


def call_of(system: System, function: str, kwargs: dict[str, Any]) -> str:
    """A JavaScript call of another rule's function, its arguments given by
    their Python names (positional ones in order, keyword-only in options)."""
    rule = next(r for r in system.rules if getattr(r, "function", None) == function)
    params: Sequence[Param] = getattr(rule, "params", ())
    args = [
        js(kwargs[p.name]) for p in params if not p.keyword_only and p.name in kwargs
    ]
    options = [
        f"{jsname(p.name)}: {js(kwargs[p.name])}"
        for p in params
        if p.keyword_only and p.name in kwargs
    ]
    if options:
        args.append("{ " + ", ".join(options) + " }")
    return f"{jsname(function)}({', '.join(args)})"


def args_doc(params: Sequence[Param], allowed: Any) -> str:
    """The ``@param`` lines of a function's doc comment (``allowed(param)``
    says which values a parameter takes)."""
    lines = []
    for p in params:
        values = allowed(p)
        if p.type == "choice":
            values = (
                "a label in any case: " + values + (", or null" if p.nullable else "")
            )
        name = f"options.{jsname(p.name)}" if p.keyword_only else jsname(p.name)
        lines.append(f"@param {name} {p.description.rstrip('.')}. Allowed: {values}.")
    return "\n\n".join(lines)


# -- expressions -------------------------------------------------------------------


def expression(
    system: System,
    node: Any,
    params: Sequence[Param],
    tables: dict[str, str],
    renames: Mapping[str, str] | None = None,
) -> str:
    """A checked expression of a rule as JavaScript, in a function whose
    parameters ``params`` have been checked; ``tables`` names each table's rows
    (a Map by label) by the table's function name; ``renames`` gives the code
    of other names it reads."""
    from .expr import to_javascript

    enums = {e.name: e for e in system.enums}
    by_param = {p.name: p for p in params}
    bounds = param_bounds(params)

    def name(n: str) -> str:
        if renames is not None and n in renames and n not in by_param:
            return renames[n]
        if n in by_param:
            return local(by_param[n])
        # the names of the odds code (expr_odds) stand for values: as they are
        return n if n.startswith(PLACEHOLDER) else jsname(n)

    def choice(param: str, label: str) -> str:
        enum = by_param[param].enum
        assert enum is not None
        return member(enum, label)

    return to_javascript(
        node,
        rounding=system.rounding,
        name=name,
        field=jsname,
        bounds=lambda n: bounds.get(n, Interval(-MAX_SAFE, MAX_SAFE)),
        lookup=lambda table, key: f"{tables[table]}.get({key})",
        label=lambda enum, label: member(enums[enum], label),
        choice=choice,
        function=jsname,
    )
