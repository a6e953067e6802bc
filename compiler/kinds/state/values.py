"""A record state's values of any type: its constructor's parameters, and its fields and derived properties that are labels, texts, lists, records or states.

A state with fields may take ``parameters`` (as a rule's, of every type,
checked as every argument is): its fields' ``start`` expressions read them.
A field or a derived property is a whole number or a flag (``record.py``
checks those as it always has), or any type the rules declare
(``compiler/front/declared.py``): its value is checked to be one of that type (a
text that is always one of a choice's labels is that label).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ...front.declared import (
    Declared,
    as_choice,
    declared,
)
from ...front.model import (
    EnumType,
    Param,
)
from ...front.scope import param_spec
from ...kinds.state.record_model import Derived, RecordField
from ...lang import expr

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

__all__ = ["constructor", "held", "spec_of", "typed_value"]

Compile = Any  # record._compile: (b, src, path, text, scope, what) -> Checked | None


def constructor(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]
) -> tuple[tuple[Param, ...], dict[str, expr.Param]] | None:
    """The parameters a new state takes (``parameters``), as declared and as
    its fields' start values read them; None when one is wrong (reported)."""
    params: list[Param] = []
    specs: dict[str, expr.Param] = {}
    ok = True
    b.param_order(src, path, raw.get("parameters", []))
    for index, p in enumerate(raw.get("parameters", [])):
        param = b.param(src, (*path, "parameters", index), p, specs)
        if param is None:
            ok = False
            continue
        params.append(param)
        specs[param.name] = param_spec(param)
    return (tuple(params), specs) if ok else None


def spec_of(name: str, held: Declared) -> expr.Param:
    """How the state's expressions read a field or a property of any type."""
    return expr.Param(name, held.column.type, slot=held.field)  # type: ignore[arg-type]


def typed_value(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    checked: expr.Checked,
    held: Declared,
    what: str,
) -> expr.Checked | None:
    """``checked`` as a value of ``held``'s type (a text that is always one of
    its labels, that label), or None with the error reported."""
    if (
        held.enum is not None
        and checked.type == "text"
        and held.column.type == "choice"
    ):
        checked = as_choice(checked, held.enum) or checked
    problem = expr.fits(checked, held.field)
    if problem is not None:
        b.err(
            src, path, f"{what}: the value {problem.replace('the field is', 'it is')}"
        )
        return None
    return checked


def _text(raw: dict[str, Any], key: str, held: Declared) -> str:
    """A value as written (a label of a choice written bare, as its text)."""
    value = raw[key]
    if isinstance(value, bool):
        return "true" if value else "false"
    labels = {m.label for m in held.enum.members} if held.enum else set()
    if held.column.type == "choice" and value in labels:
        return json.dumps(value)
    return str(value)


def held(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    scope: dict[str, expr.Param],
    owned: list[EnumType],
    compile_: Compile,
) -> RecordField | Derived | None:
    """A field (its ``start``) or a derived property (its ``value``) of any
    type but a number or a flag: its declared type, and its expression
    checked as a value of it; None when it is wrong (reported)."""
    key = "value" if "value" in raw else "start"
    shape = {k: v for k, v in raw.items() if k != key}
    found = declared(b, src, path, shape, owned=owned)
    if found is None:
        return None
    what = "start value" if key == "start" else "derived value"
    text = _text(raw, key, found) if key == "start" else raw[key]
    checked = compile_(b, src, (*path, key), text, scope, what)
    if checked is None:
        return None
    checked = typed_value(b, src, (*path, key), checked, found, f"the {what}")
    if checked is None:
        return None
    name, kind, description = raw["name"], raw["type"], raw.get("description")
    if key == "value":
        return Derived(name, kind, checked, description, found)
    return RecordField(name, kind, checked, None, None, description, found)
