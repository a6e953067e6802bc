"""JavaScript views: a system's JavaScript module and types, and the package around them.

Each rule's part comes from its kind's ``js_view`` (compiler/kinds/<kind>/js.py)
and its two templates; a kind without them yet leaves its rules out, and the
module says which in a comment. The package (``generated/js/``) is plain ES2022
modules with a hand-written ``.d.ts`` beside each runtime module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path as FsPath
from typing import Any

from . import json_text, registry
from .core.program import lowered, table_rows
from .diagnostics import Diagnostic
from .emit import javascript as emit_javascript
from .emit.javascript_printer import with_messages
from .js_kit import JsFigureError, doc
from .model import Rule, System
from .registry import kind_of
from .render import render
from .settings import Settings
from .viewkit import Sourced, View, header, header_of
from .views import readme_view

JS_DIR = "js"
RUNTIME_JS = FsPath(__file__).resolve().parent / "runtime_js"
# The runtime modules every JavaScript package has; each kind adds its own.
JS_SUPPORT = (
    "errors.js",
    "_messages.js",
    "_fold.js",
    "_support.js",
    "dice.js",
    "random.js",
    "json.js",
    "dice_terms.js",
    "dice_notation.js",
    "dice_rolls.js",
    "dice_odds.js",
    "_dist.js",
    "_multiset.js",
    "_plan.js",
    "odds.js",
    "_chain.js",
    "_state.js",
    "_timeline.js",
    "_values.js",
)
PACKAGE_JSON, INDEX_JS, INDEX_TYPES = "js/package.json", "js/index.js", "js/index.d.ts"
PACKAGE_README = "js/README.md"
MESSAGES_JS = "_messages.js"  # its table written in by the build


def js_support_modules() -> tuple[str, ...]:
    """Every runtime module of the JavaScript package (each has a ``.d.ts``)."""
    found = dict.fromkeys(JS_SUPPORT)
    for kind in registry.kinds().values():
        found.update(dict.fromkeys(kind.js_runtime))
    return tuple(found)


def js_own_files(system_id: str) -> tuple[str, str]:
    """The JavaScript outputs made from one system alone: its module and types."""
    return f"{JS_DIR}/{system_id}.js", f"{JS_DIR}/{system_id}.d.ts"


def js_shared_files() -> tuple[str, ...]:
    support = [
        f"{JS_DIR}/{name}{ext}"
        for name in (m.removesuffix(".js") for m in js_support_modules())
        for ext in (".js", ".d.ts")
    ]
    return (*support, PACKAGE_JSON, PACKAGE_README, INDEX_JS, INDEX_TYPES)


def runtime_files() -> dict[str, str]:
    """The runtime modules, copied with their generated mark."""
    files = {}
    for name in js_support_modules():
        stem = name.removesuffix(".js")
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
    missing: list[View] = []
    errors: list[Diagnostic] = []
    runtime: dict[str, None] = {}
    tables = table_rows(system)
    for rule in system.rules:
        kind = kind_of(rule)
        try:
            view, templates = _rule_js(system, rule, tables)
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
        if view is None:
            missing.append({"id": rule.qualified_id, "kind": rule.kind})
            continue
        rules.append(
            {"id": rule.qualified_id, "kind": rule.kind, "needs": []}
            | view
            | {
                "template": templates[0],
                "types": templates[1],
                "runtime": (*kind.js_runtime, *view.get("runtime", ())),
            }
        )
    # A rule whose code calls a rule that is not in JavaScript waits for it.
    while waiting := [r for r in rules if set(r["needs"]) & {m["id"] for m in missing}]:
        missing += [{"id": r["id"], "kind": r["kind"]} for r in waiting]
        rules = [r for r in rules if r not in waiting]
    for r in rules:
        runtime.update(dict.fromkeys(r["runtime"]))
    view = {
        "header": header(list(system.files)),
        "doc": doc(f"{system.title}: the generated rules runtime.\n\n{system.summary}"),
        "runtime": [
            {"name": "$" + name.removesuffix(".js").lstrip("_"), "file": name}
            for name in runtime
        ],
        "rules": rules,
        "missing": missing,
    }
    return view, errors


def _rule_js(
    system: System, rule: Rule, tables: dict[str, str]
) -> tuple[View | None, tuple[str, str]]:
    """A rule's JavaScript view, and the templates of its module and types: the
    core's, printed by the JavaScript emitter, or its kind's own."""
    kind = kind_of(rule)
    unit = lowered(system, rule)
    if unit is not None:
        return emit_javascript.view(system, unit, tables), emit_javascript.TEMPLATES
    assert kind.js_view is not None
    return kind.js_view(system, rule), (
        kind.template("javascript"),
        kind.template("typescript"),
    )


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
    }
