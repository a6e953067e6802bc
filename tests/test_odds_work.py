"""Odds work checked before it is done: what the exact odds of dice take is
worked out from the dice alone (``odds_work``), no less than the work itself;
past the runtime's ``MAX_WORK`` they are refused before any of it, in the
runtime (``RuleInputError``), by ``rulesc roll --stats`` (a usage error) and in
a rule (a located error at build); and a build spends at most its allowance
on the odds of its pages and on the proofs that its repeating turns end, a
located error at the rule that would pass it."""

from __future__ import annotations

import builtins
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.common import limits
from rulesc.common.diagnostics import RulesError
from rulesc.core.ir import Function, Procedure
from rulesc.emit.markdown import odds_pages
from rulesc.kinds.decision import rule as decision_rule
from rulesc.pipeline import generate, load_systems
from rulesc.runtime import _dice_keep, _dice_tree_odds, _dice_weights, dice_odds
from rulesc.runtime._support import MAX_WORK, weighed
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_odds import odds, odds_work
from rulesc.runtime.dice_terms import DiceSum, Pool, Term
from rulesc.runtime.errors import RuleInputError
from rulesc.workbench.notation import run_notation
from rulesc.workbench.usage import UsageError

from . import bounds_cases as cases
from .conftest import ROOT
from .test_dice_odds import nodes, sums

pytestmark = pytest.mark.usefixtures("no_hang")


class _Worked(Exception):
    """The odds engine began the work."""


def _refuse_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def worked(*args: Any, **kwargs: Any) -> Any:
        raise _Worked

    monkeypatch.setattr(dice_odds, "_pool", worked)


@st.composite
def large(draw: st.DrawFn) -> DiceSum:
    """Pools of many dice, kept, exploding or counted: odds past the limit
    and within it."""
    count = draw(st.integers(1, 400))
    sides = draw(st.sampled_from((2, 6, 10, 20, 100, 1000)))
    options: dict[str, Any] = {}
    how = draw(st.sampled_from(("plain", "keep", "explode", "target")))
    if how == "keep" and count > 1:
        options.update(keep="kh", keep_count=draw(st.integers(1, count - 1)))
    elif how == "explode":
        options["explode"] = draw(st.sampled_from(("!", "!o", "!!")))
    elif how == "target":
        options["target"] = (
            parse_notation(f"1d{sides}>={max(sides // 2, 1)}").pools[0].target
        )
    return DiceSum((Term(1, Pool(count, sides, **options)),))


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(dice=st.one_of(large(), sums()), depth=st.sampled_from((0, 3, 10, 30, 100)))
def test_odds_past_the_limit_are_refused_before_any_of_the_work(
    dice: DiceSum, depth: int
) -> None:
    work = odds_work(dice, depth)
    with pytest.MonkeyPatch.context() as patch:
        _refuse_work(patch)
        if work > MAX_WORK:
            with pytest.raises(RuleInputError, match="steps to work out"):
                odds(dice, depth)
        else:
            with pytest.raises(_Worked):  # nothing stops it before the work
                odds(dice, depth)


@st.composite
def trees(draw: st.DrawFn) -> DiceSum:
    """A tree of products, calls, tests, groups and labels over small pools."""
    node = draw(nodes())
    return node if isinstance(node, DiceSum) else DiceSum((Term(1, node),))


