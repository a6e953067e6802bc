"""Records and lists, drawn at random: formulas that make records, lists of
them and of whole numbers, index them, sort, reverse and search them, and
make lists item by item, answer alike in the reference evaluator, the
generated Python and the generated JavaScript, over random arguments (a
refusal, where a list has no item at a position or the highest of an empty
list is asked for, is a refusal in all three, in the same words)."""

from __future__ import annotations

import importlib
import itertools
import json
import random
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulesc.lang import expr
from rulesc.lang.evaluate import OutOfRange
from rulesc.lang.nodes import (
    Field,
    RecordType,
)

from .conftest import import_fresh, run_rulesc
from .js_node import drawn, node_json

NAMES = ("a", "b", "c")
LOW, HIGH = -3, 6
STRIKE = RecordType(
    "Strike",
    (
        ("round", Field("int", min=1, max=20)),
        ("damage", Field("int", min=0, max=60)),
        ("critical", Field("bool")),
    ),
)
RECORD = """\
- id: strike
  kind: record
  title: Strike
  summary: A blow.
  source: {section: Drawn}
  class: Strike
  fields:
    - {name: round, title: Round, type: int, min: 1, max: 20}
    - {name: damage, title: Damage, type: int, min: 0, max: 60}
    - {name: critical, title: Critical, type: bool}
"""

Draw = Callable[[st.SearchStrategy[Any]], Any]


class _Maker:
    """Expression text of a type, drawn with hypothesis; each comprehension
    names its items afresh (``e1``, ``e2``...)."""

    def __init__(self, draw: Draw) -> None:
        self.draw, self.names = draw, itertools.count(1)

    def pick(self, *options: Callable[[int], str], depth: int) -> str:
        choices = options if depth > 0 else options[:1]
        return choices[self.draw(st.integers(0, len(choices) - 1))](depth - 1)

    def int_(self, depth: int, local: str | None = None) -> str:
        leaf = st.sampled_from([*NAMES, *([local] if local else []), "2", "0"])
        return self.pick(
            lambda d: self.draw(leaf),
            lambda d: f"len({self.ints(d)})",
            lambda d: f"sum({self.ints(d)})",
            lambda d: f"{self.draw(st.sampled_from(['max', 'min']))}({self.ints(d)})",
            lambda d: f"{self.ints(d)}[{self.draw(st.integers(-3, 2))}]",
            lambda d: f"{self.record(d)}.damage",
            lambda d: (
                f'{self.draw(st.sampled_from(["max", "min"]))}({self.records(d)}, "round").round'
            ),
            lambda d: f"({self.int_(d, local)} + {self.int_(d, local)})",
            depth=depth,
        )

    def bool_(self, depth: int, local: str | None = None) -> str:
        return self.pick(
            lambda d: f"{self.int_(d, local)} > {self.int_(d, local)}",
            lambda d: f"{self.record(d)}.critical",
            lambda d: f"any([{self.bool_(d)} for {self.fresh()} in {self.ints(d)}])",
            lambda d: f"all([e > 0 for e in {self.ints(d)}])",
            lambda d: f"{self.record(d)} == {self.record(d)}",
            depth=depth,
        )

    def fresh(self) -> str:
        return f"e{next(self.names)}"

    def ints(self, depth: int) -> str:
        def comp(d: int) -> str:
            name = self.fresh()
            test = f" if {self.bool_(d, name)}" if self.draw(st.booleans()) else ""
            return f"[{self.int_(d, name)} for {name} in {self.ints(d)}{test}]"

        return self.pick(
            lambda d: (
                f"[{', '.join(self.draw(st.lists(st.sampled_from(NAMES), max_size=3)))}]"
            ),
            lambda d: f"({self.ints(d)} + {self.ints(d)})",
            comp,
            lambda d: f"sorted({self.ints(d)})",
            lambda d: f"reversed({self.ints(d)})",
            lambda d: f"[r.damage for r in {self.records(d)}]",
            depth=depth,
        )

    def record(self, depth: int) -> str:
        return self.pick(
            lambda d: (
                f"Strike(round=clamp({self.int_(d)}, 1, 20), "
                f"damage=clamp({self.int_(d)}, 0, 60), critical={self.bool_(d)})"
            ),
            lambda d: f"{self.records(d)}[{self.draw(st.integers(-2, 1))}]",
            lambda d: f'max({self.records(d)}, "damage")',
            depth=depth,
        )

    def records(self, depth: int) -> str:
        def comp(d: int) -> str:
            name = self.fresh()
            return f"[{name} for {name} in {self.records(d)} if {name}.damage > {self.int_(d)}]"

        return self.pick(
            lambda d: f"[{self.record(d)}, {self.record(d)}]",
            lambda d: f'sorted({self.records(d)}, "damage")',
            lambda d: f"reversed({self.records(d)})",
            comp,
            lambda d: f"({self.records(d)} + [{self.record(d)}])",
            depth=depth,
        )


