"""The built site shows every table of the three sources with the source's values.

The figures below are written out by hand from the sources in shared/source
(and, for GURPS hit locations, the Basic Set table the rules data names), not
read from rules/: a wrong cell anywhere between the rules and the HTML fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import ROOT
from .pages import Section, Table, by_key, column, sections


def _section(site: Path, system: str, rule_id: str) -> Section:
    """The rule itself: its page's opening, before the rulings and examples."""
    page = site / system / f"{rule_id}.html"
    assert page.is_file(), f"rule {system}.{rule_id} has no page of its own"
    return sections(page)[""]


def _first_table(section: Section) -> Table:
    assert section.tables, f"section {section.id} has no table"
    return section.tables[0]


def _check(
    table: Table, expected: dict[str, dict[str, str]], *, exact: bool = True
) -> None:
    """Each row (by its first cell) has the expected text under each header."""
    rows = by_key(table)
    assert list(rows) == list(expected), "rows, in the source's order"
    for key, cells in expected.items():
        for header, want in cells.items():
            got = rows[key][column(table, header)]
            if exact:
                assert got == want, f"{key} / {header}: {got!r}, not {want!r}"
            else:
                assert want.lower() in got.lower(), f"{key} / {header}: {got!r}"


# -- d20 science fiction -----------------------------------------------------------


def test_cover_and_concealment_table(site: Path) -> None:
    table = _first_table(_section(site, "d20_scifi", "cover"))
    _check(
        table,
        {
            "Total": {
                "Hide/Spot": "N/A",
                "Reflex": "N/A",
                "Cover AC": "cannot be targeted",
                "miss chance": "50%",
                "guess": "yes",
            },
            "9/10": {
                "Hide/Spot": "+4",
                "Reflex": "+4",
                "Cover AC": "+10 AC",
                "miss chance": "40%",
                "guess": "no",
            },
            "3/4": {
                "Hide/Spot": "+3",
                "Reflex": "+3",
                "Cover AC": "+6 AC",
                "miss chance": "30%",
                "guess": "no",
            },
            "1/2": {
                "Hide/Spot": "+2",
                "Reflex": "+2",
                "Cover AC": "+4 AC",
                "miss chance": "20%",
                "guess": "no",
            },
            "1/4": {
                "Hide/Spot": "+1",
                "Reflex": "+1",
                "Cover AC": "+1 AC",
                "miss chance": "10%",
                "guess": "no",
            },
        },
    )
    # The source's descriptions, in the project's own words: key terms only.
    coverage = {row[0]: row[column(table, "Coverage")] for row in table[1:]}
    for level, word in [
        ("Total", "whole body"),
        ("9/10", "hands or feet"),
        ("3/4", "corner"),
        ("1/2", "vital"),
        ("1/4", "non-vital"),
    ]:
        assert word in coverage[level]


RADIATION = {
    # level: (incubation dice, unit, Fort DC, primary effect)
    "Minor": ("6d6", "hours", "10", "1"),
    "Low": ("5d6", "hours", "12", "2d2"),
    "Moderate": ("4d6", "hours", "15", "3d2"),
    "High": ("3d6", "hours", "19", "3d3"),
    "Severe": ("2d6", "hours", "24", "3d4"),
    "Critical": ("2d6x10", "minutes", "30", "3d6"),
}


def test_radiation_exposure_table(site: Path) -> None:
    table = _first_table(_section(site, "d20_scifi", "radiation_exposure"))
    _check(
        table,
        {
            level: {
                "Incubation": f"{dice} {unit}",
                "Fortitude DC": dc,
                "Primary effect": f"{effect} CON damage",
            }
            for level, (dice, unit, dc, effect) in RADIATION.items()
        },
    )


def test_radiation_dice_have_range_mean_and_chart(site: Path) -> None:
    section = _section(site, "d20_scifi", "radiation_exposure")
    stats = next(t for t in section.tables if t[0][:2] == ["Dice", "Unit"])
    rows = {(r[0], r[1]): r for r in stats[1:]}
    assert rows[("2d6x10", "minutes")][2:] == ["20 to 120", "70"]
    assert rows[("6d6", "hours")][2:] == ["6 to 36", "21"]
    assert rows[("3d2", "CON damage")][2:] == ["3 to 6", "4.5"]
    assert rows[("1", "CON damage")][2:] == ["1 to 1", "1"]
    charts = {Path(src).name for src in section.images}
    # One chart per distinct expression: 3d6 is both an incubation and an effect.
    expressions = ["6d6", "5d6", "4d6", "3d6", "2d6", "2d6x10"]
    expressions += ["2d2", "3d2", "3d3", "3d4"]
    assert charts == {f"dice-{d}.svg" for d in expressions}