class _Steps:
    """The steps the odds engine takes, counted as it takes them: each pair
    of values a convolution adds, each try of a keeping pool's dynamic programme."""

    def __init__(self) -> None:
        self.taken = 0


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(dice=st.one_of(sums(more=True), trees()), depth=st.integers(0, 3))
def test_the_work_worked_out_first_is_no_less_than_the_work(
    dice: DiceSum, depth: int
) -> None:
    """Counted on numbers of any size alike (the estimate weighs them by
    their size, which only adds), each step the engine takes was foreseen:
    the pairs of values combined, each try of a keeping pool's or group's
    dynamic programme."""
    steps = _Steps()
    plus = _dice_weights.Weights.plus
    pair, keep_step = _dice_tree_odds._pair, _dice_tree_odds._keep_step

    def counted_pair(a: Any, b: Any, how: Any) -> Any:
        steps.taken += len(a.weights) * len(b.weights)
        return pair(a, b, how)

    def counted_keep(states: Any, item: Any, kept: int, highest: bool) -> Any:
        steps.taken += len(states) * len(item.weights)
        return keep_step(states, item, kept, highest)

    merger, take, draw = _dice_keep._merger, _dice_keep._take, _dice_keep._draw

    def counted_merger(pool: Any, score: Any) -> Any:
        merged = merger(pool, score)

        def counted(a: Any, b: Any) -> Any:
            steps.taken += 1
            return merged(a, b)

        return counted

    def counted_take(states: Any, *args: Any) -> Any:
        steps.taken += len(states)
        return take(states, *args)

    def counted_draw(sets: Any, face: Any, faces: Any) -> Any:
        steps.taken += len(sets) * len(faces)
        return draw(sets, face, faces)

    def counted_plus(self: Any, other: Any, below: Any = None) -> Any:
        steps.taken += len(self.weights) * len(other.weights)
        return plus(self, other, below)

    def counted_min(*args: Any, **kwargs: Any) -> Any:  # one a keeping try
        steps.taken += sys._getframe(1).f_code.co_name == "_keep"
        return builtins.min(*args, **kwargs)

    work = odds_work(dice, depth)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_dice_weights.Weights, "plus", counted_plus)
        patch.setattr(dice_odds, "min", counted_min, raising=False)
        patch.setattr(_dice_tree_odds, "_pair", counted_pair)
        patch.setattr(_dice_tree_odds, "_keep_step", counted_keep)
        patch.setattr(_dice_keep, "_merger", counted_merger)
        patch.setattr(_dice_keep, "_take", counted_take)
        patch.setattr(_dice_keep, "_draw", counted_draw)
        patch.setattr(dice_odds, "odds_work", lambda dice, depth: 0)
        try:
            odds(dice, depth)
        except RuleInputError:
            return  # refused: past the values (or the work) it works out
    assert steps.taken <= work, str(dice)


def test_the_issue_s_pools_are_refused_at_once() -> None:
    """``999d100kh11`` took 75 s to be refused; an exploding die of 1000
    sides followed 30 deep, 200 s to answer."""
    for text, depth in (("999d100kh11", 10), ("1d1000!>=2", 30), ("300d20kh10", 10)):
        start = time.process_time()
        dice = parse_notation(text)
        named = f"{odds_work(dice, depth):,} steps to work out, past the work budget"
        with pytest.raises(RuleInputError, match=named) as raised:
            odds(dice, depth)
        assert f"the work budget of exact odds, {MAX_WORK:,} steps" in str(raised.value)
        assert time.process_time() - start < 1, text


def test_rulesc_roll_stats_refuses_odds_past_the_limit_as_a_usage_error() -> None:
    with pytest.raises(UsageError) as raised:
        run_notation(
            parse_notation("100d100kh11"), "100d100kh11", stats=True, seed=1, depth=10
        )
    assert "steps to work out" in str(raised.value.hint)


# -- at build -------------------------------------------------------------------


def _errors(text: str) -> list[str]:
    folder = Path(tempfile.mkdtemp())
    try:
        cases.write(folder, text)
        try:
            generate(load_systems(folder), run_examples=False)
        except RulesError as exc:
            return [f"{d.line}:{d.col}: {d.message}" for d in exc.diagnostics]
        return []
    finally:
        shutil.rmtree(folder)


def _formula(expression: str, extra: str = "") -> str:
    return (
        "  - id: many\n    kind: formula\n    title: Many\n    summary: Dice.\n"
        "    source: {section: A}\n    function: many\n    parameters: []\n"
        f"    expression: {expression}\n{extra}"
    )


