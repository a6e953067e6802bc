"""Phones: at 390 pixels every table of every rule page reads as cards, each
cell in view after its column's title; at a desktop width tables stay tables.

Every page of the three systems (their overviews and rule pages) is opened at
390 pixels, its try-it form answered with its first example: every cell that
holds anything, of every table (the pages' own, the case tables, the try-it's
answers, a run's events among them), lies inside the window, and shows its
column's title before it (the ``data-label`` docsite/cards.py and answer.js
write, shown by docsite/rulebook.css); and no element of the article is
scrolled sideways in a box of its own, no image or formula out of the window
(tests/site/test_reading.py checks the other pages at 390). At 1280 pixels a table is a table (its
rows are rows, its head shown, no titles before its cells). Printed, a page
leaves out everything "For programmers".
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .browser import Watched

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, ViewportSize

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
SYSTEMS = ("d20_scifi", "edge_of_darkness", "gurps")
HOLDER = "div.rulebook-try"

# Each cell holding anything that is not a card line: outside the window, not
# shown, or not after its column's title. (A cell of a table with no head has
# no title to show.)
_BAD_CELLS = """
() => Array.from(document.querySelectorAll('article table')).flatMap(t => {
  const say = s => s.replace(/\\s+/g, ' ').trim();
  // a title with a formula: its words (docsite/cards.py), not KaTeX's text
  const titles = Array.from(t.querySelectorAll('thead th')).map(th =>
    th.querySelector('.arithmatex') ? null : say(th.textContent));
  return Array.from(t.querySelectorAll('tbody tr')).flatMap(row =>
    Array.from(row.children).flatMap((cell, i) => {
      const text = say(cell.textContent);
      if (!text) return [];
      const where = `${titles[i] ?? i}: ${text.slice(0, 40)}`;
      const b = cell.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) return ['hidden ' + where];
      if (b.left < -0.5 || b.right > window.innerWidth + 0.5) return ['out ' + where];
      if (getComputedStyle(row).display !== 'block') return ['row ' + where];
      if (!titles.length) return [];
      const before = getComputedStyle(cell, '::before');
      const label = cell.getAttribute('data-label');
      const title = titles[i] === null ? label || null : titles[i] || '';
      if (label !== title
          || (title && (before.content === 'none' || before.display === 'none')))
        return ['title ' + where];
      return [];
    }));
})
"""

# Each element of the article shown and scrolled sideways in its own box.
_SIDEWAYS = """
() => Array.from(document.querySelectorAll('article *')).filter(e =>
  e.scrollWidth > e.clientWidth + 1
  && e.getClientRects().length
  && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 50))
"""

# The page wider than the window, and each image or formula (out of a table)
# not inside the window or cut.
_OUT_OF_VIEW = """
() => [document.documentElement].filter(e => e.scrollWidth > window.innerWidth)
  .map(() => 'the page is wider than the window').concat(
    Array.from(document.querySelectorAll('article img, article .arithmatex'))
      .filter(e => !e.closest('table') && e.getClientRects().length)
      .filter(e => { const b = e.getBoundingClientRect();
        return b.left < -0.5 || b.right > window.innerWidth + 0.5
          || e.scrollWidth > e.clientWidth + 1; })
      .map(e => e.tagName + ': ' + (e.alt || e.textContent).trim().slice(0, 50)))
"""

# Each table that is not shown as a table: rows not rows, its head hidden, or a
# title before a cell.
_NOT_TABLES = """
() => Array.from(document.querySelectorAll('article table')).flatMap(t => {
  const found = [];
  const row = t.querySelector('tbody tr');
  if (row && getComputedStyle(row).display !== 'table-row') found.push('row');
  const head = t.querySelector('thead');
  if (head && getComputedStyle(head).display === 'none') found.push('head');
  const cell = t.querySelector('tbody td');
  if (cell && !['none', 'normal'].includes(getComputedStyle(cell, '::before').content))
    found.push('title');
  return found.map(f => f + ': ' + t.textContent.trim().slice(0, 50));
})
"""


def system_pages(site: Path) -> list[str]:
    """Each page of the three systems: its overview and its rules' pages."""
    return sorted(
        [f"{system}.html" for system in SYSTEMS]
        + [
            p.relative_to(site).as_posix()
            for system in SYSTEMS
            for p in (site / system).glob("*.html")
        ]
    )


