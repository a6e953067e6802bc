"""The one core: every kind lowers to the core (compiler/core/) and holds no
template, no per-target module and no import of an emitter; the ``Kind``
interface has no hook of a target; and no emitter (compiler/emit/,
compiler/emit/templates/core/) names a kind.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import typing
from pathlib import Path

import pytest

from rulesc.core.ir import Prim
from rulesc.kinds import registry
from rulesc.kinds.base import HOOKS, Kind
from rulesc.lang.nodes import ValueType

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"

# The modules that print a target: a kind's folder imports none of them.
EMITTERS = (
    "compiler.emit",
    "compiler.emit.javascript.kit",
    "compiler.emit.javascript.views",
    "compiler.emit.expr",
    "compiler.emit.javascript.expr",
    "compiler.emit.python.views",
    "compiler.emit.markdown.pages",
    "compiler.emit.render",
)
_TARGET = re.compile(
    r"(?:^|_)(?:js|javascript|ts|typescript|py|python|md|markdown|html)(?:_|$)"
)


def _module(path: Path) -> list[str]:
    """The dotted parts of a module's name, from its ``compiler`` package down
    (or, outside one, from the project's root)."""
    parts = list(path.with_suffix("").parts)
    if "compiler" not in parts:
        return list(path.resolve().relative_to(ROOT).with_suffix("").parts)
    return parts[len(parts) - 1 - parts[::-1].index("compiler") :]


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (in functions and under
    TYPE_CHECKING too), relative imports resolved."""
    package = _module(path)[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def kind_violations(folder: Path) -> list[str]:
    """What in a kind's folder prints a target itself."""
    found = [f"{p.name} is a template" for p in sorted(folder.glob("*.j2"))]
    for path in sorted(folder.glob("*.py")):
        if _TARGET.search(path.stem):
            found.append(f"{path.name} is a per-target module")
        for module in sorted(_imports(path)):
            if any(module == e or module.startswith(e + ".") for e in EMITTERS):
                found.append(f"{path.name} imports the emitter {module}")
    return found


def emitter_violations(paths: list[Path]) -> list[str]:
    """Where an emitter names a kind: imports one, asks a rule's kind, or holds
    a kind's name as a string (one that is also a type of the core or of the
    expression language aside: a record is one, ``core.ir.Record``, as a
    value and a list's items are, and a state held as a value is one)."""
    values = set(typing.get_args(ValueType))
    kinds = set(registry.names()) - set(typing.get_args(Prim)) - values
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for module in sorted(_imports(path)):
                if module.startswith(("compiler.kinds", "compiler.kinds.registry")):
                    found.append(f"{path.name} imports {module}")
            strings = set()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Attribute) and node.attr == "kind":
                    found.append(f"{path.name}:{node.lineno} reads a rule's kind")
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    strings.add(node.value)
        else:  # a template: the strings of its tags
            tags = re.findall(r"{[{%](.*?)[%}]}", text, re.S)
            strings = {m[1] for tag in tags for m in re.findall(r"(['\"])(.*?)\1", tag)}
        found += [f"{path.name} names the kind {k}" for k in sorted(kinds & strings)]
    return found


# Work left by the move of every target's modules into compiler/emit/ (issue 40):
# modules of a target that still dispatch on kinds (the Kind interface's
# per-target hooks: views, rules.json's data_view, forms). Each entry says
# why; the tests below fail when one no longer applies, so the list only
# shrinks. A kind's folder imports no module of a target at all.
EMITTERS_STILL_NAMING_KINDS = {
    "markdown/forms.py": "the try-it forms ask each rule's kind for its inputs",
    "javascript/views.py": "the JavaScript module view asks the kinds likewise",
    "odds.py": "reads an odds step's own .kind (not a rule's): the check is by name",
    "json/rules_json.py": "rules.json asks each kind for its data_view",
    "markdown/pages.py": "the pages ask each kind for its text and columns",
    "markdown/contract.py": "the contract page reads each rule's kind",
    "conformance/target.py": "the kit asks each rule's kind how it is called and sampled",
    "markdown/reads.py": "a page finds the tables its formulas read by their model (TableRule)",
    "python/files.py": "the package's support modules add each kind's (Kind.runtime)",
    "javascript/files.py": "likewise, each kind's JavaScript ones (Kind.js_runtime)",
}


def _emitters() -> list[Path]:
    return [
        p
        for p in sorted((COMPILER / "emit").rglob("*.py"))
        if p.relative_to(COMPILER / "emit").as_posix()
        not in EMITTERS_STILL_NAMING_KINDS
    ] + sorted((COMPILER / "emit" / "templates" / "core").glob("*.j2"))


def test_the_work_left_is_still_left() -> None:
    """Each module listed as still naming kinds does: a fix takes its entry off."""
    for name in EMITTERS_STILL_NAMING_KINDS:
        assert emitter_violations([COMPILER / "emit" / name]), name


