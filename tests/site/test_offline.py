"""The site opened from its folder (file://), as a reader opens site/index.html
from a file manager: search finds a rule, its page's form answers, its math is
KaTeX's, and no page logs an error or asks for anything but the site's files.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docsite.offline import INDEX, INDEX_SCRIPT, index_script

from .browser import Offsite, Watched

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
_TAG = re.compile(r"<[^>]+>")
MATH = 'class="arithmatex"'  # a formula, as pymdownx.arithmatex marks it
PREVIEW_WAIT_MS = 400  # more than docsite/rulebook.js waits before a preview
# TeX a reader would see if the math were not rendered.
_RAW_TEX = re.compile(r"\\[()\[\]]|\\[a-z]+\{")


@pytest.fixture(scope="module")
def offsite(site: Path) -> Offsite:
    """Every request but for the site's own files is refused (and remembered);
    no server: the browser reads the folder."""
    return Offsite(site.as_uri() + "/")


def _rule_page(site: Path) -> tuple[str, str]:
    """A rule page with a form (the first with math too, if one has both; else
    the first, by path), and its title."""
    forms = []
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] in ("rules", "guides"):
            continue
        text = page.read_text(encoding="utf-8")
        if 'class="rulebook-try"' in text:
            forms.append((MATH in text, page, text))
    assert forms, "no rule page has a form"
    _, page, text = max(forms, key=lambda found: found[0])  # the first with math
    title = _H1.search(text)
    assert title is not None, page
    heading = html.unescape(_TAG.sub("", title.group(1)).replace("&para;", ""))
    return page.relative_to(site).as_posix(), heading.strip()


def _math_page(site: Path, path: str) -> str:
    """``path`` if it has math, else the first page with math, by path."""
    if MATH in (site / path).read_text(encoding="utf-8"):
        return path
    for page in sorted(site.rglob("*.html")):
        if MATH in page.read_text(encoding="utf-8"):
            return page.relative_to(site).as_posix()
    raise AssertionError("no page has math")


def _search(page: Page, words: str) -> list[str]:
    """The addresses of the results the site's search shows for ``words``."""
    page.locator("input.md-search__input").click()
    page.keyboard.type(words)
    hits = page.locator(".md-search-result__item a")
    hits.first.wait_for(state="visible")
    return [hits.nth(i).get_attribute("href") or "" for i in range(hits.count())]


def test_the_site_works_from_its_folder(site: Path, browser: BrowserContext) -> None:
    path, title = _rule_page(site)
    watched = Watched(browser)
    page = watched.open((site / "index.html").as_uri())
    found = _search(page, title)
    target = (site / path).as_uri()
    assert any(href.split("#")[0].split("?")[0] == target for href in found), (
        f"searching {title!r} from the folder finds no link to {path}: {found}"
    )
    page.locator(f".md-search-result__item a[href^='{target}']").first.click()
    page.wait_for_url(lambda url: url.split("?")[0].split("#")[0] == target)
    # the form answers
    page.wait_for_selector("div.rulebook-try[data-rb-ready]", state="attached")
    form = page.locator("form.rb-try")
    button = form.locator("button[type=submit]")
    if button.count():
        button.click()
    page.wait_for_function(
        "Number(document.querySelector('form.rb-try').getAttribute('data-answers')) > 0"
    )
    answer = form.locator(".rb-try-answer").inner_text().strip()
    assert answer, f"{path}: the form gave no answer from the folder"
    # the math is KaTeX's, and no TeX is left as text
    path = _math_page(site, path)
    if page.url.split("?")[0].split("#")[0] != (site / path).as_uri():
        page.goto((site / path).as_uri(), wait_until="load")
    page.wait_for_selector("html[data-rb-ready]", state="attached")
    marked = page.locator("article .arithmatex")
    assert marked.count() > 0
    rendered = page.locator(
        "article .arithmatex > .katex, article .arithmatex > .katex-display"
    )
    assert rendered.count() == marked.count(), path
    text = page.evaluate(
        "() => { const a = document.querySelector('article').cloneNode(true);"
        " a.querySelectorAll('.katex-mathml, annotation, .rb-try-raw')"
        ".forEach((e) => e.remove()); return a.innerText; }"
    )
    assert not _RAW_TEX.search(text), f"{path}: raw TeX shown"
    # a link to another page shows no preview from the folder, and logs nothing
    link = page.locator("article a[href$='.html']:not([href*='rules/'])").first
    link.hover()
    page.wait_for_timeout(PREVIEW_WAIT_MS)
    assert page.locator(".rb-preview:visible").count() == 0
    assert watched.problems == [], watched.problems
    page.close()


def test_the_index_read_from_the_folder_is_the_served_one(site: Path) -> None:
    """The script holds the index as served: escaped by docsite/titles.py, which
    runs after the offline plugin has written its copy."""
    served = (site / INDEX).read_text(encoding="utf-8")
    assert (site / INDEX_SCRIPT).read_text(encoding="utf-8") == index_script(served)