def test_a_rule_whose_odds_the_runtime_refuses_is_a_located_error() -> None:
    found = _errors(_formula("1 + 100d100kh11"))
    assert found == [
        "11:21: formula: 100d100kh11: its exact odds take "
        f"{odds_work(parse_notation('100d100kh11')):,} steps to work out, and the "
        f"runtime takes at most {MAX_WORK:,} (a limit of the runtime, not of the rules)"
    ]
    assert _errors(_formula("1 + 10d100kh3")) == []


def _grind(name: str, top: int) -> str:
    return f"""  - id: {name}
    kind: decision
    title: {name.title()}
    summary: A grind.
    source: {{section: A}}
    function: {name}
    parameters: []
    repeat:
      state:
        - {{name: a, type: int, value: 0, min: 0, max: {top}, description: A.}}
        - {{name: b, type: int, value: 0, min: 0, max: {top}, description: B.}}
      let:
        - {{name: die, value: d6, description: The die.}}
      set:
        - {{name: a, value: "a + (1 if die > 3 else 0)"}}
        - {{name: b, value: "b + (1 if die <= 3 else 0)"}}
      until: a >= {top} or b >= {top}
    result: {name.title()}Result
    fields:
      - {{name: turns, title: Turns, type: int}}
    cases:
      - when: "true"
        then: {{turns: turns}}
"""


def _spent_by(
    text: str, monkeypatch: pytest.MonkeyPatch, where: str = "rulesc.front.semantics"
) -> int:
    """What the system's allowances (made in the module ``where``) spent on a
    build of ``text``."""
    made: list[limits.Allowance] = []

    class Recorded(limits.Allowance):
        def __init__(self, most: int) -> None:
            super().__init__(most)
            made.append(self)

    with monkeypatch.context() as patch:
        patch.setattr(f"{where}.Allowance", Recorded)
        assert _errors(text) == []
    return sum(a.spent for a in made)


