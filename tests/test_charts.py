"""Charts: the SVG of each dice expression shows its exact distribution, and only ours."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.emit.markdown.charts import (
    dice_chart,
    dice_chart_name,
    dice_svg,
    for_pages,
    in_a_sentence,
    odds_svg,
)
from rulesc.pipeline import Outputs
from rulesc.runtime.dice import Dice, parse_dice

SVG = "{http://www.w3.org/2000/svg}"


def _bars(svg: str) -> list[tuple[str, Fraction, float]]:
    """Each bar's tooltip label, exact chance and drawn height."""
    root = ET.fromstring(svg)
    bars = []
    for rect in root.iter(f"{SVG}rect"):
        title = rect.find(f"{SVG}title")
        if title is None:
            continue  # the background
        assert title.text is not None
        found = re.fullmatch(r"(.+): ([0-9/]+) \(.+%\)", title.text)
        assert found, title.text
        bars.append(
            (found.group(1), Fraction(found.group(2)), float(rect.get("height", "")))
        )
    return bars


@pytest.mark.parametrize(
    "text", ["3d6", "2d10+10", "2d6x10", "1d6-1", "3d4x2+1", "1d20"]
)
def test_names_give_back_their_expression(text: str) -> None:
    dice = parse_dice(text)
    name = dice_chart_name(dice)
    assert name is not None and re.fullmatch(r"charts/dice-[0-9a-z-]+\.svg", name)
    assert dice_chart(dice) == f"![Chances of each result of {text}]({name})"
    svg = for_pages({"page.md": f"see ![x]({name})"})
    assert svg == {name: dice_svg(dice)}


def test_a_constant_has_no_chart() -> None:
    assert dice_chart_name(Dice(0, 0, 1)) is None
    assert dice_chart(Dice(0, 0, 1)) is None


@pytest.mark.parametrize("text", ["3d6", "2d6x10", "2d10+10", "1d5", "6d6"])
def test_dice_chart_is_the_exact_distribution(text: str) -> None:
    dice = parse_dice(text)
    svg = dice_svg(dice)
    root = ET.fromstring(svg)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"Chances of each result of {text}"
    assert root.find(f"{SVG}desc") is not None
    bars = _bars(svg)
    dist = dice.distribution()
    assert [(label, p) for label, p, _ in bars] == [
        (str(v), p) for v, p in dist.items()
    ]
    # Heights follow the chances: the likeliest result is the tallest bar.
    tallest = max(h for _, _, h in bars)
    for _, chance, height in bars:
        assert height == pytest.approx(
            float(chance / max(dist.values())) * tallest, abs=0.1
        )
    assert len(svg.encode()) < 8000


def test_only_our_own_references_make_charts() -> None:
    escaped = r"rule text \[x\](charts/dice-9d9.svg)"
    assert for_pages({"page.md": escaped}) == {}
    with pytest.raises(ValueError, match="unknown chart"):
        for_pages({"page.md": "![x](charts/pool-nope-pool-3.svg)"})


def test_every_chart_built_is_shown(built: Outputs) -> None:
    charts = {p for p in built.files if p.startswith("docs/charts/")}
    pages = b"".join(v for p, v in built.files.items() if p.endswith(".md"))
    assert len(charts) >= 15  # one per dice expression the pages show
    for path in charts:
        assert f"{path.removeprefix('docs/')})".encode() in pages
        assert built.files[path] == built.files[path].strip() + b"\n"


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_a_title_in_a_sentence_changes_its_first_letter_at_most(title: str) -> None:
    said = in_a_sentence(title)
    assert said[1:] == title[1:]
    assert said[0] in (title[0], title[0].lower())


@pytest.mark.parametrize(
    ("title", "said"),
    [
        ("Successes", "successes"),
        ("Hit points", "hit points"),
        ("AC bonus", "AC bonus"),
        ("X", "X"),
        ("d20 roll", "d20 roll"),
    ],
)
def test_a_title_in_a_sentence_keeps_an_abbreviation(title: str, said: str) -> None:
    assert in_a_sentence(title) == said


def test_an_odds_chart_says_its_mean_in_words() -> None:
    chances = {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}
    svg = odds_svg("Chances of hits, Level 2", "Level 2", "Hits", chances, Fraction(0))
    headings = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "Level 2: on average 1.00 hits" in headings
    assert "Hits" in headings  # the axis
