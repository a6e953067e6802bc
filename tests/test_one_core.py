"""The one core: a kind that lowers to the core (compiler/core/) holds no template,
no per-target module and no import of an emitter, and no emitter
(compiler/emit/, compiler/templates/core/) names a kind.

Kinds lower one by one: ``STILL_TO_LOWER`` lists those that still print
themselves with templates of their own, and must shrink as each is lowered.
"""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest

from compiler import registry
from compiler.core.ir import Prim

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"

STILL_TO_LOWER = {
    "covered_roll",
    "decision",
    "exposure_schedule",
    "pool",
    "process",
    "range_table",
    "recovery",
    "shift",
    "state",
    "success_pool",
    "track",
}
# The modules that print a target: a kind's folder imports none of them.
EMITTERS = (
    "compiler.emit",
    "compiler.js_kit",
    "compiler.js_views",
    "compiler.expr_emit",
    "compiler.expr_emit_js",
    "compiler.views",
    "compiler.pages",
    "compiler.render",
)
_TARGET = re.compile(
    r"(?:^|_)(?:js|javascript|ts|typescript|py|python|md|markdown|html)(?:_|$)"
)


def _module(path: Path) -> list[str]:
    """The dotted parts of a module's name, from its ``compiler`` package down."""
    parts = list(path.with_suffix("").parts)
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
            if module.startswith(EMITTERS):
                found.append(f"{path.name} imports the emitter {module}")
    return found


def emitter_violations(paths: list[Path]) -> list[str]:
    """Where an emitter names a kind: imports one, asks a rule's kind, or holds
    a kind's name as a string (one that is also a type of the core aside)."""
    kinds = set(registry.names()) - set(typing.get_args(Prim))
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for module in sorted(_imports(path)):
                if module.startswith(("compiler.kinds", "compiler.registry")):
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


def _emitters() -> list[Path]:
    return sorted((COMPILER / "emit").glob("*.py")) + sorted(
        (COMPILER / "templates" / "core").glob("*.j2")
    )


def test_the_kinds_still_to_lower_are_exactly_these() -> None:
    """Lowering a kind takes it off the list (and its templates out of its folder)."""
    unlowered = {n for n in registry.BUILT_IN if registry.get(n).lower is None}
    assert unlowered == STILL_TO_LOWER


@pytest.mark.parametrize("name", sorted(set(registry.BUILT_IN) - STILL_TO_LOWER))
def test_a_lowered_kind_prints_no_target_itself(name: str) -> None:
    assert kind_violations(registry.get(name).folder) == []


def test_no_emitter_names_a_kind() -> None:
    assert len(_emitters()) >= 4
    assert emitter_violations(_emitters()) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check reports a folder or an emitter that breaks it."""
    assert any(
        "is a template" in v for v in kind_violations(registry.get("track").folder)
    )
    folder = tmp_path / "compiler" / "kinds" / "made_up"
    folder.mkdir(parents=True)
    (folder / "record_js.py").write_text("from ...emit import python\n")
    (folder / "rule.py").write_text(
        "def f():\n    from ...js_kit import js\n    return js\n"
    )
    found = kind_violations(folder)
    assert found == [
        "record_js.py is a per-target module",
        "record_js.py imports the emitter compiler.emit",
        "record_js.py imports the emitter compiler.emit.python",
        "rule.py imports the emitter compiler.js_kit",
        "rule.py imports the emitter compiler.js_kit.js",
    ], found
    emitter = tmp_path / "compiler" / "emit" / "bad.py"
    emitter.parent.mkdir(parents=True)
    emitter.write_text(
        "from ..registry import kind_of\n\n"
        "def f(rule):\n    return rule.kind == 'track'\n"
    )
    template = tmp_path / "compiler" / "templates" / "core" / "bad.md.j2"
    template.parent.mkdir(parents=True)
    template.write_text(
        '{# a table #}\n| a table |\n{% if rule.kind_name == "table" %}x{% endif %}\n'
    )
    assert emitter_violations([emitter, template]) == [
        "bad.py imports compiler.registry",
        "bad.py imports compiler.registry.kind_of",
        "bad.py:4 reads a rule's kind",
        "bad.py names the kind track",
        "bad.md.j2 names the kind table",
    ]
