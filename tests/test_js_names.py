"""JavaScript names and figures: a name JavaScript (or its runtime) has already
is spelt with one more ``_`` there, and builds; two names of a system that are
one once camelCased, and a figure JavaScript cannot hold, are located build
errors, at the line that gives them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.emit.javascript.kit import (
    JsFigureError,
    js,
)
from rulesc.emit.javascript.names import (
    camel,
    class_members,
    jsattr,
    jsname,
)
from rulesc.pipeline import build

from .conftest import Editor
from .js_node import PACKAGE, node_json
from .test_mutation_js import ask_js
from .test_process_and_state import STATE, _write
from .test_process_and_state import _errors as lab_errors


def _errors(rules: Path) -> list[str]:
    with pytest.raises(RulesError) as info:
        build(rules, run_examples=False)
    return [f"{d.file}:{d.line}: {d.message}" for d in info.value.diagnostics]


def test_camel_case_of_python_names() -> None:
    assert camel("cover_ac") == "coverAc"
    assert camel("attack_through_cover") == "attackThroughCover"
    assert camel("d20_bonus") == "d20Bonus"
    assert camel("x") == "x"
    assert camel("CoverLevel") == "CoverLevel"  # classes keep their names
    assert camel("FULL_EXPOSURE_TIME") == "FULL_EXPOSURE_TIME"  # and constants
    assert camel("class_") == "class_"  # and underscores at the end


def test_names_javascript_has_get_one_more_underscore() -> None:
    assert jsname("default") == "default_"  # a reserved word
    assert jsname("constructor") == "constructor_"  # what every object has
    assert jsname("then") == "then_"  # what await calls
    assert jsname("Object") == "Object_"  # a global the code uses
    assert jsname("number") == "number_"  # a TypeScript type
    assert jsname("rng") == "rng_"  # the rng argument's
    assert jsname("to_string") == "toString_"
    assert jsname("round") == "round"  # Python's, not JavaScript's
    # one more underscore for such a name written with one: never one name
    assert jsname("default_") == "default__" != jsname("default")
    assert jsattr("equals", "mutable") == "equals_"  # a state class has it
    assert jsattr("equals") == "equals"  # a record has not


def _rename(rules: Path, file: str, old: str, new: str) -> None:
    """Every ``old`` word of a rules file (its uses too) renamed ``new``."""
    path = rules / file
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(re.sub(rf"\b{old}\b", new, text), "utf-8")


def test_a_parameter_that_is_a_javascript_reserved_word(
    rules_copy: Path, tmp_path: Path
) -> None:
    _rename(rules_copy, "d20_scifi/zero_g.yaml", "occupied_limbs", "default")
    outputs = build(rules_copy)
    types = outputs.files["js/d20_scifi.d.ts"].decode()
    assert "crawlSpeed(climbBonus: number, default_: number)" in types
    assert ask_js(outputs, "m.crawlSpeed(4, 2)", tmp_path) == 10


def test_two_names_that_are_one_once_camel_cased(rules_copy: Path) -> None:
    """Columns ``reach_2`` and ``reach2``: two names in Python, one in JavaScript
    (``reach2``); the error is at the second, and names the first."""
    _rename(rules_copy, "d20_scifi/cover.yaml", "targetable", "reach_2")
    _rename(rules_copy, "d20_scifi/cover.yaml", "must_guess_location", "reach2")
    errors = _errors(rules_copy)
    assert any(
        e.startswith("rules/d20_scifi/cover.yaml:")
        and "column name 'reach2' is 'reach2' in JavaScript, as column name "
        "'reach_2' is (at rules/d20_scifi/cover.yaml:"
        in e
        for e in errors
    ), errors


def test_a_field_every_object_has(rules_copy: Path, tmp_path: Path) -> None:
    """A column ``to_string`` is ``toString_`` in JavaScript, and ``to_string``
    in its JSON, as in Python's."""
    _rename(rules_copy, "d20_scifi/cover.yaml", "targetable", "to_string")
    outputs = build(rules_copy)
    row = "m.cover('Total')"
    assert ask_js(outputs, f"[{row}.toString_, String({row})]", tmp_path) == [
        False,
        "[object Object]",
    ]
    assert (
        ask_js(outputs, f"JSON.parse(JSON.stringify({row})).to_string", tmp_path)
        is False
    )


