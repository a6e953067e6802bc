"""The site reads as a rulebook, in a real browser: every form's answer in words,
refusals naming the field as the form does, previews of linked rules, a print
view, light and dark schemes, and pages that never scroll sideways.

Every rule's form is made for each of its calls (a call that rolls, from a
seed) and answers in words, with no JSON braces (the JSON is kept "for
programmers"); every number field given a value past its bounds is refused in
words that name it by its label. At 390 and 1280 pixels no page scrolls
sideways, and a table too wide for the page scrolls in its own box (at 1280 no
table is made into cards: tests/site/test_phone.py checks the cards at 390).
Printed, a page shows no navigation, header, search, footer or form. The dark
scheme darkens the page; a link to another rule shows that rule on hover and on
keyboard focus. Screenshots of the cover and radiation pages at both widths are
left in site/_screenshots/.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesc.front.model import System
from rulesc.pipeline import Outputs

from ..form_fill import Filled
from ..js_node import ported
from .browser import SCREENSHOTS, Watched
from .test_phone import SYSTEMS
from .test_tryit import Form

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, ViewportSize

WIDTHS: tuple[ViewportSize, ...] = (
    {"width": 390, "height": 844},
    {"width": 1280, "height": 900},
)
SHOTS = ("d20_scifi/cover.html", "d20_scifi/simulate_radiation.html")


def _start(form: Form, call: int) -> Filled:
    values = {f["name"]: f["start"] for f in form.data["fields"]}
    return Filled(values, call, None)


def _past(field: dict[str, Any]) -> int | None:
    """A value past a number field's bounds (None: it has none)."""
    if field["max"] is not None:
        return int(field["max"]) + 1
    if field["min"] is not None:
        return int(field["min"]) - 1
    return None


def _answered_in_words(form: Form, where: Any) -> str:
    state, raw, _ = form.answer()
    shown = form.words()
    assert state in ("answer", "refused"), (where, state, raw)
    assert shown.strip(), where
    assert "{" not in shown and "}" not in shown, (where, shown)
    return state


def forms_in_words(
    systems: Sequence[System], site: Path, base_url: str, browser: BrowserContext
) -> tuple[int, int, int]:
    """Every form of ``systems``' rules in ``site``, each call made (with a seed
    where it rolls) and each bounded number field given a value past its bounds:
    the answers in words, the refusals naming the field. (forms, answers,
    refusals)"""
    forms = answers = refusals = 0
    for system in systems:
        for rule in system.rules:
            page = site / system.id / f"{rule.id}.html"
            if rule.qualified_id not in ported(system) or "data-form=" not in (
                page.read_text(encoding="utf-8")
            ):
                continue  # a rule with no form (an input no form can give)
            form = Form(Watched(browser), base_url, rule.qualified_id)
            forms += 1
            for i, call in enumerate(form.data["calls"]):
                form.set(_start(form, i))
                if call["rng"]:
                    form.dice("seed", "1")
                state = _answered_in_words(form, (rule.qualified_id, call["label"]))
                answers += state == "answer"
            for field in form.data["fields"]:
                # (a field of listed values is a select: no value past them to give)
                numbers = field["kind"] in ("int", "ints", "list")
                past = _past(field) if numbers and not field.get("one_of") else None
                if past is None:
                    continue
                filled = _start(form, 0)
                value = [past] if field["kind"] in ("ints", "list") else past
                form.set(Filled({**filled.values, field["name"]: value}, 0, None))
                if form.data["calls"][0]["rng"]:
                    form.dice("seed", "1")
                where = (rule.qualified_id, field["name"], past)
                assert _answered_in_words(form, where) == "refused", where
                shown = form.words()
                assert field["label"] in shown and str(past) in shown, (where, shown)
                refusals += 1
            form.close()
    print(f"{forms} forms, {answers} answers in words, {refusals} refusals")
    return forms, answers, refusals


def test_every_form_answers_in_words_and_refuses_by_label(
    built: Outputs, site: Path, base_url: str, browser: BrowserContext
) -> None:
    forms, answers, refusals = forms_in_words(built.systems, site, base_url, browser)
    assert forms >= 20 and answers >= forms and refusals >= 5


def test_a_table_row_reads_as_its_table(base_url: str, browser: BrowserContext) -> None:
    """The cover row: its columns' titles, units, signs and the table's words
    for an empty cell."""
    form = Form(Watched(browser), base_url, "d20_scifi.cover")
    form.set(Filled({"level": "Total"}, 0, None))
    form.answer()
    shown = form.words()
    for words in ("Cover AC bonus", "cannot be targeted", "50%", "N/A", "no"):
        assert words in shown, (words, shown)
    form.set(Filled({"level": "9/10"}, 0, None))
    form.answer()
    assert "+10 AC" in form.words()
    form.close()


def test_odds_are_bars(base_url: str, browser: BrowserContext) -> None:
    form = Form(Watched(browser), base_url, "edge_of_darkness.dice_pool")
    odds = next(i for i, c in enumerate(form.data["calls"]) if c["odds"])
    form.set(Filled({"dice": 3}, odds, None))
    form.answer()
    bars = form.root.locator(".rb-try-answer .rb-try-bar")
    assert bars.count() >= 4
    widths = [bars.nth(i).bounding_box() for i in range(bars.count())]
    assert max(b["width"] for b in widths if b is not None) > 20
    assert "%" in form.words()
    form.close()


