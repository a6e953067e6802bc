"""Rules JSON: the checked rules data of every system as ``rules.json``, and its JSON Schema.

``rules.json`` is made from the checked model, never from the YAML: each system
with its source, enums and notes, and each rule with the keys every rule has
(written here) and its kind's own part (the kind's ``data_view`` hook). Its
schema, ``rules.schema.json``, is composed from ``compiler/kinds/rules_json.schema.json``
and each registered kind's ``data.schema.json``, so a kind registered at run
time adds its part to both. Objects keep a fixed key order and lists the order
of the rules (systems by id), so the text is the same on every build.
"""

from __future__ import annotations

import json
from pathlib import Path as FsPath
from typing import Any

from ...common import json_text
from ...core.jsonkit import (
    Refs,
    View,
    loc,
    plain,
)
from ...core.jsonkit import enum as enum_data
from ...core.trees import NODE_TYPES
from ...front.model import (
    Example,
    Rule,
    System,
)
from ...kinds import registry
from .files import GENERATED, RULES_SCHEMA

_SHELL = FsPath(__file__).resolve().parents[2] / "kinds" / "rules_json.schema.json"
# The keys of a rule that every kind has; a kind's part adds the others.
COMMON_KEYS = (
    "id",
    "kind",
    "title",
    "summary",
    "source",
    "defined_at",
    "rulings",
    "errata",
    "examples",
)


def _text(doc: Any) -> str:
    return json_text.dumps(doc) + "\n"


def refs(system: System) -> Refs:
    """Each function name of the system's module, with the rule it belongs to:
    what expressions look up or call (``scope``) and each rule's entry."""
    found: dict[str, str] = {}
    for rule in system.rules:
        kind = registry.kind_of(rule)
        seen = kind.scope(rule)
        for name in (seen.name if seen is not None else None, kind.entry(rule)):
            if name is not None:
                found.setdefault(name, rule.id)
    return Refs(system, found)


def _example(ex: Example) -> View:
    return {
        "name": ex.name,
        "summary": ex.summary,
        "args": {name: plain(value) for name, value in ex.args},
        "dice": None if ex.dice is None else list(ex.dice),
        "roll": ex.roll,
        "select": None
        if ex.select is None
        else {
            "field": ex.select[0],
            "where": {k: plain(v) for k, v in ex.select[1]},
        },
        "expect": plain(ex.expect),
        "raises": ex.raises,
        "erratum": None if ex.erratum is None else ex.erratum.id,
        "from_source": ex.from_source,
        "defined_at": loc(ex.loc),
    }


def rule_data(system: System, rule: Rule, found: Refs) -> View:
    """A rule: the keys every rule has, its kind's own part before the last three."""
    kind = registry.kind_of(rule)
    own = kind.data_view(system, rule, found)
    clash = sorted(own.keys() & set(COMMON_KEYS))
    if clash:
        raise ValueError(
            f"the {kind.name} kind's data_view gives {', '.join(clash)}, "
            "which every rule has"
        )
    return {
        "id": rule.id,
        "kind": rule.kind,
        "title": rule.title,
        "summary": rule.summary,
        "source": {"section": rule.section, "note": rule.source_note},
        "defined_at": loc(rule.loc),
        **own,
        "rulings": [
            {"id": r.id, "question": r.question, "ruling": r.ruling, "reason": r.reason}
            for r in rule.rulings
        ],
        "errata": [
            {
                "id": e.id,
                "source_says": e.source_says,
                "rules_give": e.rules_give,
                "reason": e.reason,
            }
            for e in rule.errata
        ],
        "examples": [_example(ex) for ex in rule.examples],
    }


def system_data(system: System) -> View:
    found = refs(system)
    return {
        "id": system.id,
        "title": system.title,
        "summary": system.summary,
        "source": {
            "file": system.source_file,
            "work": system.source_work,
            "part": None
            if system.source_part is None
            else {"kind": system.source_part.kind, "title": system.source_part.title},
            "contents": [
                {"title": g.title, "sections": list(g.sections), "rules": list(g.rules)}
                for g in system.contents
            ],
        },
        "rounding": system.rounding,
        "dice_notation": system.dice_notation,
        "files": list(system.files),
        "defined_at": loc(system.loc),
        "enums": [enum_data(e) for e in system.enums],
        "not_modelled": [
            {"id": n.id, "summary": n.summary, "reason": n.reason}
            for n in system.not_modelled
        ],
        "house": None if system.house is None else house_data(system),
        "rules": [rule_data(system, rule, found) for rule in system.rules],
    }


def house_data(system: System) -> View:
    """What makes a system house rules (``model.House``), as rules.json has it."""
    house = system.house
    assert house is not None
    return {
        "extends": house.base,
        "changes": [
            {"rule": c.rule, "where": list(c.where), "now": c.now, "was": c.was}
            for c in house.changes
        ],
        "rules": list(house.rules),
        "source": house.source,
    }


def document(systems: list[System]) -> View:
    """rules.json as data: every system, by id."""
    return {
        "$schema": RULES_SCHEMA,
        "@generated": GENERATED,
        "systems": [system_data(s) for s in sorted(systems, key=lambda s: s.id)],
    }


def schema() -> View:
    """The JSON Schema of rules.json, for the kinds registered now."""
    shell: View = json.loads(_SHELL.read_text(encoding="utf-8"))
    defs = shell["$defs"]
    kinds = registry.kinds()
    rule = defs["rule"]
    rule["properties"]["kind"]["enum"] = list(kinds)
    rule["allOf"] = []
    for name, kind in kinds.items():
        part = json.loads(kind.data_schema_path.read_text(encoding="utf-8"))
        _check_part(name, part)
        part.pop("$comment", None)
        defs[f"kind_{name}"] = part
        rule["allOf"].append(
            {
                "if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
                "then": {"$ref": f"#/$defs/kind_{name}"},
            }
        )
    node = defs["node"]
    node["properties"]["node"]["enum"] = list(NODE_TYPES)
    node["allOf"] = [
        {
            "if": {"properties": {"node": {"const": name}}},
            "then": {"$ref": f"#/$defs/node_{name}"},
        }
        for name in NODE_TYPES
    ]
    missing = [n for n in NODE_TYPES if f"node_{n}" not in defs]
    if missing:
        raise ValueError(f"{_SHELL.name} has no schema for nodes {', '.join(missing)}")
    shell["$comment"] = (
        "@generated by rulesc build from compiler/kinds/rules_json.schema.json and "
        "each kind's data.schema.json - DO NOT EDIT"
    )
    return shell


def _check_part(name: str, part: View) -> None:
    """A kind's part names keys of its own, every one always there."""
    where = f"the {name} kind's data.schema.json"
    props = part.get("properties", {})
    if part.get("type") != "object" or set(part.get("required", ())) != set(props):
        raise ValueError(f"{where}: an object whose every property is required")
    if "additionalProperties" in part or "unevaluatedProperties" in part:
        raise ValueError(f"{where}: leave additional properties to the rule's schema")
    if clash := sorted(set(props) & set(COMMON_KEYS)):
        raise ValueError(f"{where} names {', '.join(clash)}, which every rule has")


def schema_text() -> str:
    """rules.schema.json, as the build writes it."""
    return _text(schema())