def test_every_figure_the_rules_allow_is_exact_in_javascript(
    rules_copy: Path, edit: Editor, tmp_path: Path
) -> None:
    """The rules' numbers have at most 15 digits, all within Number.MAX_SAFE_INTEGER;
    the emitter refuses any other (a located error, should a kind compute one)."""
    largest = 10**15 - 1
    assert largest <= 2**53 - 1 < 10**16
    edit(
        "d20_scifi/cover.yaml",
        "        miss_chance: 50\n",
        f"        miss_chance: {largest}\n",
    )
    outputs = build(rules_copy, run_examples=False)
    assert ask_js(outputs, "m.cover('Total').missChance", tmp_path) == largest
    assert js(2**53 - 1) == str(2**53 - 1)
    with pytest.raises(JsFigureError, match=r"past Number\.MAX_SAFE_INTEGER"):
        js(2**53)
    with pytest.raises(JsFigureError):
        js(-(2**53))


def test_check_notices_a_hand_edited_javascript_module(rules_copy: Path) -> None:
    """generated/js/ is output like the rest: `rulesc check` names an edited file."""
    import shutil

    from .conftest import GENERATED, run_rulesc

    root = rules_copy.parent
    shutil.copytree(GENERATED, root / "generated")
    assert run_rulesc("check", cwd=root).returncode == 0
    for name in ("gurps.js", "dice.d.ts"):
        target = root / "generated" / "js" / name
        target.write_text(target.read_text("utf-8") + "\n// tweak\n", "utf-8")
    done = run_rulesc("check", cwd=root)
    assert done.returncode == 1
    assert "generated/js/gurps.js is out of date" in done.stderr
    assert "generated/js/dice.d.ts is out of date" in done.stderr


def test_a_changed_figure_makes_the_javascript_stale(
    rules_copy: Path, edit: Editor
) -> None:
    import shutil

    from .conftest import GENERATED, run_rulesc

    root = rules_copy.parent
    shutil.copytree(GENERATED, root / "generated")
    edit("d20_scifi/zero_g.yaml", "max_increments: 20,", "max_increments: 25,")
    done = run_rulesc("check", cwd=root)
    assert done.returncode == 1
    assert "generated/js/d20_scifi.js" in done.stderr


# -- a state's transitions and flags are members of a JavaScript class ------------------

# What the state class of the JavaScript runtime has, read from its source.
STATE_MEMBERS = sorted(
    m for m in class_members("_state.js", "RecordState") if not m.startswith(("$", "_"))
)


def test_the_state_class_members_are_read_from_the_runtime() -> None:
    assert {"equals", "toDict", "toJSON", "toString"} <= set(STATE_MEMBERS)


def test_the_members_read_are_every_member_the_class_has(tmp_path: Path) -> None:
    """Node lists what an instance of the runtime's RecordState has (its
    prototype chain up to Object's); every name is among those renamed."""
    script = f"""
import {{ RecordState }} from {json.dumps((PACKAGE / "_state.js").as_uri())};
const names = new Set();
for (let p = RecordState.prototype; p !== null; p = Object.getPrototypeOf(p)) {{
  for (const name of Object.getOwnPropertyNames(p)) names.add(name);
}}
console.log(JSON.stringify([...names]));
"""
    given = {n for n in node_json(script) if not n.startswith(("$", "_"))}
    assert given and given <= set(STATE_MEMBERS), given - set(STATE_MEMBERS)


def _snake(name: str) -> str:
    """A rules name whose camelCase is ``name`` (``to_dict`` from ``toDict``)."""
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


def test_transitions_named_as_every_state_class_member(tmp_path: Path) -> None:
    """A transition may be named as anything a state class has in JavaScript,
    as written (``equals``) or as its camelCase reads (``to_dict``): each is
    that name and one more ``_`` there, and works."""
    names = sorted({_snake(m) for m in STATE_MEMBERS} | set(STATE_MEMBERS))
    names = [n for n in names if re.fullmatch(r"[a-z][a-z0-9_]*", n)]
    transitions = "".join(
        f"    - {{name: {n}, to: ceiling, description: Up.}}\n" for n in names
    )
    body = re.sub(
        r"  transitions:\n(    - .*\n)+", "  transitions:\n" + transitions, STATE
    )
    body = body.replace(
        "args: {actions: [scare, {scare: {steps: 1}}]}",
        f"args: {{actions: [{names[0]}]}}",
    )
    body = body.replace(
        "expect: {level: 3, effects: [Frightened], fleeing: false}",
        "expect: {level: 4, effects: [Fleeing], fleeing: true}",
    )
    outputs = build(_write(tmp_path, body))
    js_names = [jsattr(n, "mutable") for n in names]
    assert all(n.endswith("_") for n in js_names if n in STATE_MEMBERS)
    found = ask_js(
        outputs,
        f"{json.dumps(js_names)}.map((n) => {{ const s = new m.Fear(); s[n](); "
        "return [typeof s[n], s.level]; })",
        tmp_path,
        "lab",
    )
    assert found == [["function", 4]] * len(names)


