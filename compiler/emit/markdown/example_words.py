"""Example words: a worked example as a reader reads it, its inputs and answer in words.

A worked example is a call and its answer; a reader's page says it as a
sentence built from the rule's own titles: each input by its parameter's name
in words (*bonus* 4), the dice it scripts, and the answer by its fields'
titles and units ("Speed +4 ft."). The call itself, as code, is for
programmers (``pages``). No rule's words are written here: every title, unit
and label comes from the rules data, Markdown-escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.ir import (
    Function,
    Procedure,
    Record,
    State,
    Unit,
)
from ...front.model import (
    Column,
    Example,
    Param,
)
from ...lang.naming import words_of
from ..literals import md_cell
from ..viewkit import (
    cell_md,
)
from .words import (
    label_words,
    said_label,
)

__all__ = ["Shape", "example_words", "inputs_words", "shape_of"]


@dataclass(frozen=True, slots=True)
class Shape:
    """What a rule's examples are said with: its parameters, the fields of
    its answer (and of any record in it), and what one value of it is."""

    params: Mapping[str, Param] = field(default_factory=dict)
    columns: Mapping[str, Column] = field(default_factory=dict)
    single: Column | None = None  # the column of a one-value answer
    unit: str | None = None  # the unit of a whole-number answer
    keys: frozenset[str] = frozenset()  # a mapping answer's keys, said by label


def _state_column(name: str, doc: str | None) -> Column:
    return Column(name, "int", False, "", False, None, words_of(name), doc)


def shape_of(unit: Unit, needed: Sequence[Unit] = ()) -> Shape:
    """The shape of the answers of the rule ``unit`` lowers; ``needed``: the
    units of the rules whose declarations it uses (a record it answers may be
    theirs)."""
    main = unit.main
    columns: dict[str, Column] = {}
    records = [d for u in (unit, *needed) for d in u.decls if isinstance(d, Record)]
    answered = getattr(main, "item", None) or getattr(main, "result", None)
    records.sort(key=lambda r: r.name != answered)  # the answer's own first
    for record in records:
        for column in record.fields:
            columns.setdefault(column.name, column)
    if isinstance(main, State):
        for f in main.fields:
            columns.setdefault(f.name, _state_column(f.name, f.doc))
        for d in main.derived:
            columns.setdefault(d.name, _state_column(d.name, d.doc))
    single = None
    keys: frozenset[str] = frozenset()
    if isinstance(main, Procedure) and isinstance(main.item, Column):
        single = main.item
        if main.keys is not None:
            keys = frozenset(m.label for m in main.keys.members)
            for m in main.keys.members:
                columns.setdefault(m.label, single)
    params = getattr(main, "params", ()) or ()
    if not params and (param := getattr(main, "param", None)) is not None:
        params = (param,)
    return Shape(
        params={p.name: p for p in params if isinstance(p, Param)},
        columns=columns,
        single=single,
        unit=main.unit if isinstance(main, Function) else None,
        keys=keys,
    )


def _name(name: str, shape: Shape) -> str:
    return f"*{md_cell(words_of(name))}*"


def _title(name: str, shape: Shape) -> str:
    # A key of a mapping answer is said by its label, not by the column's title.
    if name in shape.keys:
        return md_cell(label_words(name))
    column = shape.columns.get(name)
    return md_cell(column.title if column is not None else label_words(name))


def _value(value: Any, column: Column | None = None) -> str:
    """A value in words: yes/no, none, a number with its column's unit and
    sign, a label or text as written, a list one item after another, a
    mapping each key with its value."""
    if isinstance(value, Mapping):
        return (
            "; ".join(
                f"{md_cell(label_words(str(k)))} {_value(v)}" for k, v in value.items()
            )
            or "none"
        )
    if isinstance(value, list | tuple):
        shown = [
            f"({_value(v)})" if isinstance(v, list | tuple) else _value(v, column)
            for v in value
        ]
        return ", ".join(shown) or "none"
    if isinstance(value, str):
        return said_label(value)
    if column is not None and column.type != "list":
        return cell_md(column, value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return md_cell(str(value))


def _joined(parts: Sequence[str]) -> str:
    """Words one after another: "a", "a and b", "a, b and c"."""
    if len(parts) < 2:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _fields(value: Mapping[str, Any], shape: Shape) -> str:
    """A record's fields, each by its title, with its value."""
    parts = []
    for key, item in value.items():
        column = shape.columns.get(key)
        if isinstance(item, list) and item and isinstance(item[0], Mapping):
            shown = "; then ".join(_fields(i, shape) for i in item)
            parts.append(f"{_title(key, shape)}: {shown}")
        else:
            parts.append(f"{_title(key, shape)} {_value(item, column)}")
    return _joined(parts)


def _answer(value: Any, shape: Shape) -> str:
    if isinstance(value, Mapping):
        return _fields(value, shape)
    if isinstance(value, list):
        if value and all(isinstance(v, Mapping) for v in value):
            return "; then ".join(_fields(v, shape) for v in value)
        return _value(value) if value else "nothing"
    shown = _value(value, shape.single)
    return f"{shown} {md_cell(shape.unit)}" if shape.unit else shown


def inputs_words(ex: Example, shape: Shape) -> str:
    """The inputs an example gives (and the dice it scripts) in words:
    "*size* 2 and *kind* a, the dice rolling 3 and 4"."""
    given = [
        f"{_name(name, shape)} {_value(value)}"
        for name, value in ex.args
        if not (isinstance(value, list | Mapping) and not value)
    ]
    text = _joined(given)
    if ex.dice is not None:
        dice = _joined([str(d) for d in ex.dice])
        text += (", " if text else "") + (
            f"the dice rolling {dice}" if dice else "no dice rolled"
        )
    return text


def example_words(ex: Example, shape: Shape) -> str:
    """The example as one sentence: its inputs, then its answer in words."""
    given = inputs_words(ex, shape)
    lead = f"With {given}, " if given else ""
    if ex.raises:
        said = f"{lead}the rule refuses the inputs."
        return said[:1].upper() + said[1:]
    what = ""
    if ex.roll is not None:
        what = f"its {_title(ex.roll, shape)} rolled, "
    if ex.select is not None:
        name, where = ex.select
        tests = _joined(
            [f"{_title(k, shape)} {_value(v, shape.columns.get(k))}" for k, v in where]
        )
        what += f"of its {_title(name, shape)} those with {tests}, "
    if ex.expect is None:
        said = f"{lead}{what}there is no answer."
    else:
        said = f"{lead}{what}it answers {_answer(ex.expect, shape)}."
    return said[:1].upper() + said[1:]
