"""Decisions said by the core: a decision's cases lowered to a procedure of
tests that each end it with an answer or a refusal, printed by the core's
emitters. Its texts (answers, labels, refusals) are data in every target."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from rulesc.core.ir import Procedure
from rulesc.core.program import lowered
from rulesc.examples import runtime_from
from rulesc.kinds.decision.model import DecisionRule
from rulesc.pipeline import build, load_systems

from .conftest import ROOT
from .js_node import node_json
from .test_process_and_state import _write

LOW = "Lo\"w'); import os #"
HIGH = "Hi\\gh {0} */ </script> ${x}"
REFUSAL = 'No "score" */ </script> ${x} {0} \'); import os #'
SAID_LOW = 'Lo\\w "{1}" */ `x`'
SAID_HIGH = "${y} </script> '''x'''"

VERDICT = f"""\
- id: verdict
  kind: decision
  title: Verdict
  summary: A verdict by cases.
  source: {{section: Verdicts}}
  function: verdict
  parameters:
    - {{name: score, type: int, min: 0, max: 10, description: The score.}}
  result: Verdict
  fields:
    - {{name: said, title: "Sa\\"id */", type: text, description: "What </script> is said."}}
    - name: grade
      title: Grade
      type: choice
      enum: Grade
      members:
        - {{name: LOW, label: {json.dumps(LOW)}}}
        - {{name: HIGH, label: {json.dumps(HIGH)}}}
    - {{name: note, title: Note, type: text, nullable: true, null_label: "n/a |"}}
  cases:
    - when: score == 0
      refuse: {json.dumps(REFUSAL)}
    - when: score < 5
      then: {{said: {json.dumps(SAID_LOW)}, grade: {json.dumps(LOW)}, note: null}}
    - when: "true"
      then: {{said: {json.dumps(SAID_HIGH)}, grade: {json.dumps(HIGH)}, note: "n"}}
- id: marks
  kind: decision
  title: Marks
  summary: A mark for each grade.
  source: {{section: Verdicts}}
  function: marks
  parameters:
    - {{name: score, type: int, min: 0, max: 10, description: The score.}}
  mapping:
    key: Grade
    value: {{type: int, title: Mark}}
  cases:
    - when: "true"
      then: {{{json.dumps(LOW)}: score, {json.dumps(HIGH)}: 10 - score}}
- id: motto
  kind: decision
  title: Motto
  summary: One text.
  source: {{section: Verdicts}}
  function: motto
  parameters:
    - {{name: loud, type: bool, description: Whether it is shouted.}}
  value: {{type: text, title: Motto}}
  cases:
    - when: loud
      then: {json.dumps(SAID_HIGH)}
    - when: "true"
      refuse: {json.dumps(REFUSAL)}
"""


def test_a_decision_s_texts_are_data_in_python(tmp_path: Path) -> None:
    """Answers, labels and refusals holding quotes, backslashes, braces,
    comment ends and code come back from the generated module as written."""
    outputs = build(_write(tmp_path, VERDICT))
    files = {
        k: v.decode("utf-8")
        for k, v in outputs.files.items()
        if k.startswith("rulebook/")
    }
    with runtime_from(files) as name:
        lab = importlib.import_module(f"{name}.lab")
        errors = importlib.import_module(f"{name}.errors")
        low = lab.verdict(3)
        assert (low.said, low.grade, low.note) == (SAID_LOW, LOW, None)
        assert lab.verdict(7).grade == HIGH and lab.verdict(7).said == SAID_HIGH
        with pytest.raises(errors.RuleInputError) as refused:
            lab.verdict(0)
        assert str(refused.value) == REFUSAL
        assert lab.marks(4) == {LOW: 4, HIGH: 6}
        assert lab.motto(True) == SAID_HIGH
        with pytest.raises(errors.RuleInputError) as caught:
            lab.motto(False)
        assert str(caught.value) == REFUSAL


def test_a_decision_s_texts_are_data_in_javascript(tmp_path: Path) -> None:
    """The same decisions in JavaScript: the same answers as ``dumps`` writes
    them, and the same refusal."""
    outputs = build(_write(tmp_path, VERDICT))
    for name, data in outputs.files.items():
        if name.startswith("js/"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(data)
    calls = "[verdict(3), verdict(7), marks(4), motto(true)]"
    said = node_json(
        f'import {{ verdict, marks, motto }} from "{(tmp_path / "js" / "lab.js").as_uri()}";\n'
        f'import {{ dumps }} from "{(tmp_path / "js" / "json.js").as_uri()}";\n'
        "const refused = [];\n"
        "for (const call of [() => verdict(0), () => motto(false)]) {\n"
        "  try { call(); refused.push(null); } catch (e) { refused.push(e.message); }\n"
        "}\n"
        f"console.log(JSON.stringify([...{calls}.map((a) => dumps(a)), ...refused]));\n"
    )
    files = {k: v.decode("utf-8") for k, v in outputs.files.items()}
    with runtime_from(
        {k: v for k, v in files.items() if k.startswith("rulebook/")}
    ) as name:
        lab = importlib.import_module(f"{name}.lab")
        dumps = importlib.import_module(f"{name}.json").dumps
        answers = [lab.verdict(3), lab.verdict(7), lab.marks(4), lab.motto(True)]
    assert said == [*(dumps(a) for a in answers), REFUSAL, REFUSAL]


def test_a_decision_s_page_shows_its_texts_as_text(tmp_path: Path) -> None:
    """The page's table of cases: each text escaped (no raw HTML, no broken
    cell), the refusal in every part of its row, a missing note by its label."""
    outputs = build(_write(tmp_path, VERDICT))
    page = outputs.files["docs/lab/verdict.md"].decode("utf-8")
    lines = page.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("| When")))
    table = []
    for line in lines[at:]:
        if not line.startswith("|"):
            break
        if not line.startswith("|---"):
            table.append(line)
    assert table[0] == '| When | Sa"id \\*/ | Grade | Note |'
    assert len(table) == 4 and all(row.count(" | ") == 3 for row in table), table
    refused = table[1]
    assert refused.count("refused: No") == 3
    assert "n/a \\|" in table[2]
    assert "</script>" not in page and "<script" not in page


def test_the_decisions_the_core_says() -> None:
    """Every decision of the project's rules is a procedure of the core: its
    names bound before its turns (if it repeats) and its cases, its odds those
    of the part it names."""
    said = 0
    for folder in ("rules", "tests/cookbook", "tests/dice_formulas"):
        for system in load_systems(ROOT / folder):
            for rule in system.rules:
                if not isinstance(rule, DecisionRule):
                    continue
                unit = lowered(system, rule)
                assert unit is not None, rule.qualified_id
                if unit is not None:
                    assert isinstance(unit.main, Procedure)
                    assert (unit.main.turns is not None) == (rule.repeat is not None)
                    assert len(unit.main.binds) == len(rule.lets)
                    assert unit.main.odds == rule.odds
                    said += 1
    assert said >= 27
