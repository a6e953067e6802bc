"""View kit: the pieces the emitters' view-models are made of (parameters, enums, dice, a rule's reads), printed for each target."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..common.limits import MAX_EXACT
from ..core.checks import Check, argument_checks
from ..core.viewkit import (
    Import,
    View,
    bounds,
    grouped,
    rng_at,
    type_words,
)
from ..front.model import (
    Column,
    EnumType,
    Param,
    RuleBase,
    System,
)
from ..lang.naming import (
    label_alias,
    private_constant,
    words_of,
)
from ..lang.py_names import (
    RNG,
    pyname,
)
from ..runtime.dice import Dice
from .literals import (
    code,
    docstring,
    md,
    md_cell,
    number,
    py,
)
from .markdown.charts import dice_chart
from .markdown.words import label_words


def all_enums(system: System) -> tuple[EnumType, ...]:
    """Every enum the system's module defines (each kind names its own)."""
    return system.enums


def enum_imports(enum: EnumType) -> list[Import]:
    """What a generated enum (and its labels' type alias) needs imported."""
    base = "Ladder" if enum.ordered else "Label"
    return [
        ("rulebook._support", base),
        ("rulebook._support", "choice"),
        ("typing", "Literal"),
        ("typing", "TypeAlias"),
    ]


def label_type(enum: EnumType) -> str:
    """The type of an argument naming a member: the member, or its exact label."""
    return f"{pyname(enum.name)} | {alias_name(enum.name)}"


def alias_name(enum: str) -> str:
    """The Python name of the type alias of an enum's labels."""
    return pyname(label_alias(enum))


def enum_view(enum: EnumType, what: str) -> View:
    name = pyname(enum.name)
    return {
        "name": name,
        "ordered": enum.ordered,
        "base": "Ladder" if enum.ordered else "Label",
        "doc": docstring(f"{what} ({enum.loc}).", "    "),
        "members": [{"name": m.name, "literal": py(m.label)} for m in enum.members],
        "by_label": private_constant(enum.name, "by_label"),
        "alias": alias_name(enum.name),
        "labels": ", ".join(py(m.label) for m in enum.members),
        "alias_doc": docstring(
            f"The labels of :class:`{name}`, exactly as the rules write them: "
            "what a type checker takes where a member is asked for (run time also "
            "takes them in any case)."
        ),
    }


def column_type(col: Column) -> str:
    """A field's Python type."""
    if col.type in ("record", "state") or col.items in ("choice", "record"):
        from ..emit.value_code import py_held

        return py_held(col)
    enum = pyname(col.enum) if col.enum else None
    if col.type == "list":  # an immutable tuple of the elements
        item = enum or {"int": "int", "bool": "bool", "text": "str"}[str(col.items)]
        return f"tuple[{item}, ...]"
    base = (
        enum
        or {
            "int": "int",
            "text": "str",
            "bool": "bool",
            "dice": "Dice",
            "range": "tuple[int, int]",
        }[col.type]
    )
    return f"{base} | None" if col.nullable else base


def local_name(param: Param) -> str:
    """The name a parameter's checked value has in a generated Python function
    body (a mapping's checked copy: a name of the code's own, ``_`` first)."""
    return f"_{param.name}_map" if param.type == "mapping" else pyname(param.name)


def mapping_annotation(keys: EnumType, values: EnumType) -> str:
    """The type of a mapping argument: members, labels, or a mix of both (a
    ``LabelMapping`` is a ``Mapping`` whose key type is covariant, so a
    ``dict[Key, Value]`` fits as well as a dict of labels)."""
    return f"LabelMapping[{label_type(keys)}, {label_type(values)}]"


