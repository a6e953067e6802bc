"""Titles: MkDocs hooks making every text the theme prints about a page text.

The theme prints titles in many places besides the page: the ``<title>`` of the
head, the header, the navigation (sidebar, tabs, breadcrumbs, the previous and
next links), the table of contents and the search index. MkDocs and its plugins
hand it each title as HTML of a different kind: a heading's text with its
character references (``&lt;``), a navigation entry's Markdown as mkdocs-literate-
nav read it (its backslash escapes left as Python-Markdown's placeholders), the
table of contents' names; and Material's ``<title>`` reads them with
``striptags``, which turns ``&lt;/title&gt;`` back into markup. So a rule titled
``</title><script>...`` ran script in the head of its page, and the navigation
showed ``&#123;`` and stray control characters for ``{`` and ``*``.

These hooks make each of them one thing before any page is rendered: the text
a reader sees (tags dropped, references read, placeholders put back), escaped
once, as ``markupsafe.Markup`` (so the theme's ``| e`` leaves it as it is):

- the navigation's titles (``on_nav``), each page's title and its table of
  contents (``on_page_content``), the site's name, and the page's front matter
  the theme prints (title, description, author, subtitle);
- the search index (``on_post_build``): each entry's title and text are text,
  escaped, with no tag but the bare ones Material's indexer keeps (``<code>``,
  ``<p>``, lists...), which its search shows as HTML;
- the ``<title>`` itself is written by ``docsite/theme/main.html`` from that
  text, escaped again after ``striptags`` (mkdocs.yml's ``custom_dir``).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

# Python-Markdown's placeholder for a backslash-escaped character (``\*`` is
# STX "42" ETX), which mkdocs-literate-nav leaves in a section's title.
_ESCAPED = re.compile("\x02([0-9]+)\x03")
# Any other of its placeholders (stashed HTML): nothing a reader should see.
_PLACEHOLDER = re.compile("\x02[^\x03]*\x03")
# The tags Material's search indexer keeps, bare, in an entry's title and text.
INDEX_TAGS = frozenset(("p", "code", "pre", "li", "ol", "ul", "sub", "sup"))
# Front matter the theme prints as HTML.
_PRINTED_META = ("title", "description", "author", "subtitle")
INDEX = "search/search_index.json"


class _Text(HTMLParser):
    """An HTML fragment's text, and its kept tags (bare) where it has them."""

    def __init__(self, kept: frozenset[str] = frozenset()) -> None:
        super().__init__(convert_charrefs=True)
        self.kept = kept
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(html.escape(data, quote=False))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.kept:
            self.parts.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.kept:
            self.parts.append(f"</{tag}>")


def _parsed(fragment: str, kept: frozenset[str] = frozenset()) -> str:
    fragment = _ESCAPED.sub(lambda m: chr(int(m.group(1))), fragment)
    parser = _Text(kept)
    parser.feed(_PLACEHOLDER.sub("", fragment))
    parser.close()
    return "".join(parser.parts)


def text_of(fragment: str) -> str:
    """What a reader sees of an HTML fragment: its text on one line, tags
    dropped, character references and Python-Markdown's escapes read."""
    return " ".join(html.unescape(_parsed(fragment)).split())


def escaped(fragment: str) -> Markup:
    """An HTML fragment as its text, escaped once: what the theme may print."""
    return Markup(html.escape(text_of(fragment)))


def index_html(fragment: str) -> str:
    """A search index entry's title or text: its text escaped, with no tag but
    the bare ones Material's indexer keeps."""
    return _parsed(fragment, INDEX_TAGS)


def _nav_items(items: Iterable[Any]) -> Iterable[Any]:
    for item in items:
        yield item
        yield from _nav_items(getattr(item, "children", None) or ())


def _toc_items(items: Iterable[AnchorLink]) -> Iterable[AnchorLink]:
    for item in items:
        yield item
        yield from _toc_items(item.children)


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.site_name = escape(config.site_name)  # text, as mkdocs.yml writes it
    return config


@event_priority(-300)  # after every other hook and plugin has made the navigation
def on_nav(nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
    for item in _nav_items(nav.items):
        if item.title is not None:
            item.title = escaped(item.title)
    return nav


def on_page_content(
    html_text: str, *, page: Page, config: MkDocsConfig, files: Files
) -> str:
    """Before any page is rendered: its title (from the navigation, or its first
    heading) and its table of contents, escaped text."""
    if page.title is not None:
        page.title = escaped(page.title)
    for item in _toc_items(page.toc):
        item.title = escaped(item.title)
    for key in _PRINTED_META:
        value = page.meta.get(key)
        if isinstance(value, str):  # front matter is text (escape keeps Markup)
            page.meta[key] = escape(value)
    return html_text


@event_priority(-300)  # after the search plugin has written its index
def on_post_build(*, config: MkDocsConfig) -> None:
    path = Path(config.site_dir) / INDEX
    if not path.is_file():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["docs"]:
        for field in ("title", "text"):
            entry[field] = index_html(str(entry.get(field, "")))
    path.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
