"""The site's Markdown, in Python: Python-Markdown with the extensions and settings
of mkdocs.yml (attribute lists, arithmatex, superfences, tables, admonitions, the
table of contents with permalinks), and the parsed HTML it makes.

It is mkdocs.yml read by MkDocs (``load_config``). The sink tests render rules
text through it and compare what comes out with
what went in: the text in the HTML's text nodes, and the elements and attributes
(which must be the templates', never the rules').
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from typing import Any

import markdown  # type: ignore[import-untyped]
from mkdocs.config import load_config

from .conftest import ROOT


@cache
def _extensions() -> tuple[list[str], dict[str, Any]]:
    config = load_config(str(ROOT / "mkdocs.yml"))
    return list(config.markdown_extensions), dict(config.mdx_configs)


def to_html(text: str) -> str:
    """``text`` (Markdown) as the site's Markdown makes it HTML."""
    names, settings = _extensions()
    made: str = markdown.Markdown(extensions=names, extension_configs=settings).convert(
        text
    )
    return made


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)

    def texts(self) -> str:
        return "".join(self.text)


class Parsed(HTMLParser):
    """Every element of a piece of HTML (in document order, with its own text and
    that of its descendants), and the text outside any element."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.comments: list[str] = []
        self.text: list[str] = []  # every text node, in order
        self._open: list[Element] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in ("br", "hr", "img", "input", "meta", "link"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                return

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for element in self._open:
            element.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def skeleton(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each element's tag and attribute names, in order: the shape of the page
        without its text."""
        return [(e.tag, tuple(sorted(e.attrs))) for e in self.elements]
