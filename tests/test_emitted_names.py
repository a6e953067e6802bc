"""Hostile names at every kind: each builds into importable, working code, or is a
located error where the name is written (two names of one system clashing, not
a name Python has: those build, renamed in the code, tests/test_rule_names.py).

Every Python name the rules give (``System.names``: functions, classes, enums,
constants, parameters, fields, members...) of every system is renamed, throughout
its system, to a name drawn from the names the emitted code already uses: the
modules' own identifiers, the support modules' names, the standard library's and
the builtins', other names of the same system, and case variants of them. Each
case runs the stages in memory (schema, semantic checks, rendering, the emitted
names check), then imports the rendered module and runs its worked examples.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc import pipeline
from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.emit.emitted import clashes
from rulesc.emit.python import files as python_target
from rulesc.emit.python.views import module_view
from rulesc.emit.render import render
from rulesc.examples import check_examples, runtime_from
from rulesc.front import schemas
from rulesc.front.loader import SourceFile
from rulesc.front.model import (
    Name,
    System,
)
from rulesc.front.semantics import build_system
from rulesc.front.validate import validate
from rulesc.kinds import registry

from .target_names import python_identifiers

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "rules", ROOT / "tests" / "cookbook", ROOT / "tests" / "values")
Sources = tuple[SourceFile, list[SourceFile]]


@cache
def _systems() -> tuple[tuple[Sources, System], ...]:
    found = []
    for folder in FOLDERS:
        for meta, files in pipeline.load_sources(folder):
            found.append(((meta, files), build_system(meta, files, registry.kinds())))
    return tuple(found)


def _module_text(system: System) -> str:
    return render("system.py.j2", module_view(system))


@cache
def _emitted_identifiers() -> tuple[str, ...]:
    """Every identifier the emitted modules and the support modules hold."""
    names: set[str] = set()
    texts = [_module_text(system) for _, system in _systems()]
    texts += [
        (python_target.RUNTIME / m).read_text() for m in python_target.support_modules()
    ]
    for text in texts:
        names |= python_identifiers(text)
    stems = {Path(m).stem for m in python_target.support_modules()}
    pages = {Path(p).stem for p in pipeline.shared_files()}
    return tuple(sorted(names | stems | pages))


def _variants(name: str) -> set[str]:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).strip("_").split("_")
    return {
        name,
        name.upper(),
        name.lower(),
        "".join(w.capitalize() for w in words),
        "_".join(w.lower() for w in words),
        name.swapcase(),
    }


def _pool(system: System) -> list[str]:
    own = {n.name for n in system.names}
    base = set(_emitted_identifiers()) | own | {"None", "class", "match", "print"}
    base |= {k for k in keyword.kwlist[:5]} | {"len", "min", "type"}
    pool = {v for name in base for v in _variants(name)}
    return sorted(n for n in pool if n.isidentifier())


def _written(sources: Sources, given: Name) -> bool:
    """Whether ``given`` is written where it is given (not derived from a label)."""
    for source in (sources[0], *sources[1]):
        if source.path == given.loc.file:
            node: Any = source.data
            for part in _path(given):
                try:
                    node = node[part]
                except (KeyError, IndexError, TypeError):
                    return False
            return bool(node == given.name)
    return False


def _path(given: Name) -> list[str | int]:
    return [int(p) if p.isdigit() else p for p in given.pointer.split("/")[1:]]


def _cases() -> list[tuple[int, Name]]:
    """Every name the rules write, but those that are also a key of the rules
    language (``stage``, ``amount``): those cannot be renamed everywhere by text."""
    return [
        (index, name)
        for index, (sources, system) in enumerate(_systems())
        for name in system.names
        if name.name not in _vocabulary() and _written(sources, name)
    ]


@cache
def _vocabulary() -> frozenset[str]:
    """Every key the rules language has (a property of some schema): never renamed."""
    import json

    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.update(node.get("properties", {}))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for text in schemas.composed().values():
        walk(json.loads(text))
    for path in (ROOT / "schema").glob("*.json"):
        walk(json.loads(path.read_text()))
    return frozenset(found)


def _key(key: Any, old: re.Pattern[str], new: str) -> Any:
    if isinstance(key, str) and key not in _vocabulary():
        return old.sub(new, key)
    return key


def _renamed(value: Any, old: re.Pattern[str], new: str) -> Any:
    if isinstance(value, str):
        return old.sub(new, value)
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_key(k, old, new): _renamed(v, old, new) for k, v in value.items()}
    return value


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def _args_renamed(value: Any, old: str, new: str) -> Any:
    """Only the keys of ``args:`` mappings (a call's arguments, by parameter name)."""
    if isinstance(value, list):
        return [_args_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {
            k: {new if a == old else a: x for a, x in v.items()}
            if k == "args" and isinstance(v, dict)
            else _args_renamed(v, old, new)
            for k, v in value.items()
        }
    return value


def _rename(
    source: SourceFile, old: str, new: str, within: int | None = None
) -> SourceFile:
    """``old`` renamed ``new`` by word throughout ``source``; or, for a parameter
    or field, in its rule number ``within`` and as an argument name elsewhere."""
    word = _word(old)

    def path(p: tuple[str | int, ...]) -> tuple[str | int, ...]:
        if within is not None and p[:2] != ("rules", within):
            if "args" not in p:
                return p
            at = p.index("args") + 1  # an argument's name, not a key within its value
            return tuple(
                _key(part, word, new) if i == at else part for i, part in enumerate(p)
            )
        return tuple(_key(part, word, new) for part in p)

    data = source.data
    if within is None:
        data = _renamed(data, word, new)
    else:
        rules = list(_args_renamed(data["rules"], old, new))
        if within >= 0:
            rules[within] = _renamed(rules[within], word, new)
        data = {**data, "rules": rules}
    return replace(
        source,
        data=data,
        positions={path(k): v for k, v in source.positions.items()},
        key_positions={path(k): v for k, v in source.key_positions.items()},
    )


def _rename_at(source: SourceFile, given: Name, new: str) -> SourceFile:
    """``source`` with only the node that gives the name renamed."""
    if source.path != given.loc.file:
        return source
    path = _path(given)

    def put(node: Any, at: list[str | int]) -> Any:
        if not at:
            return new
        if isinstance(node, list):
            return [put(v, at[1:]) if i == at[0] else v for i, v in enumerate(node)]
        return {k: put(v, at[1:]) if k == at[0] else v for k, v in node.items()}

    return replace(source, data=put(source.data, path))


def _stages(meta: SourceFile, files: list[SourceFile]) -> list[Diagnostic] | System:
    """The build's stages up to the module's code: its errors, or the system."""
    errors = [d for source in (meta, *files) for d in validate(source)]
    if errors:
        return errors
    try:
        system = build_system(meta, files, registry.kinds())
    except RulesError as exc:
        return list(exc.diagnostics)
    return clashes(system, _module_text(system)) or system


def _runs(system: System) -> list[Diagnostic]:
    """Import the rendered module and run its worked examples."""
    import importlib

    files = {
        f"rulebook/{m}": (python_target.RUNTIME / m).read_text()
        for m in python_target.support_modules()
    }
    files["rulebook/__init__.py"] = ""
    files[f"rulebook/{system.id}.py"] = _module_text(system)
    with runtime_from(files) as package:
        module = importlib.import_module(f"{package}.{system.id}")
        for name in module.__all__:
            assert hasattr(module, name), name
        return check_examples(system, module)[0]


def _lines_holding(sources: list[SourceFile], *names: str) -> set[tuple[str, int]]:
    word = re.compile("|".join(_word(name).pattern for name in names))
    found = set()
    for source in sources:
        for path, (line, _) in source.positions.items():
            node: Any = source.data
            for part in path:
                node = node[part]
            if isinstance(node, str) and word.search(node):
                found.add((source.path, line))
                # every line a scalar written over several lines covers
                start, end, _style = source.scalars.get(path, (0, 0, None))
                for more in range(source.text.count("\n", start, end)):
                    found.add((source.path, line + 1 + more))
        for path, (line, _) in source.key_positions.items():
            if path and isinstance(path[-1], str) and word.search(path[-1]):
                found.add((source.path, line))
    return found


def _typed(files: list[SourceFile], given: Name) -> bool:
    """Whether ``given`` is a name of a record type or a state class the rule
    declares (its fields are read, and its worked examples written, by other
    rules too: renamed everywhere)."""
    source = next(f for f in files if f.path == given.loc.file)
    rule = source.data["rules"][int(given.pointer.split("/")[2])]
    declares = rule.get("kind") in ("record", "state") or "result" in rule
    return bool(declares) and given.what == "field name"


def _one(index: int, given: Name, new: str) -> None:
    (meta, files), _ = _systems()[index]
    if given.scope == "module" and given.name == meta.data["system"]:
        return
    if given.what == "member name":  # the rules name members by label, never by name
        renamed = [_rename_at(f, given, new) for f in files]
    elif given.scope == "local" and not _typed(files, given):
        within = int(given.pointer.split("/")[2])
        renamed = [
            _rename(f, given.name, new, within if f.path == given.loc.file else -1)
            for f in files
        ]
    else:
        renamed = [_rename(f, given.name, new) for f in files]
    result = _stages(meta, renamed)
    if isinstance(result, System):
        assert _runs(result) == [], f"{given.name} -> {new}: examples fail"
        return
    assert result, f"{given.name} -> {new}: no answer"
    holding = _lines_holding([meta, *renamed], new, given.name)
    shown = {f.path for f in (meta, *renamed)}
    for d in result:
        assert d.file in shown and d.line >= 1 and d.col >= 1, d.format_text()
    assert any((d.file, d.line) in holding for d in result), (
        f"{given.name} -> {new}: no error where {new!r} is written:\n"
        + "\n".join(d.format_text() for d in result)
    )


_SHAPES = (
    re.compile(r"[a-z][a-z0-9_]*"),
    re.compile(r"[A-Z][A-Z0-9_]*"),
    re.compile(r"[A-Z][A-Za-z0-9]*"),
)


def _shaped_like(name: str, pool: list[str]) -> list[str]:
    """The names of ``pool`` the schema takes where ``name`` stands (its shape)."""
    shape = next((s for s in _SHAPES if s.fullmatch(name)), None)
    return [n for n in pool if shape is None or shape.fullmatch(n)] or pool


@st.composite
def _case(draw: st.DrawFn) -> tuple[int, Name, str]:
    index, name = draw(st.sampled_from(_cases()))
    pool = _pool(_systems()[index][1])
    # half of them pass the schema, to reach the later stages
    names = st.sampled_from(_shaped_like(name.name, pool)) | st.sampled_from(pool)
    return index, name, draw(names)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_case())
def test_a_hostile_name_builds_or_is_a_located_error(
    case: tuple[int, Name, str],
) -> None:
    _one(*case)


def _collisions() -> Iterator[tuple[int, Name, str]]:
    """Every given name renamed to each name its module already imports."""
    for index, (sources, system) in enumerate(_systems()):
        tree = ast.parse(_module_text(system))
        imported = sorted(
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        )
        for name in system.names:
            if name.scope == "module" and _written(sources, name):
                shape = next(s for s in _SHAPES if s.fullmatch(name.name))
                for new in imported:
                    if shape.fullmatch(new):  # a name the schema takes there
                        yield index, name, new


@pytest.mark.parametrize(
    "case", list(_collisions())[::20], ids=lambda c: f"{c[1].name}->{c[2]}"
)
def test_a_name_the_module_imports_builds(case: tuple[int, Name, str]) -> None:
    """The module's imports are names of Python's table (py_names): a rule's
    name that is one builds, spelt with one more ``_`` in Python, and its
    worked examples hold."""
    index, given, new = case
    (meta, files), _ = _systems()[index]
    result = _stages(meta, [_rename(f, given.name, new) for f in files])
    assert isinstance(result, System), f"{given.name} -> {new} was refused: {result}"
    assert _runs(result) == []


def test_the_cases_reach_every_kind() -> None:
    kinds = set()
    for index, name in _cases():
        (_, files), _ = _systems()[index]
        source = next(f for f in files if f.path == name.loc.file)
        kinds.add(source.data["rules"][int(name.pointer.split("/")[2])]["kind"])
    assert kinds == set(registry.kinds())


def test_builtins_are_in_the_pool() -> None:
    # the pool is derived from the emitted code, so it holds what the code uses
    pool = set(_emitted_identifiers())
    used = {"Record", "Final", "RuleInputError", "Dice", "choice", "Ladder"}
    assert used <= pool
    assert {"min", "max", "type"} & pool & set(dir(builtins))


def _shared_stems() -> list[str]:
    return sorted(
        {Path(p).stem for p in pipeline.shared_files() if Path(p).stem.isidentifier()}
    )


@pytest.mark.parametrize("stem", _shared_stems())
def test_a_system_id_that_is_a_shared_output_is_refused(
    stem: str, tmp_path: Path
) -> None:
    (meta, files), _ = next(s for s in _systems() if s[1].id == "edge_of_darkness")
    folder = tmp_path / "rules" / stem
    folder.mkdir(parents=True)
    for source in (meta, *files):
        name = Path(source.path).name
        text = (ROOT / "rules" / "edge_of_darkness" / name).read_text()
        (folder / name).write_text(
            text.replace("system: edge_of_darkness", f"system: {stem}")
        )
    try:
        pipeline.build(tmp_path / "rules")
    except RulesError as exc:
        found = [d.format_text().splitlines()[0] for d in exc.diagnostics]
    else:
        found = []
    if stem.startswith("_") or not stem.islower():  # the schema refuses it first
        assert found and all("is not a valid name here" in line for line in found)
    elif not set(pipeline.own_files(stem)) & set(pipeline.shared_files()):
        assert found == []  # py.typed, manifest.json: no clash with py.py, py.md
    else:
        assert any(
            line.startswith(f"rules/{stem}/system.yaml:")
            and f"system id {stem!r} would make" in line
            for line in found
        ), found