@st.composite
def formulas(draw: Draw) -> str:
    return _Maker(draw).int_(3)


def _checked(text: str) -> expr.Checked | None:
    params = {n: expr.Param(n, "int", LOW, HIGH) for n in NAMES}
    try:
        return expr.compile_formula(
            text, params, records={"Strike": STRIKE}, exact=True
        )
    except expr.ExprError:
        return None


def _used(checked: expr.Checked) -> list[str]:
    """The parameters a drawn formula reads, in order."""
    return [n for n in NAMES if n in expr.names_used(checked.node)]


def _rule(index: int, text: str, used: list[str]) -> str:
    params = "\n".join(
        f"    - {{name: {n}, type: int, min: {LOW}, max: {HIGH}, description: A number.}}"
        for n in used
    )
    return (
        f"- id: f{index}\n  kind: formula\n  title: Drawn {index}\n"
        f"  summary: A drawn formula.\n  source: {{section: Drawn}}\n"
        f"  function: f{index}\n  parameters:{chr(10) + params if params else ' []'}\n"
        f"  expression: {json.dumps(text)}\n"
    )


def _reference(checked: expr.Checked, env: dict[str, int]) -> Any:
    try:
        return expr.evaluate(checked.node, env, rounding="down")
    except OutOfRange as refused:
        return f"refused: {refused}"


def test_drawn_records_and_lists_answer_alike_everywhere(tmp_path: Path) -> None:
    found = [
        (text, checked)
        for text in drawn(formulas(), 120)
        if (checked := _checked(text)) is not None
    ][:40]
    assert len(found) >= 25, len(found)  # most drawn formulas are rules
    folder = tmp_path / "rules" / "drawn"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(
        "# yaml-language-server: $schema=../../schema/system.schema.json\n"
        "system: drawn\ntitle: Drawn\nsummary: Drawn formulas.\n"
        "source: {file: drawn, work: Drawn}\nrounding: down\ndice_notation: d20\n",
        encoding="utf-8",
    )
    body = RECORD + "".join(
        _rule(i, text, _used(checked)) for i, (text, checked) in enumerate(found)
    )
    (folder / "rules.yaml").write_text(
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: drawn\nrules:\n" + textwrap.indent(body, "  "),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    done = run_rulesc(
        "build", "--rules", str(folder.parent), "--out", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    rng = random.Random(7)
    calls = [
        (f"f{i}", {n: rng.randint(LOW, HIGH) for n in _used(checked)})
        for i, (_, checked) in enumerate(found)
        for _ in range(6)
    ]
    script = (
        f'import * as m from "{(out / "js" / "drawn.js").as_uri()}";\n'
        f"const calls = {json.dumps(calls)};\n"
        "console.log(JSON.stringify(calls.map(([f, args]) => {\n"
        "  try { return m[f](...Object.values(args)); }\n"
        "  catch (e) { return `refused: ${e.message}`; }\n"
        "})));\n"
    )
    javascript = node_json(script)
    with import_fresh(out):
        module = importlib.import_module("rulebook.drawn")
        refused = importlib.import_module("rulebook.errors").RuleInputError
        for (name, args), js in zip(calls, javascript, strict=True):
            text, checked = found[int(name[1:])]
            try:
                python: Any = getattr(module, name)(**args)
            except refused as error:
                python = f"refused: {error}"
            reference = _reference(checked, args)
            assert python == reference == js, (text, args, python, reference, js)
