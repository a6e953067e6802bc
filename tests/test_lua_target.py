"""The test-only Lua target (tests/lua_target.py): it prints every formula, table and
decision of docsite/first/ and tests/cookbook/ that rolls no dice, in at most 200
lines of overrides of the base printer, and passes its part of the conformance
kit: every case the build wrote of the rules it prints (worked examples, sampled
inputs, refusals), run by its own small runner (tests/conformance/lua_runner.py).
What the kit holds no case of, a label outside its set or in another case and
any int in and around a parameter's range, is drawn and answered alike by the
generated Python runtime.
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
from rulesc.emit.conformance.files import kit_file
from rulesc.emit.conformance.kit import neutral_message, python_spellings
from rulesc.front.model import (
    Param,
    Rule,
    System,
)
from rulesc.lang.py_names import pyname
from rulesc.pipeline import build
from rulesc.runtime._messages import MESSAGES

from . import lua_target
from .conformance import lua_runner
from .conformance.lua_runner import lua_words, refusal, run_kit, to_data
from .conformance.runner import read_kit
from .conftest import ROOT, import_fresh

FOLDERS = (ROOT / "docsite" / "first", ROOT / "tests" / "cookbook")
PRINTED = (ir.Function, ir.Procedure, ir.Table)
RUNTIME = (Path(__file__).parent / "lua" / "runtime.lua").read_text(encoding="utf-8")


@dataclass
class Target:
    """One system's printed rules: its Lua functions, its Python module, and
    the conformance kit its build wrote."""

    system: System
    rules: list[tuple[Rule, ir.Unit]]
    lua: Any
    python: ModuleType
    json: ModuleType
    kit: dict[str, Any]


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
            if name.startswith(("rulebook/", "conformance/")):
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
        kit = read_kit(where / kit_file(system.id))
        with import_fresh(where):
            python = importlib.import_module(f"rulebook.{system.id}")
            json = importlib.import_module("rulebook.json")
            lua_runtime = runtime.execute(RUNTIME, runtime.table_from(dict(MESSAGES)))
            lua = runtime.execute(text, lua_runtime)
            made.append(Target(system, chosen, lua, python, json, kit))
    yield made


def _printed(target: Target) -> set[str]:
    return {rule.qualified_id for rule, _ in target.rules}


def test_it_runs_its_part_of_the_kit(targets: list[Target]) -> None:
    ran = 0
    for target in targets:
        failed = run_kit(target.lua, target.kit, _printed(target))
        assert not failed, "\n".join(failed[:40])
        cases = [c for c in target.kit["cases"] if c["rule"] in _printed(target)]
        assert {c["rule"] for c in cases} == _printed(target)
        ran += len(cases)
    assert ran >= 100


def test_a_wrong_answer_or_refusal_fails_the_kit(targets: list[Target]) -> None:
    """The runner is no yes-man: a case whose answer or refusal differs from
    what the Lua functions say fails, with its rule and case named."""
    for target in (t for t in targets if t.rules):
        for case in target.kit["cases"]:
            if case["rule"] not in _printed(target):
                continue
            wrong = dict(case)
            if "answer" in case:
                wrong["answer"] = [case["answer"]]
            else:
                wrong["refusal"] = {**case["refusal"], "message": "no such words"}
            kit = {**target.kit, "cases": [case, wrong]}
            failed = run_kit(target.lua, kit, _printed(target))
            assert failed == [failed[0]]
            assert failed[0].startswith(f"{case['rule']} {case['case']}: ")


def _answer(call: Any, args: list[Any], words: dict[str, str]) -> tuple[str, Any]:
    try:
        return "answers", call(*args)
    except ValueError as error:  # the Python runtime's RuleInputError
        said = neutral_message(str(error), words)
        return "refuses", {"error": type(error).__name__, "message": said}
    except lupa.LuaError as error:
        return "refuses", refusal(error, words) or str(error)


def _both(target: Target, name: str, args: list[Any]) -> None:
    """The Lua function and the Python one answer ``args`` alike (their
    refusals as the kit writes them, in its neutral names)."""
    names = target.kit["names"]
    lua = _answer(target.lua[name], args, lua_words(names))
    python = _answer(
        getattr(target.python, pyname(name)), args, python_spellings(names)
    )
    if python[0] == "answers":
        python = ("answers", target.json.to_data(python[1]))
        lua = (lua[0], to_data(lua[1]) if lua[0] == "answers" else lua[1])
    assert lua == python, (name, args)


def _entries(target: Target) -> Iterator[tuple[str, tuple[Param, ...] | ir.Table]]:
    for _, unit in target.rules:
        for decl in unit.decls:
            if isinstance(decl, ir.Table):
                yield decl.name, decl
            elif isinstance(decl, ir.Function | ir.Procedure):
                yield decl.name, decl.params


def test_it_prints_every_rule_that_rolls_no_dice(targets: list[Target]) -> None:
    printed = {r.id for t in targets for r, _ in t.rules}
    assert {"ability_modifier", "autofire_pool", "weapon_damage"} <= printed
    assert {"damage_bonus", "least_damage"} <= printed
    for target in targets:
        for rule in target.system.rules:
            unit = lowered(target.system, rule)
            assert rule.id in printed or not _prints(unit)


def _key_param(table: ir.Table) -> Param:
    return Param(table.param, "choice", None, None, None, False, "", table.key)


def _argument(param: Param) -> st.SearchStrategy[Any]:
    if param.type == "choice" and param.enum is not None:
        labels = [m.label for m in param.enum.members]
        spelt = [f(label) for label in labels for f in (str.upper, str.lower)]
        return st.sampled_from([*labels, *spelt, "nothing"])
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
    """At most 200 lines of overrides; its kit runner, counted apart, small."""
    assert _code_lines(Path(lua_target.__file__)) <= 200
    assert _code_lines(Path(lua_runner.__file__)) <= 100