def test_the_kind_interface_has_no_hook_of_a_target() -> None:
    """A kind gives its rules lowered to the core (a required hook) and no
    view, template or spelling of a target: the emitters print every target,
    and how a rule is called (``call``) is said in the rules' names, which
    each target spells. No module of compiler/kinds/ (the shared hooks among
    them) imports one of a target."""
    fields = {f.name: f for f in dataclasses.fields(Kind)}
    assert fields["lower"].default is dataclasses.MISSING
    assert "lower" in HOOKS and "call" in HOOKS
    assert [
        h for h in HOOKS if _TARGET.search(h) or h.endswith(("_view", "_plan"))
    ] == [
        "data_view"  # its part of rules.json: data, printed by no target
    ]
    assert not hasattr(Kind, "template")
    found = [
        f"{path.relative_to(COMPILER)} imports {module}"
        for path in sorted((COMPILER / "kinds").rglob("*.py"))
        for module in sorted(_imports(path))
        if module.split(".")[:2] == ["compiler", "emit"]
    ]
    assert found == []


@pytest.mark.parametrize("name", sorted(registry.BUILT_IN))
def test_a_kind_prints_no_target_itself(name: str) -> None:
    kind = registry.get(name)
    assert callable(kind.lower), name
    assert kind_violations(kind.folder) == []


