"""The JavaScript odds functions of formulas and decisions that roll (tests/dice_formulas/): each
``<function>Odds`` answers as the Python ``<function>_odds`` does, the same JSON
text from ``dumps`` (every chance an exact "n/d"), the same tail, the same
refusals; a ``Chances`` (a Map, answers ascending) the package exports; and
the dice a pool keeps (``results``) alike in both."""

from __future__ import annotations

import importlib
import itertools
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.emit.javascript.names import camel
from rulesc.front.model import (
    Param,
    System,
)
from rulesc.kinds.decision.model import DecisionRule
from rulesc.kinds.formula.model import FormulaRule
from rulesc.kinds.formula.rule import rule_nodes
from rulesc.lang import expr
from rulesc.pipeline import load_systems

from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .conftest import ROOT
from .js_node import js_message, node_json
from .test_formula_odds import POOL_DEPTH, POOLS

RULES = ROOT / "tests" / "dice_formulas"  # built into both languages: conftest's df_out


@pytest.fixture(scope="module")
def system() -> System:
    (found,) = load_systems(RULES)
    return found


def _rolling(system: System) -> list[FormulaRule | DecisionRule]:
    """The rules with an odds function: formulas that roll, and decisions that
    roll with a value or a field to answer the chances of."""
    return [
        r
        for r in system.rules
        if (
            isinstance(r, FormulaRule)
            and any(expr.dice_in(n) is not None for n in rule_nodes(r))
        )
        or (isinstance(r, DecisionRule) and r.odds is not None)
    ]


def _values(param: Param) -> list[int]:
    """A few arguments of an int parameter: its lowest, middle and highest."""
    assert param.type == "int" and param.min is not None and param.max is not None
    return sorted({param.min, (param.min + param.max) // 2, param.max})


def _positional(rule: FormulaRule | DecisionRule) -> list[Param]:
    """The parameters a call gives in order (a keyword-only one keeps its default)."""
    return [p for p in rule.params if not p.keyword_only]


def _calls(system: System) -> list[tuple[str, list[int]]]:
    """Each rolling formula's function with a few arguments of each parameter."""
    return [
        (rule.function, list(args))
        for rule in _rolling(system)
        for args in itertools.product(*(_values(p) for p in _positional(rule)))
    ]


def _js(df_out: Path, body: str) -> Any:
    """The JSON a script printed, with the system's module as ``m`` and the
    package's index, json and _support modules."""
    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import * as index from "{(js / "index.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ CALL, fractionText }} from "{(js / "_support.js").as_uri()}";\n'
        f"{body}"
    )
    return node_json(script)


def test_every_rolling_formula_has_javascript_odds(
    df: ModuleType, df_out: Path, system: System
) -> None:
    python = sorted(camel(n) for n in dir(df) if n.endswith("_odds") and n[0] != "_")
    found = _js(
        df_out,
        "console.log(JSON.stringify(Object.keys(m).filter((n) => n.endsWith('Odds')).sort()));",
    )
    assert found == python
    assert len(found) == len(_rolling(system)) > 10
    assert "doubleOdds" not in found  # `double` does not roll


