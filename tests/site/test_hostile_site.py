"""A site built from rules full of hostile text, in a real browser: nothing the
rules wrote runs.

The rules of tests/hostile_rules.py (hostile text in every prose field of a copy
of rules/, and hostile labels, cells, units and titles) are built by rulesc and
then by ``mkdocs build --strict`` with the project's mkdocs.yml and hooks, once
for this module. Every page is opened in chromium, its formulas rendered and its
"try it" forms made, with ``rbPwn`` (which every script in the hostile texts
calls) recording any call; then no call was made, no dialog opened, no console
error or uncaught exception happened, and no element has an event handler
attribute, a ``javascript:`` link, or is a script, frame or object the rules
wrote. The hostile texts are in the pages, as text.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rulesc.pipeline import build

from ..conftest import ROOT
from ..hostile_rules import _LABELS, HOSTILE, write_rules
from ..test_sinks import one_line
from .browser import Watched
from .conftest import missing, served, site_of

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Dialog

# Before any script of the page: what a hostile text's script would call.
_TRAP = "window.__rbPwned = []; window.rbPwn = (n) => window.__rbPwned.push(n);"

# In the page: whatever the rules could have made run, or could make run on a
# click, a hover or a focus.
_FOUND = r"""
() => {
  const found = [];
  const site = location.origin + "/";
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\u0000-\u001f]/g, "").toLowerCase();
      if (name.startsWith("on")) found.push(`${el.tagName} ${name}=${attr.value}`);
      if (["href", "src", "action", "formaction", "data", "xlink:href"].includes(name)
          && value.startsWith("javascript:")) found.push(`${el.tagName} ${name}=${attr.value}`);
    }
    const tag = el.tagName.toLowerCase();
    if (["iframe", "frame", "object", "embed", "form", "button", "style", "base", "meta", "link"]
        .includes(tag) && el.closest("article") && !el.closest(".katex, .rulebook-try")) found.push(tag);
    if (tag === "script" && (el.textContent.includes("rbPwn")
        || (el.src && !el.src.startsWith(site)))) found.push(`script ${el.src}`);
  }
  return found;
}
"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the hostile rules, built by rulesc and ``mkdocs build --strict``."""
    if not (ROOT / "docsite" / "node_modules" / "katex").is_dir():
        missing("KaTeX (docsite/package.json, npm ci)")
    root = tmp_path_factory.mktemp("hostile-site")
    return site_of(root, build(write_rules(root), run_examples=False).files)


@pytest.fixture(scope="module")
def base_url(hostile_site: Path) -> Iterator[str]:
    """The hostile site, served on 127.0.0.1 (the browser fixture's host)."""
    with served(hostile_site) as url:
        yield url


def _dismiss(dialogs: list[str], dialog: Dialog) -> None:
    dialogs.append(dialog.message)
    dialog.dismiss()


def test_nothing_the_rules_wrote_runs(
    hostile_site: Path, base_url: str, browser: BrowserContext
) -> None:
    browser.add_init_script(_TRAP)
    pages = sorted(
        p.relative_to(hostile_site).as_posix()
        for p in hostile_site.rglob("*.html")
        if "rules/" not in p.relative_to(hostile_site).as_posix()
    )
    assert len(pages) >= 40
    shown: list[str] = []
    dialogs: list[str] = []
    forms = 0
    for path in pages:
        url = base_url + path.removesuffix("index.html")
        watched = Watched(browser)
        watched.page.on("dialog", functools.partial(_dismiss, dialogs))
        page = watched.open(url)
        page.wait_for_selector("html[data-rb-ready]", state="attached")
        holders = page.locator(".rulebook-try")
        for i in range(holders.count()):
            holders.nth(i).evaluate(
                "h => new Promise(r => { const w = () => h.hasAttribute('data-rb-ready')"
                " ? r() : setTimeout(w, 20); w(); })"
            )
            forms += 1
        # focus, hover and click whatever could carry a handler
        page.keyboard.press("Tab")
        found: list[str] = page.evaluate(_FOUND)
        called: list[Any] = page.evaluate("window.__rbPwned")
        assert (found, called, dialogs) == ([], [], []), url
        assert watched.problems == [], url
        shown.append(page.evaluate("document.body.textContent"))
        page.close()
    assert forms >= 10
    everything = " ".join("\n".join(shown).split())
    for text in (*HOSTILE, *_LABELS):
        assert one_line(text) in everything, f"{text!r} is not shown as text"