def test_no_emitter_names_a_kind() -> None:
    assert len(_emitters()) >= 4
    assert emitter_violations(_emitters()) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check reports a folder or an emitter that breaks it."""
    folder = tmp_path / "compiler" / "kinds" / "made_up"
    folder.mkdir(parents=True)
    (folder / "python.py.j2").write_text("{{ rule }}\n")
    assert kind_violations(folder) == ["python.py.j2 is a template"]
    (folder / "python.py.j2").unlink()
    (folder / "record_js.py").write_text("from ...emit.python import unit\n")
    (folder / "rule.py").write_text(
        "def f():\n    from ...emit.javascript.kit import js\n    return js\n"
    )
    found = kind_violations(folder)
    assert found == [
        "record_js.py is a per-target module",
        "record_js.py imports the emitter compiler.emit.python",
        "record_js.py imports the emitter compiler.emit.python.unit",
        "rule.py imports the emitter compiler.emit.javascript.kit",
        "rule.py imports the emitter compiler.emit.javascript.kit.js",
    ], found
    emitter = tmp_path / "compiler" / "emit" / "bad.py"
    emitter.parent.mkdir(parents=True)
    emitter.write_text(
        "from ..kinds.registry import kind_of\n\n"
        "def f(rule):\n    return rule.kind == 'track'\n"
    )
    template = tmp_path / "compiler" / "templates" / "core" / "bad.md.j2"
    template.parent.mkdir(parents=True)
    template.write_text(
        '{# a table #}\n| a table |\n{% if rule.kind_name == "table" %}x{% endif %}\n'
    )
    assert emitter_violations([emitter, template]) == [
        "bad.py imports compiler.kinds.registry",
        "bad.py imports compiler.kinds.registry.kind_of",
        "bad.py:4 reads a rule's kind",
        "bad.py names the kind track",
        "bad.md.j2 names the kind table",
    ]


# -- a kind of its own, lowered: every target prints it -------------------------------


def test_a_kind_of_its_own_lowers_and_every_target_prints_it(tmp_path: Path) -> None:
    """A kind registered from a folder under tests/ that gives a lowering and
    no template: its rules are in the Python module, the JavaScript module and
    its types, and the page, with the same answers in both languages."""
    from rulesc.examples import runtime_from
    from rulesc.pipeline import build

    from .js_node import node_json
    from .probe import doc
    from .test_kind_plugins import RULES, THROWAWAY, _rules_folder

    assert kind_violations(THROWAWAY) == []
    with registry.loaded(THROWAWAY) as kind:
        assert callable(kind.lower)
        outputs = build(_rules_folder(tmp_path, RULES))  # runs the example
        files = {
            k: v.decode("utf-8")
            for k, v in outputs.files.items()
            if k.startswith("rulebook/")
        }
        with runtime_from(files) as package:
            lab = importlib.import_module(f"{package}.lab")
            errors = importlib.import_module(f"{package}.errors")
            assert [lab.step_value(p) for p in (1, 2, 3, 4)] == [3, 5, 8, 13]
            for wrong in (0, 5, True):
                with pytest.raises(errors.RuleInputError, match="position"):
                    lab.step_value(wrong)
        out = tmp_path / "out"
        for name, data in outputs.files.items():
            if name.startswith("js/"):
                (out / name).parent.mkdir(parents=True, exist_ok=True)
                (out / name).write_bytes(data)
        types = outputs.files["js/lab.d.ts"].decode("utf-8")
        assert "export declare function stepValue(position: number): number;" in types
        module = (out / "js" / "lab.js").as_uri()
        answers = node_json(
            f'import * as m from "{module}";\n'
            "const wrong = [0, 5].map((p) => { try { m.stepValue(p); return null; }"
            " catch (e) { return e.name; } });\n"
            "console.log(JSON.stringify([[1, 2, 3, 4].map(m.stepValue), wrong]));\n"
        )
        assert answers == [[3, 5, 8, 13], ["RuleInputError", "RuleInputError"]]
        page = doc(outputs, "lab", "steps")
        assert "*a sequence* (`sequence`)" in page
        assert "step_value(position: int) -> int" in page
        assert r"\{3, 5, 8, 13\}\left[\textit{position} - 1\right]" in page, page
        assert "from 3 to 13" in page and 'data-rule="lab.steps"' in page
    assert "sequence" not in registry.kinds()


# -- no printer outside compiler/emit/, and targets in a list -------------------

# What any module may import of compiler/emit/: the list of targets and the
# interface a target declares, which print nothing.
THE_LIST = ("compiler.emit.targets", "compiler.emit.target")
# Modules outside compiler/emit/ that still import a printer, each with why
# (issue 40): the test fails when one no longer does, so the list only shrinks.
PRINTERS_STILL_IMPORTED: dict[str, str] = {}
# The modules that run every target: they name none.
RUNNERS = ("pipeline.py", "output/cache.py", "output/staleness.py")


def printer_imports(path: Path) -> list[str]:
    """The printers (modules of compiler/emit/ but the list) and the template
    library a module imports, anywhere in it."""
    found = set()
    for module in _imports(path):
        name = module.replace("rulesc", "compiler", 1)
        if name.split(".")[0] == "jinja2":
            found.add("jinja2")
        elif name.startswith("compiler.emit.") and not any(
            name == m or name.startswith(m + ".") for m in THE_LIST
        ):
            found.add(name)
    return sorted(found)


def _outside_emit() -> dict[str, list[str]]:
    found = {}
    for path in sorted(COMPILER.rglob("*.py")):
        parts = path.relative_to(COMPILER).parts
        if parts[0] == "emit" or "__pycache__" in parts:
            continue
        if imports := printer_imports(path):
            found[".".join(_module(path)).removesuffix(".__init__")] = imports
    return found


def test_no_module_outside_emit_imports_a_printer_or_jinja() -> None:
    found = _outside_emit()
    assert {m: i for m, i in found.items() if m not in PRINTERS_STILL_IMPORTED} == {}
    assert sorted(set(PRINTERS_STILL_IMPORTED) - set(found)) == []


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def target_mentions(path: Path, packages: set[str], names: set[str]) -> list[str]:
    """Where a module names a target: imports its package (``packages``: the
    packages of compiler/emit/ that declare one), or holds one of ``names`` as
    a string (docstrings aside): a target's name or file, or a string that
    begins with one ending in "/" (a folder of the output)."""
    found = []
    for module in sorted(_imports(path)):
        parts = module.replace("rulesc", "compiler", 1).split(".")
        if (
            parts[:2] == ["compiler", "emit"]
            and len(parts) > 2
            and parts[2] in packages
        ):
            found.append(f"imports {module}")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    folders = tuple(n for n in names if n.endswith("/"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) not in skip and (
            node.value in names or node.value.startswith(folders)
        ):
            found.append(f"line {node.lineno} names {node.value!r}")
    return found


def _target_names() -> tuple[set[str], set[str], set[str]]:
    """The targets' names, their packages, and their files' first folders."""
    from rulesc.emit.targets import TARGETS

    packages = {p.parent.name for p in (COMPILER / "emit").glob("*/target.py")}
    files = [f for t in TARGETS for f in (*t.shared(), *t.own("a_system", ["a"]))]
    folders = {f.split("/")[0] + "/" for f in files if "/" in f}
    return {t.name for t in TARGETS}, packages, folders | set(files)


def test_the_runners_name_no_target() -> None:
    """The pipeline, the cache and the check iterate over the list of targets."""
    names, packages, files = _target_names()
    assert len(names) >= 4 and packages >= {"python", "javascript", "markdown", "json"}
    assert {"rulebook/", "docs/", "js/", "rules.json"} <= files
    for runner in RUNNERS:
        found = target_mentions(COMPILER / runner, packages, names | packages | files)
        assert found == [], runner


def test_the_list_and_the_checks(tmp_path: Path) -> None:
    """Every target is one declaration in the list, and each check finds what
    it looks for: a printer imported outside emit/, a target named."""
    from rulesc.emit.target import Target
    from rulesc.emit.targets import TARGETS

    assert all(isinstance(t, Target) for t in TARGETS)
    assert len({t.name for t in TARGETS}) == len(TARGETS)
    assert [t.name for t in TARGETS if t.runs][:1], "no target runs the examples"
    module = tmp_path / "compiler" / "core" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        '"""javascript"""\n'
        "import jinja2\n"
        "from ..emit.targets import TARGETS\n"
        "def f():\n    from rulesc.emit.python import views\n"
        "X = ('python', 'docs/index.md')\n"
    )
    assert printer_imports(module) == [
        "compiler.emit.python",
        "compiler.emit.python.views",
        "jinja2",
    ]
    assert target_mentions(module, {"python"}, {"python", "javascript", "docs/"}) == [
        "imports rulesc.emit.python",
        "imports rulesc.emit.python.views",
        "line 6 names 'python'",
        "line 6 names 'docs/index.md'",
    ]
    assert target_mentions(module, set(), {"pyth"}) == []