def test_javascript_odds_are_pythons(
    df: ModuleType, df_out: Path, system: System
) -> None:
    py_json = importlib.import_module("rulebook.json")
    calls = _calls(system)
    assert len(calls) > 25
    found = _js(
        df_out,
        f"const calls = {json.dumps([[camel(f) + 'Odds', a] for f, a in calls])};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => {\n"
        "  let chances;\n"
        "  try { chances = m[f](...args); } catch (e) { return { refused: e.name }; }\n"
        "  const each = chances instanceof index.OddsByField ? [...chances.values()] : [chances];\n"
        "  const keys = [...each[0].keys()];\n"
        "  return {\n"
        "    text: dumps(chances),\n"
        "    work: String(CALL.work),\n"
        "    tail: each.map((c) => fractionText(c.tail)).join(' '),\n"
        "    chances: each.every((c) => c instanceof index.Chances && c instanceof Map),\n"
        # numbers ascending (labels come in their enum's order: dumps compares)
        "    ascending: keys.every((k, i) => i === 0 || typeof k !== 'number' || keys[i - 1] < k),\n"
        "    json: JSON.stringify(chances) === JSON.stringify(JSON.parse(dumps(chances))),\n"
        "  };\n"
        "})));\n",
    )
    tails = 0
    errors = importlib.import_module("rulebook.errors")
    support = importlib.import_module("rulebook._support")
    for (function, args), got in zip(calls, found, strict=True):
        where = f"{function}{tuple(args)}"
        if "refused" in got:  # past the runtime's limit of work, in both
            with pytest.raises(errors.RuleInputError):
                getattr(df, f"{function}_odds")(*args)
            assert got == {"refused": "RuleInputError"}, where
            continue
        chances = getattr(df, f"{function}_odds")(*args)
        each = list(chances.values()) if "tail" not in dir(chances) else [chances]
        assert got["text"] == py_json.dumps(chances), where
        # the same steps of work, counted alike before each is taken
        assert got["work"] == str(support.CALL.work), where
        assert got["tail"] == " ".join(str(c.tail) for c in each), where
        assert got["chances"] and got["ascending"] and got["json"], (where, got)
        tails += any(c.tail > 0 for c in each)
    assert tails  # an explosion's tail is compared too


def test_javascript_odds_refuse_as_python(
    df: ModuleType, df_out: Path, system: System
) -> None:
    errors = importlib.import_module("rulebook.errors")
    calls: list[tuple[FormulaRule | DecisionRule, list[object]]] = []
    for rule in _rolling(system):
        for p in _positional(rule):
            assert p.max is not None
            bad = [p.max + 1, "2"]  # past the range; not an int
            for value in bad:
                args = [q.min if q is not p else value for q in _positional(rule)]
                calls.append((rule, args))
    assert calls
    found = _js(
        df_out,
        f"const calls = {json.dumps([[camel(r.function) + 'Odds', a] for r, a in calls])};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => {\n"
        "  try { m[f](...args); return null; } catch (e) { return [e.name, e.message]; }\n"
        "})));\n",
    )
    for (rule, args), got in zip(calls, found, strict=True):
        with pytest.raises(errors.RuleInputError) as refused:
            getattr(df, f"{rule.function}_odds")(*args)
        message = js_message(system, str(refused.value), [p.name for p in rule.params])
        assert got == ["RuleInputError", message]


def test_javascript_keeps_the_dice_as_python(df: ModuleType, df_out: Path) -> None:
    odds = importlib.import_module("rulebook._odds")
    notation = importlib.import_module("rulebook.dice_notation")
    js = df_out / "js"
    found = node_json(
        f'import {{ answer, results }} from "{(js / "odds.js").as_uri()}";\n'
        f'import {{ parseNotation }} from "{(js / "dice_notation.js").as_uri()}";\n'
        f'import {{ CALL, fractionText }} from "{(js / "_support.js").as_uri()}";\n'
        f"const pools = {json.dumps(POOLS)};\n"
        "console.log(JSON.stringify(pools.map((text) => {\n"
        f"  const chances = answer(results(parseNotation(text).terms[0].value, {POOL_DEPTH}));\n"
        "  return [[...chances].map(([k, p]) => [k, fractionText(p)]), fractionText(chances.tail)];\n"
        "})));\n"
    )
    for text, (chances, tail) in zip(POOLS, found, strict=True):
        pool = notation.parse_notation(text).terms[0].value
        expected = odds.answer(odds.results(pool, POOL_DEPTH))
        assert chances == [[list(k), str(p)] for k, p in expected.items()], text
        assert tail == str(expected.tail), text


def test_the_kit_holds_in_both_runtimes(
    df: ModuleType, df_out: Path, system: System, tmp_path: Path
) -> None:
    """The build's conformance kit: every worked example, sample and seeded
    run, and the odds at each example's arguments, alike in both runtimes."""
    kit = read_kit(df_out / "conformance" / f"{system.id}.json")
    assert missing_from(system, kit, df) == []
    assert sum(c["case"].startswith("odds") for c in kit["cases"]) > 25
    assert_conforms(df_out, tmp_path)