def _open(page: Page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("html[data-rb-ready]", state="attached")
    if page.locator(HOLDER).count():  # its answer shown (a run's events among them)
        page.wait_for_selector(f"{HOLDER}[data-rb-ready]", state="attached")
        page.wait_for_selector("form.rb-try .rb-try-out > *", state="attached")


def test_every_table_reads_as_cards_on_a_phone(
    site: Path, base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    page = watched.page
    page.set_viewport_size(PHONE)
    pages = system_pages(site)
    assert len(pages) > len(SYSTEMS)
    cells = 0
    for path in pages:
        _open(page, base_url + path)
        assert page.evaluate(_BAD_CELLS) == [], path
        assert page.evaluate(_SIDEWAYS) == [], path
        assert page.evaluate(_OUT_OF_VIEW) == [], path
        cells += page.locator("article td").count()
    assert cells > 1000
    assert watched.problems == []
    page.close()


def test_a_run_s_events_are_cards_of_all_their_columns(
    base_url: str, browser: BrowserContext
) -> None:
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    _open(page, base_url + "d20_scifi/simulate_radiation.html")
    events = page.locator("form.rb-try table.rb-try-table").first
    titles = events.locator("thead th").all_inner_texts()
    assert len(titles) > 10
    first = events.locator("tbody tr").first
    labels = first.evaluate(
        "r => Array.from(r.children).filter(c => c.getBoundingClientRect().height)"
        ".map(c => getComputedStyle(c, '::before').content)"
    )
    shown = [f'"{t}"' for t in titles]
    assert labels and set(labels) <= set(shown), (labels, shown)
    page.close()


def test_tables_stay_tables_on_a_desktop(
    base_url: str, browser: BrowserContext
) -> None:
    page = browser.new_page()
    page.set_viewport_size(DESKTOP)
    for path in (
        "d20_scifi/cover.html",
        "d20_scifi/simulate_radiation.html",
        "gurps.html",
    ):
        _open(page, base_url + path)
        assert page.locator("article table").count(), path
        assert page.evaluate(_NOT_TABLES) == [], path
    page.close()


def test_print_leaves_out_what_is_for_programmers(
    base_url: str, browser: BrowserContext
) -> None:
    page = browser.new_page()
    _open(page, base_url + "d20_scifi/cover.html")
    programmers = page.locator(
        "article .rb-programmers, article details.rb-try-raw, "
        "article h2#for-programmers, article h2#for-programmers ~ *"
    )
    count = programmers.count()
    assert count > 3
    assert any(programmers.nth(i).is_visible() for i in range(count))
    page.emulate_media(media="print")
    shown = [i for i in range(count) if programmers.nth(i).is_visible()]
    assert shown == []
    assert page.locator("article h1").is_visible()
    assert page.locator("article table").first.is_visible()
    page.close()


_FILTERS = "Array.from(document.querySelectorAll(\"article img[src*='charts/']\"), i => getComputedStyle(i).filter)"


def test_charts_follow_the_scheme(base_url: str, browser: BrowserContext) -> None:
    """Drawn dark on white, the charts are shown light on dark in the dark
    scheme, whichever way it is chosen (the system's, or the header's toggle)."""
    page = browser.new_page()
    page.emulate_media(color_scheme="dark")
    _open(page, base_url + "d20_scifi/accumulation.html")
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"
    dark = page.evaluate(_FILTERS)
    assert dark and all("invert" in f for f in dark), dark
    # The toggle: on to the light scheme, whatever the system's.
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'")
    assert set(page.evaluate(_FILTERS)) == {"none"}
    page.evaluate("localStorage.clear()")  # the toggle's choice, kept by Material
    page.close()
