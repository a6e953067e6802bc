"""JavaScript views: a system's JavaScript module and types, and the package around them.

Each rule's part is its kind's lowering to the core, printed by the JavaScript
emitter (compiler/emit/javascript/unit.py) and its two templates. The package (``generated/js/``) is plain ES2022
modules with a hand-written ``.d.ts`` beside each runtime module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...common import json_text
from ...common.diagnostics import Diagnostic, RulesError
from ...core.program import (
    lowered,
    table_rows,
)
from ...core.viewkit import (
    Sourced,
    View,
    header,
    header_of,
)
from ...front.model import System
from ...front.settings import DEFAULTS, Settings
from ...kinds.registry import kind_of
from ...lang import dice_spec
from .. import dice_spec as dice_spec_printers
from ..python.views import readme_view
from ..render import render
from ..target import Work
from . import names as js_naming
from . import unit as emit_javascript
from .files import (
    INDEX_JS,
    INDEX_TYPES,
    JS_DIR,
    MESSAGES_JS,
    PACKAGE_JSON,
    PACKAGE_LICENCE,
    PACKAGE_README,
    RUNTIME_JS,
    TARGET_NAME,
    js_own_files,
    js_support_modules,
)
from .kit import (
    JsFigureError,
    doc,
)
from .printer import with_messages


def runtime_files() -> dict[str, str]:
    """The runtime modules, copied with their generated mark."""
    files = {}
    spec = dice_spec.load()
    mark = f"// {header(['compiler/lang/dice_spec/notation.json'])}\n"
    files[f"{JS_DIR}/_dice_spec.js"] = mark + dice_spec_printers.javascript(spec)
    files[f"{JS_DIR}/_dice_spec.d.ts"] = mark + dice_spec_printers.typescript(spec)
    for name in js_support_modules():
        stem = name.removesuffix(".js")
        if stem == "_dice_spec":  # printed from the definition, above
            continue
        for ext in (".js", ".d.ts"):
            source = f"{stem}{ext}"
            text = (RUNTIME_JS / source).read_text(encoding="utf-8")
            if source == MESSAGES_JS:
                text = with_messages(text)
            files[f"{JS_DIR}/{source}"] = (
                f"// {header([f'compiler/runtime_js/{source}'])}\n{text}"
            )
    return files


def module_view(system: System) -> tuple[View, list[Diagnostic]]:
    """The view of a system's JavaScript module and types, and any figure of its
    rules that JavaScript cannot hold (a located error)."""
    rules: list[View] = []
    errors: list[Diagnostic] = []
    runtime: dict[str, None] = {}
    tables = table_rows(system)
    for rule in system.rules:
        try:
            view = emit_javascript.view(system, lowered(system, rule), tables)
        except JsFigureError as exc:
            errors.append(
                Diagnostic(
                    rule.loc.file,
                    rule.loc.line,
                    rule.loc.col,
                    f"rule {rule.qualified_id}: {exc}",
                    "JavaScript numbers are exact integers only within "
                    "Number.MAX_SAFE_INTEGER (2**53 - 1): use a smaller figure",
                )
            )
            continue
        template, types = emit_javascript.TEMPLATES
        own = (*kind_of(rule).js_runtime, *view["runtime"])
        runtime.update(dict.fromkeys(own))
        rules.append(
            {"id": rule.qualified_id}
            | view
            | {"template": template, "types": types, "runtime": own}
        )
    view = {
        "header": header(list(system.files)),
        "doc": doc(f"{system.title}: the generated rules runtime.\n\n{system.summary}"),
        "runtime": [
            {"name": "$" + name.removesuffix(".js").lstrip("_"), "file": name}
            for name in runtime
        ],
        "rules": rules,
    }
    return view, errors


_VALUE = re.compile(r"^export (?:declare )?(?:const|function|class) ([\w$]+)", re.M)
_TYPE = re.compile(r"^export (?:declare )?(?:interface|type|class) ([\w$]+)", re.M)
_LOCAL = re.compile(r"^(?:const|let|function|class) ([\w$]+)", re.M)
_CHUNK = re.compile(r"^// -- (\S+) --$", re.M)


def duplicates(system: System, module: str, types: str) -> list[Diagnostic]:
    """Names the rendered module (or its types) declares twice at the top level,
    blamed on the rule whose code declares one again."""
    found = []
    for text, patterns in (
        (module, (_VALUE, _LOCAL)),
        (types, (_VALUE,)),
        (types, (_TYPE,)),
    ):
        chunks = [(m.start(), m.group(1)) for m in _CHUNK.finditer(text)]
        seen: dict[str, str] = {}
        for pattern in patterns:
            for match in pattern.finditer(text):
                owner = next(
                    (rid for start, rid in reversed(chunks) if start <= match.start()),
                    system.id,
                )
                name = match.group(1)
                if name in seen:
                    rule = next(
                        (r for r in system.rules if r.qualified_id == owner), None
                    )
                    loc = rule.loc if rule is not None else system.loc
                    found.append(
                        Diagnostic(
                            loc.file,
                            loc.line,
                            loc.col,
                            f"rule {owner} would make the JavaScript name {name!r}, "
                            f"which {seen[name]} already makes",
                            "choose another name",
                        )
                    )
                seen.setdefault(name, owner)
    return found


def package_files(systems: Sequence[Sourced], settings: Settings) -> dict[str, str]:
    """package.json, the readme and the index module (and its types) of the
    package, named as ``settings`` say."""
    mark = header_of(systems)
    exports: dict[str, Any] = {
        ".": {"types": "./index.d.ts", "default": "./index.js"},
    }
    public = [
        m.removesuffix(".js") for m in js_support_modules() if not m.startswith("_")
    ]
    for stem in [*(s.id for s in systems), *public]:
        entry = {"types": f"./{stem}.d.ts", "default": f"./{stem}.js"}
        exports[f"./{stem}"] = entry
        exports[f"./{stem}.js"] = entry
    package = {
        "@generated": mark,
        "name": settings.npm,
        "version": settings.version,
        "description": settings.description,
        **({"license": settings.licence} if settings.licence else {}),
        "type": "module",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": exports,
        "sideEffects": False,
        "engines": {"node": ">=18"},
    }
    view = {"header": mark, "systems": [s.id for s in systems]}
    return {
        PACKAGE_JSON: json_text.dumps(package) + "\n",
        PACKAGE_README: render("README.md.j2", readme_view(systems, settings, "npm")),
        INDEX_JS: render("index.js.j2", view),
        INDEX_TYPES: render("index.d.ts.j2", view),
        **(
            {PACKAGE_LICENCE: settings.licence_text}
            if settings.licence_text is not None
            else {}
        ),
    }


def sources(work: Work, clean: bool = True) -> dict[str, str]:
    """The JavaScript package: its runtime, and each system's module and types
    (checked for names declared twice when ``clean``: not when the Python
    module's names already clash, as the JavaScript ones then do too). Keeps,
    by system id, the qualified ids of the rules each system's module has
    (``ported``, which the try-it forms read)."""
    files = runtime_files() | package_files(work.systems, work.settings)
    ported: dict[str, set[str]] = work.keep(TARGET_NAME).setdefault("ported", {})
    errors: list[Diagnostic] = []
    for system in work.systems:
        if not isinstance(system, System):
            continue  # its modules are in its own outputs
        module, types = js_own_files(system.id)
        problems = js_naming.clashes(system)
        view, figures = module_view(system)
        ported[system.id] = {r["id"] for r in view["rules"]}
        errors += problems + figures
        if problems or figures:
            continue
        files[module] = render("system.js.j2", view)
        files[types] = render("system.d.ts.j2", view)
        if clean:
            errors += duplicates(system, files[module], files[types])
    if errors:
        raise RulesError(errors)
    return files


def check(systems: Sequence[System], clean: bool) -> list[Diagnostic]:
    """What building the systems' JavaScript would refuse."""
    try:
        sources(Work(systems, DEFAULTS), clean)
    except RulesError as exc:
        return list(exc.diagnostics)
    return []
