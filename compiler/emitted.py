"""Emitted names: the names the rules give, checked against the code rulesc emits.

No list of reserved words is kept by hand. Once a system's module is rendered,
its syntax tree says which names the module imports, which it defines at module
level (for the rules, and for itself: private tables, dice constants, specs),
which each class already has (its own body, and what its base class brings from
the support modules or the standard library), and which locals each function
uses. A name the rules give (``model.Name``, with where it was given) that would
collide with any of them is a located error at the name's own line:

- a module-level name may not be imported by the module or bound twice in it;
- a parameter, field or member may not hide a module-level name;
- inside a class, it may not repeat a name the class or its base already has;
- inside a function, a parameter may not be one of the function's own locals.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from .diagnostics import Diagnostic
from .model import Name, System

_CHUNK = re.compile(r"^# -- (\S+) --$", re.MULTILINE)
_RUNTIME_PACKAGE = "rulebook."  # generated modules import the support modules so


def clashes(system: System, text: str) -> list[Diagnostic]:
    """Every name of ``system`` that collides in its rendered module ``text``."""
    tree = ast.parse(text)
    module = _Module(tree, text)
    given = [n for n in system.names if n.scope == "module"]
    local = {n.name: n for n in system.names if n.scope == "local"}
    found: dict[tuple[str, int, int, str], Diagnostic] = {}

    def report(name: Name, message: str) -> None:
        d = Diagnostic(
            name.loc.file,
            name.loc.line,
            name.loc.col,
            f"{name.what} {name.name!r} {message}",
            "choose another name",
            name.pointer,
        )
        found.setdefault((d.file, d.line, d.col, d.message), d)

    by_name = {n.name: n for n in given}
    for n in given:
        if n.name in module.imported:
            report(
                n, f"is a name the generated module imports ({module.imported[n.name]})"
            )
        elif len(module.bound.get(n.name, ())) > 1:
            report(
                n,
                f"is also a name the generated module defines ({module.where(n.name)})",
            )
    for name, lines in module.bound.items():
        if len(lines) > 1 and name not in by_name and name not in module.imported:
            # Two names rulesc derives collide (say the private tables of
            # FooBar and FOOBar): blame the names they are derived from.
            rules = [
                Name(r.id, "rule id", "module", r.loc, "")
                for r in system.rules
                if r.qualified_id in {module.owner(line) for line in lines}
            ]
            for n in _derived_from(name, given, rules):
                report(
                    n,
                    f"would make the generated name {name!r}, which the module "
                    f"already defines ({module.where(name)})",
                )
    outside = module.imported.keys() | module.bound.keys()
    for n in local.values():
        if n.name in outside and n.name not in by_name:
            report(n, f"would hide the module's {n.name!r} ({module.where(n.name)})")
    for scope, names in module.scopes():
        for name in names:
            if name in local:
                report(local[name], f"is already a name {scope}")
    return sorted(found.values())


class _Module:
    """What one rendered module names, from its syntax tree."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.imported: dict[str, str] = {}
        self.bound: dict[str, list[int]] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = f"from {node.module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imported[alias.asname or alias.name.split(".")[0]] = "import"
            else:
                for name in _binds(node):
                    self.bound.setdefault(name, []).append(node.lineno)
        starts = [
            (text.count("\n", 0, m.start()) + 1, m.group(1))
            for m in _CHUNK.finditer(text)
        ]
        self.chunks = starts

    def owner(self, line: int) -> str | None:
        """The rule whose code holds ``line`` (rules are emitted one after another)."""
        owner = None
        for start, rule in self.chunks:
            if start <= line:
                owner = rule
        return owner

    def where(self, name: str) -> str:
        if name in self.imported:
            return f"imported {self.imported[name]}"
        owners = sorted(
            {o or "the module itself" for o in map(self.owner, self.bound[name])}
        )
        return "defined for " + " and ".join(owners)

    def scopes(self) -> Iterator[tuple[str, set[str]]]:
        """Each class and function, as a description and the names it already has
        twice over: a name bound twice in a class body, a base class's attribute
        the body binds again, a parameter that is also one of the body's locals."""
        for node in _statements(self.tree):
            if isinstance(node, ast.ClassDef):
                counts: dict[str, int] = {}
                for stmt in node.body:
                    for name in _binds(stmt):
                        counts[name] = counts.get(name, 0) + 1
                twice = {name for name, count in counts.items() if count > 1}
                if twice:
                    yield f"of the generated class {node.name}", twice
                inherited = set()
                for base in node.bases:
                    inherited |= self.attributes(base)
                clash = inherited & counts.keys()
                if clash:
                    yield f"every {node.name} has (from its base class)", clash
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = {
                    a.arg
                    for a in (
                        *node.args.posonlyargs,
                        *node.args.args,
                        *node.args.kwonlyargs,
                    )
                }
                stored = {
                    n.id
                    for stmt in node.body
                    for n in ast.walk(stmt)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                }
                clash = args & (stored - args)
                if clash:
                    yield f"the generated function {node.name} uses itself", clash

    def attributes(self, base: ast.expr) -> set[str]:
        """The public attributes a class gets from ``base``, when the module
        imports it (the support modules' classes, the standard library's)."""
        if isinstance(base, ast.Subscript):  # Generic[...] bases
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in self.imported:
            return set()
        source = self.imported[base.id].removeprefix("from ")
        return _public_attributes(source, base.id)


@cache
def _public_attributes(module: str, name: str) -> set[str]:
    if module.startswith(_RUNTIME_PACKAGE):
        # the generated package's support modules are the compiler's runtime/
        module = f"{__package__}.runtime." + module.removeprefix(_RUNTIME_PACKAGE)
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return set()
    if cls is NamedTuple:  # a factory: its classes are tuples
        cls = tuple
    return public_attributes(cls) if isinstance(cls, type) else set()


def public_attributes(cls: type) -> set[str]:
    """The public names every instance of ``cls`` has, along its bases."""
    return {
        attr
        for klass in cls.__mro__
        if klass is not object
        for attr in vars(klass)
        if not attr.startswith("_")
    }


def _derived_from(generated: str, given: list[Name], rules: list[Name]) -> list[Name]:
    """The names a generated name such as ``_FOO_BAR_BY_LABEL`` is made from (by
    ``naming.private_constant``); else the rules whose code defines it."""
    from .naming import private_constant

    found = [
        n
        for n in (*given, *rules)
        if generated == (form := private_constant(n.name))
        or generated.startswith(form + "_")
    ]
    return found or rules


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """Every statement under ``node``, at any depth: all ``ast.walk`` would find
    a class or function in, without visiting the expressions (no statement is
    ever inside one)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
            yield child
            yield from _statements(child)


def _binds(node: ast.stmt) -> Iterator[str]:
    """The names one statement binds in its own scope."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            yield from _targets(target)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        yield from _targets(node.target)


def _targets(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            yield from _targets(item)
