"""Odds of several fields (tests/dice_formulas/dice_formulas/fields.yaml): ``odds:``
a list of fields answers each field's own chances (an ``OddsByField``), and
``{joint: [a, b]}`` their chances together, all from one working out; each is
every roll enumerated through the decision itself; JavaScript answers the same
JSON; the page has a table for each field; a field the odds cannot be of is a
located error at its place in the list."""

from __future__ import annotations

import importlib
import json
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from . import bounds_cases as cases
from .conftest import ROOT, enumerated_odds, run_rulesc

RULES = ROOT / "tests" / "dice_formulas"
# Each rule with the fields its odds are of (together, for a joint), and the
# arguments to enumerate it at.
ENUMERATED: dict[str, tuple[tuple[str, ...], bool, list[tuple[int, ...]]]] = {
    "counted_pool": (("successes", "botch"), False, [(1,), (3,)]),
    "counted_together": (("successes", "botch"), True, [(1,), (3,)]),
    "hunger_pool": (("outcome", "successes"), False, [(2, 0, 1), (3, 1, 2), (3, 3, 3)]),
}


def _plain(value: object) -> object:
    return str(value) if isinstance(value, Enum) else value


@pytest.mark.parametrize(
    ("name", "args"),
    [(name, args) for name, (_, _, cases) in ENUMERATED.items() for args in cases],
)
def test_each_field_and_the_fields_together_are_every_roll_enumerated(
    df: ModuleType, name: str, args: tuple[int, ...]
) -> None:
    errors = importlib.import_module("rulebook.errors")
    fields, joint, _ = ENUMERATED[name]
    function = getattr(df, name)
    odds = getattr(df, f"{name}_odds")(*args)
    if joint:

        def together(*a: Any) -> tuple[object, ...]:
            answer = function(*a)  # one call: its fields together
            return tuple(_plain(getattr(answer, f)) for f in fields)

        expected = enumerated_odds(together, args, errors.RuleInputError)
        assert {tuple(map(_plain, k)): p for k, p in odds.items()} == expected
        assert list(odds) == sorted(odds)
        return
    assert list(odds) == list(fields)
    for field in fields:
        expected = enumerated_odds(
            lambda *a, f=field: _plain(getattr(function(*a), f)),
            args,
            errors.RuleInputError,
        )
        chances = odds[field]
        assert {_plain(k): p for k, p in chances.items()} == expected
        assert sum(chances.values()) == 1 and chances.tail == 0


def test_odds_by_field_is_a_read_only_mapping_of_chances(df: ModuleType) -> None:
    odds_module = importlib.import_module("rulebook.odds")
    json_module = importlib.import_module("rulebook.json")
    errors = importlib.import_module("rulebook.errors")
    odds = df.counted_pool_odds(2)
    assert isinstance(odds, odds_module.OddsByField)
    assert isinstance(odds["botch"], odds_module.Chances)
    assert dict(odds) == {"successes": odds["successes"], "botch": odds["botch"]}
    assert odds == dict(odds)
    assert "OddsByField({'successes':" in repr(odds)
    with pytest.raises(AttributeError):
        odds.extra = 1
    with pytest.raises(TypeError):
        odds["botch"] = odds["successes"]
    data = json.loads(json_module.dumps(odds))
    assert list(data) == ["successes", "botch"]
    assert data["botch"] == {"false": "89/100", "true": "11/100"}
    with pytest.raises(errors.RuleInputError, match="pair of its name and Chances"):
        odds_module.OddsByField([("a", {1: Fraction(1)})])
    with pytest.raises(errors.RuleInputError, match="must be pairs"):
        odds_module.OddsByField(1)


def test_fields_together_are_keyed_by_tuples_written_as_json_text(
    df: ModuleType,
) -> None:
    json_module = importlib.import_module("rulebook.json")
    odds = df.counted_together_odds(1)
    assert list(odds) == [(0, False), (0, True), (1, False), (2, False)]
    assert json.loads(json_module.dumps(odds)) == {
        "[0, false]": "1/2",
        "[0, true]": "1/10",
        "[1, false]": "3/10",
        "[2, false]": "1/10",
    }


def _js(df_out: Path, body: str) -> Any:
    from .js_node import node_json

    js = df_out / "js"
    script = (
        f'import * as m from "{(js / "dice_formulas.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(js / "json.js").as_uri()}";\n'
        f'import {{ OddsByField, Chances }} from "{(js / "odds.js").as_uri()}";\n'
        f"{body}"
    )
    return node_json(script)


