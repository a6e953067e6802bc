"""The site's ES modules as one classic script (a page opened from file:// runs no module).

Chromium refuses an ES module loaded from ``file://`` (the page has no origin to
share it with) but runs a classic ``<script src>``. So the try-it form and the
JavaScript runtime it imports are shipped as one classic script, the same one
served or opened from a folder: each module becomes a function of its own
scope, run once, on first import, its exports read through getters (live, as a
module's are). The modules are the site's own and written in a plain subset of
the syntax, which this reads; anything else is refused when the site is built:

- ``import { a, b as c } from "./x.js";`` and ``import * as x from "./x.js";``
  (a relative path, of a module given to the bundle);
- ``export function|class|const|let|var name``, ``export { a, b as c };``,
  ``export { a } from "./x.js";`` and ``export * as x from "./x.js";``;
- ``import(url)`` of a module given to the bundle, by its URL beside the
  module's own ``import.meta.url``, as the form loads a game system's module.

A cycle of static imports is refused too (the site's modules have none).

As a hook (``hooks:`` in mkdocs.yml) it writes ``assets/tryit.js``: docsite/tryit.js
with the modules it imports (docsite/answer.js, plan.js) and the JavaScript
runtime's modules (generated/js, beside the docs folder, under ``rulebook/``, as
the form imports them), added to every page as a classic script.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
SCRIPT = "assets/tryit.js"  # the bundle, where the site serves it
ENTRY = "tryit.js"  # docsite/tryit.js: builds the forms
OWN_MODULES = ("tryit.js", "answer.js", "plan.js")  # docsite's modules it holds
RUNTIME = "rulebook"  # the runtime's modules, beside the form's, as it imports them

# import { a, b as c } from "./x.js";   import * as x from "./x.js";
_IMPORT = re.compile(
    r'^import\s+(\{[^}]*\}|\*\s+as\s+[A-Za-z_$][\w$]*)\s+from\s+"([^"]+)"\s*;?[ \t]*$',
    re.MULTILINE,
)
# export { a } from "./x.js";   export * as x from "./x.js";
_REEXPORT = re.compile(
    r'^export\s+(\{[^}]*\}|\*\s+as\s+[A-Za-z_$][\w$]*)\s+from\s+"([^"]+)"\s*;?[ \t]*$',
    re.MULTILINE,
)
# export { a, b as c };
_EXPORT_LIST = re.compile(r"^export\s+\{([^}]*)\}\s*;?[ \t]*$", re.MULTILINE)
# export function f / export async function f / export class C / export const X
_EXPORT_DECL = re.compile(
    r"^export\s+((?:async\s+)?function\s*\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)",
    re.MULTILINE,
)
_LEFT = re.compile(r"^(?:import|export)\b.*$", re.MULTILINE)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
_DYNAMIC = re.compile(r"(?<![\w$.])import\s*\(")
_META = re.compile(r"(?<![\w$.])import\.meta\.url\b")
# The bundle's own names, which no module may use.
_OWN = ("__rbLoad", "__rbImport", "__rbUrl", "__rbExports")


class BundleError(Exception):
    """A module this bundle cannot read, or a cycle of imports."""


def _pairs(names: str, module: str) -> list[tuple[str, str]]:
    """``{ a, b as c }`` as (local, exported) pairs."""
    pairs = []
    for item in names.strip().strip("{}").split(","):
        words = item.split()
        if not words:
            continue
        if len(words) == 1:
            words = [words[0], "as", words[0]]
        if (
            len(words) != 3
            or words[1] != "as"
            or not all(_NAME.match(w) for w in (words[0], words[2]))
        ):
            raise BundleError(f"{module}: cannot read {item.strip()!r} in {names!r}")
        pairs.append((words[0], words[2]))
    return pairs


def _target(module: str, spec: str, modules: Mapping[str, str]) -> str:
    if not spec.startswith(("./", "../")):
        raise BundleError(f"{module}: imports {spec!r}, not a relative path")
    name = posixpath.normpath(posixpath.join(posixpath.dirname(module), spec))
    if name not in modules:
        raise BundleError(f"{module}: imports {spec!r}, which is not in the bundle")
    return name


def _getter(exported: str, value: str) -> str:
    return (
        f"Object.defineProperty(__rbExports, {json.dumps(exported)}, "
        f"{{ enumerable: true, get: function () {{ return {value}; }} }});"
    )


def _module(name: str, source: str, modules: Mapping[str, str]) -> tuple[str, set[str]]:
    """One module's body as the bundle runs it, and the modules it imports."""
    for own in _OWN:
        if own in source:
            raise BundleError(f"{name}: uses {own}, a name of the bundle's own")
    needs: set[str] = set()
    getters: list[str] = []

    def load(spec: str) -> str:
        target = _target(name, spec, modules)
        needs.add(target)
        return f"__rbLoad({json.dumps(target)})"

    def imported(match: re.Match[str]) -> str:
        what, spec = match.group(1), match.group(2)
        if what.startswith("*"):
            return f"const {what.split()[-1]} = {load(spec)};"
        names = ", ".join(f"{theirs}: {mine}" for theirs, mine in _pairs(what, name))
        return f"const {{ {names} }} = {load(spec)};"

    def reexported(match: re.Match[str]) -> str:
        what, spec = match.group(1), match.group(2)
        source_module = load(spec)
        if what.startswith("*"):
            getters.append(_getter(what.split()[-1], source_module))
        else:
            for theirs, exported in _pairs(what, name):
                getters.append(_getter(exported, f"{source_module}.{theirs}"))
        return ""

    def listed(match: re.Match[str]) -> str:
        getters.extend(
            _getter(out, local) for local, out in _pairs(match.group(1), name)
        )
        return ""

    def declared(match: re.Match[str]) -> str:
        getters.append(_getter(match.group(2), match.group(2)))
        return f"{match.group(1)} {match.group(2)}"

    body = _IMPORT.sub(imported, source)
    body = _REEXPORT.sub(reexported, body)
    body = _EXPORT_LIST.sub(listed, body)
    body = _EXPORT_DECL.sub(declared, body)
    left = _LEFT.search(body)
    if left:
        raise BundleError(f"{name}: cannot bundle {left.group(0).strip()!r}")
    body = _META.sub(f"__rbUrl({json.dumps(name)})", body)
    body = _DYNAMIC.sub("__rbImport(", body)
    return "\n".join([*getters, body]), needs