def _mapping_param_view(param: Param) -> View:
    assert param.enum is not None and param.value_enum is not None
    keys, values = param.enum, param.value_enum
    name = pyname(param.name)
    coerce = (
        f"mapping({pyname(keys.name)}, {private_constant(keys.name, 'by_label')}, "
        f"{pyname(values.name)}, {private_constant(values.name, 'by_label')}, "
        f"{name}, {name!r})"
    )
    local = local_name(param)
    lines = [f"{local} = {coerce}"]
    if param.default_call is not None:
        function, args = param.default_call
        call = (
            f"{pyname(function)}("
            + ", ".join(f"{pyname(k)}={py(v)}" for k, v in args)
            + ")"
        )
        lines = [f"{local} = {call} if {name} is None else {coerce}"]
    return {
        "name": name,
        "annotation": mapping_annotation(keys, values)
        + (" | None" if param.default_call is not None else ""),
        "default": "None" if param.default_call is not None else None,
        "lines": lines,
    }


def _value_param_view(param: Param) -> View:
    """A parameter that is a text, a list, a record or a state: given as any
    sequence (a list), as its class or a mapping of its fields (a record),
    checked by its spec (``rulebook._values``) into what the rule reads."""
    from ..emit.value_code import (
        py_given,
        py_spec,
    )

    assert param.spec is not None
    name = pyname(param.name)
    enum = param.enum
    given = py_given(param.spec, lambda _: label_type(enum) if enum else "str")
    default = None
    if param.has_default:
        default = py(param.default)
        given = given if param.default is not None else f"{given} | None"
    return {
        "name": name,
        "annotation": given,
        "default": default,
        "lines": [f"{name} = {py_spec(param.spec)}.check({name}, {name!r})"],
    }


def param_view(param: Param, rule_id: str) -> View:
    """A parameter of a generated Python function: its name, annotation,
    default and the lines that check it."""
    name = pyname(param.name)
    view: View = {"name": name}
    if param.type == "mapping":
        return _mapping_param_view(param)
    if param.spec is not None:  # a text, a list, a record or a state
        return _value_param_view(param)
    if param.type == "choice":
        assert param.enum is not None
        enum = enum_view(
            param.enum,
            f"The choices of parameter ``{name}`` of rule ``{rule_id}``",
        )
        default = None
        if param.has_default:
            default = (
                "None"
                if param.default is None
                else f"{enum['name']}.{param.enum.member(str(param.default)).name}"
            )
        view |= {
            "enum": enum,
            "annotation": label_type(param.enum)
            + (" | None" if param.nullable else ""),
            "default": default,
            "lines": [
                line
                for check in argument_checks(param)
                for line in check_lines(check, (enum["name"], enum["by_label"]))
            ],
        }
        return view
    lines = [line for check in argument_checks(param) for line in check_lines(check)]
    view |= {
        "annotation": "bool" if param.type == "bool" else "int",
        "default": py(param.default) if param.has_default else None,
        "lines": lines,
    }
    return view


def check_lines(check: Check, labels: tuple[str, str] = ("", "")) -> list[str]:
    """The Python lines that make a check of an argument (``labels``: the
    class of a label's set and its members by label, which ``choice`` reads)."""
    name = pyname(check.name)
    if check.what == "label":
        kind, by_label = labels
        coerce = f"{name} = choice({kind}, {by_label}, {name}, {name!r})"
        return (
            [f"if {name} is not None:", f"    {coerce}"] if check.nullable else [coerce]
        )
    if check.what == "flag":
        return raise_if(f"type({name}) is not bool", f"bad_bool({name}, {name!r})")
    if check.what == "limit":
        limits = f"{py(check.lo)}, {check.hi}"
        return raise_if(
            f"{name} > {check.hi}", f"past_limit({name}, {name!r}, {limits})"
        )
    if check.what == "one_of":
        values = ", ".join(map(str, check.values))
        values = f"({values}{',' * (len(check.values) == 1)})"
        refused = f"not_one_of({name}, {name!r}, {values})"
        return raise_if(f"{name} not in {values}", refused)
    lo = -MAX_EXACT if check.lo is None else check.lo  # as JavaScript takes it
    hi = MAX_EXACT if check.hi is None else check.hi
    test = f"type({name}) is not int or not {lo} <= {name} <= {hi}"
    return raise_if(test, f"bad_int({name}, {name!r}, {py(check.lo)}, {py(check.hi)})")


