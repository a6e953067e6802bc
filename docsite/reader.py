"""Reader: what of a page a player reads and searches, and what only a programmer does.

Called from the hooks (docsite/hooks.py), after Markdown is rendered:

- a page's "For programmers" section, from its ``<h2 id="for-programmers">`` to
  the end, is wrapped in ``<div class="rb-programmers">``: with the folded
  ``<details class="rb-programmers">`` blocks of the rule pages, every part of a
  page a player need not read has that class (the stylesheet can leave it out
  of print, the reader-text test out of its reading);
- each of those parts, and the formulas' TeX sources (``.arithmatex``, which
  the site's script renders as math), carry ``data-search-exclude``, the
  attribute Material's search plugin leaves out of its index: the index holds
  the players' words only;
- the runtime contract (a page for programmers only) is left out of the search
  index by its front matter's ``search: exclude`` as Material reads it.
"""

from __future__ import annotations

import re

from mkdocs.structure.pages import Page

PROGRAMMERS = "rb-programmers"
# The page rulesc writes listing the runtime's public names (compiler/emit/
# markdown/files.py's CONTRACT_PAGE, relative to the docs folder).
CONTRACT = "contract.md"
# The heading of a page's section for programmers, as Python-Markdown's toc writes it.
_HEADING = re.compile(r'<h2\b[^>]*\bid="for-programmers"[^>]*>')
# The start tag of an element of one of these classes (the rendered math's TeX
# source, or a part for programmers), not yet kept out of the search index.
_UNSEARCHED = re.compile(
    r'<(?P<tag>[a-z][a-z0-9]*)\b(?P<attrs>[^>]*\bclass="(?:[^"]*\s)?'
    rf'(?:{PROGRAMMERS}|arithmatex)(?:\s[^"]*)?"[^>]*)>'
)


def reader_html(content: str) -> str:
    """A page's HTML with its parts for programmers marked (see the docstring)."""
    heading = _HEADING.search(content)
    if heading is not None:
        content = (
            f"{content[: heading.start()]}"
            f'<div class="{PROGRAMMERS}">\n'
            f"{content[heading.start() :]}\n</div>\n"
        )

    def unsearched(match: re.Match[str]) -> str:
        attrs = match.group("attrs")
        if "data-search-exclude" in attrs:
            return match.group(0)
        return f"<{match.group('tag')}{attrs} data-search-exclude>"

    content = _UNSEARCHED.sub(unsearched, content)
    if heading is not None:
        # The section's heading too: Material's index makes a section of each
        # heading, and leaves out one whose heading has the attribute.
        content = _HEADING.sub(
            lambda m: f"{m.group(0)[:-1]} data-search-exclude>", content, count=1
        )
    return content


def reader_page(content: str, page: Page) -> str:
    """A page's HTML as ``reader_html`` marks it; the runtime contract is left
    out of the search index (its front matter, as Material's search reads it)."""
    if page.file.src_uri == CONTRACT:
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return reader_html(content)
