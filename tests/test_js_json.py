"""``JSON.stringify`` of the JavaScript runtime's values needs no helper: it
writes the project's JSON (what the Python runtime's ``rulebook.json.dumps``
writes) for dice, their exact distribution and mean, and the odds of a dice
expression and their chances. (Every rule's answers, worked examples and
samples are compared the same way by the conformance kit, tests/test_conformance.py; rolls and
odds of dice notation in tests/js/dice_notation.mjs.)"""

from __future__ import annotations

import json

from rulebook import d20_scifi, gurps
from rulebook.dice import Dice
from rulebook.dice_notation import parse_notation
from rulebook.dice_odds import odds
from rulebook.json import dumps, to_data

from .js_node import PACKAGE, node_json

# a constant, a multiplier, a negative modifier (values below 0 and up),
# a unit, and the rules' own dice
DICE = [
    Dice(0, 0, 5),
    Dice(1, 6, -3),
    Dice(2, 6, 0, 10),
    Dice(3, 6, -10, 1, "minutes"),
    Dice(1, 20),
    d20_scifi.FULL_EXPOSURE_TIME,
    d20_scifi.ACCUMULATION_DEAL,
    d20_scifi.SECONDARY_EFFECTS_ROLL,
    *(
        d20_scifi.radiation_exposure(level).incubation
        for level in d20_scifi.RadiationLevel
    ),
    *(
        d20_scifi.radiation_exposure(level).primary_effect
        for level in d20_scifi.RadiationLevel
    ),
    gurps.ROLL_HIT_LOCATION_DICE,
]
NOTATIONS = ["4d6kh3+2", "1d6-4", "3d6!", "6d6>=5", "2d10-1d4", "1d6r1-7"]


def _figures(dice: Dice) -> list[object]:
    return [dice.count, dice.sides, dice.modifier, dice.multiplier, dice.unit]


def test_json_stringify_writes_the_project_json_of_dice_and_odds() -> None:
    script = f"""
import {{ Dice, odds, parseNotation }} from {json.dumps((PACKAGE / "index.js").as_uri())};
const dice = {json.dumps([_figures(d) for d in DICE])}.map((f) => new Dice(...f));
const notations = {json.dumps(NOTATIONS)};
console.log(JSON.stringify({{
  dice: dice.map((d) => JSON.stringify([d, d.distribution(), d.mean])),
  odds: notations.map((text) => JSON.stringify(odds(parseNotation(text), 3))),
  chances: notations.map((text) => JSON.stringify(odds(parseNotation(text), 3).chances)),
}}));
"""
    found = node_json(script)
    want = [[d, d.distribution(), d.mean] for d in DICE]
    assert [json.loads(text) for text in found["dice"]] == [to_data(w) for w in want]
    assert any("-" in key for text in found["dice"] for key in json.loads(text)[1])
    for text, got, chances in zip(
        NOTATIONS, found["odds"], found["chances"], strict=True
    ):
        python = odds(parse_notation(text), 3)
        assert json.loads(got) == json.loads(dumps(python)), text
        assert json.loads(chances) == to_data(python.chances), text
        assert json.loads(chances), text
