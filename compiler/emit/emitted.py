"""Emitted names: the safety net under the renaming, the names the rules give checked against the code rulesc emits.

The emitters spell every name the rules give as ``py_names`` says, out of the
way of what Python and the module have; this check is for what renaming cannot
settle. Once a system's module is rendered, its syntax tree says which names
the module imports, which it defines at module level (for the rules, and for
itself: private tables, dice constants, specs), which each class already has
(its own body, and what its base class brings from the support modules or the
standard library), and which locals each function uses. A name the rules give
(``model.Name``, with where it was given) whose Python name would collide with
any of them is a located error at the name's own line:

- a module-level name may not be imported by the module or bound twice in it
  (two rules' functions ``attack_odds`` and ``attack``'s odds function);
- a parameter or bound name may not hide a function of the module that its own
  function calls;
- inside a class, it may not repeat a name the class already has;
- inside a function, a parameter may not be one of the function's own locals.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ..common.diagnostics import Diagnostic
from ..front.model import (
    Name,
    System,
)
from ..lang.py_names import (
    pyattr,
    pyname,
)

_CHUNK = re.compile(r"^# -- (\S+) --$", re.MULTILINE)


def clashes(system: System, text: str) -> list[Diagnostic]:
    """Every name of ``system`` that collides in its rendered module ``text``."""
    tree = ast.parse(text)
    module = _Module(tree, text)
    given = [n for n in system.names if n.scope == "module"]
    code = {n.name: pyname(n.name) for n in given}
    local = {
        py: n
        for n in system.names
        if n.scope == "local"
        for py in {pyname(n.name), pyattr(n.name), pyattr(n.name, "mutable")}
    }
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

    by_code = {code[n.name]: n for n in given}
    for n in given:
        py = code[n.name]
        spelt = "" if py == n.name else f"is {py!r} in Python, "
        if py in module.imported:
            report(
                n,
                f"{spelt or 'is '}a name the generated module imports "
                f"({module.imported[py]})",
            )
        elif len(module.bound.get(py, ())) > 1:
            report(
                n,
                f"{spelt or 'is '}also a name the generated module defines "
                f"({module.where(py)})",
            )
    for name, lines in module.bound.items():
        if len(lines) > 1 and name not in by_code and name not in module.imported:
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
    for py, called in module.hidden():
        if py in local:
            report(
                local[py],
                f"would hide the module's {py!r} ({module.where(py)}), which "
                f"{called} calls",
            )
    for scope, names in module.scopes():
        for name in names:
            if name in local:
                owner = local[name]
                spelt = "" if name == owner.name else f"is {name!r} in Python, "
                report(owner, f"{spelt or 'is '}already a name {scope}")
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

    def hidden(self) -> Iterator[tuple[str, str]]:
        """Each local name of a generated function that is also a name of the
        module the function calls (the call would find the local), with the
        function."""
        outside = self.imported.keys() | self.bound.keys()
        for node in _statements(self.tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            own = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            own |= {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            calls = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            for name in sorted(own & calls & outside):
                yield name, f"the generated function {node.name}"

    def scopes(self) -> Iterator[tuple[str, set[str]]]:
        """Each class and function, as a description and the names it already has
        twice over: a name bound twice in a class body (a base class's are
        ``py_names.MEMBERS``, which the emitters spell the rules' names out of),
        a parameter that is also one of the body's locals."""
        for node in _statements(self.tree):
            if isinstance(node, ast.ClassDef):
                counts: dict[str, int] = {}
                for stmt in node.body:
                    for name in _binds(stmt):
                        counts[name] = counts.get(name, 0) + 1
                twice = {name for name, count in counts.items() if count > 1}
                if twice:
                    yield f"of the generated class {node.name}", twice
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


def _derived_from(generated: str, given: list[Name], rules: list[Name]) -> list[Name]:
    """The names a generated name such as ``_FOO_BAR_BY_LABEL`` is made from (by
    ``naming.private_constant``); else the rules whose code defines it."""
    from ..lang.naming import private_constant

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
