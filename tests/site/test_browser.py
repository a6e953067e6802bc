"""The built site in a real browser: Debian's headless chromium, driven by Playwright.

The site is served from 127.0.0.1 by a local http.server thread; any request for
another host is refused and fails the test (the site must work offline). Every
page must load without console errors or broken images; the cover table shows
its five rows; the charts render; the search box finds a rule; every formula is
rendered by KaTeX, with no TeX left over (the layout at phone and desktop
widths: test_reading.py). Screenshots are left in site/_screenshots/ for review.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .browser import SCREENSHOTS, Offsite, Watched

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def _broken_images(page: Page) -> list[str]:
    broken: list[str] = page.evaluate(
        "Array.from(document.images)"
        ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )
    return broken


def test_every_page_loads_cleanly(
    site: Path, base_url: str, browser: BrowserContext, offsite: Offsite
) -> None:
    pages = _pages(site)
    assert len(pages) >= 10
    for path in pages:
        url = base_url + path.removesuffix("index.html")
        watched = Watched(browser)
        page = watched.open(url)
        assert page.locator("h1").first.is_visible(), url
        assert _broken_images(page) == [], url
        assert watched.problems == [], url
        page.close()
    assert offsite.refused == []


def test_cover_table_shows_its_five_rows(
    base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "d20_scifi/cover.html")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "d20_scifi-cover.png"))
    heading = page.locator("article h1")
    assert heading.inner_text().strip().startswith("Cover and concealment")
    table = page.locator("article table").first
    table.scroll_into_view_if_needed()
    assert table.is_visible()
    rows = table.locator("tbody tr")
    assert rows.count() == 5
    levels = [rows.nth(i).locator("td").first.inner_text() for i in range(5)]
    assert levels == ["Total", "9/10", "3/4", "1/2", "1/4"]
    assert "+10 AC" in rows.nth(1).inner_text()
    assert watched.problems == []
    page.close()


def test_charts_render(base_url: str, browser: BrowserContext) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "edge_of_darkness/dice_pool.html")
    charts = page.locator("article p img[src*='charts/']")
    assert charts.count() == 10
    for i in range(charts.count()):
        chart = charts.nth(i)
        chart.scroll_into_view_if_needed()
        size = chart.evaluate("i => [i.naturalWidth, i.naturalHeight, i.width]")
        assert size[0] == 360 and size[1] == 200 and size[2] > 200, size
    page.evaluate(
        "document.querySelector(\"img[src*='dice_pool-1']\")"
        ".scrollIntoView({block: 'center'})"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "edge_of_darkness-dice_pool.png"))
    # One chart opened on its own: a bar for every result of 3d6, with tooltips.
    page.goto(base_url + "charts/dice-3d6.svg")
    bars = page.locator("svg g rect")
    assert bars.count() == 16
    assert bars.first.locator("title").text_content() == "3: 1/216 (0.46%)"
    boxes = [bars.nth(i).bounding_box() for i in range(16)]
    assert max(box["height"] for box in boxes if box is not None) > 100
    assert watched.problems == []
    page.close()


def test_search_finds_a_rule(base_url: str, browser: BrowserContext) -> None:
    watched = Watched(browser)
    page = watched.open(base_url, settle=True)  # the search index is loaded
    page.locator("input.md-search__input").click()
    page.keyboard.type("spin sickness")
    hit = page.locator(".md-search-result__item a[href*='spin_save.html']").first
    hit.wait_for(state="visible")
    hit.click()
    # Material adds the words searched for as ?h=..., to highlight them.
    page.wait_for_url(
        lambda url: url.split("?")[0].endswith("/d20_scifi/spin_save.html")
    )
    heading = page.locator("article h1")
    heading.wait_for(state="visible")
    assert heading.inner_text().strip().startswith("Spin sickness")
    assert watched.problems == []
    page.close()


def _ready(page: Page) -> None:
    """Wait until the site's script has rendered the formulas and fitted the page."""
    page.wait_for_selector("html[data-rb-ready]", state="attached")


# A control sequence or a math delimiter left in the text: TeX KaTeX did not render.
_RAW_TEX = r"\\[a-zA-Z]+|\\[()\[\]]"


def test_every_formula_is_rendered(
    site: Path, base_url: str, browser: BrowserContext
) -> None:
    """Every page with math: each formula is KaTeX's, and no TeX is left as text."""
    rendered = displays = 0
    for path in _pages(site):
        if path.startswith("rules/"):
            continue
        watched = Watched(browser)
        page = watched.open(base_url + path.removesuffix("index.html"))
        _ready(page)
        marked = page.locator("article .arithmatex")
        count = marked.count()
        katex = page.locator(
            "article .arithmatex > .katex, article .arithmatex > .katex-display"
        )
        assert katex.count() == count, path
        left: list[str] = page.evaluate(
            "re => { const r = new RegExp(re); const w = document.createTreeWalker("
            "document.querySelector('article'), NodeFilter.SHOW_TEXT); const found = [];"
            "while (w.nextNode()) { const n = w.currentNode;"
            "if (n.parentElement.closest('.katex, code, pre')) continue;"
            "if (r.test(n.textContent)) found.push(n.textContent.trim().slice(0, 80)); }"
            "return found; }",
            _RAW_TEX,
        )
        assert left == [], (path, left)
        rendered += count
        displays += page.locator("article .katex-display").count()
        assert watched.problems == [], (path, watched.problems)
        page.close()
    assert rendered >= 10 and displays >= 4, (rendered, displays)
