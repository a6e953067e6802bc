"""The dice notation's one definition (compiler/lang/dice_spec/notation.json) drives both runtimes and the compiler.

A new option written in a temporary copy of the definition only is read by the
Python runtime's parser, by the JavaScript runtime's (its printed module in a
copy of the generated package) and by the compiler's checks of dice in
formulas, alike; both runtimes' odds work budgets are the definition's, and
pools drawn right at the limit are counted, accepted and refused alike.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.emit import dice_spec as printers
from rulesc.emit.dice_spec import RUNTIME_SPEC, printed
from rulesc.lang import (
    dice as expr_dice,
)
from rulesc.lang import (
    dice_spec,
    expr,
)
from rulesc.lang.dice_spec import SpecError
from rulesc.runtime import _dice_spec
from rulesc.runtime._support import MAX_ENTRIES, MAX_WORK
from rulesc.runtime.dice import DiceSyntaxError
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import odds, odds_work
from rulesc.runtime.errors import RuleInputError

from .js_node import PACKAGE, node_json

SUCCESS = {  # a new option: a success target, as some games write it
    "name": "success",
    "noun": "success target",
    "takes": "t5 (count the dice of 5 or more)",
    "argument": {
        "shape": "compare",
        "field": "target",
        "op": ">=",
        "what": "the success target",
    },
    "forms": [{"token": "t"}],
}
TEXTS = [  # read with the new option: each answers as its twin, or refuses
    "6d10t8", "6d10t=8", "6d10t<=3", "2d6!t6", "4d6rr1t5x2", "6d10t", "6d10t8t8",
    "6d10t8>=3", "6d10q", "3d6t-1", "d%t50+d4", "4d6kh3t4",
]  # fmt: skip


def _answer(text: str) -> dict[str, Any]:
    try:
        return {"parse": str(parse_notation(text))}
    except DiceSyntaxError as error:
        return {"message": error.message, "offset": error.offset, "hint": error.hint}


def _module(text: str, path: Path) -> ModuleType:
    path.write_text(text, encoding="utf-8")
    found = importlib.util.spec_from_file_location("dice_spec_copy", path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


@pytest.fixture
def with_success(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    """The definition with the new option, printed into the Python runtime
    (in place of its module, for this test) and into a copy of the JavaScript
    package."""
    definition = json.loads(dice_spec.DEFINITION.read_text(encoding="utf-8"))
    definition["options"].append(copy.deepcopy(SUCCESS))
    spec = dice_spec.normalized(definition)
    module = _module(printers.python(spec), tmp_path / "spec_copy.py")
    for name in _dice_spec.__all__:
        monkeypatch.setattr(_dice_spec, name, getattr(module, name))
    shutil.copytree(
        PACKAGE, tmp_path / "js", ignore=shutil.ignore_patterns("node_modules")
    )
    (tmp_path / "js" / "_dice_spec.js").write_text(
        printers.javascript(spec), encoding="utf-8"
    )
    expr_dice._parse.cache_clear()
    yield {"js": tmp_path / "js"}
    expr_dice._parse.cache_clear()


def test_the_runtime_module_is_printed_from_the_definition() -> None:
    """compiler/runtime/_dice_spec.py is the definition printed (``python -m
    rulesc.dice_spec`` prints it again), as the build prints it."""
    assert RUNTIME_SPEC.read_text(encoding="utf-8") == printed()
    generated = (PACKAGE.parent / "rulebook" / "_dice_spec.py").read_text(
        encoding="utf-8"
    )
    assert generated.split("\n", 1)[1] == printed()
    js = (PACKAGE / "_dice_spec.js").read_text(encoding="utf-8")
    assert js.split("\n", 1)[1] == printers.javascript(dice_spec.load())


def test_a_new_option_in_the_definition_only_reads_in_python_and_javascript(
    with_success: dict[str, Any],
) -> None:
    python = [_answer(text) for text in TEXTS]
    assert python[0] == {"parse": "6d10>=8"} and python[1] == {"parse": "6d10=8"}
    assert parse_notation("4d6rr1t5x2") == parse_notation("4d6rr1>=5x2")
    assert python[TEXTS.index("6d10t")]["message"].endswith(
        "the success target is missing"
    )
    assert "a second success target" in python[TEXTS.index("6d10t8t8")]["message"]
    assert "t5 (count the dice of 5 or more)" in python[TEXTS.index("6d10q")]["hint"]
    index = (with_success["js"] / "index.js").as_uri()
    script = f"""
