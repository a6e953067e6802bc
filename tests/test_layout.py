"""The compiler's layout: few modules at its root, no import cycle, stages in order.

The imports are read with ``ast`` from every module of ``compiler/``: those at
the top, inside functions and under ``TYPE_CHECKING`` alike, relative ones
resolved, and importing a module counts as importing the packages above it
(Python runs their ``__init__`` first).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"
MAX_ROOT_MODULES = 8

# The stages, lowest first: a module may import its own stage and those below.
STAGES = (
    "__init__",
    "runtime",  # copied into the generated packages: imports nothing of the compiler
    "common",  # diagnostics, limits, text every stage uses
    "lang",  # the formula language
    "core",  # the one core every kind lowers to
    "front",  # rules files read and checked into the model ...
    "kinds",  # ... by each kind's front end (one stage with front)
    "odds",  # odds plans worked out from the core
    "examples",  # worked examples run against a generated runtime
    "emit",  # the targets, printing the core
    "pipeline",  # load -> validate -> lower -> emit
    "output",  # the artifact written, cached and checked
    "validation",  # rulesc validate: a build's checks, nothing written
    "workbench",  # explain, simulate, diff, accept
    "cli",
    "__main__",
)
SAME_STAGE = {"kinds": "front"}

# Imports that still run from a stage up to a higher one, by pair of stages,
# each with the work that removes it (issue 40). A new pair fails the test, and
# so does a listed pair that no longer occurs: the list only shrinks.
STILL_UPWARD = {
    ("core", "front"): "the core still holds the model's types (Column, Param)",
    ("front", "odds"): "the kinds' lowering asks which fields other rules' odds read",
    ("front", "workbench"): "the Kind hooks of explain, simulate and diff",
    ("emit", "workbench"): "the try-it forms read the workbench's inputs",
    ("pipeline", "output"): "the pipeline checks the output folder first (outdir)",
}


def _modules(compiler: Path = COMPILER) -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in compiler.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(compiler).with_suffix("").parts
        package = parts[-1] == "__init__"
        name = ".".join(["compiler", *(parts[:-1] if package else parts)])
        found[name] = (path, package)
    return found


def import_graph(modules: dict[str, tuple[Path, bool]]) -> dict[str, set[str]]:
    """Every module's imports of other modules of the compiler."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, (path, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name.replace("rulesc", "compiler", 1) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    module = ".".join([*base, *filter(None, [node.module])])
                else:
                    module = (node.module or "").replace("rulesc", "compiler", 1)
                targets = [module, *(f"{module}.{a.name}" for a in node.names)]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                while target:  # the module and the packages above it
                    if target != name and not name.startswith(target + "."):
                        graph[name].add(target)
                    target = target.rpartition(".")[0]
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _stage(module: str) -> str:
    parts = module.split(".")
    stage = parts[1] if len(parts) > 1 else "__init__"
    return SAME_STAGE.get(stage, stage)


def upward(graph: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    rank = {s: i for i, s in enumerate(STAGES)}
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = _stage(module), _stage(target)
            if rank[b] > rank[a]:
                found[(a, b)].append(f"{module} -> {target}")
    return found


def test_the_root_holds_few_modules() -> None:
    root = sorted(p.name for p in COMPILER.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


def test_every_package_is_a_stage() -> None:
    packages = {p.name for p in COMPILER.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in COMPILER.glob("*.py")}
    assert packages | modules <= set(STAGES) | {"workbench"}, packages | modules


def test_no_import_cycle() -> None:
    graph = import_graph(_modules())
    assert sum(len(t) for t in graph.values()) > 1000  # the reader reads imports
    assert cycles(graph) == []


def test_the_stages_import_downward() -> None:
    found = upward(import_graph(_modules()))
    assert {k: v for k, v in found.items() if k not in STILL_UPWARD} == {}
    assert sorted(set(STILL_UPWARD) - set(found)) == []


def test_the_checks_find_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    """The reader follows imports in functions, under TYPE_CHECKING, relative
    and absolute, and packages' ``__init__``."""
    files = {
        "compiler/__init__.py": "",
        "compiler/lang/__init__.py": "from ..emit import printer\n",
        "compiler/lang/expr.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from ..front.model import Rule\n"
        ),
        "compiler/front/__init__.py": "",
        "compiler/front/model.py": "def f():\n    import rulesc.lang.expr\n",
        "compiler/emit/__init__.py": "",
        "compiler/emit/printer.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(_modules(tmp_path / "compiler"))
    assert cycles(graph) == [["compiler.front.model", "compiler.lang.expr"]]
    assert sorted(upward(graph)) == [("lang", "emit"), ("lang", "front")]
