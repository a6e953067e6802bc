"""What the workbench commands share: the rules built in memory and their runtime,
rules found by name, inputs read from the command line, and answers shown in
words a rules editor reads (labels, units, yes/no), with small text charts.
"""

from __future__ import annotations

import difflib
import enum
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ..front.model import (
    Column,
    Loc,
    Param,
)
from ..lang.py_names import (
    pyname,
    rules_name,
)
from .text import aligned, humanize, number, percent, wrap, yes_no
from .usage import UsageError, whole_number

__all__ = [
    "UsageError",
    "aligned",
    "humanize",
    "number",
    "percent",
    "wrap",
    "yes_no",
]


# -- a rule's inputs ----------------------------------------------------------------

# "ints": a run of whole numbers (die results), given in order; "list": a
# list of whole numbers given as one argument; "record": a record's fields.
InputKind = Literal[
    "int",
    "ints",
    "list",
    "record",
    "bool",
    "choice",
    "mapping",
    "text",
    "rng",
    "other",
]


@dataclass(frozen=True)
class Input:
    """One parameter of a generated function, as the command line fills it."""

    name: str
    kind: InputKind
    required: bool
    default: Any
    nullable: bool = False
    labels: tuple[str, ...] = ()  # a choice's labels; a mapping's keys
    values: tuple[str, ...] = ()  # a mapping's value labels
    keyword_only: bool = False
    description: str | None = None
    lo: int | None = None
    hi: int | None = None
    one_of: tuple[int, ...] = ()  # an int that is one of these

    def allowed(self) -> str:
        if self.kind == "choice":
            text = ", ".join(self.labels)
            return text + (", or none" if self.nullable else "")
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int" and self.one_of:
            return "one of " + ", ".join(map(str, self.one_of))
        if self.kind == "int":
            if self.lo is None and self.hi is None:
                return "a whole number"
            if self.hi is None:
                return f"a whole number, at least {self.lo}"
            if self.lo is None:
                return f"a whole number, at most {self.hi}"
            return f"a whole number from {self.lo} to {self.hi}"
        if self.kind == "ints":
            return f"whole numbers from {self.lo} to {self.hi}, in order"
        if self.kind == "list":
            return f"a list of whole numbers from {self.lo} to {self.hi}: 1,2,3"
        if self.kind == "record":
            return 'the fields of a record, as a JSON object: {"field": 1, ...}'
        if self.kind == "mapping":
            return (
                "KEY:VALUE,... for every key of "
                + ", ".join(self.labels)
                + " (values "
                + ", ".join(self.values)
                + ")"
            )
        return "text"


def _sequence_of(args: tuple[Any, ...]) -> Any:
    """The items' type of a ``Sequence[...]`` among a hint's types, or None."""
    for arg in args:
        origin = typing.get_origin(arg)
        if origin is not None and getattr(origin, "__name__", "") == "Sequence":
            (item,) = typing.get_args(arg)
            return item
    return None


def _union(hint: Any) -> tuple[Any, ...]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(a for arg in typing.get_args(hint) for a in _union(arg))
    return (hint,)


def _enum_of(hint: Any) -> type[enum.Enum] | None:
    for arg in _union(hint):
        if isinstance(arg, type) and issubclass(arg, enum.Enum):
            return arg
    return None


def _labels(kind: type[enum.Enum]) -> tuple[str, ...]:
    return tuple(str(m.value) for m in kind)


