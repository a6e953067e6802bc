"""Mutation tests for gurps and edge_of_darkness: a figure changed in rules/ moves
the runtime's answers and the docs.

Each test changes one figure in a copy of rules/, builds without the worked
examples (which pin the real figures), and checks that the rule itself, the
rules that read it, and its docs all follow.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rulesc.pipeline import Outputs, build

from .conftest import Editor
from .probe import ask, doc

GURPS = "gurps/cover.yaml"
EOD = "edge_of_darkness/concealment.yaml"


def _mutated(rules: Path) -> Outputs:
    return build(rules, run_examples=False)


def _gurps(outputs: Outputs, question: str) -> object:
    return ask(outputs, question, system="gurps")


def _eod(outputs: Outputs, question: str) -> object:
    return ask(outputs, question, system="edge_of_darkness")


# -- gurps: a hit-location penalty --------------------------------------------------


def test_hit_location_penalty(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    penalty = "m.hit_location('Skull').penalty"
    aimed = "m.attack_covered_target('aimed', 'Skull').to_hit_modifier"
    half_skull = (
        "m.attack_covered_target('aimed', 'Skull',"
        " {**m.exposure_behind_cover(2), 'Skull': 'half'}).to_hit_modifier"
    )
    others = "[m.hit_location(x).penalty for x in m.HitLocation if x != 'Skull']"
    roll = "m.hit_location('Skull').roll"
    assert _gurps(built, penalty) == -7
    assert _gurps(built, aimed) == -7
    assert _gurps(built, half_skull) == -9
    before_others = _gurps(built, others)

    edit(GURPS, "{key: Skull, penalty: -7,", "{key: Skull, penalty: -8,")
    mutated = _mutated(rules_copy)

    assert _gurps(mutated, penalty) == -8
    assert _gurps(mutated, aimed) == -8
    assert _gurps(mutated, half_skull) == -10
    assert _gurps(mutated, others) == before_others
    assert _gurps(mutated, roll) == (3, 4)
    # A random hit and a shot through the cover take no location penalty.
    assert _gurps(mutated, "m.attack_covered_target('random').to_hit_modifier") == 0
    assert (
        _gurps(
            mutated, "m.attack_covered_target('through', cover_dr=3).to_hit_modifier"
        )
        == -2
    )
    assert "| Skull | -7 | 3-4 |" in doc(built, "gurps")
    assert "| Skull | -7 | 3-4 |" not in doc(mutated, "gurps")
    assert "| Skull | -8 | 3-4 |" in doc(mutated, "gurps")


# -- edge_of_darkness: a concealment penalty ------------------------------------------


def test_concealment_penalty(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    questions = {
        "m.concealment('Substantially concealed').modifier": (-3, -4),
        "m.ranged_modifier(target='Substantially concealed')": (-3, -4),
        # The shooter's penalty is one less than its own concealment.
        "m.ranged_modifier(shooter='Substantially concealed')": (-2, -3),
        # A completely covered shooter counts as substantially concealed.
        "m.ranged_modifier(shooter='Completely covered')": (-2, -3),
        "m.ranged_modifier('Substantially concealed', 'Partially concealed')": (
            -4,
            -5,
        ),
        "m.ranged_modifier('Substantially concealed', 'Substantially concealed')": (
            -5,
            -7,
        ),
        "m.ranged_modifier(target=m.fire_from_full_cover())": (-3, -4),
        # Untouched: the other degrees, and close combat.
        "m.ranged_modifier('Partially concealed', 'Barely concealed')": (-2, -2),
        "m.ranged_modifier('Substantially concealed', close_combat=True)": (0, 0),
        "m.concealment('Completely covered').modifier": (None, None),
    }
    for question, (before, _) in questions.items():
        assert _eod(built, question) == before, question

    edit(
        EOD,
        "{key: Substantially concealed, modifier: -3,",
        "{key: Substantially concealed, modifier: -4,",
    )
    mutated = _mutated(rules_copy)

    for question, (_, after) in questions.items():
        assert _eod(mutated, question) == after, question
    row = "| Substantially concealed | -3 |"
    assert row in doc(built, "edge_of_darkness")
    assert row not in doc(mutated, "edge_of_darkness")
    assert "| Substantially concealed | -4 |" in doc(mutated, "edge_of_darkness")


# -- edge_of_darkness: the 10-again threshold ---------------------------------------


def _beat_chance(dice: int, beat: int, again_at: int) -> Fraction:
    """Exact chance that ``dice`` d10s (8+ succeeds) get more than ``beat`` successes.

    Plays out the rolls: (dice left, successes) states; a path past ``beat`` is a
    win and stops, every re-roll adds a success, so this ends and is exact.
    """
    tenth = Fraction(1, 10)
    win = Fraction(0)
    states = {(dice, 0): Fraction(1)}
    while states:
        following: dict[tuple[int, int], Fraction] = {}
        for (left, successes), p in states.items():
            if left == 0:
                continue
            for face in range(1, 11):
                got = successes + (1 if face >= 8 else 0)
                if got > beat:
                    win += p * tenth
                    continue
                key = (left - 1 + (1 if face >= again_at else 0), got)
                following[key] = following.get(key, Fraction(0)) + p * tenth
        states = following
    return win


def _chart(text: str) -> dict[int, list[str]]:
    """The docs' punch-through chart: pool size -> its printed cells."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("| *dice* | Mean | beat")
    )
    rows: dict[int, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[int(cells[0])] = cells[2:]  # (the mean, second, is not a chance)
    return rows


def _chart_matches(text: str, again_at: int) -> bool:
    chart = _chart(text)
    assert sorted(chart) == list(range(1, 11))
    for dice, cells in chart.items():
        for beat, cell in enumerate(cells, start=1):
            percent = _beat_chance(dice, beat, again_at) * 100
            if cell == "< 0.01%":
                if percent >= Fraction(1, 100):
                    return False
            elif abs(Fraction(cell.removesuffix("%")) - percent) > Fraction(1, 200):
                return False
    return True


def test_ten_again_threshold(built: Outputs, rules_copy: Path, edit: Editor) -> None:
    nine_then_eight = "m.roll_pool(1, rulebook.dice.Scripted([9, 8])).successes"
    one_die = "dict(m.pool_distribution(1))"
    three_dice = "(dict(m.pool_distribution(3)), m.pool_distribution(3).tail)"
    chance_die = "dict(m.pool_distribution(0))"
    assert _eod(built, nine_then_eight) == 1
    real_one = _eod(built, one_die)
    assert isinstance(real_one, dict)
    # 1-7 fail, 8-9 succeed, 10 succeeds and rolls again.
    assert real_one[1] == Fraction(27, 100)
    real_three = _eod(built, three_dice)
    real_chance = _eod(built, chance_die)
    assert _chart_matches(doc(built, "edge_of_darkness"), again_at=10)

    edit(EOD, "    again_at: 10\n", "    again_at: 9\n")
    mutated = _mutated(rules_copy)

    # A 9 now succeeds and rolls again: the 8 on the re-roll is a second success.
    assert _eod(mutated, nine_then_eight) == 2
    one = _eod(mutated, one_die)
    assert isinstance(one, dict)
    assert one[0] == Fraction(7, 10)
    # One success: an 8 (1/10), or a 9 or 10 (2/10) whose re-roll fails (7/10).
    assert one[1] == Fraction(1, 10) + Fraction(2, 10) * Fraction(7, 10)
    assert one[2] == Fraction(2, 10) * (
        Fraction(1, 10) + Fraction(2, 10) * Fraction(7, 10)
    )
    three = _eod(mutated, three_dice)
    assert three != real_three
    assert isinstance(three, tuple) and isinstance(real_three, tuple)
    assert three[1] > real_three[1]  # more re-rolls, a fatter tail
    assert sum(three[0].values()) + three[1] == 1
    # The chance die still succeeds on a 10 only; its re-roll is a normal die.
    chance = _eod(mutated, chance_die)
    assert isinstance(chance, dict) and isinstance(real_chance, dict)
    assert chance[0] == real_chance[0] == Fraction(9, 10)
    assert chance != real_chance

    text = doc(mutated, "edge_of_darkness")
    assert _chart(text) != _chart(doc(built, "edge_of_darkness"))
    assert _chart_matches(text, again_at=9)
    assert not _chart_matches(text, again_at=10)
    assert "rolled again while it shows 9 or more" in text
    assert "rolled again while it shows 9 or more" not in doc(built, "edge_of_darkness")
