"""record: a record type declared once; its build and checks, and its lowering to a record of the core.

Its fields are typed as every value the rules declare is (``compiler/front/declared.py``):
whole numbers with their bounds, flags, texts, labels, lists (of any of
those, or of records), other records and states. A field that may be null
may be left out where a record is made (it is then null). The type is a
class in Python (a ``Record``), an interface and an object shape in
JavaScript, a page of its fields, and an entry of rules.json.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.ir import Enum, Grid, Prose, Record, Unit
from ...core.viewkit import (
    type_words,
    where_doc,
)
from ...front.declared import (
    Declared,
    declared,
)
from ...front.model import (
    EnumType,
    System,
)
from ...kinds.record.model import RecordRule
from ...lang import expr
from ...lang.naming import class_words

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> RecordRule | None:
    b.claim(src, (*path, "class"), raw["class"], "record class")
    owned: list[EnumType] = []
    fields: list[Declared] = []
    seen: dict[str, int] = {}
    ok = True
    for index, f in enumerate(raw["fields"]):
        at = (*path, "fields", index)
        if f["name"] in seen:
            first = b.first_at(
                src, src, (*path, "fields", seen[f["name"]], "name"), (*at, "name")
            )
            b.err(src, (*at, "name"), f"duplicate field {f['name']!r} ({first})")
            ok = False
            continue
        seen[f["name"]] = index
        if not b.local_name(src, (*at, "name"), f["name"], "field name"):
            ok = False
            continue
        found = declared(b, src, at, f, owned=owned)
        if found is None:
            ok = False
            continue
        if found.column.record == raw["class"]:
            b.err(
                src,
                (*at, "record"),
                f"a {raw['class']} cannot hold a {raw['class']}: it would never end",
                "hold a list of them (which may be empty), or another type",
            )
            ok = False
            continue
        fields.append(found)
    examples = b.examples(src, path, raw, set(), roll_columns=set())
    if not ok:
        return None
    return RecordRule(
        **common,
        examples=examples,
        class_name=raw["class"],
        fields=tuple(fields),
        owned_enums=tuple(owned),
    )


def record_type(rule: RecordRule) -> expr.RecordType:
    """The record type as expressions see it."""
    return expr.RecordType(
        rule.class_name,
        tuple((f.column.name, f.field) for f in rule.fields),
        rule=rule.id,
    )


def lower(system: System, rule: RecordRule) -> Unit:
    """The record type as a record of the core (and the sets of labels its
    fields define), its page a table of its fields."""
    where = where_doc(rule)
    columns = tuple(f.column for f in rule.fields)
    decls: list[Any] = [
        Enum(e, f"The labels of a field of record ``{rule.class_name}``")
        for e in rule.owned_enums
    ]
    doc = f"{rule.title}.\n\n{rule.summary}\n\n{where}"
    decls.append(Record(rule.class_name, doc, columns, checked=True))
    rows = tuple(
        (c.title, type_words(c, class_words), c.description or "") for c in columns
    )
    page = (
        Prose(
            f"A record of {len(columns)} field{'s' * (len(columns) != 1)} (a field "
            "that may be empty may be left out)."
        ),
        Grid(("Field", "Holds", "Meaning"), rows),
    )
    return Unit(tuple(decls), rule.class_name, page=page)