def inputs_of(
    function: Callable[..., Any], declared: Mapping[str, Param] | None = None
) -> list[Input]:
    """The parameters of a generated function, typed from its annotations
    (and described, with their ranges, by the rule's ``declared`` parameters)."""
    hints = typing.get_type_hints(function)
    declared = declared or {}
    found = []
    for param in inspect.signature(function).parameters.values():
        if param.name == "self":
            continue
        hint = hints.get(param.name, Any)
        args = _union(hint)
        nullable = type(None) in args
        required = param.default is inspect.Parameter.empty
        default = None if required else param.default
        keyword_only = param.kind is inspect.Parameter.KEYWORD_ONLY
        spec = declared.get(rules_name(param.name))
        extra: dict[str, Any] = {
            "nullable": nullable,
            "keyword_only": keyword_only,
            "description": spec.description if spec is not None else None,
            "lo": spec.min if spec is not None else None,
            "hi": spec.max if spec is not None else None,
            "one_of": spec.one_of if spec is not None else (),
        }
        names = {getattr(a, "__name__", "") for a in args}
        mapping = next(
            (
                a
                for a in args
                if typing.get_origin(a) is not None
                and getattr(typing.get_origin(a), "__name__", "")
                in ("Mapping", "LabelMapping")
                and _enum_of(typing.get_args(a)[0]) is not None
            ),
            None,
        )
        kind: InputKind
        labels: tuple[str, ...] = ()
        values: tuple[str, ...] = ()
        if "RNG" in names:
            kind = "rng"
        elif _sequence_of(args) is int:
            kind = "list"
        elif any(
            getattr(a, "__name__", "") == "Mapping" or typing.get_origin(a) is Mapping
            for a in args
        ) and any(isinstance(a, type) and hasattr(a, "FIELDS") for a in args):
            kind = "record"
        elif mapping is not None:
            key, value = typing.get_args(mapping)
            key_enum, value_enum = _enum_of(key), _enum_of(value)
            kind = "mapping"
            labels = _labels(key_enum) if key_enum else ()
            values = _labels(value_enum) if value_enum else ()
        elif (choice := _enum_of(hint)) is not None:
            kind, labels = "choice", _labels(choice)
        elif bool in args:
            kind = "bool"
        elif int in args:
            kind = "int"
        elif str in args:
            kind = "text"
        else:
            kind = "other"
        found.append(
            Input(
                param.name,
                kind,
                required,
                default,
                labels=labels,
                values=values,
                **extra,
            )
        )
    return found


_TRUE = {"true", "yes", "y", "on", "1"}
_FALSE = {"false", "no", "n", "off", "0"}
_NONE = {"none", "null", "-"}


def read_value(spec: Input, text: str) -> Any:
    """An input's value from its text on the command line (labels canonical)."""
    word = text.strip()
    if spec.nullable and word.casefold() in _NONE:
        return None
    if spec.kind == "int":
        return whole_number(text, spec.name, spec.allowed())
    if spec.kind == "bool":
        if word.casefold() in _TRUE:
            return True
        if word.casefold() in _FALSE:
            return False
        raise UsageError(f"{spec.name} takes true or false, not {text!r}")
    if spec.kind == "choice":
        return _label(spec.name, spec.labels, word, spec.nullable)
    if spec.kind == "mapping":
        return _mapping(spec, word)
    if spec.kind == "list":
        return _whole_numbers(spec, word)
    if spec.kind == "record":
        return _json_object(spec, word)
    if spec.kind in ("rng", "other"):
        raise UsageError(f"{spec.name} cannot be given on the command line")
    return text


def _label(name: str, labels: Sequence[str], word: str, nullable: bool) -> str:
    for label in labels:
        if label.casefold() == word.casefold():
            return label
    close = difflib.get_close_matches(word, labels, n=1, cutoff=0.6)
    choices = ", ".join(labels) + (", none" if nullable else "")
    hint = f"did you mean {close[0]}?" if close else None
    raise UsageError(f"{name} is one of {choices}; not {word!r}", hint)


def _whole_numbers(spec: Input, word: str) -> list[int]:
    """A list of whole numbers: ``1,2,3`` (or ``[1, 2, 3]``, ``1 2 3``)."""
    parts = [p for p in word.strip("[] ").replace(",", " ").split() if p]
    return [whole_number(part, spec.name, spec.allowed()) for part in parts]


def _json_object(spec: Input, word: str) -> dict[str, Any]:
    """A record's fields, as a JSON object."""
    try:
        data = json.loads(word)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{spec.name}: not a JSON object: {exc.msg}", spec.allowed()
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{spec.name}: give a JSON object", spec.allowed())
    return data