@pytest.mark.parametrize("name", ["level", "effects"])
def test_a_transition_named_as_the_state_s_own(tmp_path: Path, name: str) -> None:
    """A ladder's state has a level and its effects: no transition or flag
    may be named so (in the rules, whatever the language)."""
    body = STATE.replace("name: settle", f"name: {name}")
    found = lab_errors(tmp_path, body)
    assert found == [f"21:16: {name!r} is already a member of the state class"]


def test_a_flag_named_as_a_state_class_member(tmp_path: Path) -> None:
    body = STATE.replace("name: fleeing", "name: equals").replace(
        "fleeing: false", "equals: false"
    )
    outputs = build(_write(tmp_path, body))
    assert ask_js(outputs, "new m.Fear(4).equals_", tmp_path, "lab") is True


def test_a_half_fraction_javascript_cannot_compare_exactly(
    rules_copy: Path, edit: Editor
) -> None:
    """An exposure schedule compares the stay times the fraction's denominator
    with the rolled time: past Number.MAX_SAFE_INTEGER that is a located error
    (of the rule's build, so for every target)."""
    edit(
        "d20_scifi/radiation.yaml",
        "half_fraction: [1, 2]",
        f"half_fraction: [1, {10**15 - 1}]",
    )
    errors = _errors(rules_copy)
    assert any(
        re.search(r"radiation\.yaml:\d+: half_fraction 1/999999999999999 times", e)
        and "MAX_SAFE_INTEGER" in e
        for e in errors
    ), errors


def test_an_exposure_field_every_object_has(rules_copy: Path, tmp_path: Path) -> None:
    """An exposure schedule's start field is a field of its records: one every
    JavaScript object has is that name and one more ``_`` there."""
    _rename(rules_copy, "d20_scifi/radiation.yaml", "starts_at_minutes", "to_string")
    outputs = build(rules_copy)
    found = ask_js(outputs, "m.exposures('Moderate', 10, 12)[0].toString_", tmp_path)
    assert found == 0


METHODS = """\
# yaml-language-server: $schema=../../schema/rules.schema.json
system: d20_scifi
rules:
  - id: broken
    kind: decision
    title: A decision
    summary: A decision whose answer has methods named as what every answer has already.
    source: {section: Nowhere}
    function: broken
    parameters:
      - {name: level, type: choice, enum: RadiationLevel, description: The level.}
      - {name: minutes, type: int, min: 1, max: 60, description: Minutes.}
      - {name: fort, type: int, min: 0, max: 20, description: Fortitude.}
    result: BrokenAnswer
    fields:
      - {name: allowed, type: bool, title: Allowed, description: Whether allowed.}
    cases:
      - when: "true"
        then: {allowed: true}
    methods:
      - name: to_dict
        rule: simulate_radiation
        args: {level: level, exposed_minutes: minutes, fort_bonus: fort}
        description: Roll.
      - name: then
        rule: simulate_radiation
        args: {level: level, exposed_minutes: minutes, fort_bonus: fort}
        description: Roll.
      - name: value_of
        rule: simulate_radiation
        args: {level: level, exposed_minutes: minutes, fort_bonus: fort}
        description: Roll.
"""


def test_a_decision_method_named_as_what_every_answer_has(
    rules_copy: Path, tmp_path: Path
) -> None:
    """A decision's follow-up method is a member of its answer in both languages:
    one every record has in Python (to_dict), one that would make the answer a
    thenable (then) or one every JavaScript object has (valueOf) is that name
    and one more ``_`` in the language that has it (issue 23, issue 39)."""
    (rules_copy / "d20_scifi" / "js_method_names.yaml").write_text(METHODS, "utf-8")
    outputs = build(rules_copy, run_examples=False)
    python = outputs.files["rulebook/d20_scifi.py"].decode()
    for name in ("to_dict_", "then", "value_of"):
        assert f"    def {name}(self, rng: RNG) -> RadiationTimeline:" in python
    found = ask_js(
        outputs,
        "['toDict', 'then_', 'valueOf_'].map((n) => typeof m.broken('Low', 5, 2)[n])",
        tmp_path,
    )
    assert found == ["function"] * 3


def test_object_names_are_object_prototypes(tmp_path: Path) -> None:
    """The names every object has, as the build refuses them, are exactly what
    Node's Object.prototype has: the list cannot drift from the language."""
    from rulesc.emit.javascript.names import OBJECT_NAMES

    script = "console.log(JSON.stringify(Object.getOwnPropertyNames(Object.prototype)))"
    assert set(node_json(script)) == OBJECT_NAMES