def _check_acyclic(graph: Mapping[str, set[str]]) -> None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            cycle = " -> ".join([*path[path.index(node) :], node])
            raise BundleError(f"a cycle of imports: {cycle}")
        if node in done:
            return
        for after in sorted(graph[node]):
            visit(after, [*path, node])
        done.add(node)

    for node in sorted(graph):
        visit(node, [])


_PRELUDE = """\
(function () {
  "use strict";
  // Where the bundle is: its modules' addresses are beside it, as they were.
  var root = new URL(%(up)s, document.currentScript.src).href;
  var factories = Object.create(null);
  var loaded = Object.create(null);
  function __rbLoad(name) {
    if (!(name in loaded)) {
      loaded[name] = Object.create(null);
      factories[name](loaded[name]);
    }
    return loaded[name];
  }
  function __rbUrl(name) {
    return new URL(name, root).href;
  }
  function __rbImport(url) {
    return new Promise(function (resolve) {
      var href = String(url);
      var name = href.slice(root.length);
      if (href.slice(0, root.length) !== root || !(name in factories)) {
        throw new TypeError("no module " + href + " in this script");
      }
      resolve(__rbLoad(name));
    });
  }
"""


def bundle(modules: Mapping[str, str], entry: str, at: str) -> str:
    """The classic script that runs ``entry`` of ``modules`` (each module's path
    in the site and its source) as the browser would, written at ``at`` in the
    site (the modules' paths are relative to the site's root)."""
    if entry not in modules:
        raise BundleError(f"the entry {entry} is not in the bundle")
    parts, graph = [], {}
    for name in sorted(modules):
        body, graph[name] = _module(name, modules[name], modules)
        parts.append(
            f"  factories[{json.dumps(name)}] = function (__rbExports) {{\n"
            f"{body}\n  }};\n"
        )
    _check_acyclic(graph)
    up = "../" * at.count("/") or "./"
    return (
        _PRELUDE % {"up": json.dumps(up)}
        + "".join(parts)
        + f"  __rbLoad({json.dumps(entry)});\n}})();\n"
    )


def runtime_modules(config: MkDocsConfig) -> list[Path]:
    """The JavaScript runtime's modules (generated/js/, written by rulesc beside
    the docs folder), which the forms import."""
    folder = Path(config.docs_dir).resolve().parent / "js"
    found = sorted(folder.glob("*.js"))
    if not found:
        raise PluginError(
            f"no JavaScript runtime in {folder}: `rulesc build` writes it"
        )
    return found


def site_script(config: MkDocsConfig) -> str:
    """The try-it forms' classic script: docsite's modules and the runtime's."""
    modules = {name: (HERE / name).read_text(encoding="utf-8") for name in OWN_MODULES}
    for module in runtime_modules(config):
        modules[f"{RUNTIME}/{module.name}"] = module.read_text(encoding="utf-8")
    folder = posixpath.dirname(SCRIPT)
    try:
        script = bundle(
            {f"{folder}/{name}": text for name, text in modules.items()},
            f"{folder}/{ENTRY}",
            SCRIPT,
        )
    except BundleError as error:
        raise PluginError(f"the try-it script cannot be built: {error}") from error
    return "// The try-it forms, one classic script: see docsite/bundle.py.\n" + script


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, SCRIPT, content=site_script(config)))
    return files


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if SCRIPT not in [str(s) for s in config.extra_javascript]:
        config.extra_javascript.append(SCRIPT)
    return config