def signature(views: list[View], params: tuple[Param, ...], rolls: bool = False) -> str:
    """A function's parameter list, with a * before the keyword-only ones (and,
    for one that ``rolls``, the rng where ``rng_at`` puts it)."""
    parts = []
    at = rng_at(params) if rolls else -1
    for index, (view, param) in enumerate(zip(views, params, strict=True)):
        if index == at:
            parts.append(f"{RNG}: RNG")
        if param.keyword_only and "*" not in parts:
            parts.append("*")
        default = f" = {view['default']}" if view["default"] is not None else ""
        parts.append(f"{view['name']}: {view['annotation']}{default}")
    if at == len(params):
        parts.append(f"{RNG}: RNG")
    return ", ".join(parts)


def raise_if(test: str, error: str) -> list[str]:
    return [f"if {test}:", f"    raise {error}"]


def param_imports(params: tuple[Param, ...]) -> list[Import]:
    """What the argument checks of these parameters need imported."""
    found: list[Import] = []
    for p in params:
        if p.spec is not None:
            found.append(("rulebook", "_values"))
            if p.spec.type == "list":
                found.append(("collections.abc", "Sequence"))
            if "record" in (p.spec.type, p.spec.items):
                found.append(("collections.abc", "Mapping"))
            if p.enum is not None:
                found += enum_imports(p.enum)
        elif p.type == "mapping":
            found += [
                ("rulebook._support", "LabelMapping"),
                ("rulebook._support", "mapping"),
            ]
        elif p.enum is not None:
            found += enum_imports(p.enum)
        elif p.type == "bool":
            found.append(("rulebook._support", "bad_bool"))
        else:
            found.append(("rulebook._support", "bad_int"))
            if p.limit is not None:
                found.append(("rulebook._support", "past_limit"))
            if p.one_of:
                found.append(("rulebook._support", "not_one_of"))
    return found


def _dice_text(dice: Dice) -> str:
    return str(dice) + (f" {dice.unit}" if dice.unit else "")


def dice_stats(dice: Dice) -> View:
    return {
        "notation": code(str(dice), in_table=True),
        "unit": md_cell(dice.unit or ""),
        "range": f"{dice.min} to {dice.max}",
        "mean": number(dice.mean),
        "chart": dice_chart(dice),
    }


def cell_md(col: Column, value: object) -> str:
    if value is None:
        return md_cell(col.null_label)
    if isinstance(value, Dice):
        return md_cell(_dice_text(value))
    if isinstance(value, tuple):
        low, high = value
        return str(low) if low == high else f"{low}-{high}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        text = f"{value:+d}" if col.signed else str(value)
        unit = col.unit or ""
        joiner = "" if unit == "%" else " "
        return md_cell(f"{text}{joiner}{unit}" if unit else text)
    return md_cell(str(value))


def allowed(param: Param) -> str:
    """The values a parameter takes, as the docs say them."""
    if param.spec is not None:
        return type_words(param.spec)
    if param.type == "mapping" and param.enum is not None and param.value_enum:
        keys = ", ".join(m.label for m in param.enum.members)
        values = ", ".join(m.label for m in param.value_enum.members)
        return f"a mapping of each of {keys} to one of {values}"
    if param.enum is not None:
        return ", ".join(m.label for m in param.enum.members)
    if param.type == "bool":
        return "true or false"
    if param.one_of:
        return "one of " + ", ".join(grouped(v) for v in param.one_of)
    return bounds(param.min, param.max)


