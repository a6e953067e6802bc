"""The test-only Lua target (tests/lua_target.py): it prints every formula, table and
decision of docsite/first/ and tests/cookbook/ that rolls no dice, in at most 200
lines of overrides of the base printer, and its answers and refusals are the
Python runtime's: on each worked example, and on arguments drawn in and around
each parameter's range.

(The conformance kit, generated/conformance/, is not on this branch yet: the
answers compared are the generated Python runtime's.)
"""

from __future__ import annotations

import importlib
import io
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import lupa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.core import ir
from rulesc.core.program import lowered
from rulesc.front.model import (
    Param,
    Rule,
    System,
)
from rulesc.lang.py_names import pyname
from rulesc.pipeline import build
from rulesc.runtime._messages import MESSAGES

from . import lua_target
from .conftest import ROOT, import_fresh

FOLDERS = (ROOT / "docsite" / "first", ROOT / "tests" / "cookbook")
PRINTED = (ir.Function, ir.Procedure, ir.Table)
RUNTIME = (Path(__file__).parent / "lua" / "runtime.lua").read_text(encoding="utf-8")


@dataclass
class Target:
    """One system's printed rules: its Lua functions and its Python module."""

    system: System
    rules: list[tuple[Rule, ir.Unit]]
    lua: Any
    python: ModuleType
    json: ModuleType


def _prints(unit: ir.Unit | None) -> bool:
    """A unit of formulas, tables and decisions (records and sets beside
    them) that rolls no dice."""
    if unit is None or not any(isinstance(d, PRINTED) for d in unit.decls):
        return False
    kinds = (*PRINTED, ir.Record, ir.Enum)
    plain = all(not getattr(d, "rolls", False) for d in unit.decls)
    return plain and all(isinstance(d, kinds) for d in unit.decls)


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Target]]:
    found: list[tuple[System, list[tuple[Rule, ir.Unit]], str, Path]] = []
    for folder in FOLDERS:
        out = build(folder)
        where = tmp_path_factory.mktemp(folder.name)
        for name, data in out.files.items():
            if name.startswith("rulebook/"):
                (where / name).parent.mkdir(parents=True, exist_ok=True)
                (where / name).write_bytes(data)
        for system in out.systems:
            units = [(r, lowered(system, r)) for r in system.rules]
            chosen = [(r, u) for r, u in units if u is not None and _prints(u)]
            text = lua_target.module(system, [u for _, u in chosen])
            found.append((system, chosen, text, where))
    runtime = lupa.LuaRuntime()
    made = []
    for system, chosen, text, where in found:
        with import_fresh(where):
            python = importlib.import_module(f"rulebook.{system.id}")
            json = importlib.import_module("rulebook.json")
            lua_runtime = runtime.execute(RUNTIME, runtime.table_from(dict(MESSAGES)))
            lua = runtime.execute(text, lua_runtime)
            made.append(Target(system, chosen, lua, python, json))
    yield made


def _from_lua(value: Any) -> Any:
    """A Lua answer as JSON data: a table with keys a record (or dice: its
    parts read by expressions left out), one without a list."""
    if lupa.lua_type(value) != "table":
        return value
    items = dict(value.items())
    if all(isinstance(k, int) for k in items):
        return [_from_lua(items[k]) for k in sorted(items)]
    if "notation" in items:
        items = {k: v for k, v in items.items() if k not in ("min", "max")}
        items.setdefault("unit", None)
    return {k: _from_lua(v) for k, v in items.items()}


def _answer(call: Any, args: list[Any]) -> tuple[str, Any]:
    try:
        return "answers", call(*args)
    except (ValueError, lupa.LuaError) as error:
        message = str(error).split("\nstack traceback:", 1)[0]
        return "refuses", message.removeprefix("RuleInputError: ")


def _both(target: Target, name: str, args: list[Any]) -> None:
    """The Lua function and the Python one answer ``args`` alike."""
    lua = _answer(target.lua[name], args)
    python = _answer(getattr(target.python, pyname(name)), args)
    if python[0] == "answers":
        python = ("answers", target.json.to_data(python[1]))
        lua = (lua[0], _from_lua(lua[1]) if lua[0] == "answers" else lua[1])
    assert lua == python, (name, args)


def _entries(target: Target) -> Iterator[tuple[str, tuple[Param, ...] | ir.Table]]:
    for _, unit in target.rules:
        for decl in unit.decls:
            if isinstance(decl, ir.Table):
                yield decl.name, decl
            elif isinstance(decl, ir.Function | ir.Procedure):
                yield decl.name, decl.params


def _label(param: Param, given: Any) -> Any:
    """An example's label as the set spells it (examples write it in any case)."""
    if param.enum is None or not isinstance(given, str):
        return given
    for member in param.enum.members:
        if given.casefold() in (member.name.casefold(), member.label.casefold()):
            return member.label
    return given


def test_it_prints_every_rule_that_rolls_no_dice(targets: list[Target]) -> None:
    printed = {r.id for t in targets for r, _ in t.rules}
    assert {"ability_modifier", "autofire_pool", "weapon_damage"} <= printed
    assert {"damage_bonus", "least_damage"} <= printed
    for target in targets:
        for rule in target.system.rules:
            unit = lowered(target.system, rule)
            assert rule.id in printed or not _prints(unit)


def test_the_worked_examples_answer_alike(targets: list[Target]) -> None:
    ran = 0
    for target in targets:
        entries = dict(_entries(target))
        for rule, _ in target.rules:
            function = str(getattr(rule, "function", ""))
            params = entries.get(function, ())
            for example in rule.examples:
                if isinstance(params, ir.Table):
                    args = [_label(_key_param(params), v) for _, v in example.args]
                else:
                    given = dict(example.args)
                    args = [_label(q, given.get(q.name)) for q in params]
                _both(target, function, args)
                ran += 1
    assert ran >= 5


def _key_param(table: ir.Table) -> Param:
    return Param(table.param, "choice", None, None, None, False, "", table.key)


def _argument(param: Param) -> st.SearchStrategy[Any]:
    if param.type == "choice" and param.enum is not None:
        return st.sampled_from([m.label for m in param.enum.members] + ["nothing"])
    lo = -5 if param.min is None else param.min - 2
    hi = 60 if param.max is None else param.max + 2
    return st.integers(lo, hi)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_drawn_arguments_answer_and_refuse_alike(
    targets: list[Target], data: st.DataObject
) -> None:
    entries = {
        (n, name): (t, q) for n, t in enumerate(targets) for name, q in _entries(t)
    }
    target, params = entries[data.draw(st.sampled_from(sorted(entries)))]
    name = next(name for name, q in _entries(target) if q is params)
    if isinstance(params, ir.Table):
        params = (_key_param(params),)
    _both(target, name, [data.draw(_argument(q)) for q in params])


def _code_lines(path: Path) -> int:
    """Lines holding code: neither blank nor only a comment or a docstring."""
    text = path.read_text(encoding="utf-8")
    lines: set[int] = set()
    previous = tokenize.INDENT
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        docstring = token.type == tokenize.STRING and previous in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.DEDENT,
        )
        if token.type not in _SILENT and not docstring:
            lines.update(range(token.start[0], token.end[0] + 1))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return len(lines)


_SILENT = (
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
)


def test_the_lua_target_is_thin() -> None:
    assert _code_lines(Path(lua_target.__file__)) <= 200