def test_the_proofs_that_turns_end_share_one_allowance_a_system(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each rule alone is proved; together they pass the allowance, and the
    rule that passes it is the located error (at its line)."""
    one = _spent_by(_grind("first", 12), monkeypatch)
    assert one > 0
    monkeypatch.setattr(decision_rule, "MAX_PROOF_WORK", one * 2 + one // 2)
    text = _grind("first", 12) + _grind("second", 12) + _grind("third", 12)
    found = _errors(text)
    line = 4 + text.splitlines().index("  - id: third")  # the rule's own line
    assert len(found) == 1 and found[0].startswith(
        f"{line}:5: the turns cannot be proved"
    )
    assert "the proofs of a system's turns take at most" in found[0]


def test_the_odds_of_a_system_s_pages_share_one_allowance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The odds tables of rules that take no argument, worked out by the
    runtime as the pages are made: past the allowance, a located error at the
    rule whose odds pass it."""
    bounded = "    unbounded_because: an explosion has no end\n"
    first = _formula("6d10!", bounded)
    text = first + _formula("3d10!", bounded).replace("many", "more")
    assert _errors(text) == []
    one = _spent_by(first, monkeypatch, "rulesc.emit.markdown.odds_pages")
    assert one >= odds_work(parse_notation("6d10!"))  # the call's own steps besides
    monkeypatch.setattr(odds_pages, "MAX_PAGE_ODDS_WORK", one + 1)
    found = _errors(text)
    second = 4 + text.splitlines().index("  - id: more")
    assert found and found[0].startswith(f"{second}:5: the odds on this system's pages")


def test_weighed_steps_grow_with_the_size_of_the_numbers() -> None:
    assert weighed(10, 64) == 10
    assert weighed(10, 4096) > weighed(10, 1024) > weighed(10, 64)
    assert weighed(10, 4096, products=False) < weighed(10, 4096)


# -- a rule's odds over its parameters' ranges ---------------------------------------


def _pooled(name: str, most: int, reads: str) -> str:
    return (
        f"  - id: {name}\n    kind: formula\n    title: Pooled\n    summary: A pool.\n"
        f"    source: {{section: A}}\n    function: {name}\n    parameters:\n"
        f"      - {{name: dice, type: int, min: 1, max: {most}, description: Dice.}}\n"
        f"    let:\n      - {{name: pool, value: rolls((dice)d20), description: The pool.}}\n"
        f"    expression: {reads}\n"
    )


@pytest.mark.parametrize(
    ("most", "reads", "refused"),
    [
        (60, "len(sorted(pool) + [1])", True),  # the pool as a list: its multisets
        (4, "len(sorted(pool) + [1])", False),
        (40, "sum(pool) + count(pool, 20) * 1000", True),  # two adding reads of 40d20
        (8, "sum(pool) + count(pool, 20) * 1000", False),
        (40, "max(pool) * 100 + count(pool, 1, 5)", False),  # the highest settles early
    ],
)
def test_a_rule_whose_odds_a_call_its_ranges_allow_would_pass_the_limit_is_a_located_error(
    most: int, reads: str, refused: bool
) -> None:
    """The build follows the rule's odds as the runtime would, step by step,
    at each call the parameters' ranges allow (their corners, where too many
    to follow), and says so at the rule's own line."""
    found = _errors(_pooled("pooled", most, reads))
    if not refused:
        assert found == []
        return
    assert len(found) == 1 and found[0].startswith("4:5: its exact odds may take more")
    assert f"({MAX_WORK:,}: a limit of the runtime" in found[0]


def test_the_bound_is_no_less_than_the_work_of_any_call(df_out: Path) -> None:
    """Every rule of tests/dice_formulas: the work of each call the build
    follows, as the runtime counts it, is within the rule's bound."""
    from rulesc.lang.naming import odds_function
    from rulesc.odds import work as odds_work

    from .conftest import import_fresh

    (system,) = load_systems(ROOT / "tests" / "dice_formulas")
    bounds = odds_work.Bounds(system)
    checked = 0
    with import_fresh(df_out):
        import importlib

        module = importlib.import_module("rulebook.dice_formulas")
        support = importlib.import_module("rulebook._support")
        for rule in system.rules:
            function = getattr(rule, "function", None)
            if not isinstance(function, str):
                continue
            bound = bounds.of(function)
            if bound is None:
                continue
            odds = getattr(
                module, getattr(rule, "odds_name", None) or odds_function(function)
            )
            main = bounds.units[function].main
            assert isinstance(main, Function | Procedure)
            errors = importlib.import_module("rulebook.errors")
            for given in odds_work.calls(main.params):
                try:
                    odds(**given)
                except errors.RuleInputError as refused:  # a guard's refusal
                    assert "a limit of the runtime" not in str(refused), rule.id
                assert support.CALL.work <= bound, (rule.id, given)
            checked += 1
    assert checked > 30


def _listed(expression: str, most: str) -> str:
    return (
        "  - id: listed\n    kind: formula\n    title: Listed\n    summary: Dice.\n"
        "    source: {section: A}\n    function: listed\n    parameters:\n"
        "      - {name: pool, type: list, items: int, min: 2, max: 20, "
        f"{most}description: Dice sizes.}}\n    expression: {expression}\n"
    )


@pytest.mark.parametrize(
    ("expression", "most", "found"),
    [
        ('"sum([d(s) for s in pool])"', "max_items: 3, ", None),
        ('"sum([d(s) for s in sorted(pool) + [4]])"', "max_items: 3, ", None),
        ('"sum([d(s) for s in (pool if d(2) > 1 else [4])])"', "max_items: 3, ", None),
        ('"min(len([s for s in pool if d(s) > 3]), 5)"', "", "its odds go through a"),
        ('"sum([d(s) for s in pool])"', "max_items: 9, ", "its exact odds may"),
    ],
)
def test_a_comprehension_that_rolls_is_bounded_or_a_located_error(
    expression: str, most: str, found: str | None
) -> None:
    """A comprehension that rolls goes through a list the build bounds (a
    list parameter's most items, through sorted and joined lists), its work
    within the limit or past it; a list it cannot bound is a located error at
    the rule's line too."""
    errors = _errors(_listed(expression, most))
    if found is None:
        assert errors == []
        return
    assert len(errors) == 1 and errors[0].startswith(f"4:5: {found}"), errors