def type_text(param: Param) -> str:
    """A parameter's type as the docs write it."""
    if param.spec is not None:
        from ..emit.value_code import py_given

        enum = param.enum
        return py_given(param.spec, lambda _: pyname(enum.name) if enum else "str")
    if param.type == "mapping" and param.enum is not None and param.value_enum:
        return f"Mapping[{pyname(param.enum.name)}, {pyname(param.value_enum.name)}]"
    if param.enum is not None:
        return pyname(param.enum.name) + (" | None" if param.nullable else "")
    return param.type


def args_doc(params: Sequence[Param]) -> str:
    """The ``Args:`` paragraph of a generated function's docstring."""
    if not params:
        return ""
    lines = []
    for p in params:
        values = allowed(p)
        if p.type == "choice":
            values = "a member, or its label in any case: " + values
            if p.nullable:
                values += ", or None"
        lines.append(
            f"{pyname(p.name)}: {p.description.rstrip('.')}. Allowed: {values}."
        )
    return "\n\nArgs:\n" + "\n".join(lines)


def rule_link(rule: RuleBase) -> str:
    """A link from one rule's page to another rule of the same system."""
    return f"[{md_cell(rule.title)}]({rule.id}.md)"


def api(
    common: View,
    *paragraphs: str,
    params: Sequence[Param] = (),
    fields: Sequence[View] = (),
    fields_title: str = "Fields of the answer",
) -> View:
    """The programmer's section of a rule's page: ``paragraphs`` (the call, its
    key...), a table of ``params`` with their types, and the answer's ``fields``
    (each ``{name, type, title, description}``, already Markdown)."""
    base: View = common["api"]
    return base | {
        "paragraphs": list(paragraphs),
        "params": [
            {
                "name": code(pyname(p.name)),
                "type": code(type_text(p), in_table=True),
                "allowed": md_cell(allowed(p)),
                "default": code(repr(p.default), in_table=True)
                if p.has_default
                else " ",
                "description": md_cell(p.description),
            }
            for p in params
        ],
        "fields": list(fields),
        "fields_title": fields_title,
    }


def reader_name(param: Param) -> str:
    """A parameter as a reader says it, in italics: its title, or its name in
    words (``climb_bonus``: *climb bonus*)."""
    return f"*{md_cell(param.title or words_of(param.name))}*"


def _values(p: Param) -> str:
    """The values a parameter takes, as a sentence for a reader."""
    if p.spec is not None:
        text = allowed(p)
        return md(text[:1].upper() + text[1:])
    if p.type == "bool":
        return "Yes or no"
    if p.type == "int" and p.one_of:
        return md("O" + allowed(p)[1:])
    if p.type == "int":
        text = bounds(p.min, p.max)
        return md(text[:1].upper() + text[1:])
    if p.type == "mapping":
        return "For " + md(allowed(p)).removeprefix("a mapping of ")
    assert p.enum is not None
    values = ", ".join(md_cell(label_words(m.label)) for m in p.enum.members)
    return f"One of {values}" + (", or none" if p.nullable else "")


def inputs(params: Sequence[Param]) -> list[str]:
    """What a reader gives a rule: each parameter in words, what it means and the
    values it takes, as one line of Markdown each."""
    found = []
    for p in params:
        line = f"{reader_name(p)}: {md(p.description.rstrip('.'))}. "
        line += _values(p)
        if p.default_said is not None:
            line += f"; unless given, {_default_call_words(p.default_said)}"
        elif p.has_default:
            line += f"; {_default_words(p.default)} unless given"
        found.append(line + ".")
    return found


def _default_words(value: int | bool | str | None) -> str:
    """A parameter's default value as a reader says it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return md_cell(label_words(value))
    return md(str(value))


def _default_call_words(call: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    """A default the runtime computes by calling another rule, in words: what
    that rule answers (by its title), with the arguments it is called with."""
    title, args = call
    given = [f"*{md_cell(k)}*: {_default_words(v)}" for k, v in args]
    with_ = (" given " + ", ".join(given)) if given else ""
    return f"what “{md(title)}” answers{with_}"
