"""Kinds as plugins: every registered kind has every hook, its folder holds its
schema and templates, schema/ is their composition, and a kind from a folder
under tests/ builds a rule with no file of compiler/ or schema/ changed."""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulesc.common.diagnostics import RulesError
from rulesc.examples import runtime_from
from rulesc.front import schemas
from rulesc.front.validate import SCHEMA_DIR
from rulesc.kinds import registry
from rulesc.kinds.base import HOOKS, Kind
from rulesc.pipeline import build

from .probe import doc

ROOT = Path(__file__).resolve().parent.parent
THROWAWAY = Path(__file__).resolve().parent / "kinds" / "sequence"


def _used_kinds() -> set[str]:
    """The kinds of every rule in rules/, the cookbook and tests/values (the
    record kind's rules, tested by tests/test_values.py)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    found = set()
    for folder in (
        ROOT / "rules",
        ROOT / "tests" / "cookbook",
        ROOT / "tests" / "values",
    ):
        for path in folder.rglob("*.yaml"):
            data = yaml.load(path.read_text(encoding="utf-8"))
            found |= {rule["kind"] for rule in data.get("rules", [])}
    return found


@pytest.mark.parametrize("name", registry.BUILT_IN)
def test_every_built_in_kind_implements_every_hook(name: str) -> None:
    kind = registry.get(name)
    assert kind.name == name
    for hook in HOOKS:  # ``lower`` among them: the emitters print every target
        assert callable(getattr(kind, hook)), f"{name} has no {hook} hook"
    assert not list(kind.folder.glob("*.j2")), f"{name} has templates of its own"
    schema = json.loads(kind.schema_path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["kind"]["const"] == name
    assert kind.folder == ROOT / "compiler" / "kinds" / name
    for module in kind.runtime:
        assert (ROOT / "compiler" / "runtime" / module).is_file()
    # Each hook is exercised by the suite through a rule of the kind.
    assert name in _used_kinds(), (
        f"no rule of kind {name} in rules/, the cookbook or tests/values"
    )


def test_hooks_are_the_fields_a_kind_must_give() -> None:
    """Leaving a hook out is an error where the kind is declared, not a crash later."""
    with pytest.raises(TypeError, match="explain"):
        Kind(
            **{
                f: getattr(registry.get("table"), f)
                for f in (
                    "name",
                    "folder",
                    "text",
                    "runtime",
                    "js_runtime",
                    "callable",
                    *HOOKS,
                )
                if f != "explain"
            }
        )


def test_schema_dir_is_the_composition_of_the_kinds() -> None:
    assert schemas.stale(SCHEMA_DIR) == []
    rules = json.loads((SCHEMA_DIR / "rules.schema.json").read_text("utf-8"))
    items = rules["properties"]["rules"]["items"]
    assert items["properties"]["kind"]["enum"] == list(registry.names())
    for name in registry.names():
        kind_file = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text("utf-8"))
        own = json.loads(registry.get(name).schema_path.read_text("utf-8"))
        kind_file.pop("$comment")
        assert kind_file == own


def test_a_changed_kind_schema_makes_schema_dir_stale(tmp_path: Path) -> None:
    """rulesc check names the kind folder whose schema drifted."""
    for path in SCHEMA_DIR.glob("*.schema.json"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    drifted = tmp_path / "pool.schema.json"
    drifted.write_text(
        drifted.read_text("utf-8").replace('"minimum": 1', '"minimum": 2')
    )
    problems = schemas.stale(tmp_path)
    assert [(p.file, p.message) for p in problems] == [
        (
            str(drifted),
            "the schema is stale: compiler/kinds/pool/schema.json changed since it "
            "was composed",
        )
    ]
    assert schemas.write(tmp_path)
    assert schemas.stale(tmp_path) == []
    assert not schemas.write(tmp_path)


SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: A system with a rule of a kind registered by the test.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
"""

