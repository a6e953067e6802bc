"""List arguments, drawn at random (tests/values' ``saves_total``: a list of 1
to 12 whole numbers from -5 to 15): Python takes any sequence and JavaScript
an array, and both refuse the same arguments with the same message, naming
the parameter and, for an item, its index (``saves[2] must be in -5..15, not
16``); a record argument's fields alike (``named_points``)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulesc.pipeline import load_systems

from .conftest import import_fresh
from .js_node import drawn, js_message, node_json
from .test_values import RULES, out  # noqa: F401  (the built tests/values)

_ITEMS = st.one_of(
    st.integers(-8, 18),
    st.integers(-8, 18),
    st.sampled_from([True, None, "3", 2.5, [1]]),
)
ARGUMENTS = st.one_of(
    st.lists(st.integers(-5, 15), min_size=1, max_size=12),
    st.lists(_ITEMS, max_size=14),
    st.sampled_from([5, None, "1,2", {"a": 1}, True]),
)
ENTRIES = st.lists(
    st.fixed_dictionaries(
        {"pool": st.sampled_from(["might", "SPEED", "luck"]), "points": _ITEMS}
    ),
    max_size=4,
)


def _python(function: Any, refused: type[Exception], *args: Any) -> Any:
    try:
        return function(*args)
    except refused as error:
        return f"refused: {error}"


def test_list_and_record_arguments_are_refused_alike(out: Path) -> None:  # noqa: F811
    saves = drawn(ARGUMENTS, 60)
    entries = drawn(ENTRIES, 40)
    script = (
        f'import * as m from "{(out / "js" / "values.js").as_uri()}";\n'
        f"const saves = {json.dumps(saves)};\n"
        f"const entries = {json.dumps(entries)};\n"
        "const run = (f) => { try { return f(); } catch (e) { return `refused: ${e.message}`; } };\n"
        "console.log(JSON.stringify([\n"
        "  saves.map((s) => run(() => m.savesTotal(s))),\n"
        '  entries.map((e) => run(() => m.namedPoints(["might", "speed"], e))),\n'
        "]));\n"
    )
    javascript = node_json(script)
    (system,) = load_systems(RULES)
    with import_fresh(out):
        values = importlib.import_module("rulebook.values")
        refused = importlib.import_module("rulebook.errors").RuleInputError
        python = [
            [_python(values.saves_total, refused, s) for s in saves],
            [
                _python(values.named_points, refused, ["might", "speed"], e)
                for e in entries
            ],
        ]
    answered = 0
    for mine, theirs in zip(
        python[0] + python[1], javascript[0] + javascript[1], strict=True
    ):
        if isinstance(mine, str):
            mine = "refused: " + js_message(
                system,
                mine.removeprefix("refused: "),
                ["saves", "names", "entries", "who"],
            )
        else:
            answered += 1
        assert mine == theirs
    assert 10 <= answered <= 90  # both ways are drawn
    shown = "\n".join(str(p) for p in python[0] + python[1])
    for message in (  # the parameter named, and the item's index, and its field
        "refused: saves[1] must be in -5..15, not 18",
        "refused: saves must hold 1..12 items, not 0",
        "refused: saves must be a list, not 5",
        "refused: entries[1].points must be in 0..30, not -7",
        "refused: entries[0].pool must be one of 'might', 'speed', 'intellect', not 'luck'",
    ):
        assert message in shown, message
