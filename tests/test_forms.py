"""The reference's "try it" forms, as data: which pages have one, what it holds,
and that its calls, filled with a worked example's inputs, answer as the
example's own call does (on the Python runtime; tests/site/test_tryit.py makes
them in a browser on the JavaScript one)."""

from __future__ import annotations

import importlib
import json
import random
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.core.calls import ROLL
from rulesc.emit.conformance.kit import kit_call
from rulesc.emit.javascript.plan import js_plan
from rulesc.emit.markdown.files import rule_page
from rulesc.emit.markdown.forms import (
    ANSWER,
    ODDS,
    ROLLED,
    widget,
)
from rulesc.emit.python.calls import run_call
from rulesc.kinds.calls import scripted
from rulesc.kinds.registry import kind_of
from rulesc.pipeline import Outputs, build

from .conftest import Editor
from .form_fill import Filled, fill, made_plan, page_forms, plan_call
from .js_node import ported
from .probe import doc


def _forms(outputs: Outputs, system: str) -> dict[str, dict[str, Any]]:
    found = {}
    (built,) = (s for s in outputs.systems if s.id == system)
    for rule in built.rules:
        forms = page_forms(doc(outputs, system, rule.id))
        assert len(forms) <= 1, rule.qualified_id
        if forms:
            assert forms[0]["rule"] == rule.qualified_id
            found[rule.qualified_id] = forms[0]
    return found


def test_a_form_for_every_rule(built: Outputs) -> None:
    """Every rule has a form: a rule is given one once its kind is in
    JavaScript (a rule not in its JavaScript module has none), and every kind
    of the rules is."""
    with_forms = 0
    for system in built.systems:
        forms = _forms(built, system.id)
        assert set(forms) == ported(system), system.id
        assert set(forms) == {r.qualified_id for r in system.rules}, system.id
        with_forms += len(forms)
        for rule in system.rules:
            page = built.files[rule_page(system.id, rule.id)].decode("utf-8")
            assert ("rulebook-try" in page) == (rule.qualified_id in forms)
    assert with_forms >= 20


def test_fields_are_the_rules_inputs(built: Outputs) -> None:
    """Labels, bounds, defaults and flags as the rules declare them."""
    d20 = _forms(built, "d20_scifi")
    (level,) = d20["d20_scifi.cover"]["fields"]
    assert level["kind"] == "choice" and level["required"]
    assert level["labels"] == ["Total", "9/10", "3/4", "1/2", "1/4"]
    assert [c["label"] for c in d20["d20_scifi.cover"]["calls"]] == [ANSWER]
    crawl = {f["name"]: f for f in d20["d20_scifi.crawl_speed"]["fields"]}
    assert (crawl["occupied_limbs"]["min"], crawl["occupied_limbs"]["max"]) == (0, 4)
    assert (crawl["climb_bonus"]["min"], crawl["climb_bonus"]["max"]) == (-100, 100)
    simulate = {f["name"]: f for f in d20["d20_scifi.simulate_radiation"]["fields"]}
    assert (simulate["fort_bonus"]["min"], simulate["fort_bonus"]["max"]) == (-100, 100)
    spin = {f["name"]: f for f in d20["d20_scifi.spin_modifier"]["fields"]}
    assert (spin["spin"]["min"], spin["spin"]["max"]) == (0, None)
    launch = {f["name"]: f for f in d20["d20_scifi.launch_speed"]["fields"]}
    assert launch["limbs"]["default"] == "both_legs" and not launch["limbs"]["required"]
    movement = {f["name"]: f for f in d20["d20_scifi.zero_g_movement"]["fields"]}
    assert movement["on_surface"] == movement["on_surface"] | {
        "kind": "bool",
        "default": True,
        "required": False,
    }
    gurps = _forms(built, "gurps")
    attack = {f["name"]: f for f in gurps["gurps.attack_covered_target"]["fields"]}
    exposure = attack["exposure"]
    assert exposure["kind"] == "mapping" and exposure["nullable"]
    assert len(exposure["labels"]) == 13
    assert exposure["values"] == ["exposed", "half", "covered"]
    assert attack["location"]["nullable"] and attack["location"]["default"] is None
    # A rule that rolls: the call that rolls, with its dice to give, and its
    # exact odds (no dice).
    pool = _forms(built, "edge_of_darkness")["edge_of_darkness.dice_pool"]
    assert [(c["label"], c["rng"]) for c in pool["calls"]] == [
        (ROLLED, True),
        (ODDS, False),
    ]
    assert pool["calls"][1]["plan"]["target"] == {
        "py": "pool_distribution",
        "js": "poolDistribution",
    }
    # The form starts with the first worked example (3 dice: 10, 9, 3, 8).
    assert pool["fields"][0]["start"] == 3
    assert pool["start"] == {"call": 0, "dice": [10, 9, 3, 8]}
    exposure_row = d20["d20_scifi.radiation_exposure"]
    rolls = [c["roll"] for c in exposure_row["calls"]]
    assert rolls == [None, "incubation", "primary_effect"]