RULES = """\
# yaml-language-server: $schema=../../schema/rules.schema.json
system: lab
rules:
  - id: steps
    kind: sequence
    title: Steps
    summary: Numbers read by position.
    source: {section: Test}
    function: step_value
    values: [3, 5, 8, 13]
    examples:
      - name: third
        summary: The third value.
        args: {position: 3}
        expect: 8
  - id: doubled
    kind: formula
    title: Doubled
    summary: A formula beside it.
    source: {section: Test}
    function: doubled
    parameters:
      - {name: x, type: int, min: 0, max: 10, description: A number.}
    expression: x * 2
"""


def _tree_digest() -> str:
    h = hashlib.sha256()
    for folder in (ROOT / "compiler", ROOT / "schema"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(path.relative_to(ROOT).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def _rules_folder(tmp_path: Path, rules: str) -> Path:
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (folder / "lab.yaml").write_text(rules, encoding="utf-8")
    return folder.parent


def test_a_kind_from_a_folder_under_tests_builds_a_rule(tmp_path: Path) -> None:
    before = _tree_digest()
    rules_dir = _rules_folder(tmp_path, RULES)
    with registry.loaded(THROWAWAY) as kind:
        assert registry.kinds()["sequence"] is kind
        outputs = build(rules_dir)  # validates, builds, runs the worked example
        files = {
            k: v.decode("utf-8")
            for k, v in outputs.files.items()
            if k.startswith("rulebook/")
        }
        with runtime_from(files) as package:
            lab = importlib.import_module(f"{package}.lab")
            assert lab.step_value(2) == 5 and lab.doubled(4) == 8
        assert "a sequence" in doc(outputs, "lab")
        # lowered, it is in every target beside the formula (tests/test_one_core.py
        # runs its JavaScript)
        for module in ("js/lab.js", "js/lab.d.ts"):
            text = outputs.files[module].decode("utf-8")
            assert "// -- lab.steps --" in text and "// -- lab.doubled --" in text
    assert "sequence" not in registry.kinds()
    assert _tree_digest() == before, "registering a kind changed compiler/ or schema/"


def test_a_registered_kind_checks_its_rules_with_its_schema(tmp_path: Path) -> None:
    broken = RULES.replace("    values: [3, 5, 8, 13]\n", "    values: [3, 3]\n")
    broken = broken.replace(
        "    function: step_value\n", "    function: step_value\n    valuse: [1]\n"
    )
    rules_dir = _rules_folder(tmp_path, broken)
    with registry.loaded(THROWAWAY), pytest.raises(RulesError) as err:
        build(rules_dir)
    messages = [(d.line, d.message) for d in err.value.diagnostics]
    assert any(line == 10 and "valuse" in m for line, m in messages), messages


def test_its_semantic_checks_report_located_errors(tmp_path: Path) -> None:
    rules_dir = _rules_folder(
        tmp_path, RULES.replace("values: [3, 5, 8, 13]", "values: [3, 3]")
    )
    with registry.loaded(THROWAWAY), pytest.raises(RulesError) as err:
        build(rules_dir)
    assert [(d.line, d.message) for d in err.value.diagnostics] == [
        (10, "a value is repeated")
    ]


def test_without_the_kind_its_rules_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as err:
        build(_rules_folder(tmp_path, RULES))
    assert any("sequence" in d.message for d in err.value.diagnostics)


# -- the import graph ---------------------------------------------------------------


def _import_graph(folder: Path) -> dict[str, set[str]]:
    """The modules of the package at ``folder`` and the ones each imports: every
    import statement, at top level, in a function or under ``if TYPE_CHECKING:``,
    both ``from ... import`` (relative or absolute) and ``import package.x``."""
    modules = {}
    for path in folder.rglob("*.py"):
        parts = list(path.relative_to(folder.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = (
            name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        )
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    found.add(full if full in modules else target)
        graph[name] = (found & set(modules)) - {name}
    return graph


def _imports() -> dict[str, set[str]]:
    """compiler's modules and the compiler modules each imports."""
    graph = _import_graph(ROOT / "compiler")
    # The registry imports every built-in kind by name.
    graph["compiler.kinds.registry"] |= {
        f"compiler.kinds.{k}.kind" for k in registry.BUILT_IN
    }
    # The workbench's dispatch imports each command's module (with a ``run``) by name.
    commands = {
        f"compiler.workbench.{path.stem}"
        for path in (ROOT / "compiler" / "workbench").glob("*.py")
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "run"
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    }
    assert {"compiler.workbench.explain", "compiler.workbench.roll"} <= commands
    graph["compiler.workbench.commands"] |= commands
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another (a strongly connected
    component of more than one module), sorted, by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for dep in sorted(graph.get(name, ())):
            if dep not in index:
                visit(dep)
                low[name] = min(low[name], low[dep])
            elif dep in stack:
                low[name] = min(low[name], index[dep])
        if low[name] == index[name]:
            group: list[str] = []
            while not group or group[-1] != name:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(groups)


def _cycle_in(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """One cycle through the first module of ``group``: the shortest way back."""
    start, members = group[0], set(group)
    came: dict[str, str] = {}
    queue = [start]
    for name in queue:
        for dep in sorted(graph[name] & members):
            if dep == start:
                trail = [name]
                while trail[-1] != start:
                    trail.append(came[trail[-1]])
                return [start, *reversed(trail[:-1]), start]
            if dep not in came:
                came[dep] = name
                queue.append(dep)
    raise AssertionError(f"no cycle through {start}")


def test_compiler_modules_import_each_other_without_cycles() -> None:
    graph = _imports()
    found = []
    for group in _cycles(graph):
        cycle = _cycle_in(graph, group)
        rest = sorted(set(group) - set(cycle))
        found.append(
            " -> ".join(cycle) + (f" (with {', '.join(rest)})" if rest else "")
        )
    assert not found, "import cycles in compiler/:\n" + "\n".join(found)
    assert (
        "compiler.output.cache"
        in graph["compiler.cli"] | graph["compiler.workbench.workspace"]
    )


def test_the_import_graph_counts_every_import(tmp_path: Path) -> None:
    """Type-checking, in-function, relative and ``import package.x`` imports are
    all edges: a cycle made only of them is found."""
    files = {
        "__init__.py": "",
        "a.py": "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .b import B\n",
        "b.py": "def f() -> None:\n    import pkg.c\n",
        "c.py": "from pkg import d\n",
        "d.py": "from .sub.e import E\n",
        "sub/__init__.py": "",
        "sub/e.py": "from ..a import A\nimport json\n",
        "f.py": "from . import a\n",
    }
    for rel, text in files.items():
        (tmp_path / "pkg" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / rel).write_text(text, encoding="utf-8")
    graph = _import_graph(tmp_path / "pkg")
    assert graph == {
        "pkg": set(),
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.c"},
        "pkg.c": {"pkg.d"},
        "pkg.d": {"pkg.sub.e"},
        "pkg.sub": set(),
        "pkg.sub.e": {"pkg.a"},
        "pkg.f": {"pkg.a"},
    }
    cycle = ["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.sub.e"]
    assert _cycles(graph) == [cycle]
    assert _cycle_in(graph, cycle) == [*cycle, "pkg.a"]


def test_no_chain_of_kind_checks_outside_the_kinds() -> None:
    """Code outside compiler/kinds/ asks the registry, not the rule's class."""
    models = {
        name
        for name in dir(importlib.import_module("rulesc.front.model"))
        if name.endswith("Rule") and name != "Rule"
    }
    for path in (ROOT / "compiler").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if (
            rel.startswith("compiler/kinds/")
            or rel
            in (
                "compiler/front/model.py",
                "compiler/front/scope.py",  # what expressions see of tables, formulas, decisions
            )
        ):
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance":
                checked = ast.unparse(node.args[1])
                named = {m for m in models if m in checked}
                assert not named, f"{rel}:{node.lineno}: isinstance(..., {checked})"


def test_the_compiler_holds_no_game_words() -> None:
    """The issue's check: no game's words, names or mechanics in compiler/."""
    words = re.compile(
        r"radiation|contaminat|CON damage|exposed_minutes|incubation|natural 1"
        r"|stunt|bane|trauma|dying|death save"
        r"|hunger|bestial|botch|messy|cypher|fireball|\bbust\b",
        re.I,
    )
    for path in sorted((ROOT / "compiler").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            found = words.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(ROOT)}: {found.group(0)!r}"