def _pages(site: Path) -> list[str]:
    return sorted(
        p.relative_to(site).as_posix().removesuffix("index.html")
        for p in site.rglob("*.html")
    )


def _ready(page: Page) -> None:
    page.wait_for_selector("html[data-rb-ready]", state="attached")


# Each table of the article that is not a table (made into cards) on a wide
# screen, or that neither fits its box nor scrolls in it, or a box wider than
# the window.
_BAD_TABLES = """
(wide) => Array.from(document.querySelectorAll('article table')).flatMap(t => {
  const box = t.closest('.md-typeset__scrollwrap, .rb-try-scroll') || t;
  const style = getComputedStyle(box);
  const scrolls = ['auto', 'scroll'].includes(style.overflowX);
  const found = [];
  const row = t.querySelector('tr');
  if (wide && row && getComputedStyle(row).display !== 'table-row') found.push('cards');
  const b = box.getBoundingClientRect();
  if (b.width > 0 && (b.left < -0.5 || b.right > window.innerWidth + 0.5)) found.push('box');
  if (t.scrollWidth > box.clientWidth + 1 && !scrolls && t.offsetParent) found.push('cut');
  return found.map(f => f + ': ' + t.textContent.trim().slice(0, 50));
})
"""


def test_no_page_scrolls_sideways(
    site: Path, base_url: str, browser: BrowserContext
) -> None:
    """At 390 and 1280 pixels: no page is wider than the window; every table
    fits its box or scrolls in it (a table at 1280); formulas and images fit."""
    page = browser.new_page()
    for size in WIDTHS:
        page.set_viewport_size(size)
        for path in _pages(site):
            phone = size["width"] < 600 and path.split("/")[0] in SYSTEMS
            if phone and not path.startswith(SHOTS):
                continue  # read at 390 by tests/site/test_phone.py
            page.goto(base_url + path, wait_until="load")
            _ready(page)
            if path.startswith(SHOTS):
                page.wait_for_selector(
                    "div.rulebook-try[data-rb-ready]", state="attached"
                )
                name = path.removesuffix(".html").replace("/", "-")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                shot = SCREENSHOTS / f"{name}-{size['width']}.png"
                page.screenshot(path=str(shot), full_page=True)
            width = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width[0] <= width[1], (path, size, width)
            wide = size["width"] > 600  # cards below (docsite/guides/site.md)
            assert page.evaluate(_BAD_TABLES, wide) == [], (path, size)
            too_wide: list[str] = page.evaluate(
                "Array.from(document.querySelectorAll('article .arithmatex, article img'))"
                ".filter(e => !e.closest('table'))"  # a table scrolls in its box
                ".filter(e => { const b = e.getBoundingClientRect();"
                " return b.left < -0.5 || b.right > window.innerWidth + 0.5"
                " || e.scrollWidth > e.clientWidth + 1; })"
                ".map(e => e.tagName + ': ' + e.textContent.trim().slice(0, 60))"
            )
            assert too_wide == [], (path, size, too_wide)
    page.close()


def test_print_shows_the_rule_alone(base_url: str, browser: BrowserContext) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "d20_scifi/cover.html")
    page.wait_for_selector("div.rulebook-try[data-rb-ready]", state="attached")
    assert page.locator("form.rb-try").is_visible()
    page.emulate_media(media="print")
    for hidden in (
        ".md-header",
        ".md-sidebar--primary",
        ".md-search",
        ".md-footer",
        "form.rb-try",
    ):
        found = page.locator(hidden)
        assert found.count() >= 1, hidden
        assert not found.first.is_visible(), hidden
    assert page.locator("article h1").is_visible()
    assert page.locator("article table").first.is_visible()
    page.emulate_media(media="screen")
    assert page.locator(".md-header").is_visible()
    assert watched.problems == []
    page.close()


_BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def test_the_dark_scheme_darkens_the_page(
    base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    # a page with no form; all it loads loaded (a reload cuts nothing off)
    page = watched.open(base_url + "d20_scifi.html", settle=True)
    _ready(page)
    page.emulate_media(color_scheme="light")
    light = page.evaluate(_BACKGROUND)
    page.emulate_media(color_scheme="dark")
    page.reload(wait_until="networkidle")
    _ready(page)
    dark = page.evaluate(_BACKGROUND)
    assert light != dark, (light, dark)
    assert (
        page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    )
    # The header's toggle changes the scheme too (and back).
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function(f"b => {_BACKGROUND} !== b", arg=dark)
    assert watched.problems == []
    page.close()


def test_a_link_to_a_rule_shows_its_preview(
    base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "d20_scifi/simulate_radiation.html")
    _ready(page)
    link = page.locator("article a[data-rb-preview][href='exposures.html']").first
    preview = page.locator(".rb-preview")
    link.scroll_into_view_if_needed()
    link.hover()
    preview.wait_for(state="visible")
    assert preview.inner_text().startswith("Exposures of one encounter"), (
        preview.inner_text()
    )
    assert link.get_attribute("aria-describedby") == "rb-preview"
    page.mouse.move(0, 0)
    preview.wait_for(state="hidden")
    other = page.locator("article a[data-rb-preview][href='healing.html']").first
    other.focus()  # by keyboard, too
    preview.wait_for(state="visible")
    assert preview.inner_text().startswith("Healing radiation damage")
    assert page.locator(".rb-preview table, .rb-preview p").count() >= 1
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    assert watched.problems == []
    page.close()