import {{ DiceSyntaxError, parseNotation }} from {json.dumps(index)};
const answers = {json.dumps(TEXTS)}.map((text) => {{
  try {{
    return {{ parse: String(parseNotation(text)) }};
  }} catch (error) {{
    if (!(error instanceof DiceSyntaxError)) throw error;
    return {{ message: error.message, offset: error.offset, hint: error.hint }};
  }}
}});
console.log(JSON.stringify(answers));
"""
    assert node_json(script) == python


def test_a_new_option_in_the_definition_only_reads_in_formulas(
    with_success: dict[str, Any],
) -> None:
    """The compiler reads dice in formulas through the definition: its range,
    and its located refusal."""
    assert expr.compile_formula("6d10t8 + 1", {}).interval == expr.Interval(1, 7)
    with pytest.raises((RulesError, expr.ExprError)) as refused:
        expr.compile_formula("6d10t8t8", {})
    assert "a second success target" in str(refused.value)


def test_without_the_new_option_it_is_refused() -> None:
    with pytest.raises(DiceSyntaxError, match="unexpected 't'"):
        parse_notation("6d10t8")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda d: d["options"].append(copy.deepcopy(d["options"][0])),
            "name is its own",
        ),
        (lambda d: d["options"][0].pop("argument"), "argument is an object"),
        (lambda d: d["options"][4]["forms"][0].update(hue=1), None),
        (lambda d: d["limits"].pop("depth"), "depth is a whole number"),
        (lambda d: d["culprits"].update(boom="nowhere"), "'nowhere' is an option"),
        (lambda d: d["options"][4]["argument"].update(shape="list"), "shape"),
        (lambda d: d["options"][-1]["argument"].update(below_least=""), "least"),
        (
            lambda d: d["options"][2]["forms"][0].update(token="x"),
            "each token is its own",
        ),
    ],
)
def test_a_definition_that_does_not_hold_together_is_refused(
    change: Any, problem: str | None
) -> None:
    definition = json.loads(dice_spec.DEFINITION.read_text(encoding="utf-8"))
    change(definition)
    if problem is None:  # a key of its own is not read, and not refused
        dice_spec.normalized(definition)
        return
    with pytest.raises(SpecError, match=problem):
        dice_spec.normalized(definition)


# -- the odds work budget: the same figures, the same count ---------------------

FAMILIES = ["{n}d6", "{n}d20", "{n}d10!", "{n}d6!!", "{n}d6!o", "{n}d6kh3", "{n}d8>=5",
            "{n}d6rr1", "{n}dF", "{n}d100x3", "{n}d12dl2-4"]  # fmt: skip


def _first_past(family: str) -> int | None:
    """The fewest dice whose odds take more work than the limit (None: none
    up to the most dice)."""
    if odds_work(parse_notation(family.format(n=MAX_ENTRIES))) <= MAX_WORK:
        return None
    low, high = 1, MAX_ENTRIES  # work(low) <= MAX_WORK < work(high)
    while high - low > 1:
        middle = (low + high) // 2
        if odds_work(parse_notation(family.format(n=middle))) > MAX_WORK:
            high = middle
        else:
            low = middle
    return high


def test_the_budget_is_the_definitions_in_both_runtimes() -> None:
    limits = dice_spec.load()["limits"]
    assert limits["odds_work_per_entry"] * MAX_ENTRIES == MAX_WORK
    index = (PACKAGE / "dice_odds.js").as_uri()
    found = node_json(
        f"import {{ DEPTH, MAX_DEPTH, MAX_WORK }} from {json.dumps(index)};"
        "console.log(JSON.stringify([DEPTH, MAX_DEPTH, MAX_WORK]));"
    )
    assert found == [limits["depth"], limits["max_depth"], MAX_WORK]


def test_pools_at_the_limit_are_counted_and_refused_alike() -> None:
    """For each family of pools, the last count accepted and the first refused:
    both runtimes count the same work, and refuse the same (with the same words)
    before doing any of it."""
    texts = []
    for family in FAMILIES:
        first = _first_past(family)
        if first is not None:
            texts += [family.format(n=first - 1), family.format(n=first)]
    assert len(texts) >= 12
    python = []
    for text in texts:
        work = odds_work(parse_notation(text))
        answer: dict[str, Any] = {"work": str(work), "accepted": work <= MAX_WORK}
        if work > MAX_WORK:
            with pytest.raises(RuleInputError) as refused:
                odds(parse_notation(text))
            answer["refusal"] = str(refused.value)
        python.append(answer)
    assert [a["accepted"] for a in python] == [True, False] * (len(texts) // 2)
    index, odds_js = (
        (PACKAGE / "index.js").as_uri(),
        (PACKAGE / "dice_odds.js").as_uri(),
    )
    script = f"""
import {{ RuleInputError, odds, parseNotation }} from {json.dumps(index)};
import {{ MAX_WORK, oddsWork }} from {json.dumps(odds_js)};
const answers = {json.dumps(texts)}.map((text) => {{
  const work = oddsWork(parseNotation(text));
  const answer = {{ work: String(work), accepted: work <= BigInt(MAX_WORK) }};
  if (!answer.accepted) {{
    try {{
      odds(parseNotation(text));
    }} catch (error) {{
      if (!(error instanceof RuleInputError)) throw error;
      answer.refusal = error.message;
    }}
  }}
  return answer;
}});
console.log(JSON.stringify(answers));
"""
    assert node_json(script) == python