def test_javascript_answers_the_same_json_and_a_read_only_map(
    df: ModuleType, df_out: Path
) -> None:
    json_module = importlib.import_module("rulebook.json")
    calls = [
        (name, list(args))
        for name, (_, _, cases) in ENUMERATED.items()
        for args in cases
    ]
    found = _js(
        df_out,
        f"const calls = {json.dumps([[n, a] for n, a in calls])};\n"
        "const camel = (n) => n.replace(/_([a-z])/g, (_, c) => c.toUpperCase());\n"
        "const shown = calls.map(([f, args]) => dumps(m[camel(f) + 'Odds'](...args)));\n"
        "const odds = m.countedPoolOdds(2);\n"
        "let refused = false;\n"
        "try { odds.set('x', null); } catch (e) { refused = e instanceof TypeError; }\n"
        "console.log(JSON.stringify({ shown, refused,\n"
        "  map: odds instanceof OddsByField && odds instanceof Map,\n"
        "  keys: [...odds.keys()], chances: odds.get('botch') instanceof Chances }));\n",
    )
    for (name, args), text in zip(calls, found["shown"], strict=True):
        assert text == json_module.dumps(getattr(df, f"{name}_odds")(*args)), name
    assert found["refused"] and found["map"] and found["chances"]
    assert found["keys"] == ["successes", "botch"]


def test_the_page_has_a_table_for_each_field(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "hunger_pool.md").read_text("utf-8")
    assert "each value of its Outcome and Successes the rule can give" in page
    together = (df_out / "docs" / "dice_formulas" / "counted_together.md").read_text(
        "utf-8"
    )
    assert "of its Successes and Botch together" in together
    assert "`counted_together_odds(dice)` answers these odds" in together


def test_explain_shows_the_odds_of_each_field() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.counted_pool",
        "dice=2", "--dice", "10,1", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Exact odds of successes\n" in done.stdout
    assert "Exact odds of botch\n" in done.stdout
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.counted_together",
        "dice=1", "--dice", "1", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Exact odds of successes and botch together\n" in done.stdout
    assert "0, yes" in done.stdout


_DECISION = """  - id: pick
    kind: decision
    title: Pick
    summary: A die read twice.
    source: {section: A}
    function: pick
    parameters: []
    let:
      - {name: die, value: d6, description: The die.}
    result: Pick
    fields:
      - {name: high, title: High, type: bool}
      - {name: note, title: Note, type: text}
      - {name: face, title: Face, type: int}
    odds: ODDS
    cases:
      - when: "true"
        then: {high: die > 3, note: "x", face: die}
"""


@pytest.mark.parametrize(
    ("odds", "expected"),
    [
        ("[high, face]", []),
        ("{joint: [face, high]}", []),
        ("[high, nope]", ["18:18: no field 'nope'"]),
        (
            "[note, face, nope]",
            ["18:12: field 'note' is text", "18:24: no field 'nope'"],
        ),
        ("{joint: [face, note]}", ["18:26: field 'note' is text"]),
    ],
)
def test_a_field_its_odds_cannot_be_of_is_a_located_error_at_its_place(
    odds: str, expected: list[str], tmp_path: Path
) -> None:
    cases.write(tmp_path, _DECISION.replace("ODDS", odds))
    found = [e.split(":", 1)[1] for e in cases.build_or_errors(tmp_path)]
    assert [f for f in found if not any(f.startswith(e) for e in expected)] == []
    assert len(found) == len(expected)


def test_typescript_types_each_field_s_chances_exactly(
    df_out: Path, tmp_path: Path
) -> None:
    from .js_node import tsc_strict

    js = (df_out / "js" / "dice_formulas.js").as_posix()
    odds = (df_out / "js" / "odds.js").as_posix()
    good = tmp_path / "good.ts"
    good.write_text(
        f'import {{ countedPoolOdds, countedTogetherOdds, hungerPoolOdds }} from "{js}";\n'
        f'import type {{ HungerOutcome }} from "{js}";\n'
        f'import type {{ Chances }} from "{odds}";\n'
        "const a = countedPoolOdds(2);\n"
        'const s: Chances<number> = a.get("successes");\n'
        'const b: Chances<boolean> = a.get("botch");\n'
        'const o: Chances<HungerOutcome> = hungerPoolOdds(3, 1, 2).get("outcome");\n'
        "for (const [[n, botch], p] of countedTogetherOdds(2)) {\n"
        "  const x: number = n;\n  const y: boolean = botch;\n"
        "  console.log(x, y, p.numerator, s.size, b.size, o.size);\n}\n",
        "utf-8",
    )
    bad = tmp_path / "bad.ts"
    bad.write_text(
        f'import {{ countedPoolOdds }} from "{js}";\n'
        f'import type {{ Chances }} from "{odds}";\n'
        'const s: Chances<string> = countedPoolOdds(2).get("successes");\n'
        'console.log(s, countedPoolOdds(2).get("nope"));\n',
        "utf-8",
    )
    done = tsc_strict([], tmp_path, [good])
    assert done.returncode == 0, done.stdout + done.stderr
    done = tsc_strict([], tmp_path, [bad])
    assert "TS2322" in done.stdout and "TS2345" in done.stdout, done.stdout