def test_secondary_effects_table(site: Path) -> None:
    table = _first_table(_section(site, "d20_scifi", "secondary_effects"))
    stages = {
        "Nausea": ("Fatigued", "Sickened", "Nauseated", "Reroll"),
        "Headache / Pain": ("Dazzled", "Fascinated", "Dazed", "Reroll"),
        "Weakness": ("Fatigued", "Exhausted", "Paralyzed", "Reroll"),
        "Disorientation": ("Flat-Footed", "Shaken", "Dazed", "Reroll"),
    }
    effect = column(table, "Effect")
    rows = {row[effect]: row for row in table[1:]}
    assert list(rows) == [*stages, "Internal"]
    for name, want in stages.items():
        got = [rows[name][column(table, f"Stage {n}")] for n in range(1, 5)]
        assert tuple(got) == want, name
    assert "permanent" in rows["Internal"][column(table, "Stage 1")]
    # The 1d5 roll picks the row, in the source's order.
    assert [row[0] for row in table[1:]] == ["1", "2", "3", "4", "5"]


def test_radiation_symptoms_table(site: Path) -> None:
    table = _first_table(_section(site, "d20_scifi", "radiation_symptoms"))
    symptoms = {
        "Skin": ("Skin redness / irritation", "Open lesions", "Sloughing"),
        "Hair Loss": ("Loose strands", "Clumps", "Totally bald patches"),
        "Bleeding": (
            "Coughing blood",
            "Swollen / bleeding gums",
            "Bleeding from orifices",
        ),
    }
    stages = ["1-5 (Stage 1)", "6-10 (Stage 2)", "11+ (Stage 3)"]
    assert [row[0] for row in table[1:]] == stages
    for symptom, want in symptoms.items():
        got = tuple(row[column(table, symptom)] for row in table[1:])
        assert got == want, symptom


# -- GURPS ---------------------------------------------------------------------------

HIT_LOCATIONS = {
    # Basic Set hit location table, in the order of the 3d roll: penalty, roll
    "Skull": ("-7", "3-4"),
    "Face": ("-5", "5"),
    "Right Leg": ("-2", "6-7"),
    "Right Arm": ("-2", "8"),
    "Torso": ("+0", "9-10"),
    "Groin": ("-3", "11"),
    "Left Arm": ("-2", "12"),
    "Left Leg": ("-2", "13-14"),
    "Hand": ("-4", "15"),
    "Foot": ("-4", "16"),
    "Neck": ("-5", "17-18"),
    "Vitals": ("-3", "-"),
    "Eyes": ("-9", "-"),
}


def test_hit_location_table(site: Path) -> None:
    section = _section(site, "gurps", "hit_location")
    _check(
        _first_table(section),
        {
            location: {"penalty": penalty, "3d roll": roll}
            for location, (penalty, roll) in HIT_LOCATIONS.items()
        },
    )
    assert "dice-3d6.svg" in {Path(src).name for src in section.images}


def test_exposure_behind_cover_names_every_location(site: Path) -> None:
    section = _section(site, "gurps", "exposure_behind_cover")
    table = next(t for t in section.tables if t[0][0] == "Key")
    assert [row[0] for row in table[1:]] == list(HIT_LOCATIONS)


# -- Edge of Darkness ------------------------------------------------------------------


def test_concealment_degrees_table(site: Path) -> None:
    _check(
        _first_table(_section(site, "edge_of_darkness", "concealment")),
        {
            "Barely concealed": {"modifier": "-1", "Full cover": "no"},
            "Partially concealed": {"modifier": "-2", "Full cover": "no"},
            "Substantially concealed": {"modifier": "-3", "Full cover": "no"},
            "Completely covered": {
                "modifier": "shots hit the cover",
                "Full cover": "yes",
            },
        },
    )


def test_dice_pool_charts(site: Path) -> None:
    """The pool's odds chart: a bar chart of its successes for each pool size charted."""
    page = site / "edge_of_darkness" / "dice_pool.html"
    names = [Path(src).name for src in sections(page)["odds"].images]
    assert names == [f"odds-edge_of_darkness-dice_pool-{n}.svg" for n in range(1, 11)]


# -- the site as a whole -------------------------------------------------------------


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_chart_is_there_and_labelled(site: Path) -> None:
    seen = 0
    for page in _pages(site):
        for section in sections(page).values():
            for src in section.images:
                chart = (page.parent / src).resolve()
                assert chart.is_file(), f"{page}: {src} is missing"
                text = chart.read_text(encoding="utf-8")
                assert re.search(r"<title id=\"t\">[^<]+</title>", text)
                seen += 1
    assert seen >= 25  # each dice expression's chart, and the pool's odds charts


SYSTEMS = ("d20_scifi", "gurps", "edge_of_darkness")


def _rule_ids(system: str) -> list[str]:
    """The rule ids of a system, read from its rules files (not from the site)."""
    return [
        line.split("- id:", 1)[1].strip()
        for path in sorted((ROOT / "rules" / system).glob("*.yaml"))
        if path.name != "system.yaml"
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.fullmatch(r"  - id: [a-z0-9_]+", line)
    ]


