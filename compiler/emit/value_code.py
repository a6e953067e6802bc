"""Value code: a declared type (``Column``) as each target writes it: the type a value is held as, the type an argument is given as, and the spec that checks one.

A list is held as a tuple (Python) or a frozen array (JavaScript) and given as
any sequence (an array); a record as its class (an object of its shape) and
given as one or as a mapping of its fields by name; a state as its class. The
specs are the runtime's (``rulebook._values``, ``_values.js``): they check an
argument and answer it as the rule reads it, refusing it alike in both.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.ir import Carried
from ..front.model import Column
from ..lang.naming import private_constant
from ..lang.py_names import (
    pyattr,
    pyname,
)
from .javascript.expr import (
    safe_literal,
    string_literal,
)
from .javascript.names import jsname

__all__ = [
    "carried_column",
    "js_record_spec",
    "js_spec",
    "py_given",
    "py_held",
    "py_record_spec",
    "py_spec",
    "ts_given",
    "ts_held",
]

_PY = {"int": "int", "bool": "bool", "text": "str", "dice": "Dice"}
_TS = {"int": "number", "bool": "boolean", "text": "string", "dice": "$dice.Dice"}


def carried_column(value: Carried) -> Column:
    """A value turns carry, as a declared type."""
    return Column(
        value.name,
        "choice" if value.type == "choice" else value.type,
        False,
        "—",
        False,
        None,
        value.name,
        value.description,
        enum=value.enum.name if value.enum is not None else None,
        items=value.items,
        record=value.record,
        lo=value.lo,
        hi=value.hi,
    )


def _item(column: Column) -> Column:
    """A list's items as a column of their own."""
    kind = column.items or "int"
    return Column(
        column.name,
        kind,
        False,
        column.null_label,
        column.signed,
        column.unit,
        column.title,
        column.description,
        enum=column.enum,
        record=column.record,
        lo=column.lo,
        hi=column.hi,
    )


def _js(value: int | None) -> str:
    """A bound as a JavaScript literal."""
    return "null" if value is None else safe_literal(value)


def _nullable(text: str, column: Column, none: str) -> str:
    return f"{text} | {none}" if column.nullable else text


def py_held(column: Column) -> str:
    """The Python type a value of ``column``'s type is held as."""
    if column.type == "list":
        return f"tuple[{py_held(_item(column))}, ...]"
    if column.type in ("record", "state"):
        return _nullable(pyname(column.record or ""), column, "None")
    if column.type == "choice":
        return _nullable(pyname(column.enum or ""), column, "None")
    return _nullable(_PY.get(column.type, "object"), column, "None")


def py_given(column: Column, label: Callable[[str], str]) -> str:
    """The Python type an argument of ``column``'s type is given as
    (``label``: a set of labels' type, its members or their labels)."""
    if column.type == "list":
        return f"Sequence[{py_given(_item(column), label)}]"
    if column.type == "record":
        name = pyname(column.record or "")
        return _nullable(f"{name} | Mapping[str, object]", column, "None")
    if column.type == "choice":
        return _nullable(label(column.enum or ""), column, "None")
    return py_held(column)


def py_record_spec(name: str, fields: tuple[Column, ...]) -> str:
    """The module's spec of a record type the rules declare (its fields'
    specs made when first asked for, so that records may hold each other)."""
    items = "".join(f"({c.name!r}, {pyattr(c.name)!r}, {py_spec(c)}), " for c in fields)
    kind = pyname(name)
    return (
        f"{private_constant(name, 'spec')}: Final[_values.Fields[{kind}]] = "
        f"_values.Fields({kind}, lambda: ({items}))"
    )


def js_record_spec(name: str, fields: tuple[Column, ...]) -> str:
    """The module's spec of a record type the rules declare, as ``py_record_spec``."""
    items = ", ".join(
        f"[{string_literal(c.name)}, {string_literal(jsname(c.name))}, {js_spec(c)}]"
        for c in fields
    )
    shape = private_constant(name, "fields")
    return (
        f"const {private_constant(name, 'spec')} = "
        f"$values.fields({shape}, () => [{items}]);"
    )


def py_spec(column: Column) -> str:
    """The runtime's spec (``_values``) that checks a value of ``column``'s type."""
    if column.type == "list":
        item = py_spec(_item(column))
        return f"_values.Listed({item}, {column.min_items}, {column.max_items})"
    if column.type == "record":
        spec = private_constant(column.record or "", "spec")
    elif column.type == "state":
        spec = f"_values.StateOf({pyname(column.record or '')})"
    elif column.type == "choice":
        enum = column.enum or ""
        spec = f"_values.Choice({pyname(enum)}, {private_constant(enum, 'by_label')})"
    elif column.type == "int":
        spec = f"_values.Int({column.lo!r}, {column.hi!r})"
    elif column.type == "bool":
        spec = "_values.Bool()"
    else:
        spec = "_values.Text()"
    return f"_values.Maybe({spec})" if column.nullable else spec


def ts_held(column: Column) -> str:
    """The TypeScript type a value of ``column``'s type is held as."""
    if column.type == "list":
        return f"readonly {ts_held(_item(column))}[]"
    if column.type in ("record", "state"):
        return _nullable(jsname(column.record or ""), column, "null")
    if column.type == "choice":
        return _nullable(jsname(column.enum or ""), column, "null")
    return _nullable(_TS.get(column.type, "unknown"), column, "null")


def ts_given(column: Column) -> str:
    """The TypeScript type an argument of ``column``'s type is given as."""
    if column.type == "list":
        return f"readonly {ts_given(_item(column))}[]"
    if column.type == "record":
        return _nullable(
            f'Omit<{jsname(column.record or "")}, "toJSON">', column, "null"
        )
    return ts_held(column)


def js_spec(column: Column) -> str:
    """The runtime's spec (``_values.js``) that checks a value of ``column``'s type."""
    if column.type == "list":
        item = js_spec(_item(column))
        return f"$values.listed({item}, {column.min_items}, {_js(column.max_items)})"
    if column.type == "record":
        spec = private_constant(column.record or "", "spec")
    elif column.type == "state":
        spec = f"$values.stateOf({jsname(column.record or '')})"
    elif column.type == "choice":
        spec = f"$values.label({jsname(column.enum or '')})"
    elif column.type == "int":
        spec = f"$values.int({_js(column.lo)}, {_js(column.hi)})"
    elif column.type == "bool":
        spec = "$values.bool()"
    else:
        spec = "$values.text()"
    return f"$values.maybe({spec})" if column.nullable else spec