def _answer(module: Any, call: dict[str, Any], rng: Any) -> Any:
    package = module.__name__.rsplit(".", 1)[0]
    errors = importlib.import_module(f"{package}.errors")
    to_data = importlib.import_module(f"{package}.json").to_data
    try:
        return {"answer": to_data(run_call(module, call, rng))}
    except errors.RuleInputError as exc:
        return {"raises": str(exc)}


def test_each_worked_example_made_by_its_form_answers_alike(built: Outputs) -> None:
    """Filled with an example's inputs (those it leaves out at the form's
    defaults), the form's call answers what the example's own call answers;
    an example the form cannot make is one with a label the rule has not."""
    made = unmade = 0
    for system in built.systems:
        module = importlib.import_module(f"rulebook.{system.id}")
        forms = _forms(built, system.id)
        for rule in system.rules:
            form = forms.get(rule.qualified_id)
            if form is None:
                continue
            for ex in rule.examples:
                filled = fill(form, ex)
                if filled is None:
                    unmade += 1
                    assert ex.raises, (rule.qualified_id, ex.name)
                    continue
                made += 1
                kind = kind_of(rule)
                rolls = ex.dice is not None and ex.roll is None
                own = kind.call(module, rule, dict(ex.args), rolls, ex.roll)
                dice = list(ex.dice or ())
                expected = _answer(module, own, scripted(module, dice))
                made_call = plan_call(made_plan(form, filled))
                got = _answer(module, made_call, scripted(module, dice))
                assert got == expected, (rule.qualified_id, ex.name)
                # The form's own first values are its first example's.
                if ex is rule.examples[0] and not ex.raises:
                    start = {f["name"]: f["start"] for f in form["fields"]}
                    assert start == filled.values, rule.qualified_id
    assert made >= 80 and unmade <= made // 20, (made, unmade)


# What a rule's call (compiler/core/calls.py) may hold: the rules' names and
# values, never a language's spelling of a name.
CALL_KEYS = {"function", "class", "constant", "args", "then"} | {
    *("name", "value", "rng", "skip", "option"),
    *("field", "call", "member", "method", "each", "fields"),
}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        inner = (v for k, v in value.items() if k != "value")
        return set(value) | set().union(*(_keys(v) for v in inner))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def test_a_kind_says_its_call_in_the_rules_names(built: Outputs) -> None:
    """Each worked example's call, as its kind says it, names what it calls by
    the rules' names and holds no language's spelling; the plan spelling it
    for JavaScript (and the forms) reads back as that call."""
    made = 0
    for system in built.systems:
        module = importlib.import_module(f"rulebook.{system.id}")
        names = {n.name for n in system.names}
        for rule in system.rules:
            if rule.qualified_id not in ported(system):
                continue
            for ex in rule.examples:
                rolls = ex.dice is not None and ex.roll is None
                call = kind_of(rule).call(module, rule, dict(ex.args), rolls, ex.roll)
                assert _keys(call) <= CALL_KEYS, (rule.qualified_id, call)
                what = call.get("function") or call.get("class") or call["constant"]
                assert what in names, (rule.qualified_id, what)
                assert kit_call(plan_call(js_plan(call))) == kit_call(call)
                made += 1
    assert made >= 100