def _mapping(spec: Input, word: str) -> dict[str, str]:
    if word.startswith("{"):
        try:
            data = json.loads(word)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{spec.name}: not a JSON object: {exc.msg}") from None
        if not isinstance(data, dict):
            raise UsageError(f"{spec.name}: give a JSON object")
        pairs = [(str(k), str(v)) for k, v in data.items()]
    else:
        pairs = []
        for part in filter(None, (p.strip() for p in word.split(","))):
            key, colon, value = part.rpartition(":")
            if not colon:
                raise UsageError(
                    f"{spec.name} takes KEY:VALUE pairs separated by commas, not {part!r}",
                    spec.allowed(),
                )
            pairs.append((key.strip(), value.strip()))
    given = {
        _label(f"{spec.name} key", spec.labels, k, False): _label(
            f"{spec.name}[{k}]", spec.values, v, False
        )
        for k, v in pairs
    }
    missing = [k for k in spec.labels if k not in given]
    if missing:  # the rule reads every key: one left out is the user's to give
        raise UsageError(
            f"{spec.name} has no value for {', '.join(missing)}", spec.allowed()
        )
    return given


def read_inputs(specs: Sequence[Input], words: Sequence[str]) -> dict[str, Any]:
    """Inputs from ``name=value`` words and values in parameter order."""
    fillable = [s for s in specs if s.kind != "rng"]
    by_name = {s.name: s for s in fillable}
    given: dict[str, Any] = {}
    for word in words:
        name, eq, text = word.partition("=")
        name = name.strip().replace("-", "_")
        if eq and name not in by_name and pyname(name) in by_name:
            name = pyname(name)  # the rules' name of an input Python spells otherwise
        if eq and name in by_name:
            spec = by_name[name]
        elif eq and name.isidentifier():
            raise UsageError(
                f"no input {name!r}",
                "inputs: " + ", ".join(s.name for s in fillable),
            )
        else:
            text = word
            free = next((s for s in fillable if s.name not in given), None)
            if free is None:
                raise UsageError(
                    f"too many inputs: {word!r} is one more than the rule takes",
                    "inputs: " + (", ".join(s.name for s in fillable) or "none"),
                )
            spec = free
        if spec.name in given:
            raise UsageError(f"{spec.name} is given twice")
        given[spec.name] = read_value(spec, text)
    missing = [s.name for s in fillable if s.required and s.name not in given]
    if missing:
        raise UsageError(
            f"missing input{'s' if len(missing) > 1 else ''}: {', '.join(missing)}",
            "; ".join(
                f"{s.name}: {s.allowed()}" for s in fillable if s.name in missing
            ),
        )
    return given


# -- showing values -------------------------------------------------------------------


def show(value: Any, column: Column | None = None) -> str:
    """A value as the docs write it: labels, yes/no, units, N/A for null."""
    if value is None:
        return column.null_label if column is not None else "none"
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, int):
        text = f"{value:+d}" if column is not None and column.signed else str(value)
        unit = column.unit if column is not None else None
        if unit:
            return f"{text}{'' if unit == '%' else ' '}{unit}"
        return text
    if isinstance(value, Fraction):
        return number(value)
    if type(value).__name__ == "Dice" and hasattr(type(value), "FIELDS"):
        unit = getattr(value, "unit", None)
        return str(value) + (f" {unit}" if unit else "")
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(type(v) is int for v in value)
    ):
        low, high = value
        return str(low) if low == high else f"{low}-{high}"
    names = record_fields(value)
    if names is not None:
        inner = ", ".join(
            f"{k}={show(getattr(value, n))}"
            for n, k in zip(names, record_keys(value, names), strict=True)
        )
        return f"{type(value).__name__}({inner})"
    if isinstance(value, list | tuple):
        return ", ".join(show(v) for v in value) if value else "(none)"
    if isinstance(value, Mapping):
        return ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items())
    return str(value)


