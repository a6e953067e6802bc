"""View-models of the Python target: a system's module and the package.

Everything the templates print is computed here, so templates stay dumb. A
rule's own part is its kind's lowering to the core, printed by the Python
emitter (compiler/emit/python/unit.py); the docs pages' view-models are in ``pages``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from ...core.program import (
    lowered,
    table_rows,
)
from ...core.viewkit import (
    Import,
    Sourced,
    View,
    header,
    header_of,
)
from ...front.model import (
    Rule,
    System,
)
from ...front.settings import Settings
from ...lang.py_names import (
    IMPORTS,
    pyname,
)
from ..literals import (
    docstring,
    md,
)
from ..markdown.contract import PUBLIC_SUPPORT
from ..viewkit import (
    alias_name,
    all_enums,
)
from . import unit as emit_python

_STDLIB = ("collections.abc", "dataclasses", "enum", "typing")


def module_view(system: System) -> View:
    tables = table_rows(system)
    rules = [_rule_py(system, rule, tables) for rule in system.rules]
    imports: set[Import] = {("typing", "Final")}
    for rule in rules:
        imports |= set(rule["imports"])
    exported = {name for r in rules for name in r["exports"]}
    # each exported enum's labels, as a type alias (enum.py.j2 defines it)
    aliases = {
        alias_name(e.name) for e in all_enums(system) if pyname(e.name) in exported
    }
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


def _rule_py(system: System, rule: Rule, tables: dict[str, str]) -> View:
    view = emit_python.view(system, lowered(system, rule), tables)
    # the names a module imports are names of py_names' table, which the
    # rules' names are kept from
    unknown = set(view["imports"]) - IMPORTS
    assert not unknown, f"imports missing from py_names.IMPORTS: {unknown}"
    return {"id": rule.qualified_id} | view


def package_view(systems: Sequence[Sourced], settings: Settings) -> View:
    ids = [s.id for s in systems]
    # the package's modules: the systems and the support modules a caller uses
    return {
        "header": header_of(systems),
        "systems": ids,
        "modules": sorted([*ids, *PUBLIC_SUPPORT]),
        "distribution": settings.distribution,
        "version": settings.python_version,  # pip's spelling (npm's: package.json)
        "licence": settings.licence,
        "licence_file": settings.licence_text is not None,
        "description": settings.description,
        "toml": {  # the settings as TOML strings, for pyproject.toml
            "distribution": toml_string(settings.distribution),
            "version": toml_string(settings.python_version),
            "licence": toml_string(settings.licence or ""),
            "description": toml_string(settings.description),
        },
    }


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: JSON's escapes are TOML's, and every other
    character that acts on text or hides in it (DEL among them) is written as
    TOML's ``\\u`` escape (``\\U`` past U+FFFF, where TOML has no pairs)."""
    return "".join(
        ch
        if ch.isprintable()
        else f"\\u{ord(ch):04x}"
        if ord(ch) < 0x10000
        else f"\\U{ord(ch):08x}"
        for ch in json.dumps(text, ensure_ascii=False)
    )


def readme_view(systems: Sequence[Sourced], settings: Settings, language: str) -> View:
    """The readme of the Python (``language`` "python") or npm package."""
    return package_view(systems, settings) | {
        "language": language,
        "version": settings.python_version
        if language == "python"
        else settings.version,
        "npm": settings.npm,
        # what pip wheel and npm pack name the files they write
        "wheel": re.sub(r"[-_.]+", "_", settings.distribution).lower(),
        "tarball": f"{settings.npm.lstrip('@').replace('/', '-')}-{settings.version}.tgz",
        "title": md(settings.distribution if language == "python" else settings.npm),
        "said": md(settings.description),
    }