def test_every_rule_has_a_page_of_its_own(site: Path) -> None:
    """A URL per rule (<system>/<rule>.html), linked from its system's overview and
    from the navigation, its title the page's only <h1>."""
    pages = 0
    for system in SYSTEMS:
        overview = (site / f"{system}.html").read_text(encoding="utf-8")
        for rule_id in _rule_ids(system):
            page = site / system / f"{rule_id}.html"
            assert page.is_file(), f"{system}.{rule_id}: no page"
            text = page.read_text(encoding="utf-8")
            assert len(re.findall(r"<h1[ >]", text)) == 1, page
            assert f'href="{system}/{rule_id}.html"' in overview, (
                f"{system}: {rule_id} not listed"
            )
            # in the navigation: the page is its active entry
            assert "md-nav__link--active" in text, f"{system}.{rule_id}: not in the nav"
            pages += 1
    assert pages >= 30


def test_formulas_are_math(site: Path) -> None:
    """Formulas are marked as math for KaTeX, not shown as code."""
    page = (site / "d20_scifi" / "crawl_speed.html").read_text("utf-8")
    display = re.findall(r'<div class="arithmatex"[^>]*>(.*?)</div>', page, re.S)
    assert len(display) == 1 and r"\textit{climb bonus}" in display[0]
    cases = (site / "d20_scifi" / "attack_through_cover.html").read_text("utf-8")
    assert re.search(r'<span class="arithmatex"[^>]*>\\\(\\max', cases)
    # conditions in words, never as raw expressions
    assert "<em>mode</em> is “at cover” and <em>caliber</em> is standard" in cases
    assert 'mode = "at_cover"' not in cases and "mode ==" not in cases


def test_sources_are_cited_by_work_and_section(site: Path) -> None:
    page = (site / "d20_scifi" / "attack_through_cover.html").read_text("utf-8")
    assert "d20-derived science-fiction game" in page
    assert "chapter “Cover and Environments”, section “Bypassing Cover”" in page
    for system in SYSTEMS:
        for path in (site / system).rglob("*.html"):
            assert not re.search(r"[0-9]{3}_[0-9a-f]{16}\.txt", _article(path)), path


def _article(page: Path) -> str:
    """A page's text for readers: its article, up to the programmer's section."""
    text = page.read_text(encoding="utf-8")
    article = text[text.index("<article") : text.index("</article>")]
    return article.split('<h2 id="for-programmers"', 1)[0]


def test_rule_links_reach_their_yaml_line(site: Path) -> None:
    """Each rule's page links to its rules file's line, a page of the site with that line."""
    checked = 0
    for system in SYSTEMS:
        for rule_id in _rule_ids(system):
            page = site / system / f"{rule_id}.html"
            section = sections(page)["for-programmers"]
            links = [h for h in section.links if ".yaml.html#L" in h]
            assert len(links) == 1, f"{system}.{rule_id}: {links}"
            target, line = links[0].split("#L")
            shown = (page.parent / target).resolve()
            assert f'id="L{line}"' in shown.read_text(encoding="utf-8")
            relpath = (page.parent / target.removesuffix(".html")).resolve()
            relpath = relpath.relative_to(site.resolve())
            source = (ROOT / relpath).read_text(encoding="utf-8").splitlines()
            assert re.fullmatch(rf"\s*- id: {rule_id}\s*", source[int(line) - 1])
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("suffix", [".html", ".css", ".js", ".svg", ".json"])
def test_nothing_is_loaded_from_the_network(site: Path, suffix: str) -> None:
    """No page, style, script or chart refers to another host at run time."""
    remote = re.compile(
        r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|@import\s+url\(\s*["']?(?:https?:)?//"""
        r"""|url\(\s*["']?https?://|fonts\.googleapis"""
    )
    for path in sorted(site.rglob(f"*{suffix}")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found = remote.search(text)
        assert found is None, (
            f"{path.relative_to(site)}: {text[found.start() : found.start() + 80]!r}"
        )


def test_search_index_holds_every_rule_and_no_yaml(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    locations = {doc["location"] for doc in index["docs"]}
    for needle in (
        "d20_scifi/cover.html",
        "gurps/hit_location.html",
        "edge_of_darkness/concealment.html",
    ):
        assert needle in locations
    assert not any(loc.startswith("rules/") for loc in locations)


def test_every_system_overview_ends_with_what_is_left_out_and_the_api(
    site: Path,
) -> None:
    """The overview: the source's divisions, what the rules leave out (the
    not_modelled notes), and last the programmer's section."""
    for system in SYSTEMS:
        found = sections(site / f"{system}.html")
        assert list(found)[-2:] == ["what-the-rules-leave-out", "for-programmers"]
        assert found["what-the-rules-leave-out"].title == "What the rules leave out"
        # the divisions of the source, each listing rules by their pages
        divisions = list(found)[1:-2]
        assert divisions, system
        listed = {link for d in divisions for link in found[d].links}
        assert listed == {f"{system}/{r}.html" for r in _rule_ids(system)}, system