_NAMES = st.sampled_from(
    ["size", "class", "rng", "then", "constructor", "round", "count", "hit_bonus"]
) | st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
_ARGS = st.lists(
    st.one_of(
        st.builds(lambda n, v: {"name": n, "value": v}, _NAMES, st.integers()),
        st.just({"rng": True}),
        st.builds(lambda n: {"name": n, "skip": True}, _NAMES),
        st.builds(lambda n: {"name": n, "value": 1, "option": True}, _NAMES),
    ),
    max_size=4,
)
_STEPS = st.lists(
    st.one_of(
        st.builds(lambda n: {"field": n}, _NAMES),
        # a record's method (one named as the runtime's ``roll`` reads as it)
        st.builds(
            lambda n, a: {"call": n, "args": a},
            _NAMES.filter(lambda n: n != ROLL),
            _ARGS,
        ),
        st.builds(lambda n, a: {"member": n, "args": a}, _NAMES, _ARGS),
        st.just({"method": ROLL, "args": [{"rng": True}]}),
        st.builds(lambda a: {"method": "apply", "each": [a]}, _ARGS),
        st.builds(lambda ns: {"fields": ns}, st.lists(_NAMES, max_size=3)),
    ),
    max_size=3,
)


@settings(max_examples=150, deadline=None)
@given(
    what=st.sampled_from(["function", "class"]), name=_NAMES, args=_ARGS, then=_STEPS
)
def test_a_plan_spells_any_call_and_reads_back_as_it(
    what: str, name: str, args: list[dict[str, Any]], then: list[dict[str, Any]]
) -> None:
    """Whatever the names (a word JavaScript or Python keeps for itself among
    them), a call spelt as a plan reads back as the call the kit writes."""
    call = {what: name, "args": args} | ({"then": then} if then else {})
    assert kit_call(plan_call(js_plan(call))) == kit_call(call)
    constant = {"constant": name} | ({"then": then} if then else {})
    assert kit_call(plan_call(js_plan(constant))) == kit_call(constant)


def test_a_seeded_call_is_the_same_call(built: Outputs) -> None:
    """A form that rolls passes the rng where the runtime takes it."""
    import rulebook.edge_of_darkness as module

    pool = _forms(built, "edge_of_darkness")["edge_of_darkness.dice_pool"]
    rolled = next(i for i, c in enumerate(pool["calls"]) if c["rng"])
    plan = made_plan(pool, Filled({"dice": 5}, rolled, None))
    got = run_call(module, plan_call(plan), random.Random(11))
    assert got == module.roll_pool(5, random.Random(11))


class _Attribute(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.value: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.value = dict(attrs).get("data-form")


def test_the_form_is_one_attribute_whatever_its_text() -> None:
    """Quotes, angle brackets, ampersands and newlines in the rules' text stay
    inside the attribute, and come back whole."""
    text = "it's <b>&amp; \"quoted\"\n\n</div><script>x</script> ' &\u2028\x85\ufeff"
    form = {"rule": "s.r", "fields": [{"description": text, "labels": [text]}]}
    shown = widget(form)
    assert shown is not None
    line = f"<div data-form='{shown['data']}'></div>"
    assert len(line.splitlines()) == 1
    assert "<" not in shown["data"] and "'" not in shown["data"]
    reader = _Attribute()
    reader.feed(line)
    reader.close()
    assert reader.value is not None and json.loads(reader.value) == form


def test_a_changed_figure_changes_the_form(rules_copy: Path, edit: Editor) -> None:
    """A bound and a default changed in rules/ are the form's too."""
    edit("d20_scifi/zero_g.yaml", "max: 4", "max: 5")
    edit("d20_scifi/zero_g.yaml", "default: both_legs", "default: one_leg")
    mutated = build(rules_copy, run_examples=False)
    forms = _forms(mutated, "d20_scifi")
    crawl = {f["name"]: f for f in forms["d20_scifi.crawl_speed"]["fields"]}
    assert crawl["occupied_limbs"]["max"] == 5
    launch = {f["name"]: f for f in forms["d20_scifi.launch_speed"]["fields"]}
    assert launch["limbs"]["default"] == "one_leg"
