"""View-models: everything the templates print, computed here so templates stay dumb.

A rule's own part comes from its kind (compiler/kinds/<kind>/); this module
puts a system's module and pages together.
"""

from __future__ import annotations

from typing import Any

from .contract import PUBLIC_SUPPORT
from .examples import call_text, expect_text
from .literals import code, docstring, md, md_cell
from .model import Rule, System
from .naming import anchor, label_alias
from .registry import kind_of
from .viewkit import Import, View, all_enums, header

_STDLIB = ("collections.abc", "dataclasses", "enum", "typing")


def module_view(system: System) -> View:
    rules = [_rule_py(system, rule) for rule in system.rules]
    imports: set[Import] = {("typing", "Final")}
    for rule in rules:
        imports |= set(rule["imports"])
    exported = {name for r in rules for name in r["exports"]}
    # each exported enum's labels, as a type alias (enum.py.j2 defines it)
    aliases = {label_alias(e.name) for e in all_enums(system) if e.name in exported}
    return {
        "header": header(list(system.files)),
        "doc": docstring(
            f"{system.title}: the generated rules runtime.\n\n{system.summary}"
        ),
        "stdlib": _import_lines(imports, stdlib=True),
        "local": _import_lines(imports, stdlib=False),
        "all": sorted(exported | aliases, key=_isort_key),
        "rules": rules,
    }


def _import_lines(imports: set[Import], *, stdlib: bool) -> list[str]:
    modules = sorted({m for m, _ in imports if (m in _STDLIB) == stdlib})
    return [
        f"from {m} import "
        + ", ".join(sorted({n for mod, n in imports if mod == m}, key=_isort_key))
        for m in modules
    ]


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order for __all__: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def _rule_py(system: System, rule: Rule) -> View:
    kind = kind_of(rule)
    view = kind.python_view(system, rule)
    return {"id": rule.qualified_id} | view | {"template": kind.template("python")}


def _common_md(rule: Rule, rules_link_prefix: str) -> View:
    file = rule.loc.file
    return {
        "anchor": anchor(rule.id),
        "title": md(rule.title),
        "id": code(rule.qualified_id),
        "kind": rule.kind,
        "kind_text": kind_of(rule).text,
        "summary": md(rule.summary),
        "section": md(rule.section),
        "note": md(rule.source_note) if rule.source_note else None,
        "link": f"[{md(file)}, line {rule.loc.line}]({rules_link_prefix}{file}#L{rule.loc.line})",
        "rulings": [
            {
                "id": code(r.id),
                "question": md(r.question) if r.question else None,
                "ruling": md(r.ruling),
                "reason": md(r.reason),
            }
            for r in rule.rulings
        ],
        "errata": [_erratum_md(e) for e in rule.errata],
        "examples": [
            {
                "name": code(ex.name),
                "summary": md(ex.summary),
                "call": code(call_text(rule, ex)),
                "dice": code(", ".join(map(str, ex.dice))) if ex.dice else None,
                "result": f"raises {code(ex.raises)}"
                if ex.raises
                else f"gives {code(expect_text(ex))}",
                "erratum": _erratum_md(ex.erratum) if ex.erratum else None,
                "from_source": md(ex.from_source) if ex.from_source else None,
            }
            for ex in rule.examples
        ],
    }


def _erratum_md(e: Any) -> View:
    return {
        "id": code(e.id),
        "source_says": md(e.source_says),
        "rules_give": md(e.rules_give),
        "reason": md(e.reason),
    }


def system_doc_view(
    system: System, rules_link_prefix: str, answers: dict[tuple[str, str], Any]
) -> View:
    """The system page; ``answers`` are the worked examples' answers, by rule and name."""
    rules = []
    for rule in system.rules:
        common = _common_md(rule, rules_link_prefix)
        if rule.examples:
            common["first_answer"] = answers.get((rule.id, rule.examples[0].name))
        kind = kind_of(rule)
        view = kind.docs_view(system, rule, common)
        rules.append(view | {"template": kind.template("markdown")})
    return {
        "header": header(list(system.files)),
        "title": md(system.title),
        "summary": md(system.summary),
        "work": md(system.source_work),
        "source_file": code(system.source_file),
        "rounding": system.rounding,
        "module": code(f"rulebook.{system.id}"),
        "rules": rules,
        "not_modelled": [
            {"id": code(n.id), "summary": md(n.summary), "reason": md(n.reason)}
            for n in system.not_modelled
        ],
        "matrix": code(f"tests/trace/{system.id}.yaml"),
    }


def index_view(systems: list[System]) -> View:
    files = [f for s in systems for f in s.files]
    return {
        "header": header(files),
        "systems": [
            {
                "title": md(s.title),
                "page": f"{s.id}.md",
                "module": code(f"rulebook.{s.id}"),
                "summary": md(s.summary),
                "rules": [
                    {
                        "id": code(r.id),
                        "anchor": anchor(r.id),
                        "title": md_cell(r.title),
                        "kind": r.kind,
                    }
                    for r in s.rules
                ],
            }
            for s in systems
        ],
    }


def package_view(systems: list[System]) -> View:
    files = [f for s in systems for f in s.files]
    ids = [s.id for s in systems]
    # the package's modules: the systems and the support modules a caller uses
    return {
        "header": header(files),
        "systems": ids,
        "modules": sorted([*ids, *PUBLIC_SUPPORT]),
    }
