"""Names the rules once could not give: each builds now, named in each language
as the cases of tests/named/ say; and what is still refused is refused once.

A case of tests/named/ (once a case of tests/invalid/) is a rules file dropped
into a copy of rules/d20_scifi/ with its system.yaml and cover.yaml; its
comments ``# python: NAME`` and ``# javascript: NAME`` name what the built
modules have (a dotted path: ``Broken.then_``), and its worked examples run at
the build. A name that reads as dice notation (``d20s``) is one error where it
is given, and none where it is read; ``rulesc validate`` fails where a build
would, on a name JavaScript cannot tell from another.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.examples import runtime_from
from rulesc.pipeline import build

from .conftest import RULES, copy_rules, run_rulesc
from .js_node import node_json
from .test_process_and_state import _write

NAMED = Path(__file__).resolve().parent / "named"
CASES = sorted(NAMED.glob("*.yaml"))


def _said(text: str, language: str) -> list[str]:
    """What a case's comments say the built module has: a dotted path in
    Python, a JavaScript expression of the module ``m`` (test data of the
    repository, written with the test, never the rules' text)."""
    return re.findall(rf"^# {language}: (.+)$", text, re.M)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_a_name_once_refused_builds(case: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rules" / "d20_scifi"
    folder.mkdir(parents=True)
    for name in ("system.yaml", "cover.yaml"):
        shutil.copy(RULES / "d20_scifi" / name, folder / name)
    text = case.read_text("utf-8")
    (folder / case.name).write_text(text, "utf-8")
    assert _said(text, "python") or _said(text, "javascript"), case.name
    outputs = build(folder.parent)  # the worked examples hold in Python
    python = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(python) as package:
        module = importlib.import_module(f"{package}.d20_scifi")
        for path in _said(text, "python"):  # a dotted path: no call, no code
            value: object = module
            for part in path.split("."):
                value = getattr(value, part)
    js = tmp_path / "js"
    for path, blob in outputs.files.items():
        if path.startswith("js/"):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_bytes(blob)
    wanted = _said(text, "javascript")
    found = node_json(
        f"const m = await import({json.dumps((js / 'd20_scifi.js').as_uri())});\n"
        f"console.log(JSON.stringify([{', '.join(wanted)}].map((v) => typeof v)));"
    )
    assert "undefined" not in found, dict(zip(wanted, found, strict=True))


# -- a name read as dice notation ----------------------------------------------------

DICE_NAMES = """\
- id: roll
  kind: formula
  title: A roll
  summary: Names that read as dice.
  source: {section: S}
  function: d6x
  parameters:
    - {name: d4s, type: int, min: 0, max: 5, description: A bonus.}
  let:
    - {name: d20s, value: 1d20 + d4s, description: The d20.}
    - {name: twice, value: d20s + d20s, description: Twice.}
  expression: twice + d4s + d20s
- id: reader
  kind: formula
  title: A reader
  summary: Calls the rule named like dice.
  source: {section: S}
  function: reader
  parameters: []
  expression: d6x(2)
"""


def test_a_name_read_as_dice_is_one_error_where_it_is_given(tmp_path: Path) -> None:
    """``d20s``, ``d4s``, ``d6x``: one error each, at the name, saying why; no
    error where an expression reads one (whatever dice options there are)."""
    with pytest.raises(RulesError) as info:
        build(_write(tmp_path, DICE_NAMES))
    found = [(d.line, d.message, d.hint) for d in info.value.diagnostics]
    hint = "choose a name that does not start with d and a digit"
    assert found == [
        (9, "function 'd6x' reads as dice notation in an expression (d6...)", hint),
        (
            11,
            "parameter name 'd4s' reads as dice notation in an expression (d4...)",
            hint,
        ),
        (13, "let name 'd20s' reads as dice notation in an expression (d2...)", hint),
    ]


# -- a state's field named self ------------------------------------------------------

SELF_FIELD = """\
- id: stress
  kind: state
  title: Stress
  summary: A field named as the instance is.
  source: {section: S}
  class: Stress
  fields:
    - {name: self, type: int, start: 0, min: 0, max: 9, description: The stress.}
    - {name: to_dict, type: bool, start: false, description: Whether it broke.}
  transitions:
    - name: take
      description: Stress taken.
      parameters:
        - {name: cls, type: int, min: 0, max: 20, description: The stress taken.}
      set:
        - {name: self, value: "min(self + cls, 9)"}
        - {name: to_dict, value: "self + cls > 9"}
  examples:
    - name: broke
      summary: 4 then 8.
      args: {actions: [{take: {cls: 4}}, {take: {cls: 8}}]}
      expect: {self: 9, to_dict: true}
"""


def test_a_state_field_named_self_just_works(tmp_path: Path) -> None:
    outputs = build(_write(tmp_path, SELF_FIELD))
    python = {
        k: v.decode() for k, v in outputs.files.items() if k.startswith("rulebook/")
    }
    with runtime_from(python) as package:
        stress = importlib.import_module(f"{package}.lab").Stress()
        assert stress.take(cls_=4) is None and stress.self_ == 4
        dumps = importlib.import_module(f"{package}.json").dumps
        assert dumps(stress) == '{"self": 4, "to_dict": false}'


# -- validate fails where build would ---------------------------------------------------


def test_validate_fails_where_build_would(tmp_path: Path) -> None:
    """Two names JavaScript cannot tell apart (``reach_2`` and ``reach2``) are
    found by ``rulesc validate`` as by ``rulesc build``, with the same error."""
    rules = tmp_path / "rules"
    copy_rules(rules)
    path = rules / "d20_scifi" / "cover.yaml"
    text = path.read_text("utf-8")
    text = re.sub(r"\btargetable\b", "reach_2", text)
    path.write_text(re.sub(r"\bmust_guess_location\b", "reach2", text), "utf-8")
    validated = run_rulesc("validate", cwd=tmp_path)
    built = run_rulesc("build", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert validated.returncode == built.returncode == 1, validated.stderr
    error = "column name 'reach2' is 'reach2' in JavaScript, as column name 'reach_2'"
    assert error in validated.stderr and error in built.stderr


def test_a_rule_that_rolls_with_a_default_builds_and_validates(tmp_path: Path) -> None:
    """The issue's rule: a default before the dice no longer fails the build
    (the rng comes before the parameters that have one)."""
    body = textwrap.dedent(
        """\
        - id: bonus
          kind: formula
          title: A bonus
          summary: A die and a bonus.
          source: {section: S}
          function: bonus
          parameters:
            - {name: n, type: int, min: 0, max: 5, default: 2, description: N.}
          expression: 1d6 + n
          examples:
            - {name: given, summary: E., args: {n: 3}, dice: [4], expect: 7}
            - {name: default, summary: E., args: {}, dice: [1], expect: 3}
        """
    )
    rules = _write(tmp_path, body)
    assert run_rulesc("validate", "--rules", str(rules), cwd=tmp_path).returncode == 0
    outputs = build(rules)
    python = outputs.files["rulebook/lab.py"].decode()
    assert "def bonus(rng: RNG, n: int = 2) -> int:" in python
    assert "export function bonus(rng, n = 2) {" in outputs.files["js/lab.js"].decode()
