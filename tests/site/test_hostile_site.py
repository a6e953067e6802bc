"""A site built from rules full of hostile text: nothing the rules wrote runs or
makes an element, in any text the site shows, the theme's included.

The rules of tests/hostile_rules.py (hostile text in every prose field of a copy
of rules/, every title carrying a text made to break out of where the theme puts
titles: ``</title><script>``, ``"><svg onload=...>``...; and hostile labels,
cells, units and titles) are built by rulesc and then by ``mkdocs build
--strict`` with the project's mkdocs.yml, hooks and theme, once for this module;
the same rules with plain words in the same places are built beside them.

- Every page of the hostile site has the plain site's elements, attributes and
  comments, in the same order, head, navigation and table of contents
  included: only the text and the attributes made from it (ids, links to
  them, a form's JSON) differ. So does every entry of the search index.
- Every page (the rules files' pages and the 404 page too) is opened in
  chromium, its formulas rendered and its "try it" forms made, with ``rbPwn``
  (which every script in the hostile texts calls) recording any call: no call
  was made, no dialog opened, no console error, no failed request; nowhere in
  the document, head included, is an event handler attribute, a
  ``javascript:`` link, a script the rules wrote, a frame, object, style or
  base element, a meta or link outside the head; no form or field in the page
  that is not the theme's or a "try it" form; every title the theme shows is
  text (no element inside), and the page's ``<title>`` is its heading's text;
  no text shown, the forms' and the head's included, holds a control,
  bidirectional or other hidden character (each is shown as its escape).
- Hostile words are typed into the search box: the results and the suggestion
  are text, and a result opened with its words highlighted runs nothing.
- The hostile texts are in the pages, as text.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from docsite.offline import INDEX_SCRIPT, index_script
from rulesc.pipeline import build

from ..conftest import ROOT
from ..hostile_rules import _LABELS, HOSTILE, TITLE_HOSTILE, write_rules
from ..site_markdown import Parsed
from ..test_sinks import one_line
from .browser import Watched
from .conftest import missing, served, site_of

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Dialog, Page

SITE_NAME = "Rulebook reference"  # mkdocs.yml's site_name

# Before any script of the page: what a hostile text's script would call.
_TRAP = "window.__rbPwned = []; window.rbPwn = (n) => window.__rbPwned.push(n);"

# In the page, head included: whatever the rules could have made run, or could
# make run on a click, a hover or a focus, and any element the rules made.
_FOUND = r"""
() => {
  const found = [];
  const site = location.origin + "/";
  const never = ["iframe", "frame", "object", "embed", "base", "style", "portal",
                 "applet", "template", "noscript", "frameset"];
  const fields = ["form", "button", "input", "select", "textarea", "svg", "math"];
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\u0000-\u001f]/g, "").toLowerCase();
      if (name.startsWith("on")) found.push(`${el.tagName} ${name}=${attr.value}`);
      if (["href", "src", "action", "formaction", "data", "xlink:href"].includes(name)
          && value.startsWith("javascript:")) found.push(`${el.tagName} ${name}=${attr.value}`);
    }
    const tag = el.tagName.toLowerCase();
    if (never.includes(tag)) found.push(tag);
    if (["meta", "link", "title"].includes(tag) && el.parentElement !== document.head)
      found.push(`${tag} outside the head`);
    if (tag === "meta" && el.hasAttribute("http-equiv")) found.push(`meta ${el.outerHTML}`);
    if (tag === "link" && !el.href.startsWith(site)) found.push(`link ${el.href}`);
    if (fields.includes(tag) && el.closest("article") && !el.closest(".katex, .rulebook-try"))
      found.push(`${tag} in the page`);
    if (tag === "script" && (el.textContent.includes("rbPwn")
        || (el.src && !el.src.startsWith(site)))) found.push(`script ${el.src}`);
  }
  for (const el of document.head.children) {
    if (!["meta", "link", "script", "title"].includes(el.tagName.toLowerCase()))
      found.push(`${el.tagName} in the head`);
  }
  if (document.querySelectorAll("title").length !== 1) found.push("not one title");
  // every text shown, head and forms included: no character that acts on text
  // or hides in it (each is shown as its escape)
  const hidden = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
  const texts = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode())
    if (hidden.test(node.data) && !node.parentElement.closest("script, .katex"))
      found.push(`hidden character in ${node.parentElement.tagName}: ${JSON.stringify(node.data)}`);
  // the titles the theme shows (the header's, the navigation's, the table of
  // contents', the footer's): text alone
  for (const el of document.querySelectorAll(".md-ellipsis"))
    for (const child of el.children) found.push(`${child.tagName} in a title`);
  if (document.querySelectorAll(".md-ellipsis").length < 3) found.push("no titles");
  return found;
}
"""

# The page's heading, as a reader reads it (its permalink left out).
_HEADING = r"""
() => {
  const h1 = document.querySelector("article h1");
  if (!h1) return null;
  const copy = h1.cloneNode(true);
  copy.querySelectorAll(".headerlink").forEach((a) => a.remove());
  return copy.textContent.replace(/\s+/g, " ").trim();
}
"""

# The search's results and suggestion: only the theme's elements, no handler.
_SEARCH_FOUND = r"""
() => {
  const allowed = ["div", "ol", "ul", "li", "a", "article", "h1", "h2", "p", "mark",
                   "code", "pre", "sub", "sup", "del", "details", "summary", "span"];
  const found = [];
  for (const el of document.querySelectorAll(".md-search-result *, .md-search__suggest *")) {
    if (!allowed.includes(el.tagName.toLowerCase())) found.push(el.tagName);
    for (const attr of el.attributes)
      if (attr.name.toLowerCase().startsWith("on")) found.push(`${el.tagName} ${attr.name}`);
  }
  const suggested = document.querySelector(".md-search__suggest").textContent;
  if (/&(lt|gt|amp|#\d+);/.test(suggested)) found.push(`suggestion ${suggested}`);
  return found;
}
"""

# Words typed into the search box: each in the hostile texts.
_SEARCHED = ("rbPwn", "onerror", "script", "svg", "img", "iframe", "onload")


def _site(root: Path, *, hostile: bool) -> Path:
    if not (ROOT / "docsite" / "node_modules" / "katex").is_dir():
        missing("KaTeX (docsite/package.json, npm ci)")
    return site_of(
        root, build(write_rules(root, hostile=hostile), run_examples=False).files
    )


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the hostile rules, built by rulesc and ``mkdocs build --strict``."""
    return _site(tmp_path_factory.mktemp("hostile-site"), hostile=True)


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the same rules in plain words."""
    return _site(tmp_path_factory.mktemp("plain-site"), hostile=False)


@pytest.fixture(scope="module")
def base_url(hostile_site: Path) -> Iterator[str]:
    """The hostile site, served on 127.0.0.1 (the browser fixture's host)."""
    with served(hostile_site) as url:
        yield url


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


# Attributes whose values are made from the rules' text, as data: ids and the
# links to them (slugs of headings), a form's JSON, a cell's column title
# (docsite/cards.py).
_TEXT_VALUED = ("id", "data-form", "data-label")


def _shape(page: Parsed) -> list[tuple[str, dict[str, str]]]:
    return [
        (
            e.tag,
            {
                k: "" if k in _TEXT_VALUED or (k == "href" and v.startswith("#")) else v
                for k, v in e.attrs.items()
            },
        )
        for e in page.elements
    ]


def test_pages_and_index_have_the_plain_sites_elements(
    hostile_site: Path, plain_site: Path
) -> None:
    pages = _pages(hostile_site)
    assert pages == _pages(plain_site) and len(pages) >= 40
    for path in pages:
        got = Parsed((hostile_site / path).read_text(encoding="utf-8"))
        want = Parsed((plain_site / path).read_text(encoding="utf-8"))
        assert _shape(got) == _shape(want), path
        assert got.comments == want.comments, path
    index = "search/search_index.json"
    got_docs = json.loads((hostile_site / index).read_text(encoding="utf-8"))["docs"]
    want_docs = json.loads((plain_site / index).read_text(encoding="utf-8"))["docs"]
    assert len(got_docs) == len(want_docs) > 40
    for got_doc, want_doc in zip(got_docs, want_docs, strict=True):
        for field in ("title", "text"):
            got = Parsed(got_doc[field])
            assert _shape(got) == _shape(Parsed(want_doc[field])), got_doc["location"]
            assert all(not e.attrs for e in got.elements), got_doc["location"]
    # read from the folder (file://), the index is the same, as a script
    script = (hostile_site / INDEX_SCRIPT).read_text(encoding="utf-8")
    assert script == index_script((hostile_site / index).read_text(encoding="utf-8"))


def _dismiss(dialogs: list[str], dialog: Dialog) -> None:
    dialogs.append(dialog.message)
    dialog.dismiss()


def _open(browser: BrowserContext, url: str, dialogs: list[str]) -> Watched:
    watched = Watched(browser)
    watched.page.on("dialog", functools.partial(_dismiss, dialogs))
    watched.open(url).wait_for_selector("html[data-rb-ready]", state="attached")
    return watched


def _forms(page: Page) -> int:
    holders = page.locator(".rulebook-try")
    for i in range(holders.count()):
        holders.nth(i).evaluate(
            "h => new Promise(r => { const w = () => h.hasAttribute('data-rb-ready')"
            " ? r() : setTimeout(w, 20); w(); })"
        )
    return holders.count()


def _nothing_ran(watched: Watched, dialogs: list[str], url: str) -> None:
    found: list[str] = watched.page.evaluate(_FOUND)
    called: list[Any] = watched.page.evaluate("window.__rbPwned")
    assert (found, called, dialogs) == ([], [], []), url
    assert watched.problems == [], url


def test_nothing_the_rules_wrote_runs(
    hostile_site: Path, base_url: str, browser: BrowserContext
) -> None:
    browser.add_init_script(_TRAP)
    pages = _pages(hostile_site)
    shown: list[str] = []
    dialogs: list[str] = []
    forms = 0
    for path in pages:
        url = base_url + path.removesuffix("index.html")
        watched = _open(browser, url, dialogs)
        page = watched.page
        forms += _forms(page)
        # focus, hover and click whatever could carry a handler
        page.keyboard.press("Tab")
        _nothing_ran(watched, dialogs, url)
        heading = page.evaluate(_HEADING)
        if path not in ("index.html", "404.html"):
            assert page.title() == f"{heading} - {SITE_NAME}", url
        shown.append(page.evaluate("document.body.textContent"))
        page.close()
    assert forms >= 10
    everything = " ".join("\n".join(shown).split())
    for text in (*HOSTILE, *TITLE_HOSTILE, *_LABELS):
        assert one_line(text) in everything, f"{text!r} is not shown as text"


def test_the_search_shows_text(base_url: str, browser: BrowserContext) -> None:
    browser.add_init_script(_TRAP)
    dialogs: list[str] = []
    watched = _open(browser, base_url, dialogs)
    page = watched.page
    page.wait_for_load_state("networkidle")  # the search index is loaded
    box = page.locator("input.md-search__input")
    box.click()
    for word in _SEARCHED:
        box.fill("")
        page.keyboard.type(word)
        page.locator(".md-search-result__item").first.wait_for(state="visible")
        assert page.evaluate(_SEARCH_FOUND) == [], word
    assert page.evaluate("window.__rbPwned") == []
    # a result opened: the words searched for are highlighted in its page
    page.locator(".md-search-result__item a").first.click()
    page.wait_for_url(lambda url: "?h=" in url)
    page.wait_for_selector("html[data-rb-ready]", state="attached")
    page.wait_for_selector("mark[data-md-highlight]", state="attached")
    _nothing_ran(watched, dialogs, page.url)
    page.close()
