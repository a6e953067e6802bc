"""The site's one classic script of ES modules (docsite/bundle.py): graphs of modules,
each import and export form it reads, run as Node runs the modules themselves,
give the same values; what it cannot read, and a cycle, are refused."""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import strategies as st

from docsite.bundle import BundleError, bundle

from .js_node import drawn, node_json

FOLDERS = ("assets", "assets/rulebook", "assets/rulebook/deep", "lib")
AT = "assets/site.js"  # where the bundle is written in the site
FORMS = ("named", "renamed", "star", "lines", "reexport")
# An export as the entry shows it: a number, a function's or class's answer, a
# namespace's names.
SHOWN = """function shown(v) {
  if (typeof v === "number") return v;
  if (typeof v === "function") return /^C/.test(v.name) ? v.k() : v();
  return Object.keys(v).sort();
}"""


@dataclass(frozen=True)
class Graph:
    """Modules (path in the site: source); the last one is the entry."""

    modules: tuple[tuple[str, str], ...]

    @property
    def entry(self) -> str:
        return self.modules[-1][0]


def _spec(frm: str, to: str) -> str:
    spec = posixpath.relpath(to, posixpath.dirname(frm))
    return spec if spec.startswith("../") else f"./{spec}"


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    """A graph of modules, each importing from earlier ones in every form the
    bundle reads; the entry records what it computes, and what each module
    exports (imported by its URL), in ``globalThis.out``."""
    count = draw(st.integers(1, 5))
    paths = [f"{draw(st.sampled_from(FOLDERS))}/m{i}.js" for i in range(count)]
    modules = []
    for i, path in enumerate(paths):
        lines, terms = [], [f"v{i}"]
        for j in sorted(draw(st.sets(st.integers(0, max(i - 1, 0)), max_size=3))):
            if j >= i:
                continue
            spec = _spec(path, paths[j])
            form = draw(st.sampled_from(FORMS))
            if form == "named":
                lines.append(f'import {{ f{j} }} from "{spec}";')
                terms.append(f"f{j}()")
            elif form == "renamed":
                lines.append(f'import {{ g{j} as h{j}, C{j} }} from "{spec}";')
                terms += [f"h{j}()", f"C{j}.k()"]
            elif form == "star":
                lines.append(f'import * as n{j} from "{spec}";')
                terms += [f"n{j}.f{j}()", f"n{j}.v{j}"]
            elif form == "lines":
                lines.append(f'import {{\n  f{j},\n  v{j} as w{j},\n}} from "{spec}";')
                terms += [f"f{j}()", f"w{j}"]
            else:  # passed on, for the entry to see
                lines.append(f'export * as ns{j} from "{spec}";')
                lines.append(f'export {{ f{j} as re{j} }} from "{spec}";')
        lines += [
            f"export const v{i} = {draw(st.integers(-1000, 1000))};",
            f"export function f{i}() {{ return {' + '.join(terms)}; }}",
            f"function own{i}() {{ return 2 * f{i}(); }}",
            f"export {{ own{i} as g{i} }};",
            f"export class C{i} {{ static k() {{ return v{i} - 1; }} }}",
        ]
        modules.append((path, "\n".join(lines) + "\n"))
    entry, source = modules[-1]
    urls = ", ".join(
        f'import(new URL("{_spec(entry, p)}", import.meta.url).href)' for p in paths
    )
    last = count - 1
    source += (
        f"globalThis.out.push(f{last}(), own{last}());\n"
        f"globalThis.later = Promise.all([{urls}]).then((ms) => ms.forEach((m) =>"
        " globalThis.out.push(Object.keys(m).sort().map((k) => [k, shown(m[k])]))));\n"
        f"{SHOWN}\n"
    )
    modules[-1] = (entry, source)
    return Graph(tuple(modules))


_NATIVE = """
const out = {};
for (const [key, entry] of Object.entries(%s)) {
  globalThis.out = [];
  await import(entry);
  await globalThis.later;
  out[key] = globalThis.out;
}
console.log(JSON.stringify(out));
"""

_BUNDLED = """
const out = {};
for (const [key, [at, script]] of Object.entries(%s)) {
  globalThis.out = [];
  globalThis.document = { currentScript: { src: at } };
  new Function(script)();
  await globalThis.later;
  out[key] = globalThis.out;
}
console.log(JSON.stringify(out));
"""


def test_a_bundle_runs_its_modules_as_node_does(tmp_path: Path) -> None:
    cases = drawn(graphs(), 30)
    entries, bundles = {}, {}
    for n, graph in enumerate(cases):
        root = tmp_path / f"g{n}"
        for path, source in graph.modules:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(source, encoding="utf-8")
        entries[n] = (root / graph.entry).as_uri()
        script = bundle(dict(graph.modules), graph.entry, AT)
        bundles[n] = [(root / AT).as_uri(), script]
    native = node_json(_NATIVE % json.dumps(entries), tmp_path)
    assert node_json(_BUNDLED % json.dumps(bundles), tmp_path) == native
    assert all(native[str(n)] for n in range(len(cases)))


@pytest.mark.parametrize(
    ("source", "refused"),
    [
        ("export default 1;\n", "cannot bundle 'export default 1;'"),
        ('import "./b.js";\n', "cannot bundle 'import \"./b.js\";'"),
        ('import { x } from "./c.js";\n', "'./c.js', which is not in the bundle"),
        ('import { x } from "b.js";\n', "'b.js', not a relative path"),
        ('import { x y } from "./b.js";\n', "cannot read 'x y'"),
        ("const __rbLoad = 1;\n", "uses __rbLoad"),
    ],
)
def test_what_it_cannot_read_is_refused(source: str, refused: str) -> None:
    modules = {"a/a.js": source, "a/b.js": "export const x = 1;\n"}
    with pytest.raises(BundleError, match=r"^a/a\.js: ") as error:
        bundle(modules, "a/a.js", AT)
    assert refused in str(error.value)


def test_a_cycle_of_imports_is_refused() -> None:
    modules = {
        "a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
        "b.js": 'import { c } from "./c.js";\nexport const b = 1;\n',
        "c.js": 'import { a } from "./a.js";\nexport const c = 1;\n',
    }
    with pytest.raises(
        BundleError, match=r"a cycle of imports: a\.js -> b\.js -> c\.js -> a\.js"
    ):
        bundle(modules, "a.js", AT)