def record_fields(value: Any) -> list[str] | None:
    """The public fields of a record (of the runtime, or a named tuple), else None."""
    if isinstance(value, type):
        return None
    # a record of the runtime names its fields in FIELDS, a named tuple in _fields
    fields = getattr(type(value), "FIELDS", getattr(type(value), "_fields", None))
    if isinstance(fields, tuple):
        return [str(n) for n in fields if not str(n).startswith("_")]
    return None


def record_keys(value: Any, names: list[str]) -> list[str]:
    """The rules' names of a record's fields ``names`` (its JSON keys)."""
    keys = getattr(type(value), "_KEYS", None)
    return [str(k) for k in keys] if isinstance(keys, tuple) else names


def plain(value: Any) -> Any:
    """A JSON value for an answer: labels for enums, dicts for records."""
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else value.numerator
    if type(value).__name__ == "Dice" and hasattr(type(value), "FIELDS"):
        unit = getattr(value, "unit", None)
        return str(value) + (f" {unit}" if unit else "")
    if isinstance(value, Mapping):
        items = {str(plain(k)): plain(v) for k, v in value.items()}
        for extra in ("tail", "dramatic_failure"):  # a distribution's extras
            if hasattr(value, extra):
                items[extra] = plain(getattr(value, extra))
        return items
    names = record_fields(value)
    if names is not None:
        keys = record_keys(value, names)
        return {
            key: plain(getattr(value, name))
            for name, key in zip(names, keys, strict=True)
        }
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return repr(value)


def record_lines(
    value: Any, columns: Mapping[str, Column] | None = None, indent: str = "  "
) -> list[str]:
    """An answer, one line per field (a table for a list of records)."""
    columns = columns or {}
    names = record_fields(value)
    if names is not None:
        rows = []
        keys = record_keys(value, names)
        for name, key in zip(names, keys, strict=True):
            col = columns.get(key)
            item = getattr(value, name)
            title = f"{col.title} ({key})" if col is not None else humanize(key)
            if _records(item):
                rows.append((title, f"{len(item)} record(s)"))
                continue
            rows.append((title, show(item, col)))
        lines = aligned(rows, indent)
        for name, key in zip(names, keys, strict=True):
            item = getattr(value, name)
            if _records(item) and item:
                lines.append(f"{indent}{humanize(key)}:")
                lines += table_lines(item, indent + "  ")
        return lines
    if _records(value):
        return table_lines(value, indent) if value else [f"{indent}(none)"]
    if isinstance(value, Mapping) and value:
        return aligned([(show(k), show(v)) for k, v in value.items()], indent)
    if (
        isinstance(value, list | tuple)
        and value
        and all(isinstance(v, tuple) for v in value)
    ):
        return [f"{indent}{', '.join(show(x) for x in v)}" for v in value]
    return [f"{indent}{show(value)}"]


def _records(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and bool(value)
        and all(record_fields(v) is not None for v in value)
    )


def table_lines(records: Sequence[Any], indent: str = "  ") -> list[str]:
    """Records as a text table; columns that are empty in every record are left out."""
    names = record_fields(records[0]) or []
    cells = [
        [show(getattr(r, n)) if getattr(r, n) is not None else "" for n in names]
        for r in records
    ]
    keep = [i for i, n in enumerate(names) if any(row[i] for row in cells)]
    keys = record_keys(records[0], names)
    heads = [humanize(keys[i]) for i in keep]
    widths = [
        max(len(heads[j]), *(len(row[i]) for row in cells)) for j, i in enumerate(keep)
    ]
    lines = [
        indent
        + "  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()
    ]
    for row in cells:
        lines.append(
            indent
            + "  ".join(
                row[i].ljust(w) for i, w in zip(keep, widths, strict=True)
            ).rstrip()
        )
    return lines


def heading(text: str) -> str:
    return text


def loc_text(loc: Loc) -> str:
    return f"{loc.file}:{loc.line}"
